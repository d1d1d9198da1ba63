// askhost's OpenCode plugin's own unit tests (plugins/opencode/plugin/askhost.ts), run by the Bun
// that OpenCode's binary carries, as OpenCode runs the plugin:
//
//   BUN_BE_BUN=1 opencode opencode_plugin_unit.ts PLUGIN CASE
//
// The plugin is loaded from a copy whose askhost is a stand-in script (FAKE_MODE says what it
// does), with a stand-in of the context OpenCode hands its plugins. Exits 0 when the case passes;
// prints what differed otherwise.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const [pluginFile, caseName] = process.argv.slice(2);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "askhost-opencode-unit-"));
process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
// Ended by a signal (meson's timeout sends SIGTERM), exit instead: the folder still goes.
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(sig, () => process.exit(128 + os.constants.signals[sig]));

function fail(msg: string): never {
	console.error("FAIL: " + msg);
	process.exit(1);
}
function equal(got: unknown, want: unknown, what: string) {
	const g = JSON.stringify(got);
	const w = JSON.stringify(want);
	if (g !== w) fail(`${what}: got ${g}, want ${w}`);
}
async function until(ok: () => boolean, what: string, ms = 20000) {
	const end = Date.now() + ms;
	while (!ok()) {
		if (Date.now() > end) fail("waited in vain for " + what);
		await new Promise((r) => setTimeout(r, 20));
	}
}
const exists = (name: string) => fs.existsSync(path.join(dir, name));
const read = (name: string) => fs.readFileSync(path.join(dir, name), "utf8");

// The stand-in askhost: records its arguments and stdin, then does what $FAKE_MODE says.
const fake = path.join(dir, "askhost");
fs.writeFileSync(
	fake,
	`#!/bin/sh
D='${dir}'
echo "$@" >> "$D/runs"
cat > "$D/stdin.json"
case "$FAKE_MODE" in
  answer) echo '{"answers":[["SQLite"],["Auth","REST API"]]}' ;;
  reject) echo '{"reject":true}' ;;
  garbage) echo 'not json' ;;
  permit) echo '{"reply":"always"}' ;;
  refuse) echo '{"reply":"reject","message":"not on main"}' ;;
  summary) echo 'Keep in the summary: User was asked "Which database should we use?" and chose SQLite.' ;;
  nothing) ;;
  wait) trap 'touch "$D/terminated"; exit 0' TERM; touch "$D/started"; while :; do sleep 0.05; done ;;
esac
echo "askhost opencode: a note" >&2
`,
	{ mode: 0o755 },
);

async function load(askhost = fake) {
	const source = fs.readFileSync(pluginFile, "utf8");
	const line = 'const ASKHOST: string = "askhost";';
	if (!source.includes(line)) fail("the plugin has no line naming askhost: " + line);
	const copy = path.join(dir, `askhost-${Math.random().toString(36).slice(2)}.ts`);
	fs.writeFileSync(copy, source.replace(line, `const ASKHOST: string = ${JSON.stringify(askhost)};`));
	const mod = await import(copy);
	// OpenCode calls every export of a plugin file as a plugin: there must be the one.
	equal(Object.keys(mod), ["AskhostPlugin"], "the plugin's exports");
	const posts: { url: string; path: Record<string, string>; body?: unknown }[] = [];
	const gets: { url: string; path: Record<string, string> }[] = [];
	const ctx = {
		directory: "/the/project",
		client: {
			_client: {
				post: async (o: (typeof posts)[number]) => (posts.push(o), { data: true }),
				get: async (o: (typeof gets)[number]) => (gets.push(o), { data: MESSAGES }),
			},
		},
	};
	const hooks = await mod.AskhostPlugin(ctx);
	return { posts, gets, hooks };
}

