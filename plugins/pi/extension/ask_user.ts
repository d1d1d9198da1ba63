/**
 * askhost for pi: the ask_user tool (the ask_user spec: several questions, options optional,
 * multi-select, free text, metadata) and the /questions command.
 *
 *   pi -e /path/to/askhost/plugins/pi/extension/ask_user.ts
 *
 * Under askhost (`askhost -- pi ...`) the questions go to askhost over the socket named in
 * $ASKHOST_SOCKET (the editor protocol's ask/submit, docs/protocol.md): the editor, the terminal
 * dialog or any attached client shows them. Without askhost they are asked with pi's own dialogs;
 * in pi's print mode (`pi -p`, no dialogs) they go to the pending-questions file, through
 * `askhost --print` when askhost is installed, else written here in the same format (docs/files.md).
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { compact } from "@mariozechner/pi-coding-agent";
import { Type } from "@mariozechner/pi-ai";
import { Text } from "@mariozechner/pi-tui";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";

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
/** What the extension hands askhost: the questions and the ask's other fields, as given. */
type Ask = { questions: Question[]; metadata?: object; answers?: object; annotations?: object };
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

/** The ask's own fields, as askhost's lenient profile knows them. */
const TOP_LEVEL = ["questions", "metadata", "answers", "annotations"];

/** A refusal in askhost's words (the lenient profile's), its path first. */
function refusal(at: string, why: string): Result {
	return { answered: false, error: { code: "invalid_schema", message: `${at}: ${why}`, path: at } };
}

function unknownKey(obj: object, at: string, known: string[]): Result | undefined {
	const key = Object.keys(obj).find((k) => !known.includes(k));
	return key === undefined ? undefined : refusal(at ? `${at}.${key}` : key, "unknown field");
}

/**
 * The questions as the extension asks them without askhost, read by the lenient profile's rules
 * that change what is asked: Roo Code's `suggestions` are the options, and a field nobody knows is
 * refused by name (askhost refuses it too), so a model's intent is never dropped in silence.
 */
export function readQuestions(params: any): Question[] | Result {
	const top = unknownKey(params, "", TOP_LEVEL);
	if (top) return top;
	for (const key of ["answers", "annotations"]) {
		if (params[key] != null && Object.keys(params[key]).length > 0) {
			return refusal(key, "pre-supplied answers are read by askhost, which is not running or installed here; leave them out");
		}
	}
	const out: Question[] = [];
	for (const [i, q] of (params.questions as any[]).entries()) {
		const at = `questions[${i}]`;
		const bad = unknownKey(q, at, ["question", "header", "options", "multiSelect", "suggestions"]);
		if (bad) return bad;
		for (const [j, o] of (q.options ?? []).entries()) {
			const badOption = unknownKey(o, `${at}.options[${j}]`, ["label", "description", "preview"]);
			if (badOption) return badOption;
		}
		if (q.suggestions == null) {
			out.push(q);
			continue;
		}
		if (q.options != null) return refusal(`${at}.suggestions`, "give options or suggestions, not both");
		if (!Array.isArray(q.suggestions)) return refusal(`${at}.suggestions`, "expected an array of strings");
		const labels: string[] = [];
		for (const [j, label] of q.suggestions.entries()) {
			const where = `${at}.suggestions[${j}]`;
			if (typeof label !== "string") return refusal(where, "expected a string");
			if (label.trim() === "") return refusal(where, "must not be empty");
			if (labels.includes(label)) return refusal(where, `duplicate label "${label}"`);
			labels.push(label);
		}
		const { suggestions: _, ...rest } = q;
		out.push({ ...rest, options: labels.map((label) => ({ label })) });
	}
	return out;
}

const OTHER = "Other (type your answer)";
const SOFT_LIMIT = 2000;

/**
 * Typed text, with the spec's soft limit: over 2000 characters asks first, and No edits it again.
 * Blank text is no answer: the field opens again, as askhost's dialogs keep theirs; Esc leaves.
 */
