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
//
// OpenCode's permission prompts go the same way (`askhost opencode permission`, replied through
// OpenCode's own API, OpenCode's prompt beside it), and at a compaction the session's questions
// and answers are added to the compaction's prompt (`askhost opencode summary`).
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

interface PermissionAsked {
	id: string;
	sessionID: string;
	permission: string;
	patterns?: string[];
	always?: string[];
	metadata?: Record<string, unknown>;
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

// What askhost prints for one permission prompt (askhost opencode permission): OpenCode's reply,
// or nothing (OpenCode's own prompt decides).
interface PermissionReply {
	reply: "once" | "always" | "reject";
	message?: string;
}

// A `question` tool call of the session, as askhost opencode summary reads it.
interface QuestionCall {
	questions: unknown[];
	status: string;
	answers?: unknown;
}

interface PluginContext {
	directory: string;
	client: {
		_client: {
			post(options: { url: string; path: Record<string, string>; body?: unknown }): Promise<unknown>;
			get(options: { url: string; path: Record<string, string> }): Promise<{ data?: unknown }>;
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

function isPermissionAsked(p: unknown): p is PermissionAsked {
	const q = p as PermissionAsked | undefined;
	return typeof q?.id === "string" && typeof q.sessionID === "string" && typeof q.permission === "string";
}

function parsePermissionReply(out: string): PermissionReply | undefined {
	try {
		const r = JSON.parse(out.trim()) as PermissionReply;
		if (r.reply !== "once" && r.reply !== "always" && r.reply !== "reject") return undefined;
		return typeof r.message === "string" && r.message ? { reply: r.reply, message: r.message } : { reply: r.reply };
	} catch {
		return undefined; // nothing, or not askhost's reply: OpenCode's own prompt decides
	}
}

// A part of one of OpenCode's messages: a tool call with its state.
interface ToolPart {
	type?: string;
	tool?: string;
	state?: { status?: string; input?: { questions?: unknown }; metadata?: { answers?: unknown } };
}

// The session's `question` tool calls, in the order asked, from OpenCode's own messages.
function questionCalls(messages: unknown): QuestionCall[] {
	const calls: QuestionCall[] = [];
	if (!Array.isArray(messages)) return calls;
	for (const m of messages as { parts?: unknown }[]) {
		if (!Array.isArray(m?.parts)) continue;
		for (const part of m.parts as ToolPart[]) {
			if (part?.type !== "tool" || part.tool !== "question" || !part.state) continue;
			const questions = part.state.input?.questions;
			if (!Array.isArray(questions)) continue;
			calls.push({ questions, status: String(part.state.status), answers: part.state.metadata?.answers });
		}
	}
	return calls;
}

// Runs askhost with `input` on its stdin and gives what it printed; "" when it cannot run or takes
// longer than `ms`.
function runAskhost(args: string[], input: string, ms: number): Promise<string> {
	return new Promise((resolve) => {
		let out = "";
		let child: ChildProcess;
		try {
			child = spawn(ASKHOST, args, { stdio: ["pipe", "pipe", "ignore"] });
		} catch {
			return resolve("");
		}
		const timer = setTimeout(() => {
			child.kill("SIGTERM");
			resolve("");
		}, ms);
		child.stdout?.setEncoding("utf8").on("data", (d: string) => (out += d));
		child.on("error", () => {
			clearTimeout(timer);
			resolve("");
		});
		child.stdin?.on("error", () => {});
		child.on("close", () => {
			clearTimeout(timer);
			resolve(out);
		});
		child.stdin?.end(input);
	});
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

	// One run of askhost for one of OpenCode's requests (a question or a permission prompt), in the
	// background; `done` gets what it printed unless the request was settled in OpenCode first.
	const start = (id: string, args: string[], input: unknown, done: (out: string) => void) => {
		if (asking.has(id)) return;
		const entry: Asking = { over: false };
		asking.set(id, entry);
		let child: ChildProcess;
		try {
			child = spawn(ASKHOST, args, { stdio: ["pipe", "pipe", "pipe"] });
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
			done(out);
		});
		child.stdin?.end(JSON.stringify(input));
	};

	const ask = (request: QuestionAsked) =>
		start(
			request.id,
			["opencode", "ask"],
			{ id: request.id, sessionID: request.sessionID, directory: ctx.directory, questions: request.questions },
			(out) => {
				const reply = parseReply(out);
				if (reply?.answers) void post(request.id, "reply", { answers: reply.answers });
				else if (reply?.reject) void post(request.id, "reject");
			},
		);

	const askPermission = (request: PermissionAsked) =>
		start(
			request.id,
			["opencode", "permission"],
			{
				id: request.id,
				sessionID: request.sessionID,
				directory: ctx.directory,
				permission: request.permission,
				patterns: request.patterns ?? [],
				always: request.always ?? [],
				metadata: request.metadata ?? {},
			},
			(out) => {
				const reply = parsePermissionReply(out);
				if (!reply) return;
				void ctx.client._client
					.post({ url: "/permission/{requestID}/reply", path: { requestID: request.id }, body: reply })
					.catch(() => {}); // answered already (the first answer won)
			},
		);

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
				case "permission.asked":
					if (isPermissionAsked(event.properties)) askPermission(event.properties);
					break;
				case "question.replied":
				case "question.rejected":
				case "permission.replied":
					settled(event.properties?.requestID);
					break;
			}
		},
		// What the person decided when asked, kept through OpenCode's compaction: the session's
		// question calls, however they were answered, in askhost history --summary's words.
		"experimental.session.compacting": async (input: { sessionID: string }, output: { context: string[] }) => {
			try {
				const got = await ctx.client._client.get({ url: "/session/{id}/message", path: { id: input.sessionID } });
				const calls = questionCalls(got?.data);
				if (calls.length === 0) return;
				const words = (await runAskhost(["opencode", "summary"], JSON.stringify({ calls }), 10000)).trim();
				if (words) output.context.push(words);
			} catch {
				// OpenCode compacts as it would without askhost
			}
		},
	};
};
