"""The session's questions and answers reach the agent's compaction (the ask_user spec's
"Compaction Behavior"), with the real agents offline against the mock model API: pi's compaction
through the ask_user extension (session_before_compact), Claude Code's through askhost hook
(PreCompact): the summarisation request the mock receives must carry the answers. Codex discards
what a PreCompact hook prints, so askhost codex-hook (SessionStart after a compaction) gives them
to the first request after the compaction, whose history no longer holds the tool's result; Gemini
CLI's likewise, through askhost gemini-hook (BeforeAgent, the first prompt after a compression)."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ASKHOST, Workdir, case, check, equal  # noqa: E402
from e2e_common import PiRpc, TIMEOUT, Mock, agent_bin, agent_env, run_cases, write_codex_config  # noqa: E402

DB_Q = "Which database should we use?"
QUESTIONS = [{"question": DB_Q, "header": "Database", "options": [
    {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
    {"label": "SQLite", "description": "Lightweight, file-based"}]}]
DECIDED = f'User was asked "{DB_Q}" and chose SQLite.'


def summarisation_requests(mock):
    said = json.dumps(DECIDED)[1:-1]  # as it stands inside the JSON body
    return [r for r in mock.requests() if said in json.dumps(r.get("body"))]


@case
def pi_compaction_keeps_the_answers():
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], {"questions": QUESTIONS})
    pi = PiRpc(wd, mock)
    pi.send({"id": "p1", "type": "prompt", "message": "Set up the project."})
    ask = pi.until(lambda m: m.get("type") == "extension_ui_request" and m.get("method") == "select", "select dialog")
    pi.send({"type": "extension_ui_response", "id": ask["id"], "value": "SQLite"})
    pi.until(lambda m: m.get("type") == "agent_end", "agent_end")
    pi.send({"id": "c1", "type": "compact"})
    res = pi.until(lambda m: m.get("type") == "response" and m.get("id") == "c1", "compact response")
    equal(res.get("success"), True, "compacted: %r" % res)
    summary = res["data"]["summary"]
    check(summary.endswith("## Questions the user answered\n\n" + DECIDED), f"the summary: {summary!r}")
    check(summarisation_requests(mock), "the summariser was told the answers")
    pi.stop()
    mock.stop()
    mock.check_offline()


@case
def pi_branch_keeps_its_own_answers():
    """The spec's "Branching support" (State Persistence): pi keeps each ask_user result's `details`
    in the session entry of its branch. Answered SQLite, then back to before the question in the
    session tree (as pi's /tree does) and asked again there, answered PostgreSQL: the compaction of
    the new branch keeps its own answer, not the one in the branch beside it."""
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], {"questions": QUESTIONS})
    pi = PiRpc(wd, mock, extensions=[os.path.join(HERE, "pi_tree.ts")])

    def ask_and_answer(value):
        pi.send({"id": "p-" + value, "type": "prompt", "message": "Set up the project."})
        ask = pi.until(lambda m: m.get("type") == "extension_ui_request" and m.get("method") == "select", "select")
        pi.send({"type": "extension_ui_response", "id": ask["id"], "value": value})
        pi.until(lambda m: m.get("type") == "agent_end", "agent_end")

    ask_and_answer("SQLite")
    pi.send({"id": "t1", "type": "prompt", "message": "/tree-to-first-prompt"})
    note = pi.until(lambda m: m.get("method") == "notify" and m.get("message", "").startswith("tree:"), "the move")
    check(note["message"].startswith("tree: moved"), note["message"])
    ask_and_answer("PostgreSQL (Recommended)")
    pi.send({"id": "c1", "type": "compact"})
    res = pi.until(lambda m: m.get("type") == "response" and m.get("id") == "c1", "compact response")
    equal(res.get("success"), True, "compacted: %r" % res)
    summary = res["data"]["summary"]
    check(summary.endswith(f'## Questions the user answered\n\nUser was asked "{DB_Q}" and chose PostgreSQL.'),
          f"this branch's answer: {summary!r}")
    check("SQLite" not in summary.split("## Questions the user answered")[1], "not the other branch's")
    pi.stop()
    mock.stop()
    mock.check_offline()


@case
def claude_compaction_keeps_the_answers():
    """claude -p with `askhost hook install`ed and askhost mcp: the question is answered (the
    model pre-supplied the answer, as the reference allows); then `/compact` on the same session:
    askhost hook's PreCompact output reaches the summarisation request."""
    wd = Workdir()
    mock = Mock(wd, ["mcp__ask__ask_user_question"], {"questions": QUESTIONS, "answers": {DB_Q: "SQLite"}})
    claude = agent_bin("anthropic-ai-claude-code", "claude")
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    settings = wd.file("settings.json")
    env = agent_env(wd, mock, IS_SANDBOX="1")
    r = subprocess.run([ASKHOST, "hook", "install", "--settings", settings], env=env, capture_output=True)
    equal(r.returncode, 0, r.stderr.decode())
    with open(settings) as f:
        check("PreCompact" in json.load(f)["hooks"], "install adds the PreCompact hook")
    config = {"mcpServers": {"ask": {"type": "stdio", "command": ASKHOST, "args": ["mcp", "--print"]}}}
    common = ["--settings", settings, "--mcp-config", json.dumps(config), "--strict-mcp-config",
              "--allowedTools", "mcp__ask__ask_user_question"]
    r = subprocess.run([claude, "-p", "Set up the project."] + common, cwd=project, env=env, capture_output=True,
                       timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    equal(r.returncode, 0, "first turn (stderr: %r)" % r.stderr.decode()[-500:])
    check('"SQLite"' in mock.tool_result()["text"], "answered")
    check(not summarisation_requests(mock), "not yet")
    r = subprocess.run([claude, "-p", "/compact", "--continue"] + common, cwd=project, env=env, capture_output=True,
                       timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    mock.stop()
    found = summarisation_requests(mock)
    check(found, "the compaction request carries the answers (claude: %r %r)" % (
        r.stdout.decode()[-300:], r.stderr.decode()[-300:]))
    mock.check_offline()


def codex_input_kinds(request):
    """What a Responses request's input holds, item by item: the type, or role:text for a message."""
    out = []
    for item in request["body"].get("input") or []:
        if item.get("type") == "message":
            out.append("%s:%s" % (item.get("role"), json.dumps(item.get("content"))))
        else:
            out.append(item.get("type"))
    return out


@case
def codex_compaction_keeps_the_answers():
    """codex exec with `askhost codex-hook install`ed and askhost mcp: the question is answered (the
    model pre-supplied the answer); then `codex exec resume` with a token limit the session is
    over, so Codex compacts it before the turn. The compaction replaces the history (the tool's
    result is gone from it) and the request after it carries the answer as askhost says it."""
    wd = Workdir()
    mock = Mock(wd, ["mcp__ask__ask_user_question"], {"questions": QUESTIONS, "answers": {DB_Q: "SQLite"}},
                ask_once=True)
    codex = agent_bin("openai-codex", "codex")
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    write_codex_config(wd, mock, ask_server='[mcp_servers.ask]\ncommand = "%s"\nargs = ["mcp", "--print"]\n'
                       'default_tools_approval_mode = "approve"\n' % ASKHOST)
    env = agent_env(wd, mock)
    r = subprocess.run([ASKHOST, "codex-hook", "install"], env=env, capture_output=True)
    equal(r.returncode, 0, r.stderr.decode())
    with open(wd.file("codex_home/hooks.json")) as f:
        entry = json.load(f)["hooks"]["SessionStart"][0]
    equal(entry["matcher"], "compact", "install adds a SessionStart hook for compactions")
    # Codex runs a hook once it is trusted (/hooks in its TUI); a test vouches for it by the flag.
    exec_ = [codex, "exec", "--skip-git-repo-check", "--json", "--dangerously-bypass-hook-trust"]
    r = subprocess.run(exec_ + ["Set up the project."], cwd=project, env=env, capture_output=True,
                       timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    equal(r.returncode, 0, "first turn (stderr: %r)" % r.stderr.decode()[-500:])
    check('"SQLite"' in mock.tool_result()["text"], "answered")
    check(not summarisation_requests(mock), "not yet")
    before = len(mock.requests())
    r = subprocess.run(exec_ + ["-c", "model_auto_compact_token_limit=12", "resume", "--last", "Go on."], cwd=project,
                       env=env, capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    mock.stop()
    equal(r.returncode, 0, "second turn (stderr: %r)" % r.stderr.decode()[-500:])
    later = mock.requests()[before:]
    # The compaction's own request: no tools, the history with the tool's result, Codex's prompt last.
    compacting = [i for i, q in enumerate(later) if not q["body"].get("tools")]
    check(compacting, "Codex compacted the session: %r" % [codex_input_kinds(q)[-1:] for q in later])
    at = compacting[0]
    check("function_call_output" in codex_input_kinds(later[at]), "the compaction request holds the tool's result")
    check(at + 1 < len(later), "a request followed the compaction")
    after = codex_input_kinds(later[at + 1])
    check("function_call_output" not in after, "the compacted history no longer holds the result: %r" % after)
    said = json.dumps(DECIDED)[1:-1]
    check(any(said in k for k in after), "the request after the compaction carries the answer: %r" % after)
    mock.check_offline()


def gemini_settings(env, mock, threshold=None):
    """HOME/.gemini/settings.json for Gemini CLI offline against the mock, askhost mcp as its server
    `ask` (answers pre-supplied: --print), the hooks install put there kept; `threshold`:
    model.compressionThreshold (a fraction of the context window), so small that it compresses."""
    path = os.path.join(env["HOME"], ".gemini", "settings.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    settings = {}
    if os.path.exists(path):
        with open(path) as f:
            settings = json.load(f)
    settings.update({"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                     "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
                     "mcpServers": {"ask": {"command": ASKHOST, "args": ["mcp", "--print"], "trust": True}}})
    settings.pop("model", None)
    if threshold is not None:
        settings["model"] = {"compressionThreshold": threshold}
    with open(path, "w") as f:
        json.dump(settings, f)
    return path


def gemini_main_requests(mock, since=0):
    return [r for r in mock.requests()[since:] if ":streamGenerateContent" in r["path"]]


@case
def gemini_compression_keeps_the_answers():
    """gemini -p with `askhost gemini-hook install`ed and askhost mcp: the question is answered (the
    model pre-supplied the answer); the session resumed with a compression threshold it is over, so
    Gemini compresses it (its request after that no longer holds the tool's result); the session
    resumed once more: the first request of that prompt carries the answer as askhost says it."""
    wd = Workdir()
    mock = Mock(wd, ["mcp_ask_ask_user_question"], {"questions": QUESTIONS, "answers": {DB_Q: "SQLite"}},
                ask_once=True)
    gemini = agent_bin("google-gemini-cli", "gemini")
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    env = agent_env(wd, mock, GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{mock.port}", GEMINI_API_KEY="dummy")
    settings = gemini_settings(env, mock)
    r = subprocess.run([ASKHOST, "gemini-hook", "install"], env=env, capture_output=True)
    equal(r.returncode, 0, r.stderr.decode())
    with open(settings) as f:
        kept = json.load(f)
    equal(kept["hooks"]["BeforeAgent"][0]["hooks"][0]["command"], os.path.realpath(ASKHOST) + " gemini-hook",
          "install adds the BeforeAgent hook")
    check("ask" in kept["mcpServers"], "install keeps the settings")
    said = json.dumps(DECIDED)[1:-1]

    def prompt(text, threshold=None, resume=True):
        gemini_settings(env, mock, threshold)
        r = subprocess.run([gemini, "-p", text] + (["--resume", "latest"] if resume else []), cwd=project, env=env,
                           capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        equal(r.returncode, 0, "gemini -p %r (stderr: %r)" % (text, r.stderr.decode()[-500:]))

    prompt("Set up the project.", resume=False)
    check('"SQLite"' in mock.tool_result()["text"], "answered")
    check(not any(said in json.dumps(q["body"]) for q in mock.requests()), "not yet")
    before = len(mock.requests())
    prompt("Go on.", threshold=0.000001)
    compressing = [q for q in mock.requests()[before:] if "<state_snapshot>" in json.dumps(q["body"])]
    check(compressing, "Gemini compressed the session")
    later = gemini_main_requests(mock, before)
    check(later and "functionResponse" not in json.dumps(later[-1]["body"].get("contents")),
          "the compressed history no longer holds the result")
    check(not any(said in json.dumps(q["body"]) for q in later), "the prompt before the compression is told nothing")
    before = len(mock.requests())
    prompt("And now?")
    after = gemini_main_requests(mock, before)
    check(after, "a request followed")
    last_user = after[0]["body"]["contents"][-1]
    check(said in json.dumps(last_user), "the first prompt after the compression carries the answer: %r" % last_user)
    before = len(mock.requests())
    prompt("Anything else?")
    mock.stop()
    once = gemini_main_requests(mock, before)
    check(once, "a request followed")
    equal(json.dumps(once[0]["body"]["contents"]).count(said), 1,
          "given once: the history holds it, the next prompt does not repeat it")
    mock.check_offline()


if __name__ == "__main__":
    raise SystemExit(run_cases())