async function typedText(ctx: any, title: string): Promise<string | undefined> {
	let text = await ctx.ui.input(title, "");
	for (;;) {
		if (text === undefined) return undefined;
		if (text.trim() === "") {
			ctx.ui.notify?.("Type an answer first", "warning");
			text = await ctx.ui.input(title, "");
			continue;
		}
		const chars = [...text].length;
		if (chars <= SOFT_LIMIT) return text;
		const go = await ctx.ui.confirm(`Answer is long (${chars.toLocaleString("en-US")} chars). Continue anyway?`, "");
		if (go) return text;
		text = await ctx.ui.editor(title, text);
	}
}

/** A multi-select as pi's select: each pick ticks or unticks a row, Done submits the ticks. */
async function pickSeveral(ctx: any, q: Question, title: string): Promise<Answer | undefined> {
	const labels = (q.options ?? []).map((o) => o.label);
	const ticked = new Set<string>();
	let typed: string | undefined;
	for (;;) {
		const rows = [...labels.map((l) => `[${ticked.has(l) ? "x" : " "}] ${l}`), typed ? `[x] Other: ${typed}` : `[ ] ${OTHER}`, "Done"];
		const pick = await ctx.ui.select(`${title} (pick to tick, Done to submit)`, rows);
		if (pick === undefined) return undefined;
		const i = rows.indexOf(pick);
		if (i < labels.length) {
			if (ticked.has(labels[i])) ticked.delete(labels[i]);
			else ticked.add(labels[i]);
		} else if (i === labels.length) {
			typed = typed ? undefined : await typedText(ctx, q.question);
		} else if (ticked.size > 0 || typed) {
			const values = labels.filter((l) => ticked.has(l));
			return { question: q.question, answer: typed ? [...values, typed] : values, wasCustom: !!typed };
		}
	}
}

/** One question in pi's dialogs; undefined when the person pressed Esc. */
async function askOneInPi(ctx: any, q: Question): Promise<Answer | undefined> {
	const title = q.header ? `${q.header}: ${q.question}` : q.question;
	const labels = (q.options ?? []).map((o) => o.label);
	if (labels.length === 0) {
		const text = await typedText(ctx, title);
		return text === undefined ? undefined : { question: q.question, answer: text, wasCustom: true };
	}
	if (q.multiSelect) return pickSeveral(ctx, q, title);
	for (;;) {
		const pick = await ctx.ui.select(title, [...labels, OTHER]);
		if (pick === undefined) return undefined;
		if (pick !== OTHER) return { question: q.question, answer: pick, selectedOption: pick, wasCustom: false };
		const text = await typedText(ctx, q.question);
		if (text !== undefined) return { question: q.question, answer: text, wasCustom: true };
	}
}

/**
 * No askhost: pi's own dialogs, one question after another ("Other" always offered). Esc with
 * answers given asks "Discard N answers?" first, as the spec's tabbed dialog does; No asks again.
 */
async function askInPi(ctx: any, questions: Question[]): Promise<Result> {
	const answers: Answer[] = [];
	while (answers.length < questions.length) {
		const a = await askOneInPi(ctx, questions[answers.length]);
		if (a) {
			answers.push(a);
			continue;
		}
		const n = answers.length;
		if (n === 0 || (await ctx.ui.confirm(`Discard ${n} answer${n === 1 ? "" : "s"}?`, ""))) {
			return { answered: false, answers: [], cancelled: true };
		}
	}
	return { answered: true, answers, text: modelText(answers) };
}

function askhostBin(): string {
	return process.env.ASKHOST_BIN || "askhost";
}

