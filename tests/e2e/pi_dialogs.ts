// A test extension for pi: the `dialogs` tool opens pi's own extension dialogs (select, input,
// confirm, editor) in RPC mode and returns what they gave, so the test sees askhost's answers.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Type } from "@mariozechner/pi-ai";

export default function (pi: ExtensionAPI) {
	pi.registerTool({
		name: "dialogs",
		label: "Dialogs",
		description: "Opens test dialogs",
		parameters: Type.Object({ kinds: Type.Array(Type.String()) }),
		async execute(_id: string, params: any, _signal: unknown, _update: unknown, ctx: any) {
			const got: Record<string, unknown> = {};
			ctx.ui.notify("dialogs: starting", "info");
			for (const kind of params.kinds) {
				if (kind === "select") got.select = await ctx.ui.select("Pick a color", ["red", "green", "blue"]);
				if (kind === "input") got.input = await ctx.ui.input("Your name?", "type here");
				if (kind === "confirm") got.confirm = await ctx.ui.confirm("Proceed?", "Really do it?");
				if (kind === "editor") got.editor = await ctx.ui.editor("Edit text", "line1\nline2");
				if (kind === "timeout") got.timeout = await ctx.ui.select("Quick!", ["a", "b"], { timeout: 1500 });
			}
			return { content: [{ type: "text", text: "dialogs=" + JSON.stringify(got) }], details: got };
		},
	});
}
