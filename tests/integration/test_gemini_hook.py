"""askhost gemini-hook as Gemini CLI's BeforeAgent hook: once Gemini has compressed the session
(its record's message list set to the compressed history, without askhost's tool calls), the
session's questions and answers, read from that record (the hook input's transcript_path), are
printed as Gemini's hook output with additionalContext; before a compression, and once given, it
prints nothing. The lines here have the shape Gemini CLI 0.61.0 writes (docs/gemini.md). The real
Gemini CLI: tests/e2e/test_compaction.py gemini_compression_keeps_the_answers."""
import json
import os
import subprocess

from harness import ASKHOST, Workdir, case, check, equal, main

DB_Q = "Which database should we use?"
FEAT_Q = "Which features should we include?"
NAME_Q = "What should we name this service?"
DB = {"question": DB_Q, "header": "Database", "options": [
    {"label": "PostgreSQL (Recommended)", "description": "Battle-tested"}, {"label": "SQLite", "description": "File"}]}
FEAT = {"question": FEAT_Q, "header": "Features", "multiSelect": True, "options": [
    {"label": "Authentication"}, {"label": "REST API"}, {"label": "Admin Dashboard"}]}
NAME = {"question": NAME_Q, "header": "Name", "options": [{"label": "api"}, {"label": "svc"}]}
SUBAGENT_REFUSAL = ("Only the main conversation can ask the user questions; a sub-agent must decide on its own or "
                    "report back to its parent.")
TOOL = "mcp_ask_ask_user_question"
CONTEXT = "<session_context>\nThis is the Gemini CLI.</session_context>"
TS = "2026-11-26T22:27:03.772Z"


def line(obj):
    return json.dumps(obj) + "\n"


def header(kind="main"):
    return line({"sessionId": "s1", "projectHash": "ab", "startTime": TS, "lastUpdated": TS, "kind": kind})


def set_messages(*messages):
    """The record's message list replaced: a session loaded, resumed or compressed."""
    return line({"$set": {"messages": list(messages)}})


def user(mid, text):
    return {"id": mid, "timestamp": TS, "type": "user", "content": [{"text": text}]}


def summary():
    """What Gemini 0.61 sets after a compression: the context, the snapshot, its acknowledgement."""
    return set_messages(user("ctx", CONTEXT), user("snap", "<state_snapshot>work so far</state_snapshot>"),
                        {"id": "ack", "timestamp": TS, "type": "gemini",
                         "content": [{"text": "Got it. Thanks for the additional context!"}]})


def call_id(n):
    return f"{TOOL}__{TOOL}_179573202352{n}_0"


def answered(n, questions, answers, name=TOOL):
    """A gemini message whose tool call ran: the result as the model read it (askhost mcp's text,
    wrapped by Gemini in <untrusted_context> lines)."""
    text = "User has answered your questions: " + ", ".join(f'"{q}"="{a}"' for q, a in answers) + \
        ". You can now continue with the user's answers in mind."
    return tool_call(n, questions, {"output": f"<untrusted_context>\n{text}\n</untrusted_context>"}, "success", name)


def tool_call(n, questions, response, status, name=TOOL):
    tc = {"id": call_id(n), "name": name, "args": {"questions": questions}, "status": status, "timestamp": TS,
          "displayName": "ask_user_question (ask MCP Server)"}
    if response is not None:
        tc["result"] = [{"functionResponse": {"id": call_id(n), "name": name, "response": response}}]
    return line({"id": f"m{n}", "timestamp": TS, "type": "gemini", "content": "", "model": "gemini-3.1-pro-preview",
                 "toolCalls": [tc]})


def error_call(n, questions, text):
    """askhost's error result as Gemini records it: the MCP result quoted in Gemini's own message."""
    msg = (f"MCP tool 'ask_user_question' reported tool error for function call: "
           f"{json.dumps({'name': 'ask_user_question', 'args': {'questions': questions}})} with response: "
           f"{json.dumps([{'functionResponse': {'response': {'content': [{'type': 'text', 'text': text}], 'isError': True}}}])}")
    return tool_call(n, questions, {"error": msg}, "error")


def session(*turns):
    """A session's record: its start, then the given lines, the prompt first."""
    return [header(), set_messages(user("ctx", CONTEXT)), line(user("p1", "Set up the project."))] + list(turns)