/** The askhost to run: $ASKHOST_BIN, else `askhost` on PATH; undefined when there is none. */
export function findAskhost(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const canRun = (p: string) => {
		try {
			fs.accessSync(p, fs.constants.X_OK);
			return fs.statSync(p).isFile();
		} catch {
			return false;
		}
	};
	if (env.ASKHOST_BIN) return canRun(env.ASKHOST_BIN) ? env.ASKHOST_BIN : undefined;
	for (const dir of (env.PATH ?? "").split(path.delimiter)) {
		if (dir && canRun(path.join(dir, "askhost"))) return path.join(dir, "askhost");
	}
	return undefined;
}

// ---- REQ-AUQ-005: a sub-agent may not ask ---------------------------------------------------

export const SUBAGENT_REFUSAL =
	"Only the main conversation can ask the user questions; a sub-agent must decide on its own or report back to its parent.";

// Every pi that loads this extension marks its environment; a pi it starts (pi's subagent
// extension runs `pi --mode json -p` for each sub-agent) inherits the mark.
const PARENT_MARK = "ASKHOST_PI_PARENT_PID";
const inheritedMark = process.env[PARENT_MARK];
process.env[PARENT_MARK] = String(process.pid);

/** Whether a process's command line is pi's (`pi ...`, or node running pi's cli.js). */
export function isPiCommand(argv: string[]): boolean {
	const name = (i: number) => (argv[i] ? path.basename(argv[i]) : "");
	if (name(0) === "pi") return true;
	if (!/^(node|bun)(\.exe)?$/.test(name(0))) return false;
	return name(1) === "pi" || /pi-coding-agent[\\/]dist[\\/]cli\.js$/.test(argv[1] ?? "");
}