const QUESTIONS = [
	{
		question: "Which database should we use?",
		header: "Database",
		options: [
			{ label: "PostgreSQL", description: "Battle-tested" },
			{ label: "SQLite", description: "File-based" },
		],
	},
	{
		question: "Which features should we include?",
		header: "Features",
		multiple: true,
		options: [
			{ label: "Auth", description: "OAuth2" },
			{ label: "REST API", description: "OpenAPI" },
		],
	},
];
// OpenCode 1.18's messages of a session: a question call answered, one still running, another tool.
const MESSAGES = [
	{ info: { id: "msg_0", role: "user" }, parts: [{ type: "text", text: "Set up the project." }] },
	{
		info: { id: "msg_1", role: "assistant" },
		parts: [
			{ type: "tool", tool: "question", state: { status: "completed", input: { questions: QUESTIONS }, output: "User has answered your questions: ...", metadata: { answers: [["SQLite"], ["Auth"]] } } },
			{ type: "tool", tool: "bash", state: { status: "completed", input: { command: "ls" }, output: "" } },
			{ type: "tool", tool: "question", state: { status: "running", input: { questions: [QUESTIONS[0]] } } },
		],
	},
];
const permissionAsked = (id = "per_1") => ({
	event: {
		type: "permission.asked",
		properties: { id, sessionID: "ses_1", permission: "bash", patterns: ["git push"], always: ["git push *"], metadata: { command: "git push" }, tool: { messageID: "msg_1", callID: "call_2" } },
	},
});
const asked = (id = "que_1") => ({
	event: { type: "question.asked", properties: { id, sessionID: "ses_1", questions: QUESTIONS, tool: { messageID: "msg_1", callID: "call_1" } } },
});
const replied = (id = "que_1") => ({
	event: { type: "question.replied", properties: { sessionID: "ses_1", requestID: id, answers: [["PostgreSQL"], []] } },
});
const runs = () => (exists("runs") ? read("runs").trim().split("\n").length : 0);

// The run of askhost has ended when it wrote its stdin and the plugin heard it close.
async function askhostEnded(posts: unknown[], want: number) {
	await until(() => exists("stdin.json") && posts.length >= want, "askhost's run");
	await new Promise((r) => setTimeout(r, 300)); // nothing more comes
}