def run_hook(wd, lines, raw=None, event="BeforeAgent"):
    path = wd.file("session.jsonl")
    with open(path, "w") as f:
        f.writelines(lines)
    hook = {"session_id": "s1", "transcript_path": path, "cwd": wd.path, "hook_event_name": event,
            "timestamp": TS, "prompt": "Go on."}
    data = raw if raw is not None else json.dumps(hook).encode()
    return subprocess.run([ASKHOST, "gemini-hook"], input=data, env=wd.env(), capture_output=True, timeout=30)


def context_of(r):
    equal(r.returncode, 0, r.stderr.decode())
    check(r.stdout, "printed the hook output")
    out = json.loads(r.stdout)
    equal(out["hookSpecificOutput"]["hookEventName"], "BeforeAgent", "Gemini's hook output")
    return out["hookSpecificOutput"]["additionalContext"]


def nothing(r, why):
    equal((r.returncode, r.stdout), (0, b""), why + ": nothing printed, exit 0 (stderr %r)" % r.stderr.decode())


@case
def answers_reach_the_prompt_after_a_compression():
    wd = Workdir()
    r = run_hook(wd, session(answered(1, [DB], [(DB_Q, "SQLite")]),
                             answered(2, [FEAT], [(FEAT_Q, "Authentication, REST API")]), summary()))
    text = context_of(r)
    check(text.startswith("What the user decided when asked earlier in this session"), text)
    check(f'User was asked "{DB_Q}" and chose SQLite.' in text, text)
    check(f'User was asked "{FEAT_Q}" and chose Authentication and REST API.' in text, text)
    check(text.index(DB_Q) < text.index(FEAT_Q), "in the order they were asked: " + text)


@case
def cancelled_and_pending_are_said_refused_left_out():
    wd = Workdir()
    pending = ("<untrusted_context>\nQuestions pending. The user is not available to answer now.\n"
               "Questions saved to: /w/.askhost/pending-questions.json\n</untrusted_context>")
    r = run_hook(wd, session(error_call(1, [DB], "User declined to answer questions (no terminal)"),
                             tool_call(2, [NAME], {"output": pending}, "success"),
                             error_call(3, [FEAT], SUBAGENT_REFUSAL),
                             tool_call(4, [DB], None, "cancelled"), summary()))
    text = context_of(r)
    check(f'User was asked "{DB_Q}" and declined to answer.' in text, "the cancel is said: " + text)
    check(text.count(DB_Q) == 2, "a call Gemini cancelled (Esc) is said declined too: " + text)
    check(NAME_Q in text and "pending-questions.json" in text, "the pending question is said: " + text)
    check(FEAT_Q not in text, "a sub-agent's refused question: never asked: " + text)


@case
def nothing_before_a_compression_or_once_given():
    wd = Workdir()
    asked = answered(1, [DB], [(DB_Q, "SQLite")])
    nothing(run_hook(wd, session(asked)), "the history still holds the answer")
    # A resume sets the whole list again, the call in it (as the API's functionCall part).
    resumed = set_messages(user("ctx", CONTEXT), user("p1", "Set up the project."),
                           {"id": "m1", "type": "gemini", "content": [{"functionCall": {"id": call_id(1),
                                                                                         "name": TOOL}}]})
    nothing(run_hook(wd, session(asked, header(), resumed)), "resumed: the history still holds it")
    given = context_of(run_hook(wd, session(asked, summary())))
    told = line(user("p2", "Go on.") | {"content": [{"text": "Go on."}, {"text": f"<hook_context>{given}</hook_context>"}]})
    nothing(run_hook(wd, session(asked, summary(), told)), "given since the compression")
    again = context_of(run_hook(wd, session(asked, summary(), told, summary())))
    equal(again, given, "a second compression: given again")


@case
def other_calls_and_sessions_print_nothing():
    wd = Workdir()
    nothing(run_hook(wd, session(summary())), "nothing asked")
    nothing(run_hook(wd, session(answered(1, [DB], [(DB_Q, "SQLite")], name="read_file"), summary())),
            "another tool")
    nothing(run_hook(wd, session(tool_call(1, [DB], None, "executing"), summary())), "a call without a result")
    lines = session(answered(1, [DB], [(DB_Q, "SQLite")]), summary())
    lines[0] = header("subagent")
    nothing(run_hook(wd, lines), "a sub-agent's record")