/** Why this pi is a sub-agent: started by a pi that loaded this extension, or a pi among its parents. */
export function subagentReason(
	mark: string | undefined = inheritedMark,
	pid: number = process.pid,
	readProc: (file: string) => string = (f) => fs.readFileSync(f, "utf8"),
): string | undefined {
	if (mark && mark !== String(pid)) return `started by pi (pid ${mark})`;
	let at = pid;
	for (let depth = 0; depth < 64; depth++) {
		let stat: string;
		try {
			stat = readProc(`/proc/${at}/stat`);
		} catch {
			return undefined;
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
		const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
		if (!Number.isInteger(ppid) || ppid <= 1) return undefined;
		try {
			const argv = readProc(`/proc/${ppid}/cmdline`).split("\0").filter((a) => a !== "");
			if (isPiCommand(argv)) return `started by pi (pid ${ppid})`;
		} catch {
			return undefined;
		}
		at = ppid;
	}
	return undefined;
}

/** The ask_user spec's modes: pi's TUI, `pi -p` (no dialogs), or `pi --mode rpc` (askhost runs pi so). */
export type Mode = "interactive" | "print" | "rpc";

export function piMode(hasUI: boolean, argv: string[] = process.argv): Mode {
	if (!hasUI) return "print";
	const i = argv.indexOf("--mode");
	return (i >= 0 && argv[i + 1] === "rpc") || argv.includes("--mode=rpc") ? "rpc" : "interactive";
}

// ---- print mode: the pending-questions file ---------------------------------------------------

export const PENDING_FILE = ".askhost/pending-questions.json";

/** A native-protocol agent of one ask: prints the request given as its argument, then the answer it gets. */
const ONE_ASK_AGENT = `
const marker = "ASKHOST_PI_RESULT ";
process.stdout.write(process.argv[1] + "\\n");
let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => {
	buf += d;
	const nl = buf.indexOf("\\n");
	if (nl >= 0) {
		process.stdout.write(marker + buf.slice(0, nl) + "\\n", () => process.exit(0));
	}
});
process.stdin.on("end", () => process.exit(1));
`;

function nodeBin(): string {
	return /^node(\.exe)?$/i.test(path.basename(process.execPath)) ? process.execPath : "node";
}

/**
 * `askhost --print` asks for us: the answers waiting in the pending-questions file when every
 * question has one, else the questions written there and the model told they are pending. One
 * ask, through askhost's native protocol, with a tiny agent that hands the response back.
 */
export function askThroughAskhostPrint(bin: string, cwd: string, params: Ask): Promise<Result> {
	const request = JSON.stringify({ type: "ask_user_request", requestId: "pi-print-1", ...params });
	const env = { ...process.env };
	delete env.ASKHOST_SOCKET;
	return new Promise((resolve) => {
		const child = spawn(bin, ["--print", "--profile", "lenient", "--adapter", "native", "--", nodeBin(), "-e", ONE_ASK_AGENT, request], {
			cwd,
			env,
			stdio: ["ignore", "pipe", "pipe"],
		});
		let out = "";
		let err = "";
		child.stdout.setEncoding("utf8");
		child.stderr.setEncoding("utf8");
		child.stdout.on("data", (d: string) => (out += d));
		child.stderr.on("data", (d: string) => (err += d));
		const fail = (why: string): Result => ({
			answered: false,
			error: { code: "no_user", message: `askhost --print could not ask: ${why}`, path: "" },
		});
		child.on("error", (e) => resolve(fail(e.message)));
		child.on("close", () => {
			const line = out.split("\n").find((l) => l.startsWith("ASKHOST_PI_RESULT "));
			if (!line) return resolve(fail(err.trim() || "no answer"));
			try {
				const r = JSON.parse(line.slice("ASKHOST_PI_RESULT ".length));
				delete r.type;
				delete r.requestId;
				resolve(r as Result);
			} catch {
				resolve(fail("an answer that is not JSON"));
			}
		});
	});
}

type PendingEntry = {
	question: string;
	header?: string;
	options?: string[];
	descriptions?: Record<string, string>;
	multiSelect?: boolean;
	answer: unknown;
	used: boolean;
};

/** `/questions [clear]` with no askhost installed: the file the extension writes, shown or removed. */
export function pendingCommand(cwd: string, sub: "show" | "clear"): string {
	const file = path.join(cwd, PENDING_FILE);
	let entries: PendingEntry[] = [];
	try {
		entries = JSON.parse(fs.readFileSync(file, "utf8")).questions ?? [];
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code !== "ENOENT") return `${PENDING_FILE} is not valid JSON (${(e as Error).message}); fix it or remove it`;
	}
	const open = entries.filter((q) => !q.used);
	if (sub === "clear") {
		if (!fs.existsSync(file)) return "No pending questions.";
		fs.rmSync(file);
		return `Removed ${PENDING_FILE} (${open.length} open question${open.length === 1 ? "" : "s"}).`;
	}
	if (open.length === 0) return "No pending questions.";
	const lines = [`Pending questions in ${PENDING_FILE}`];
	for (const [i, q] of open.entries()) {
		lines.push("", `${i + 1}. ${q.header ? `${q.header}: ` : ""}${q.question}${q.multiSelect ? "  (choose one or more)" : ""}`);
		const options = q.options ?? [];
		options.forEach((o, j) => lines.push(`     ${j + 1}) ${o}${q.descriptions?.[o] ? ` - ${q.descriptions[o]}` : ""}`));
		lines.push(options.length > 0 ? "     or your own text" : "     (your own text)");
		if (q.answer != null) lines.push(`   answer: ${Array.isArray(q.answer) ? q.answer.join(", ") : String(q.answer)}`);
	}
	return lines.join("\n");
}

