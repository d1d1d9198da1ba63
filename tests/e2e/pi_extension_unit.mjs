// The ask_user pi extension's own unit tests: the extension loaded as pi loads it (jiti, with pi's
// module aliases) into a stand-in of pi's ExtensionAPI, each case run by name:
//
//   node pi_extension_unit.mjs PI_PACKAGE_DIR EXTENSION CASE      (ASKHOST names the askhost binary)
//
// Exits 0 when the case passes; prints what differed otherwise.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [piDir, extension, caseName] = process.argv.slice(2);
const req = createRequire(path.join(piDir, "package.json"));
const { createJiti } = req("jiti");
const resolveIn = (spec) => req.resolve(spec);
const nm = path.resolve(piDir, "..");
const jiti = createJiti(pathToFileURL(extension).href, {
	moduleCache: false,
	alias: {
		"@mariozechner/pi-coding-agent": path.join(piDir, "dist", "index.js"),
		"@mariozechner/pi-tui": path.join(nm, "pi-tui", "dist", "index.js"),
		"@mariozechner/pi-ai": path.join(nm, "pi-ai", "dist", "index.js"),
		typebox: resolveIn("typebox"),
	},
});
const mod = await jiti.import(extension);

function fail(msg) {
	console.error("FAIL: " + msg);
	process.exit(1);
}
function equal(got, want, what) {
	const g = JSON.stringify(got), w = JSON.stringify(want);
	if (g !== w) fail(`${what}: got ${g}, want ${w}`);
}
function check(ok, what) {
	if (!ok) fail(what);
}

/** The extension registered into a stand-in of pi's API: its tools, commands and event handlers. */
function load(flags = {}) {
	const api = { tools: {}, commands: {}, handlers: {}, flags: {} };
	mod.default({
		registerTool: (t) => (api.tools[t.name] = t),
		registerCommand: (n, c) => (api.commands[n] = c),
		registerFlag: (n, f) => (api.flags[n] = f),
		getFlag: (n) => flags[n] ?? api.flags[n]?.default,
		on: (e, h) => (api.handlers[e] ??= []).push(h),
	});
	return api;
}

const plain = { fg: (_c, t) => t, bold: (t) => t };
const DB = {
	question: "Which database should we use?",
	header: "Database",
	options: [{ label: "PostgreSQL (Recommended)", description: "Battle-tested" }, { label: "SQLite" }],
};
const NAME = { question: "What should we name this service?" };
const FEAT = { question: "Which features?", multiSelect: true, options: [{ label: "Auth" }, { label: "REST API" }] };

