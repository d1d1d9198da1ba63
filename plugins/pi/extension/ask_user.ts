/**
 * askhost for pi: the ask_user tool (the ask_user spec: several questions, options optional,
 * multi-select, free text, metadata) and the /questions command.
 *
 *   pi -e /path/to/askhost/plugins/pi/extension/ask_user.ts
 *
 * Under askhost (`askhost -- pi ...`) the questions go to askhost over the socket named in
 * $ASKHOST_SOCKET (the editor protocol's ask/submit, docs/protocol.md): the editor, the terminal
 * dialog or any attached client shows them. Without askhost they are asked with pi's own dialogs.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Type } from "@mariozechner/pi-ai";
import { execFile } from "node:child_process";
import * as net from "node:net";

const OptionSchema = Type.Object({
	label: Type.String({ description: "Display text" }),
	description: Type.Optional(Type.String({ description: "Help text shown below the label" })),
});

const QuestionSchema = Type.Object({
	question: Type.String({ description: "The question to ask" }),
	header: Type.Optional(Type.String({ description: "Optional short header/title for context" })),
	options: Type.Optional(Type.Array(OptionSchema, { description: "Suggested options (omit for free text)" })),
	multiSelect: Type.Optional(Type.Boolean({ description: "Allow multiple selections" })),
});

const AskUserParams = Type.Object({
	questions: Type.Array(QuestionSchema, { description: "One or more questions to ask the user", minItems: 1 }),
	metadata: Type.Optional(
		Type.Object({}, { additionalProperties: true, description: "Optional metadata for tracking (e.g., { source: 'setup-wizard' })" }),
	),
});

const DESCRIPTION = `Ask the user one or more questions. Use when you need:
- Clarification on requirements or preferences
- User decisions between multiple valid approaches
- Confirmation before significant changes
- Input that cannot be inferred from context

Each question can have suggested options with descriptions.
Users can always select "Other" to provide a custom answer.
In non-interactive mode, creates a pending questions file for async response.

Guidelines:
- Put recommended option first with "(Recommended)" in the label
- Batch related questions together (avoid multiple rounds)
- Limit to 3-5 questions per call to avoid user fatigue
- Don't ask what can be inferred from context or previous messages
- Don't re-ask questions already answered in this session`;

type Question = { question: string; header?: string; options?: { label: string; description?: string }[]; multiSelect?: boolean };
type Answer = { question: string; answer: string | string[]; selectedOption?: string; wasCustom: boolean };
type Result = {
	answered: boolean;
	answers?: Answer[];
	cancelled?: boolean;
	timedOut?: boolean;
	connectionLost?: boolean;
	pendingFile?: string;
	text?: string;
	error?: { code: string; message: string; path: string };
};

/** One ask/submit round trip with the askhost at `path` (JSON-RPC, Content-Length frames). */
function askHost(path: string, params: object, signal?: AbortSignal): Promise<Result> {
	return new Promise((resolve) => {
		const sock = net.createConnection(path);
		let buf = Buffer.alloc(0);
		let done = false;
		const finish = (r: Result) => {
			if (done) return;
			done = true;
			sock.end();
			resolve(r);
		};
		const send = (msg: object) => {
			const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...msg }), "utf8");
			sock.write(`Content-Length: ${body.length}\r\n\r\n`);
			sock.write(body);
		};
		sock.on("connect", () => {
			send({ id: 1, method: "initialize", params: { clientInfo: { name: "askhost pi extension" }, capabilities: { ask: false } } });
			send({ method: "initialized", params: {} });
			send({ id: 2, method: "ask/submit", params: { ...params, profile: "lenient", agent: "pi" } });
		});
		sock.on("data", (chunk: Buffer) => {
			buf = Buffer.concat([buf, chunk]);
			for (;;) {
				const end = buf.indexOf("\r\n\r\n");
				if (end < 0) return;
				const m = /content-length:\s*(\d+)/i.exec(buf.subarray(0, end).toString("latin1"));
				const len = m ? Number(m[1]) : 0;
				if (buf.length < end + 4 + len) return;
				const msg = JSON.parse(buf.subarray(end + 4, end + 4 + len).toString("utf8"));
				buf = buf.subarray(end + 4 + len);
				if (msg.id === 2 && !msg.method) finish(msg.error ? { answered: false, connectionLost: true } : msg.result);
			}
		});
		sock.on("error", () => finish({ answered: false, connectionLost: true }));
		sock.on("close", () => finish({ answered: false, connectionLost: true }));
		signal?.addEventListener("abort", () => {
			if (!done) send({ method: "$/cancelRequest", params: { id: 2 } });
			finish({ answered: false, answers: [], cancelled: true });
		});
	});
}