/** One answer from the file for its question (a label, an option number, own text, a list), or why not. */
export function resolveAnswer(q: Question, value: unknown): Answer | string {
	const labels = (q.options ?? []).map((o) => o.label);
	const one = (v: unknown): { text: string; label?: string } | string => {
		if (typeof v === "number" && Number.isInteger(v) && labels.length > 0) {
			return v >= 1 && v <= labels.length ? { text: labels[v - 1], label: labels[v - 1] } : `option ${v} does not exist (${labels.length} options)`;
		}
		if (typeof v === "number") return { text: String(v) };
		if (typeof v !== "string" || v.trim() === "") return "expected a label, an option number or your own text";
		const t = v.trim();
		const exact = labels.find((l) => l === t) ?? labels.find((l) => l.toLowerCase() === t.toLowerCase());
		return exact ? { text: exact, label: exact } : { text: t };
	};
	const values = Array.isArray(value) ? value : [value];
	if (values.length === 0) return "empty answer";
	if (!q.multiSelect && values.length > 1) return `takes one answer, ${values.length} given`;
	const picked: { text: string; label?: string }[] = [];
	for (const v of values) {
		const r = one(v);
		if (typeof r === "string") return r;
		if (!picked.some((p) => p.text === r.text)) picked.push(r);
	}
	const custom = picked.some((p) => !p.label);
	if (q.multiSelect) return { question: q.question, answer: picked.map((p) => p.text), wasCustom: custom };
	const a: Answer = { question: q.question, answer: picked[0].text, wasCustom: custom };
	if (!custom) a.selectedOption = picked[0].label;
	return a;
}

/**
 * The spec's `--answers` flag: a JSON array, one answer per question in order (as in the pending
 * file). The answers when they fit these questions, else why not.
 */
export function answersFromFlag(text: string, questions: Question[]): Answer[] | string {
	let values: unknown;
	try {
		values = JSON.parse(text);
	} catch (e) {
		return `not JSON (${(e as Error).message})`;
	}
	if (!Array.isArray(values)) return "expected a JSON array, one answer per question";
	if (values.length !== questions.length) return `${values.length} answers for ${questions.length} questions`;
	const answers: Answer[] = [];
	for (const [i, q] of questions.entries()) {
		const a = resolveAnswer(q, values[i]);
		if (typeof a === "string") return `answer ${i + 1}: ${a}`;
		answers.push(a);
	}
	return answers;
}

export function modelText(answers: Answer[]): string {
	const show = (a: Answer) => `"${a.question}"="${Array.isArray(a.answer) ? a.answer.join(", ") : a.answer}"`;
	return `User has answered your questions: ${answers.map(show).join(", ")}. You can now continue with the user's answers in mind.`;
}

export function pendingText(file: string): string {
	return [
		"Questions pending. User input required.",
		"",
		"To answer, re-run with:",
		`  pi -p @${file} "your answers"`,
		"",
		"Or edit the JSON file and run:",
		"  pi -c",
		"",
		`Questions saved to: ${file}`,
	].join("\n");
}

function writeAtomically(file: string, text: string): void {
	const dir = path.dirname(file);
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	if (path.basename(dir) === ".askhost" && !fs.existsSync(path.join(dir, ".gitignore"))) {
		fs.writeFileSync(path.join(dir, ".gitignore"), "# askhost's files: pending questions, long answers\n*\n", { mode: 0o644 });
	}
	const tmp = path.join(dir, `.${path.basename(file)}.tmp-${process.pid}-${Date.now()}`);
	fs.writeFileSync(tmp, text, { mode: 0o600 });
	fs.renameSync(tmp, file);
}

/**
 * No askhost installed: the same file format, kept here. Answers for every question waiting in
 * the file (unused, by question text) are taken and marked used; otherwise the questions are
 * added (used entries dropped, an entry with the same text refreshed and its answer kept).
 */