const cases: Record<string, () => Promise<void>> = {
	async a_permission_goes_to_opencodes_permission_reply() {
		process.env.FAKE_MODE = "permit";
		const { posts, hooks } = await load();
		await hooks.event(permissionAsked());
		await askhostEnded(posts, 1);
		equal(read("runs").trim(), "opencode permission", "askhost's arguments");
		equal(
			JSON.parse(read("stdin.json")),
			{ id: "per_1", sessionID: "ses_1", directory: "/the/project", permission: "bash", patterns: ["git push"], always: ["git push *"], metadata: { command: "git push" } },
			"the prompt on askhost's stdin",
		);
		equal(posts, [{ url: "/permission/{requestID}/reply", path: { requestID: "per_1" }, body: { reply: "always" } }], "OpenCode's reply");
		process.env.FAKE_MODE = "refuse";
		fs.rmSync(path.join(dir, "stdin.json"));
		await hooks.event(permissionAsked("per_2"));
		await askhostEnded(posts, 2);
		equal(posts[1], { url: "/permission/{requestID}/reply", path: { requestID: "per_2" }, body: { reply: "reject", message: "not on main" } }, "a refusal in the person's words");
	},
	async a_permission_answered_in_opencode_ends_askhosts_copy() {
		process.env.FAKE_MODE = "wait";
		const { posts, hooks } = await load();
		await hooks.event(permissionAsked());
		await until(() => exists("started"), "askhost asking");
		await hooks.event({ event: { type: "permission.replied", properties: { sessionID: "ses_1", requestID: "per_1", reply: "once" } } });
		await until(() => exists("terminated"), "askhost told to withdraw (SIGTERM)");
		await new Promise((r) => setTimeout(r, 300));
		equal(posts, [], "nothing sent to OpenCode");
	},
	async a_permission_askhost_leaves_is_opencodes_alone() {
		for (const mode of ["nothing", "garbage", "answer"]) {
			process.env.FAKE_MODE = mode;
			fs.rmSync(path.join(dir, "stdin.json"), { force: true });
			const { posts, hooks } = await load();
			await hooks.event(permissionAsked("per_" + mode));
			await askhostEnded(posts, 0);
			equal(posts, [], `nothing sent to OpenCode (${mode})`);
		}
	},
	async the_compaction_gets_the_sessions_answers() {
		process.env.FAKE_MODE = "summary";
		const { gets, hooks } = await load();
		const output = { context: ["theirs"] as string[] };
		await hooks["experimental.session.compacting"]({ sessionID: "ses_1" }, output);
		equal(gets, [{ url: "/session/{id}/message", path: { id: "ses_1" } }], "the session's messages read");
		equal(read("runs").trim(), "opencode summary", "askhost's arguments");
		equal(
			JSON.parse(read("stdin.json")),
			{ calls: [{ questions: QUESTIONS, status: "completed", answers: [["SQLite"], ["Auth"]] }, { questions: [QUESTIONS[0]], status: "running" }] },
			"the question calls on askhost's stdin",
		);
		equal(output.context, ["theirs", 'Keep in the summary: User was asked "Which database should we use?" and chose SQLite.'], "the words added");
		process.env.FAKE_MODE = "nothing";
		const quiet = { context: [] as string[] };
		await hooks["experimental.session.compacting"]({ sessionID: "ses_1" }, quiet);
		equal(quiet.context, [], "nothing printed: nothing added");
		const none = await load(path.join(dir, "no-such-askhost"));
		await none.hooks["experimental.session.compacting"]({ sessionID: "ses_1" }, quiet);
		equal(quiet.context, [], "no askhost: nothing added, no failure");
	},
	async answers_go_to_opencodes_reply() {
		process.env.FAKE_MODE = "answer";
		const { posts, hooks } = await load();
		await hooks.event(asked());
		await askhostEnded(posts, 1);
		equal(read("runs").trim(), "opencode ask", "askhost's arguments");
		equal(JSON.parse(read("stdin.json")), { id: "que_1", sessionID: "ses_1", directory: "/the/project", questions: QUESTIONS }, "the question on askhost's stdin");
		equal(posts, [{ url: "/question/{requestID}/reply", path: { requestID: "que_1" }, body: { answers: [["SQLite"], ["Auth", "REST API"]] } }], "OpenCode's reply");
		await hooks.event(replied()); // OpenCode's word that it took the reply: nothing more
		equal(posts.length, 1, "one reply");
	},
	async a_decline_is_opencodes_reject() {
		process.env.FAKE_MODE = "reject";
		const { posts, hooks } = await load();
		await hooks.event(asked());
		await askhostEnded(posts, 1);
		equal(posts, [{ url: "/question/{requestID}/reject", path: { requestID: "que_1" }, body: undefined }], "OpenCode's reject");
	},
	async nothing_printed_leaves_opencodes_dialog() {
		for (const mode of ["nothing", "garbage"]) {
			process.env.FAKE_MODE = mode;
			fs.rmSync(path.join(dir, "stdin.json"), { force: true });
			const { posts, hooks } = await load();
			await hooks.event(asked("que_" + mode));
			await askhostEnded(posts, 0);
			equal(posts, [], `nothing sent to OpenCode (${mode})`);
		}
	},
	async answered_in_opencode_ends_askhosts_copy() {
		process.env.FAKE_MODE = "wait";
		const { posts, hooks } = await load();
		await hooks.event(asked());
		await until(() => exists("started"), "askhost asking");
		await hooks.event(replied());
		await until(() => exists("terminated"), "askhost told to withdraw (SIGTERM)");
		await new Promise((r) => setTimeout(r, 300));
		equal(posts, [], "nothing sent to OpenCode");
	},
	async dismissed_in_opencode_ends_askhosts_copy() {
		process.env.FAKE_MODE = "wait";
		const { posts, hooks } = await load();
		await hooks.event(asked());
		await until(() => exists("started"), "askhost asking");
		await hooks.event({ event: { type: "question.rejected", properties: { sessionID: "ses_1", requestID: "que_1" } } });
		await until(() => exists("terminated"), "askhost told to withdraw (SIGTERM)");
		equal(posts, [], "nothing sent to OpenCode");
	},
	async one_ask_for_two_copies_of_the_plugin() {
		process.env.FAKE_MODE = "answer";
		const a = await load();
		const b = await load();
		await a.hooks.event(asked());
		await b.hooks.event(asked());
		await askhostEnded(a.posts, 1);
		equal(runs(), 1, "askhost runs once");
		equal(a.posts.length + b.posts.length, 1, "one reply");
	},
	async other_events_and_no_askhost_are_harmless() {
		process.env.FAKE_MODE = "answer";
		const { posts, hooks } = await load(path.join(dir, "no-such-askhost"));
		await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_1" } } });
		await hooks.event({ event: { type: "question.asked", properties: { id: 7 } } });
		await hooks.event(replied("que_unknown"));
		await hooks.event(asked());
		await new Promise((r) => setTimeout(r, 500));
		equal(posts, [], "nothing sent to OpenCode");
		equal(runs(), 0, "the stand-in never ran");
	},
};

const run = cases[caseName];
if (!run) fail("no case " + caseName + "; cases: " + Object.keys(cases).join(" "));
await run();
process.exit(0);