const temps = [];
function tempDir() {
	const d = fs.mkdtempSync(path.join(os.tmpdir(), "askhost-pi-unit-"));
	temps.push(d);
	return d;
}
process.on("exit", () => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
// Ended by a signal (meson's timeout sends SIGTERM), exit instead: the folders still go.
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(sig, () => process.exit(128 + os.constants.signals[sig]));

function noAskhost() {
	process.env.ASKHOST_BIN = "/nonexistent/askhost";
	delete process.env.ASKHOST_SOCKET;
}

const cases = {
	modes() {
		equal(mod.piMode(false, ["node", "pi", "--mode", "rpc"]), "print", "no UI is print mode");
		equal(mod.piMode(true, ["node", "pi", "--mode", "rpc"]), "rpc", "rpc");
		equal(mod.piMode(true, ["node", "pi", "--mode=rpc"]), "rpc", "rpc (=)");
		equal(mod.piMode(true, ["node", "pi"]), "interactive", "interactive");
		check(mod.findAskhost({ ASKHOST_BIN: "/nonexistent/askhost", PATH: "" }) === undefined, "no askhost");
		equal(mod.findAskhost({ PATH: path.dirname(process.env.ASKHOST) }), path.join(path.dirname(process.env.ASKHOST), "askhost"), "on PATH");
	},

	async print_mode_writes_the_pending_file_itself() {
		noAskhost();
		const cwd = tempDir();
		const tool = load().tools.ask_user;
		const r = await tool.execute("c1", { questions: [DB, NAME, FEAT], metadata: { source: "setup" } }, undefined, undefined, { hasUI: false, cwd });
		equal(r.details.mode, "print", "details.mode");
		equal(r.details.via, "pending file", "details.via");
		equal(r.details.pendingFile, ".askhost/pending-questions.json", "pendingFile");
		check(r.content[0].text.startsWith("Questions pending. User input required.\n\nTo answer, re-run with:\n  pi -p @.askhost/pending-questions.json"), r.content[0].text);
		const file = path.join(cwd, ".askhost", "pending-questions.json");
		equal((fs.statSync(file).mode & 0o777).toString(8), "600", "private file");
		const doc = JSON.parse(fs.readFileSync(file, "utf8"));
		equal([doc.version, doc.agent, doc.metadata], [1, "pi", { source: "setup" }], "file head");
		equal(doc.questions[0], {
			question: DB.question, answer: null, used: false, header: "Database", options: ["PostgreSQL (Recommended)", "SQLite"],
			descriptions: { "PostgreSQL (Recommended)": "Battle-tested" }, multiSelect: false,
		}, "first entry");
		equal(doc.questions[1], { question: NAME.question, answer: null, used: false }, "free text entry");
		check(fs.readFileSync(path.join(cwd, ".askhost", ".gitignore"), "utf8").includes("*"), ".gitignore");

		// Not all answered: still pending, the answer given is kept.
		doc.questions[0].answer = 2;
		fs.writeFileSync(file, JSON.stringify(doc));
		const again = await tool.execute("c2", { questions: [DB, NAME, FEAT] }, undefined, undefined, { hasUI: false, cwd });
		equal(again.details.pendingFile, ".askhost/pending-questions.json", "still pending");
		equal(JSON.parse(fs.readFileSync(file, "utf8")).questions[0].answer, 2, "answer kept");

		// Pass 2: every question answered in the file.
		const d2 = JSON.parse(fs.readFileSync(file, "utf8"));
		d2.questions[1].answer = "order-processor";
		d2.questions[2].answer = ["auth", 2];
		fs.writeFileSync(file, JSON.stringify(d2));
		const done = await tool.execute("c3", { questions: [DB, NAME, FEAT] }, undefined, undefined, { hasUI: false, cwd });
		equal(done.details.answered, true, "answered");
		equal(done.details.answers, [
			{ question: DB.question, answer: "SQLite", wasCustom: false, selectedOption: "SQLite" },
			{ question: NAME.question, answer: "order-processor", wasCustom: true },
			{ question: FEAT.question, answer: ["Auth", "REST API"], wasCustom: false },
		], "answers");
		equal(done.content[0].text,
			`User has answered your questions: "${DB.question}"="SQLite", "${NAME.question}"="order-processor", "${FEAT.question}"="Auth, REST API". You can now continue with the user's answers in mind.`,
			"model text");
		check(JSON.parse(fs.readFileSync(file, "utf8")).questions.every((q) => q.used), "marked used");
	},

	async print_mode_goes_through_askhost_when_installed() {
		process.env.ASKHOST_BIN = process.env.ASKHOST;
		delete process.env.ASKHOST_SOCKET;
		const cwd = tempDir();
		process.env.XDG_STATE_HOME = path.join(cwd, "state");
		const tool = load().tools.ask_user;
		const r = await tool.execute("c1", { questions: [DB, NAME] }, undefined, undefined, { hasUI: false, cwd });
		equal([r.details.mode, r.details.via], ["print", "askhost --print"], "mode and via");
		check(r.content[0].text.startsWith("Questions pending. User input required."), r.content[0].text);
		const doc = JSON.parse(fs.readFileSync(path.join(cwd, ".askhost", "pending-questions.json"), "utf8"));
		equal(doc.questions.map((q) => q.question), [DB.question, NAME.question], "askhost wrote the file");
		const { execFileSync } = await import("node:child_process");
		execFileSync(process.env.ASKHOST, ["answer", "--text", "sqlite, call it svc"], { cwd });
		const done = await tool.execute("c2", { questions: [DB, NAME] }, undefined, undefined, { hasUI: false, cwd });
		equal(done.details.answers, [
			{ question: DB.question, answer: "SQLite", selectedOption: "SQLite", wasCustom: false },
			{ question: NAME.question, answer: "call it svc", wasCustom: true },
		], "answers from the file");
	},

	async subagent_marks() {
		check(mod.isPiCommand(["pi", "--mode", "json"]), "pi by name (its process title)");
		check(mod.isPiCommand(["node", "/x/node_modules/.bin/pi", "-p"]), "node running pi's bin");
		check(mod.isPiCommand(["/usr/bin/node", "/x/@mariozechner/pi-coding-agent/dist/cli.js"]), "node running cli.js");
		check(!mod.isPiCommand(["node", "/x/server.js"]), "another node program");
		check(!mod.isPiCommand(["/usr/bin/askhost", "--", "pi"]), "askhost running pi");
		// The mark a parent pi leaves in the environment.
		equal(mod.subagentReason("41", 42, () => { throw new Error("no /proc"); }), "started by pi (pid 41)", "marked");
		equal(mod.subagentReason("42", 42, () => { throw new Error("no /proc"); }), undefined, "its own mark");
		// The process tree: 42 (ask_user's pi) <- 30 (pi) <- 1.
		const procs = {
			"/proc/42/stat": "42 (node) S 30 42 42", "/proc/30/cmdline": "node\0/x/.bin/pi\0--mode\0rpc\0",
			"/proc/30/stat": "30 (a b) c) S 1 30 30",
		};
		const read = (f) => { if (f in procs) return procs[f]; throw new Error("ENOENT"); };
		equal(mod.subagentReason(undefined, 42, read), "started by pi (pid 30)", "a pi parent");
		procs["/proc/30/cmdline"] = "/usr/bin/askhost\0--\0pi\0";
		procs["/proc/1/cmdline"] = "/sbin/init\0";
		equal(mod.subagentReason(undefined, 42, read), undefined, "askhost is no pi");
	},

	// Run with ASKHOST_PI_PARENT_PID set to another pid, as a pi that a pi started.
	async subagent_is_refused() {
		noAskhost();
		const cwd = tempDir();
		let thrown;
		try {
			await load().tools.ask_user.execute("c1", { questions: [NAME] }, undefined, undefined, { hasUI: false, cwd });
		} catch (e) {
			thrown = e;
		}
		check(thrown, "refused");
		equal(thrown.message, mod.SUBAGENT_REFUSAL, "the refusal the model reads");
		check(!fs.existsSync(path.join(cwd, ".askhost")), "nothing written");
	},

	async summary_vectors() {
		// The one rule askhost history --summary keeps too (tests/unit/test_store.cpp replays the same file).
		const file = new URL("../summary/vectors.json", import.meta.url);
		const vectors = JSON.parse(fs.readFileSync(file, "utf8"));
		check(vectors.length > 0, "vectors");
		for (const v of vectors) {
			const entries = v.exchanges.map((x) => ({
				type: "message",
				message: { role: "toolResult", toolName: "ask_user", details: {
					answered: x.outcome === "answered", cancelled: x.outcome === "cancelled", timedOut: x.outcome === "timedOut",
					pendingFile: x.pendingFile, answers: x.answers, questions: x.questions } },
			}));
			equal(mod.summaryProse(mod.askUserExchanges(entries)), v.prose, v.about);
		}
	},

	async compaction_keeps_the_answers() {
		const api = load();
		check(api.handlers.session_before_compact?.length === 1, "a session_before_compact handler");
		const result = (details) => ({ type: "message", message: { role: "toolResult", toolName: "ask_user", details } });
		const entries = [
			{ type: "message", message: { role: "user", content: "Set up the project." } },
			result({ answered: true, questions: [DB, NAME, FEAT], answers: [
				{ question: DB.question, answer: "PostgreSQL (Recommended)", selectedOption: "PostgreSQL (Recommended)", wasCustom: false },
				{ question: NAME.question, answer: "order-processor", wasCustom: true },
				{ question: FEAT.question, answer: ["Auth", "REST API"], wasCustom: false }] }),
			result({ answered: false, cancelled: true, questions: [NAME] }),
			result({ answered: false, pendingFile: ".askhost/pending-questions.json", questions: [FEAT] }),
		];
		const prose = `User was asked "${DB.question}" and chose PostgreSQL. User was asked "${NAME.question}" and answered 'order-processor'. ` +
			`User was asked "${FEAT.question}" and chose Auth and REST API. User was asked "${NAME.question}" and declined to answer. ` +
			`"${FEAT.question}" is still waiting for the user's answer (in .askhost/pending-questions.json).`;
		equal(mod.summaryProse(mod.askUserExchanges(entries)), prose, "the prose");
		let args;
		const run = async (...a) => {
			args = a;
			return { summary: "## Goal\nA service.", firstKeptEntryId: "e9", tokensBefore: 1234, details: { readFiles: ["a.ts"] } };
		};
		const ctx = { model: { id: "m" }, modelRegistry: { getApiKeyAndHeaders: async () => ({ ok: true, apiKey: "k", headers: {} }) } };
		const event = { branchEntries: entries, preparation: { firstKeptEntryId: "e9" }, customInstructions: "Focus on the API.", signal: undefined };
		const out = await mod.compactKeepingAnswers(event, ctx, run);
		equal(args[4], "Focus on the API.\n\n" + mod.KEEP_INSTRUCTIONS + prose, "instructions for the summariser");
		equal(out.compaction.summary, "## Goal\nA service.\n\n## Questions the user answered\n\n" + prose, "summary");
		equal([out.compaction.firstKeptEntryId, out.compaction.tokensBefore, out.compaction.details.readFiles], ["e9", 1234, ["a.ts"]], "pi's own fields");
		equal(await mod.compactKeepingAnswers({ branchEntries: entries.slice(0, 1), preparation: {} }, ctx, run), undefined, "nothing asked: pi's own");
	},

	async pi_dialogs_multi_select_discard_and_long_answer() {
		// Plain pi (no askhost): its own dialogs, one question after another, with the spec's rules:
		// several picks on a multi-select, "Discard N answers?" on Esc, the 2000-character warning.
		noAskhost();
		const tool = load().tools.ask_user;
		const other = "[ ] Other (type your answer)";
		const script = [
			["select", "Database: Which database should we use?", ["PostgreSQL (Recommended)", "SQLite", "Other (type your answer)"], "SQLite"],
			["select", "Which features? (pick to tick, Done to submit)", ["[ ] Auth", "[ ] REST API", other, "Done"], "Done"],
			["select", "Which features? (pick to tick, Done to submit)", ["[ ] Auth", "[ ] REST API", other, "Done"], "[ ] REST API"],
			["select", "Which features? (pick to tick, Done to submit)", ["[ ] Auth", "[x] REST API", other, "Done"], "[ ] Auth"],
			["select", "Which features? (pick to tick, Done to submit)", ["[x] Auth", "[x] REST API", other, "Done"], "[x] REST API"],
			["select", "Which features? (pick to tick, Done to submit)", ["[x] Auth", "[ ] REST API", other, "Done"], other],
			["input", "Which features?", undefined, "GraphQL"],
			["select", "Which features? (pick to tick, Done to submit)", ["[x] Auth", "[ ] REST API", "[x] Other: GraphQL", "Done"], "Done"],
			["input", "What should we name this service?", undefined, undefined],
			["confirm", "Discard 2 answers?", undefined, false],
			["input", "What should we name this service?", undefined, "x".repeat(2500)],
			["confirm", "Answer is long (2,500 chars). Continue anyway?", undefined, false],
			["editor", "What should we name this service?", "x".repeat(2500), "order-processor"],
		];
		const ui = {};
		for (const method of ["select", "input", "confirm", "editor"]) {
			ui[method] = async (title, second) => {
				const step = script.shift();
				check(step, `no more dialogs expected, got ${method} ${title}`);
				equal([method, title], step.slice(0, 2), "the dialog");
				if (method === "select" || method === "editor") equal(second, step[2], `${title}: what it shows`);
				return step[3];
			};
		}
		const ctx = { hasUI: true, cwd: tempDir(), ui };
		const r = await tool.execute("c1", { questions: [DB, FEAT, NAME] }, undefined, undefined, ctx);
		equal(script.length, 0, "every dialog shown");
		equal(r.details.via, "pi", "asked with pi's dialogs");
		equal(r.details.answers, [
			{ question: DB.question, answer: "SQLite", selectedOption: "SQLite", wasCustom: false },
			{ question: FEAT.question, answer: ["Auth", "GraphQL"], wasCustom: true },
			{ question: NAME.question, answer: "order-processor", wasCustom: true },
		], "answers");

		// Esc with one answer given, the discard confirmed: cancelled, nothing kept.
		script.push(
			["select", "Database: Which database should we use?", ["PostgreSQL (Recommended)", "SQLite", "Other (type your answer)"], "SQLite"],
			["input", "What should we name this service?", undefined, undefined],
			["confirm", "Discard 1 answer?", undefined, true],
		);
		const c = await tool.execute("c2", { questions: [DB, NAME] }, undefined, undefined, ctx);
		equal(script.length, 0, "every dialog shown");
		equal([c.details.answered, c.details.cancelled, c.details.answers], [false, true, []], "cancelled");

		// Esc on the first question: cancelled at once, no confirmation.
		script.push(["select", "Database: Which database should we use?", ["PostgreSQL (Recommended)", "SQLite", "Other (type your answer)"], undefined]);
		const e = await tool.execute("c3", { questions: [DB, NAME] }, undefined, undefined, ctx);
		equal([script.length, e.details.cancelled], [0, true], "cancelled at once");
	},

	async without_askhost_suggestions_are_options_and_unknown_fields_refused() {
		// Issue 33, item 1, on the paths where the extension asks by itself: Roo Code's suggestions are
		// offered as the options, and a field the schema does not know is refused by name, never dropped.
		noAskhost();
		const tool = load().tools.ask_user;
		const shown = [];
		const ui = {
			select: async (title, options) => (shown.push([title, options]), "no"),
			input: async () => fail("no input dialog expected"),
			confirm: async () => fail("no confirmation expected"),
		};
		const ctx = { hasUI: true, cwd: tempDir(), ui };
		const yesNo = { question: "Yes or no?", suggestions: ["yes", "no"] };
		const r = await tool.execute("c1", { questions: [yesNo] }, undefined, undefined, ctx);
		equal(shown, [["Yes or no?", ["yes", "no", "Other (type your answer)"]]], "the suggestions are the options");
		equal(r.details.answers, [{ question: "Yes or no?", answer: "no", selectedOption: "no", wasCustom: false }], "answer");

		const refused = async (params, message) => {
			shown.length = 0;
			const x = await tool.execute("c2", params, undefined, undefined, ctx);
			equal([x.details.answered, x.details.error?.code, x.content[0].text], [false, "invalid_schema", message], message);
			equal(shown.length, 0, "nothing shown");
		};
		await refused({ questions: [{ question: "Q?", placeholder: "x" }] }, "questions[0].placeholder: unknown field");
		await refused({ questions: [DB, { question: "Q?", options: [{ label: "a", icon: "x" }] }] }, "questions[1].options[0].icon: unknown field");
		await refused({ questions: [{ ...yesNo, options: [{ label: "a" }] }] }, "questions[0].suggestions: give options or suggestions, not both");
		await refused({ questions: [{ question: "Q?", suggestions: ["yes", 2] }] }, "questions[0].suggestions[1]: expected a string");
		await refused({ questions: [{ question: "Q?", suggestions: ["yes", "yes"] }] }, 'questions[0].suggestions[1]: duplicate label "yes"');
		await refused({ questions: [NAME], timeout: 5 }, "timeout: unknown field");

		// Print mode without askhost: the file offers the suggestions as the options.
		const cwd = tempDir();
		const p = await tool.execute("c3", { questions: [yesNo] }, undefined, undefined, { hasUI: false, cwd });
		equal(p.details.via, "pending file", "pending file");
		const doc = JSON.parse(fs.readFileSync(path.join(cwd, ".askhost", "pending-questions.json"), "utf8"));
		equal(doc.questions[0].options, ["yes", "no"], "the file's options");
	},

	async presets_reach_askhost_and_top_level_fields_are_checked() {
		// Pre-supplied answers are askhost's to honour (the lenient profile's `answers`): through
		// askhost they come back at once; asking by itself the extension refuses them rather than
		// asking as if they were not there. An unknown top-level field is refused on every path.
		const tool = load().tools.ask_user;
		const presets = { questions: [DB, NAME], answers: { [DB.question]: "SQLite", [NAME.question]: "svc" } };
		const ui = { select: async () => fail("no dialog expected"), input: async () => fail("no dialog expected") };

		noAskhost();
		const alone = await tool.execute("c1", presets, undefined, undefined, { hasUI: true, cwd: tempDir(), ui });
		equal([alone.details.answered, alone.details.error?.path], [false, "answers"], "refused without askhost");
		check(alone.content[0].text.startsWith("answers: "), alone.content[0].text);
		const odd = await tool.execute("c2", { questions: [NAME], timeout: 5 }, undefined, undefined, { hasUI: true, cwd: tempDir(), ui });
		equal(odd.content[0].text, "timeout: unknown field", "unknown top-level field");

		process.env.ASKHOST_BIN = process.env.ASKHOST;
		const cwd = tempDir();
		process.env.XDG_STATE_HOME = path.join(cwd, "state");
		const r = await tool.execute("c3", presets, undefined, undefined, { hasUI: false, cwd });
		equal([r.details.via, r.details.answered], ["askhost --print", true], "answered by askhost at once");
		equal(r.content[0].text, `User has answered your questions: "${DB.question}"="SQLite", "${NAME.question}"="svc". You can now continue with the user's answers in mind.`, "model text");
		const again = await tool.execute("c4", { questions: [NAME], timeout: 5 }, undefined, undefined, { hasUI: false, cwd });
		equal(again.content[0].text, "timeout: unknown field", "refused through askhost too");
	},

	async answers_flag_answers_the_next_ask_once() {
		// The spec's option C, `pi -p --answers '[...]'`: the next question set is answered from the
		// flag (labels, option numbers, own text, a list for multi-select), once.
		noAskhost();
		const cwd = tempDir();
		const api = load({ answers: '[2, "order-processor", ["auth", "REST API"]]' });
		equal(api.flags.answers?.type, "string", "pi knows the flag");
		const tool = api.tools.ask_user;
		const r = await tool.execute("c1", { questions: [DB, NAME, FEAT] }, undefined, undefined, { hasUI: false, cwd });
		equal([r.details.via, r.details.answered], ["--answers", true], "answered from the flag");
		equal(r.details.answers, [
			{ question: DB.question, answer: "SQLite", wasCustom: false, selectedOption: "SQLite" },
			{ question: NAME.question, answer: "order-processor", wasCustom: true },
			{ question: FEAT.question, answer: ["Auth", "REST API"], wasCustom: false },
		], "answers");
		const next = await tool.execute("c2", { questions: [NAME] }, undefined, undefined, { hasUI: false, cwd });
		equal(next.details.via, "pending file", "used once: the next ask is asked");

		// Answers that do not fit (too few here) are not guessed at: the questions are asked.
		const misfit = load({ answers: '["SQLite"]' }).tools.ask_user;
		const m = await misfit.execute("c3", { questions: [DB, NAME] }, undefined, undefined, { hasUI: false, cwd: tempDir() });
		equal(m.details.via, "pending file", "asked instead");
	},

	async questions_command_without_askhost() {
		// /questions when askhost is not installed: the file the extension wrote itself is shown and
		// cleared by the extension, not an error about a missing program.
		noAskhost();
		const cwd = tempDir();
		const api = load();
		await api.tools.ask_user.execute("c1", { questions: [DB, NAME] }, undefined, undefined, { hasUI: false, cwd });
		const said = [];
		const ctx = { cwd, ui: { notify: (text, kind) => said.push([kind, text]) } };
		const run = async (args) => {
			said.length = 0;
			await api.commands.questions.handler(args, ctx);
			await new Promise((r) => setTimeout(r, 200));
			check(said.length === 1, `one message: ${JSON.stringify(said)}`);
			return said[0];
		};
		const [kind, text] = await run("");
		equal(kind, "info", "shown: " + text);
		check(text.includes("1. Database: Which database should we use?") && text.includes("1) PostgreSQL (Recommended)")
			&& text.includes("2. What should we name this service?"), text);
		const [k2, cleared] = await run("clear");
		equal([k2, cleared], ["info", "Removed .askhost/pending-questions.json (2 open questions)."], "cleared");
		check(!fs.existsSync(path.join(cwd, ".askhost", "pending-questions.json")), "the file is gone");
		equal(await run(""), ["info", "No pending questions."], "nothing left");
	},

	render() {
		const tool = load().tools.ask_user;
		equal(mod.callLine({ questions: [DB] }, plain), "ask_user Database: Which database should we use?", "one question");
		equal(mod.callLine({ questions: [DB, NAME, FEAT] }, plain),
			"ask_user 3 questions: Database, What should we name this service?, Which features?", "several");
		const answered = { answered: true, answers: [
			{ question: DB.question, answer: "SQLite", selectedOption: "SQLite", wasCustom: false },
			{ question: NAME.question, answer: "svc", wasCustom: true }] };
		equal(mod.resultLines(answered, false, plain),
			`✓ ${DB.question} SQLite\n✓ ${NAME.question} svc (typed)`, "answered");
		equal(mod.resultLines({ answered: false, cancelled: true }, false, plain), "✗ Cancelled", "cancelled");
		equal(mod.resultLines({ answered: false, pendingFile: ".askhost/pending-questions.json" }, false, plain),
			"⏳ Questions pending in .askhost/pending-questions.json", "pending");
		const call = tool.renderCall({ questions: [NAME] }, plain, {});
		check(call.render(80).join("\n").includes("ask_user What should we name this service?"), "renderCall is a pi-tui component");
		const res = tool.renderResult({ details: answered }, { expanded: false }, plain, {});
		check(res.render(80).join("\n").includes("svc (typed)"), "renderResult is a pi-tui component");
	},
};

if (!cases[caseName]) fail(`no case ${caseName}: ${Object.keys(cases).join(", ")}`);
await cases[caseName]();
console.log("ok");