export function askWithFile(cwd: string, params: { questions: Question[]; metadata?: object }, now = new Date()): Result {
	const file = path.join(cwd, PENDING_FILE);
	let doc: any = undefined;
	if (fs.existsSync(file)) {
		try {
			doc = JSON.parse(fs.readFileSync(file, "utf8"));
		} catch (e) {
			return {
				answered: false,
				error: { code: "no_user", message: `${PENDING_FILE} is not valid JSON (${(e as Error).message}); fix it or remove it`, path: "" },
			};
		}
	}
	if (!doc || typeof doc !== "object" || !Array.isArray(doc.questions)) doc = { questions: [] };
	const entries: PendingEntry[] = doc.questions.filter((e: any) => e && typeof e.question === "string");
	const answers: Answer[] = [];
	for (const q of params.questions) {
		const e = entries.find((x) => x.question === q.question && !x.used && x.answer !== null && x.answer !== undefined);
		const a = e ? resolveAnswer(q, e.answer) : "no answer";
		if (typeof a === "string") break;
		answers.push(a);
	}
	const stamp = now.toISOString().replace(/\.\d+Z$/, "Z");
	if (answers.length === params.questions.length) {
		for (const q of params.questions) {
			const e = entries.find((x) => x.question === q.question && !x.used);
			if (e) e.used = true;
		}
		doc.questions = entries;
		doc.timestamp = stamp;
		writeAtomically(file, JSON.stringify(doc, null, 2) + "\n");
		return { answered: true, answers, text: modelText(answers) };
	}
	const kept = entries.filter((e) => !e.used);
	for (const q of params.questions) {
		const entry: PendingEntry = kept.find((x) => x.question === q.question) ?? { question: q.question, answer: null, used: false };
		if (!kept.includes(entry)) kept.push(entry);
		if (q.header) entry.header = q.header;
		if (q.options && q.options.length > 0) {
			entry.options = q.options.map((o) => o.label);
			const d = Object.fromEntries(q.options.filter((o) => o.description).map((o) => [o.label, o.description as string]));
			if (Object.keys(d).length > 0) entry.descriptions = d;
			entry.multiSelect = !!q.multiSelect;
		}
	}
	const out = {
		version: 1,
		sessionId: typeof doc.sessionId === "string" ? doc.sessionId : `pi-${stamp.replace(/[-:]/g, "").replace("T", "-").replace("Z", "")}`,
		timestamp: stamp,
		agent: "pi",
		howToAnswer:
			'Set each "answer": an option label or number, your own text, or for multiSelect a list; then run pi again (pi -c). Or: pi -p @' +
			PENDING_FILE +
			' "your answers".',
		questions: kept,
		...(params.metadata ? { metadata: params.metadata } : {}),
	};
	writeAtomically(file, JSON.stringify(out, null, 2) + "\n");
	return { answered: false, pendingFile: PENDING_FILE, text: pendingText(PENDING_FILE) };
}

// ---- compaction: what the person decided survives it ----------------------------------------

type Exchange = { questions: Question[]; details: any };

/** The ask_user results on a session branch (pi's entries: messages with role "toolResult"). */
export function askUserExchanges(entries: any[]): Exchange[] {
	const out: Exchange[] = [];
	for (const e of entries ?? []) {
		const m = e?.type === "message" ? e.message : undefined;
		if (m?.role !== "toolResult" || m.toolName !== "ask_user" || !m.details) continue;
		out.push({ questions: m.details.questions ?? [], details: m.details });
	}
	return out;
}

const andList = (items: string[]) =>
	items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
const quoted = (qs: Question[]) => andList(qs.map((q) => `"${q.question}"`));

/**
 * One sentence per question, as `askhost history --summary` says them (the ask_user spec's example;
 * both replay askhost's tests/summary/vectors.json). A question still waiting is said so once.
 */
export function summaryProse(exchanges: Exchange[]): string {
	const sentences: string[] = [];
	const waitingSaid = new Set<string>();
	exchanges.forEach((x, i) => {
		const d = x.details;
		if (d.answered) {
			for (const a of (d.answers ?? []) as Answer[]) {
				const q = x.questions.find((qq) => qq.question === a.question);
				const labels = (q?.options ?? []).map((o) => o.label);
				const values = Array.isArray(a.answer) ? a.answer : [a.answer];
				let custom = false;
				const parts = values.map((v) => {
					if (labels.includes(v)) return v.replace(/ \(Recommended\)$/, "");
					custom = true;
					return `'${v}'`;
				});
				sentences.push(`User was asked "${a.question}" and ${custom && parts.length === 1 ? "answered" : "chose"} ${andList(parts)}.`);
			}
		} else if (d.cancelled) {
			sentences.push(`User was asked ${quoted(x.questions)} and declined to answer.`);
		} else if (d.timedOut) {
			sentences.push(`User did not answer ${quoted(x.questions)} in time.`);
		} else if (d.pendingFile) {
			const later = exchanges.slice(i + 1).flatMap((y) => (y.details.answered ? (y.details.answers ?? []).map((a: Answer) => a.question) : []));
			const waiting = x.questions.filter((q) => !later.includes(q.question) && !waitingSaid.has(q.question));
			for (const q of waiting) waitingSaid.add(q.question);
			if (waiting.length > 0)
				sentences.push(`${quoted(waiting)} ${waiting.length === 1 ? "is" : "are"} still waiting for the user's answer (in ${d.pendingFile}).`);
		}
	});
	return sentences.join(" ");
}

