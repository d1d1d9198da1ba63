"""askhost codex-hook as Codex's SessionStart hook after a compaction: the session's questions and
answers, read from the rollout file the hook input names (askhost mcp's ask_user_question calls and
the results the model read), printed as Codex's hook output with additionalContext. The lines here
have the shape Codex 0.169.0 writes (docs/codex.md). The real Codex:
tests/e2e/test_compaction.py codex_compaction_keeps_the_answers."""
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


def item(payload):
    return json.dumps({"timestamp": "2026-11-26T21:33:48.251Z", "type": "response_item", "payload": payload}) + "\n"


def call(call_id, questions, namespace="mcp__ask", name="ask_user_question"):
    p = {"type": "function_call", "status": "completed", "id": "fc_" + call_id, "name": name,
         "arguments": json.dumps({"questions": questions}), "call_id": call_id}
    if namespace:
        p["namespace"] = namespace
    return item(p)


def output(call_id, text, wall_time=True):
    body = "Wall time: 0.0047 seconds\nOutput:\n" + text if wall_time else text
    return item({"type": "function_call_output", "id": "fco_" + call_id, "call_id": call_id, "output": body})


def error_output(call_id, text):
    """An error result as Codex 0.169.0 records it: content items, the Wall time lines in the first."""
    return item({"type": "function_call_output", "id": "fco_" + call_id, "call_id": call_id, "output": [
        {"type": "input_text", "text": "Wall time: 0.0022 seconds\nOutput:"}, {"type": "input_text", "text": text}]})


def run_hook(wd, lines, source="compact", raw=None):
    path = wd.file("rollout.jsonl")
    with open(path, "w") as f:
        f.writelines(lines)
    hook = {"session_id": "s1", "transcript_path": path, "cwd": wd.path, "hook_event_name": "SessionStart",
            "model": "mock-model", "permission_mode": "default", "source": source}
    data = raw if raw is not None else json.dumps(hook).encode()
    return subprocess.run([ASKHOST, "codex-hook"], input=data, env=wd.env(), capture_output=True, timeout=30)


def context_of(r):
    equal(r.returncode, 0, r.stderr.decode())
    out = json.loads(r.stdout)
    equal(out["hookSpecificOutput"]["hookEventName"], "SessionStart", "Codex's hook output")
    return out["hookSpecificOutput"]["additionalContext"]


@case
def answers_reach_the_context():
    """A structured result (what askhost mcp returns and Codex hands the model) and a text result
    (the reference's sentence), a multi-select answer among them, with Codex's Wall time lines."""
    wd = Workdir()
    structured = json.dumps({"questions": [DB], "answers": {DB_Q: "SQLite"}})
    sentence = f'User has answered your questions: "{FEAT_Q}"="Authentication, REST API". You can now continue.'
    r = run_hook(wd, [call("call_1", [DB]), output("call_1", structured),
                      call("call_2", [FEAT]), output("call_2", sentence, wall_time=False)])
    text = context_of(r)
    check(text.startswith("What the user decided when asked earlier in this session"), text)
    check(f'User was asked "{DB_Q}" and chose SQLite.' in text, text)
    check(f'User was asked "{FEAT_Q}" and chose Authentication and REST API.' in text, text)
    check(text.index(DB_Q) < text.index(FEAT_Q), "in the order they were asked: " + text)


@case
def cancelled_and_pending_are_said_refused_left_out():
    wd = Workdir()
    pending = ("Questions pending. The user is not available to answer now.\n"
               "Questions saved to: /w/.askhost/pending-questions.json\n")
    r = run_hook(wd, [call("call_1", [DB]), error_output("call_1", "User declined to answer questions (no terminal)"),
                      call("call_2", [NAME]), output("call_2", pending),
                      call("call_3", [FEAT]), error_output("call_3", SUBAGENT_REFUSAL),
                      call("call_4", [FEAT]), error_output("call_4", "Invalid ask_user_question input: questions[0]")])
    text = context_of(r)
    check(f'User was asked "{DB_Q}" and declined to answer.' in text, "the cancel is said: " + text)
    check(NAME_Q in text and "pending-questions.json" in text, "the pending question is said: " + text)
    check(FEAT_Q not in text, "a sub-agent's refused question, an invalid one: never asked: " + text)


@case
def other_calls_print_nothing():
    """A shell call, a question nobody answered yet, another MCP server's tool of another name, and
    a function that is not an MCP tool: nothing to keep, so nothing printed (Codex's own context)."""
    wd = Workdir()
    lines = [item({"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"ls\"]}", "call_id": "c0"}),
             item({"type": "function_call_output", "call_id": "c0", "output": "a.txt"}),
             call("c1", [DB]),
             call("c2", [DB], namespace="mcp__other", name="ask_something"), output("c2", json.dumps(
                 {"answers": {DB_Q: "SQLite"}})),
             call("c3", [DB], namespace=None), output("c3", json.dumps({"answers": {DB_Q: "SQLite"}})),
             json.dumps({"type": "event_msg", "payload": {"type": "task_started"}}) + "\n", "not json\n"]
    r = run_hook(wd, lines)
    equal((r.returncode, r.stdout), (0, b""), "nothing printed")


