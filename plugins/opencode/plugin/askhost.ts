// askhost's OpenCode plugin: written by `askhost opencode install`, taken out by `askhost opencode
// install --remove` (docs/opencode.md in askhost's source).
//
// OpenCode's own `question` tool, asked where askhost shows questions as well: on each question
// OpenCode asks, askhost (`askhost opencode ask`) is started in the background with the question
// on its stdin. It asks in the askhost whose workspace holds OpenCode's folder (an editor, the tmux
// popup, the web page) and prints the answer, which goes to OpenCode through its own API: the model
// reads OpenCode's normal result. OpenCode's own dialog stays usable beside it, and the first answer
// wins: one given in OpenCode ends askhost's copy everywhere at once. Where askhost has nowhere to
// show a question it prints nothing, and OpenCode's dialog is the only one.
import { spawn, type ChildProcess } from "node:child_process";

const ASKHOST: string = "askhost";

interface OpencodeQuestion {
	question: string;
	header?: string;
	options?: { label: string; description?: string }[];
	multiple?: boolean;
	custom?: boolean;
}

interface QuestionAsked {
	id: string;
	sessionID: string;
	questions: OpencodeQuestion[];
}

interface Asking {
	child?: ChildProcess;
	over: boolean; // answered here or in OpenCode: askhost's answer, if one comes, is not sent
}

// What askhost prints for one question (askhost opencode ask): OpenCode's reply, a reject, or
// nothing (OpenCode's own dialog decides).
interface AskhostReply {
	answers?: string[][];
	reject?: boolean;
}

interface PluginContext {
	directory: string;
	client: {
		_client: {
			post(options: { url: string; path: Record<string, string>; body?: unknown }): Promise<unknown>;
		};
	};
}

interface BusEvent {
	type: string;
	properties?: Record<string, unknown>;
}

// The questions being asked, one entry per OpenCode request id, shared by every copy of this plugin
// in one OpenCode process (OpenCode may start a plugin twice; a user-wide and a project install may
// both be there): a question is asked once.
const KEY = Symbol.for("askhost.opencode.asking");
const store = globalThis as unknown as Record<symbol, Map<string, Asking> | undefined>;
const asking: Map<string, Asking> = (store[KEY] ??= new Map());

function isQuestionAsked(p: unknown): p is QuestionAsked {
	const q = p as QuestionAsked | undefined;
	return typeof q?.id === "string" && typeof q.sessionID === "string" && Array.isArray(q.questions);
}

function parseReply(out: string): AskhostReply | undefined {
	const line = out.trim();
	if (!line) return undefined;
	try {
		const r = JSON.parse(line) as AskhostReply;
		if (Array.isArray(r.answers) && r.answers.every((a) => Array.isArray(a) && a.every((v) => typeof v === "string")))
			return { answers: r.answers };
		if (r.reject === true) return { reject: true };
	} catch {
		// not askhost's reply: OpenCode's own dialog decides
	}
	return undefined;
}

export const AskhostPlugin = async (ctx: PluginContext) => {
	// OpenCode's own routes, through the client it hands its plugins (it has no `question` helper).
	const post = async (requestID: string, action: "reply" | "reject", body?: unknown) => {
		try {
			await ctx.client._client.post({ url: `/question/{requestID}/${action}`, path: { requestID }, body });
		} catch {
			// answered already (the first answer won): nothing to do
		}
	};

	const ask = (request: QuestionAsked) => {
		if (asking.has(request.id)) return;
		const entry: Asking = { over: false };
		asking.set(request.id, entry);
		let child: ChildProcess;
		try {
			child = spawn(ASKHOST, ["opencode", "ask"], { stdio: ["pipe", "pipe", "pipe"] });
		} catch {
			return; // no askhost: OpenCode's own dialog
		}
		entry.child = child;
		let out = "";
		child.stdout?.setEncoding("utf8").on("data", (d: string) => (out += d));
		child.stderr?.resume(); // askhost's notes stay off OpenCode's screen
		child.on("error", () => {}); // no askhost at that path: OpenCode's own dialog
		child.stdin?.on("error", () => {});
		child.on("close", () => {
			entry.child = undefined;
			if (entry.over) return;
			entry.over = true;
			const reply = parseReply(out);
			if (reply?.answers) void post(request.id, "reply", { answers: reply.answers });
			else if (reply?.reject) void post(request.id, "reject");
		});
		child.stdin?.end(
			JSON.stringify({
				id: request.id,
				sessionID: request.sessionID,
				directory: ctx.directory,
				questions: request.questions,
			}),
		);
	};

	// Answered (or dismissed) in OpenCode, or by askhost's own reply: askhost's copy is withdrawn.
	const settled = (requestID: unknown) => {
		if (typeof requestID !== "string") return;
		const entry = asking.get(requestID);
		if (!entry) return;
		asking.delete(requestID);
		if (entry.over) return;
		entry.over = true;
		entry.child?.kill("SIGTERM");
	};

	return {
		event: async ({ event }: { event: BusEvent }) => {
			switch (event.type) {
				case "question.asked":
					if (isQuestionAsked(event.properties)) ask(event.properties);
					break;
				case "question.replied":
				case "question.rejected":
					settled(event.properties?.requestID);
					break;
			}
		},
	};
};