export const KEEP_INSTRUCTIONS =
	"Keep in the summary what the user decided when asked, as it stands here (these are the user's own answers; later work should follow them): ";

/**
 * pi's compaction, with the session's questions and answers in its instructions and, word for
 * word, at the end of the summary. undefined: pi's own compaction (nothing was asked, or no model).
 */
export async function compactKeepingAnswers(event: any, ctx: any, run = compact): Promise<any> {
	const prose = summaryProse(askUserExchanges(event?.branchEntries));
	if (!prose || !ctx?.model || !event?.preparation) return undefined;
	const auth = await ctx.modelRegistry?.getApiKeyAndHeaders?.(ctx.model);
	if (!auth?.ok) return undefined;
	const instructions = [event.customInstructions, KEEP_INSTRUCTIONS + prose].filter(Boolean).join("\n\n");
	const result = await run(event.preparation, ctx.model, auth.apiKey, auth.headers, instructions, event.signal);
	return {
		compaction: {
			...result,
			summary: `${result.summary}\n\n## Questions the user answered\n\n${prose}`,
			details: { ...(result.details ?? {}), askUser: prose },
		},
	};
}

// ---- how the call and its result look in pi's TUI ----------------------------------------------

type Theme = { fg(color: string, text: string): string; bold(text: string): string };

export function callLine(args: { questions?: Question[] }, theme: Theme): string {
	const qs = args?.questions ?? [];
	let line = theme.fg("toolTitle", theme.bold("ask_user "));
	if (qs.length === 1) line += theme.fg("muted", qs[0].header ? `${qs[0].header}: ${qs[0].question}` : qs[0].question);
	else if (qs.length > 1) line += theme.fg("muted", `${qs.length} questions: ${qs.map((q) => q.header || q.question).join(", ")}`);
	return line;
}

export function resultLines(details: any, expanded: boolean, theme: Theme): string {
	if (!details) return theme.fg("dim", "(no result)");
	if (details.error) return theme.fg("error", `✗ ${details.error.message}`);
	if (details.cancelled) return theme.fg("warning", "✗ Cancelled");
	if (details.timedOut) return theme.fg("warning", "✗ No answer in time");
	if (details.connectionLost) return theme.fg("warning", "✗ Nobody left to answer");
	if (details.pendingFile) return theme.fg("warning", `⏳ Questions pending in ${details.pendingFile}`);
	const answers: Answer[] = details.answers ?? [];
	const lines = answers.map((a) => {
		const value = Array.isArray(a.answer) ? a.answer.join(", ") : a.answer;
		const shown = theme.fg("success", "✓ ") + theme.fg("muted", `${a.question} `) + theme.fg("accent", value);
		return a.wasCustom ? shown + theme.fg("dim", " (typed)") : shown;
	});
	if (!expanded && lines.length > 3) return [...lines.slice(0, 3), theme.fg("dim", `… ${lines.length - 3} more`)].join("\n");
	return lines.join("\n");
}

