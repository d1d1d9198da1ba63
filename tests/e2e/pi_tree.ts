// A test extension for pi: `/tree-to-first-prompt` goes back to before the session's first prompt in
// the session tree, as choosing that message in pi's /tree does, so the next prompt starts a branch
// beside the first one (in the same session).
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.registerCommand("tree-to-first-prompt", {
		description: "Go back to before the first prompt",
		handler: async (_args: string, ctx: any) => {
			const first = ctx.sessionManager.getEntries().find((e: any) => e.type === "message" && e.message?.role === "user");
			const r = first ? await ctx.navigateTree(first.id, { summarize: false }) : { cancelled: true };
			ctx.ui.notify(`tree: ${r.cancelled ? "not moved" : "moved"}, ${ctx.sessionManager.getEntries().length} entries`, "info");
		},
	});
}