@case
def only_after_a_compaction():
    """At startup or resume the history still holds the results: the hook adds nothing then. A
    second compaction reads the whole rollout again (its earlier lines stay in the file)."""
    wd = Workdir()
    lines = [call("call_1", [DB]), output("call_1", json.dumps({"answers": {DB_Q: "PostgreSQL (Recommended)"}})),
             json.dumps({"type": "compacted", "payload": {"message": "summary", "replacement_history": []}}) + "\n"]
    for source in ("startup", "resume"):
        r = run_hook(wd, lines, source=source)
        equal((r.returncode, r.stdout), (0, b""), source)
    lines += [call("call_2", [FEAT]), output("call_2", json.dumps({"answers": {FEAT_Q: "Admin Dashboard"}}))]
    text = context_of(run_hook(wd, lines))
    check(f'User was asked "{DB_Q}" and chose PostgreSQL.' in text, text)
    check(f'User was asked "{FEAT_Q}" and chose Admin Dashboard.' in text, text)


@case
def bad_input_is_no_failure():
    wd = Workdir()
    r = run_hook(wd, [], raw=b"{not json")
    equal((r.returncode, r.stdout), (0, b""), "not JSON: nothing printed, exit 0")
    check(b"not a JSON object" in r.stderr, r.stderr.decode())
    hook = {"hook_event_name": "SessionStart", "source": "compact", "transcript_path": wd.file("missing.jsonl")}
    r = run_hook(wd, [], raw=json.dumps(hook).encode())
    equal((r.returncode, r.stdout), (0, b""), "no rollout: nothing, and no failure")
    r = run_hook(wd, [], raw=json.dumps({"hook_event_name": "PreCompact"}).encode())
    equal((r.returncode, r.stdout), (0, b""), "another event: nothing")
    check(b"PreCompact" in r.stderr, r.stderr.decode())
    r = subprocess.run([ASKHOST, "codex-hook", "--project"], env=wd.env(), capture_output=True, timeout=30)
    equal(r.returncode, 2, "--project without install is a usage error")
    check(b"goes with install" in r.stderr, r.stderr.decode())


@case
def install_merges_into_hooks_json():
    wd = Workdir()
    home = wd.file("codex_home")
    os.makedirs(home)
    path = os.path.join(home, "hooks.json")
    mine = {"description": "mine", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "check.sh"}]}]}}
    with open(path, "w") as f:
        json.dump(mine, f)
    env = wd.env(CODEX_HOME=home)
    r = subprocess.run([ASKHOST, "codex-hook", "install"], env=env, capture_output=True, timeout=30)
    equal(r.returncode, 0, r.stderr.decode())
    check(b"/hooks" in r.stdout, "says how to trust it: " + r.stdout.decode())
    with open(path) as f:
        got = json.load(f)
    equal(got["description"], "mine", "the file's own root kept")
    equal(got["hooks"]["PreToolUse"][0], mine["hooks"]["PreToolUse"][0], "the other hook kept")
    equal([e["matcher"] for e in got["hooks"]["PreToolUse"]], ["Bash", "request_user_input"],
          "askhost's PreToolUse hook beside it (tests/integration/test_own_questions.py)")
    entry = got["hooks"]["SessionStart"]
    equal(len(entry), 1, "one SessionStart entry")
    equal(entry[0]["matcher"], "compact", "after a compaction only")
    command = entry[0]["hooks"][0]["command"]
    check(command.endswith(" codex-hook") and os.path.isabs(command.split(" ")[0]), command)
    before = open(path).read()
    r = subprocess.run([ASKHOST, "codex-hook", "install"], env=env, capture_output=True, timeout=30)
    equal(r.returncode, 0, r.stderr.decode())
    check(b"already" in r.stdout, r.stdout.decode())
    equal(open(path).read(), before, "a second install changes nothing")
    bad = wd.file("bad.json")
    with open(bad, "w") as f:
        f.write('{"hooks": ')
    r = subprocess.run([ASKHOST, "codex-hook", "install", "--hooks", bad], env=env, capture_output=True, timeout=30)
    equal(r.returncode, 1, "a file that is not JSON")
    check(b"left as it is" in r.stderr, r.stderr.decode())
    equal(open(bad).read(), '{"hooks": ', "left as it is")


if __name__ == "__main__":
    raise SystemExit(main())