@case
def bad_input_is_no_failure():
    wd = Workdir()
    r = run_hook(wd, [], raw=b"not json")
    nothing(r, "not JSON")
    check(b"not a JSON object" in r.stderr, r.stderr.decode())
    hook = {"hook_event_name": "BeforeAgent", "transcript_path": wd.file("missing.jsonl")}
    nothing(run_hook(wd, [], raw=json.dumps(hook).encode()), "no record")
    nothing(run_hook(wd, ["{not json\n", "\n", "[1]\n", '{"$set": 3}\n'] + session(summary())), "broken lines")
    r = run_hook(wd, session(answered(1, [DB], [(DB_Q, "SQLite")]), summary()), event="PreCompress")
    nothing(r, "another event")
    check(b"PreCompress" in r.stderr, r.stderr.decode())
    r = subprocess.run([ASKHOST, "gemini-hook", "--project"], env=wd.env(), capture_output=True, timeout=30)
    equal(r.returncode, 2, "--project without install is a usage error")
    check(b"goes with install" in r.stderr, r.stderr.decode())


@case
def install_merges_into_settings_json():
    wd = Workdir()
    path = wd.file("settings.json")
    mine = {"mcpServers": {"ask": {"command": "askhost", "args": ["mcp"]}},
            "hooks": {"AfterTool": [{"matcher": "*", "hooks": [{"type": "command", "command": "mine"}]}]}}
    with open(path, "w") as f:
        json.dump(mine, f)
    r = subprocess.run([ASKHOST, "gemini-hook", "install", "--settings", path], env=wd.env(), capture_output=True,
                       timeout=30)
    equal(r.returncode, 0, r.stderr.decode())
    with open(path) as f:
        got = json.load(f)
    equal(got["mcpServers"], mine["mcpServers"], "the settings kept")
    equal(got["hooks"]["AfterTool"], mine["hooks"]["AfterTool"], "the other hook kept")
    entry = got["hooks"]["BeforeAgent"]
    equal(len(entry), 1, "one BeforeAgent entry")
    command = entry[0]["hooks"][0]["command"]
    check(command.endswith(" gemini-hook") and os.path.isabs(command.split(" ")[0]), command)
    check("PreCompress" not in got["hooks"], "no PreCompress hook: its output is discarded")
    before = open(path).read()
    r = subprocess.run([ASKHOST, "gemini-hook", "install", "--settings", path], env=wd.env(), capture_output=True,
                       timeout=30)
    equal(r.returncode, 0, r.stderr.decode())
    check(b"already" in r.stdout, r.stdout.decode())
    equal(open(path).read(), before, "a second install changes nothing")
    # GEMINI_CLI_HOME stands for the home Gemini keeps .gemini in; --project is the working folder's.
    home = wd.file("gemini_home")
    r = subprocess.run([ASKHOST, "gemini-hook", "install"], env=wd.env(GEMINI_CLI_HOME=home), capture_output=True,
                       timeout=30)
    equal(r.returncode, 0, r.stderr.decode())
    check(os.path.exists(os.path.join(home, ".gemini", "settings.json")), "under GEMINI_CLI_HOME")
    project = wd.file("project")
    os.makedirs(project)
    r = subprocess.run([ASKHOST, "gemini-hook", "install", "--project"], cwd=project, env=wd.env(),
                       capture_output=True, timeout=30)
    equal(r.returncode, 0, r.stderr.decode())
    check(os.path.exists(os.path.join(project, ".gemini", "settings.json")), "the project's settings")
    bad = wd.file("bad.json")
    with open(bad, "w") as f:
        f.write('{"hooks": ')
    r = subprocess.run([ASKHOST, "gemini-hook", "install", "--settings", bad], env=wd.env(), capture_output=True,
                       timeout=30)
    equal(r.returncode, 1, "a file that is not JSON")
    check(b"left as it is" in r.stderr, r.stderr.decode())
    equal(open(bad).read(), '{"hooks": ', "left as it is")


if __name__ == "__main__":
    raise SystemExit(main())