export default function (pi: ExtensionAPI) {
	pi.registerFlag?.("answers", {
		description: "Answer the next ask_user questions: a JSON array in question order (labels, option numbers, your own text, a list for multi-select)",
		type: "string",
	});
	let answersFlagUsed = false;
	pi.registerTool({
		name: "ask_user",
		label: "Ask User",
		description: DESCRIPTION,
		parameters: AskUserParams,
		async execute(_toolCallId: string, params: any, signal: AbortSignal | undefined, _onUpdate: unknown, ctx: any) {
			const socket = process.env.ASKHOST_SOCKET;
			const mode = piMode(!!ctx?.hasUI);
			const ask: Ask = { questions: params.questions };
			for (const key of ["metadata", "answers", "annotations"] as const) if (params[key] != null) ask[key] = params[key];
			let result: Result;
			let via: string;
			const subagent = subagentReason();
			if (subagent) throw new Error(SUBAGENT_REFUSAL);
			const unknown = unknownKey(params, "", TOP_LEVEL);
			const flag = answersFlagUsed ? undefined : pi.getFlag?.("answers");
			const fromFlag = typeof flag === "string" && flag !== "" ? answersFromFlag(flag, params.questions) : undefined;
			if (fromFlag !== undefined) answersFlagUsed = true;
			if (typeof fromFlag === "string") process.stderr.write(`ask_user: --answers does not fit these questions (${fromFlag}); asking instead\n`);
			if (unknown) {
				result = unknown;
				via = socket ? "askhost" : "pi";
			} else if (Array.isArray(fromFlag)) {
				result = { answered: true, answers: fromFlag, text: modelText(fromFlag) };
				via = "--answers";
			} else if (socket) {
				result = await askHost(socket, ask, signal);
				via = "askhost";
			} else if (mode !== "print") {
				const questions = readQuestions(params);
				result = Array.isArray(questions) ? await askInPi(ctx, questions) : questions;
				via = "pi";
			} else {
				const cwd = ctx?.cwd ?? process.cwd();
				const bin = findAskhost();
				const questions = bin ? params.questions : readQuestions(params);
				if (!Array.isArray(questions)) result = questions;
				else result = bin ? await askThroughAskhostPrint(bin, cwd, ask) : askWithFile(cwd, { ...ask, questions });
				via = bin ? "askhost --print" : "pending file";
			}
			const text = result.text ?? (result.error ? result.error.message : JSON.stringify(result));
			return {
				content: [{ type: "text", text }],
				details: { ...result, questions: params.questions, metadata: params.metadata, answeredAt: Date.now(), mode, via },
			};
		},
		renderCall(args: any, theme: any, context: any) {
			const t = (context?.lastComponent as Text | undefined) ?? new Text("", 0, 0);
			t.setText(callLine(args, theme));
			return t;
		},
		renderResult(result: any, options: any, theme: any, _context: any) {
			if (options?.isPartial) return new Text(theme.fg("warning", "Waiting for the user's answer…"), 0, 0);
			return new Text(resultLines(result?.details, !!options?.expanded, theme), 0, 0);
		},
	});

	// The spec's compaction rule: the Q&A reach the summary as structured text.
	pi.on("session_before_compact", async (event: any, ctx: any) => {
		try {
			return await compactKeepingAnswers(event, ctx);
		} catch (e) {
			ctx?.ui?.notify?.(`ask_user: compaction without the answers kept (${(e as Error).message})`, "warning");
			return undefined;
		}
	});

	pi.registerCommand("questions", {
		description: "Show or clear the pending questions (askhost questions [show|clear])",
		handler: async (args: string, ctx: any) => {
			const sub = (args ?? "").trim() === "clear" ? "clear" : "show";
			if (!findAskhost()) {
				ctx.ui.notify(pendingCommand(ctx?.cwd ?? process.cwd(), sub), "info");
				return;
			}
			execFile(askhostBin(), ["questions", sub], (err, stdout, stderr) => {
				const out = (stdout || stderr || (err ? String(err) : "")).trim() || "No pending questions.";
				ctx.ui.notify(out, err ? "error" : "info");
			});
		},
	});
}