/** No askhost: pi's own dialogs, one question after another ("Other" always offered). */
async function askInPi(ctx: any, questions: Question[]): Promise<Result> {
	const OTHER = "Other (type your answer)";
	const answers: Answer[] = [];
	for (const q of questions) {
		const title = q.header ? `${q.header}: ${q.question}` : q.question;
		const labels = (q.options ?? []).map((o) => o.label);
		if (labels.length === 0) {
			const text = await ctx.ui.input(title, "");
			if (text === undefined || text === "") return { answered: false, answers: [], cancelled: true };
			answers.push({ question: q.question, answer: text, wasCustom: true });
			continue;
		}
		const pick = await ctx.ui.select(title, [...labels, OTHER]);
		if (pick === undefined) return { answered: false, answers: [], cancelled: true };
		if (pick === OTHER) {
			const text = await ctx.ui.input(q.question, "");
			if (text === undefined || text === "") return { answered: false, answers: [], cancelled: true };
			answers.push({ question: q.question, answer: q.multiSelect ? [text] : text, wasCustom: true });
		} else {
			answers.push({ question: q.question, answer: q.multiSelect ? [pick] : pick, selectedOption: pick, wasCustom: false });
		}
	}
	const show = (a: Answer) => `"${a.question}"="${Array.isArray(a.answer) ? a.answer.join(", ") : a.answer}"`;
	return {
		answered: true,
		answers,
		text: `User has answered your questions: ${answers.map(show).join(", ")}. You can now continue with the user's answers in mind.`,
	};
}

function askhostBin(): string {
	return process.env.ASKHOST_BIN || "askhost";
}

export default function (pi: ExtensionAPI) {
	pi.registerTool({
		name: "ask_user",
		label: "Ask User",
		description: DESCRIPTION,
		parameters: AskUserParams,
		async execute(_toolCallId: string, params: any, signal: AbortSignal | undefined, _onUpdate: unknown, ctx: any) {
			const socket = process.env.ASKHOST_SOCKET;
			let result: Result;
			let mode: string;
			if (socket) {
				result = await askHost(socket, { questions: params.questions, ...(params.metadata ? { metadata: params.metadata } : {}) }, signal);
				mode = "askhost";
			} else if (ctx?.hasUI) {
				result = await askInPi(ctx, params.questions);
				mode = "interactive";
			} else {
				result = {
					answered: false,
					error: { code: "no_user", message: "Nobody can be asked: run pi under askhost (askhost -- pi ...)", path: "" },
				};
				mode = "none";
			}
			const text = result.text ?? (result.error ? result.error.message : JSON.stringify(result));
			return {
				content: [{ type: "text", text }],
				details: { ...result, questions: params.questions, metadata: params.metadata, answeredAt: Date.now(), mode },
			};
		},
	});

	pi.registerCommand("questions", {
		description: "Show or clear the pending questions (askhost questions [show|clear])",
		handler: async (args: string, ctx: any) => {
			const sub = (args ?? "").trim() === "clear" ? "clear" : "show";
			execFile(askhostBin(), ["questions", sub], (err, stdout, stderr) => {
				const out = (stdout || stderr || (err ? String(err) : "")).trim() || "No pending questions.";
				ctx.ui.notify(out, err ? "error" : "info");
			});
		},
	});
}
