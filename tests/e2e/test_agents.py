"""End to end with the real agent CLIs (installed by `./dev agents`), offline against the mock model
API (mock_llm.py) on 127.0.0.1: each agent runs under askhost --stdio, a scripted editor answers
the question, and the test checks the exact tool result the model API received.

Each case runs in a loopback-only network namespace (`unshare -rn`) when the machine allows it;
the agents' environment also turns off every non-essential connection."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import (ASKHOST, ROOT, Editor, Failure, Tmux, Workdir, case, check, equal,  # noqa: E402
                     wait_for)
from e2e_common import (PI_FLAGS, finish, pi_setup, TIMEOUT, Mock, agent_bin, agent_env, doc_snippet, run_cases,  # noqa: E402
                        with_askhost_on_path, write_codex_config)

TAIL = " You can now continue with the user's answers in mind."
DB_Q = "Which database should we use?"
FEAT_Q = "Which features should we include?"
QUESTIONS = [
    {"question": DB_Q, "header": "Database", "multiSelect": False, "options": [
        {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
        {"label": "SQLite", "description": "Lightweight, file-based"},
        {"label": "MongoDB", "description": "Document store"}]},
]
MULTI = [
    {"question": FEAT_Q, "header": "Features", "multiSelect": True, "options": [
        {"label": "Authentication", "description": "OAuth2 + JWT"},
        {"label": "REST API", "description": "OpenAPI spec included"},
        {"label": "Admin Dashboard", "description": "A web UI"}]},
]


def start(wd, env, argv, askhost_args=()):
    ed = Editor(wd, list(askhost_args) + ["--"] + argv, env=env)
    ed.initialize(name="e2e-editor")
    return ed


def answer(ed, result, timeout=TIMEOUT):
    show = ed.method("ask/show", timeout=timeout)
    ed.reply(show["id"], result)
    return show["params"]


def structured_output(res):
    """The structuredContent Codex hands the model, after its line with the call's wall time."""
    head, sep, body = res["text"].partition("\nOutput:\n")
    check(sep and head.startswith("Wall time:"), f"tool result: {res['raw']!r}")
    try:
        return json.loads(body)
    except ValueError:
        raise Failure(f"tool result is not the structuredContent: {res['raw']!r}")


def option(q, label):
    return {"question": q, "answer": label, "selectedOption": label, "wasCustom": False}


# --- Claude Code through `askhost mcp` ---------------------------------------------------------

def claude_mcp(wd, mock, prompt="Set up the project."):
    """Claude Code with askhost mcp configured as docs/mcp.md says (its snippet, askhost by name)."""
    claude = agent_bin("anthropic-ai-claude-code", "claude")
    argv = [claude, "-p", prompt, "--mcp-config", doc_snippet("claude"), "--strict-mcp-config",
            "--allowedTools", "mcp__ask__ask_user_question", "--output-format", "stream-json", "--verbose"]
    return start(wd, with_askhost_on_path(agent_env(wd, mock)), argv, ["--adapter", "mcp"])


@case
def claude_mcp_option():
    wd = Workdir()
    mock = Mock(wd, ["mcp__ask__ask_user_question"], QUESTIONS)
    ed = claude_mcp(wd, mock)
    shown = answer(ed, {"answered": True, "answers": [option(DB_Q, "SQLite")]})
    equal([o["label"] for o in shown["questions"][0]["options"]], ["PostgreSQL (Recommended)", "SQLite", "MongoDB"],
          "options shown")
    res = mock.tool_result()
    # Claude Code hands the model the structuredContent (REQ-AUQ-003's shape: the questions asked
    # beside the answers, as the reference's result) when there is one.
    got = json.loads(res["text"])
    equal(got["answers"], {DB_Q: "SQLite"}, "tool result's answers")
    equal([q["question"] for q in got["questions"]], [DB_Q], "tool result's questions")
    equal(res["is_error"], False, "is_error")
    finish(ed, mock)


@case
def claude_mcp_cancel():
    wd = Workdir()
    mock = Mock(wd, ["mcp__ask__ask_user_question"], QUESTIONS)
    ed = claude_mcp(wd, mock)
    answer(ed, {"answered": False, "cancelled": True})
    res = mock.tool_result()
    equal(res["text"], "User declined to answer questions", "tool result text")
    equal(res["is_error"], True, "is_error")
    finish(ed, mock)


# --- Codex through `askhost mcp` ---------------------------------------------------------------

def codex_mcp(wd, mock):
    codex = agent_bin("openai-codex", "codex")
    write_codex_config(wd, mock)
    argv = [codex, "exec", "--skip-git-repo-check", "--json", "Set up the project."]
    return start(wd, agent_env(wd, mock), argv)


@case
def codex_mcp_option():
    wd = Workdir()
    mock = Mock(wd, ["mcp__ask__ask_user_question", "ask_user_question"], QUESTIONS)
    ed = codex_mcp(wd, mock)
    shown = answer(ed, {"answered": True, "answers": [option(DB_Q, "PostgreSQL (Recommended)")]})
    equal(shown["questions"][0]["question"], DB_Q, "question shown")
    equal(shown["agent"], "codex", "the agent's program, not its MCP client's name")
    equal(shown.get("client"), "codex-mcp-client", "the MCP client's name, in its own field")
    res = mock.tool_result()
    # Codex too hands the model the structuredContent, after a line with the call's wall time.
    got = structured_output(res)
    equal(got["answers"], {DB_Q: "PostgreSQL (Recommended)"}, "tool result's answers")
    equal([q["question"] for q in got["questions"]], [DB_Q], "tool result's questions")
    finish(ed, mock)


@case
def codex_output_in_whole_lines():
    """codex exec without --json writes its header on stderr in fragments ('workdir:', ' ', the
    folder, '\\n'); agent/output carries whole lines."""
    wd = Workdir()
    mock = Mock(wd, ["mcp__ask__ask_user_question", "ask_user_question"], QUESTIONS)
    write_codex_config(wd, mock)
    codex = agent_bin("openai-codex", "codex")
    # A long partial-line wait: the fragments join however loaded the machine is.
    ed = start(wd, agent_env(wd, mock, ASKHOST_PARTIAL_LINE_MS="2000"),
               [codex, "exec", "--skip-git-repo-check", "Set up the project."])
    answer(ed, {"answered": True, "answers": [option(DB_Q, "SQLite")]})
    ed.method("agent/exit", timeout=TIMEOUT)
    err = [m["params"]["text"] for m in ed.seen if m.get("method") == "agent/output" and m["params"]["stream"] == "stderr"]
    check(any(line.startswith("workdir: ") for t in err for line in t.splitlines()), f"the header: {err!r}")
    check(all(t.endswith("\n") for t in err), f"stderr in whole lines: {err!r}")
    finish(ed, mock)


@case
def codex_mcp_multiselect():
    wd = Workdir()
    mock = Mock(wd, ["mcp__ask__ask_user_question", "ask_user_question"], MULTI)
    ed = codex_mcp(wd, mock)
    shown = answer(ed, {"answered": True, "answers": [
        {"question": FEAT_Q, "answer": ["Authentication", "Admin Dashboard"], "wasCustom": False}]})
    equal(shown["questions"][0]["multiSelect"], True, "multi-select shown")
    res = mock.tool_result()
    got = structured_output(res)
    equal(got["answers"], {FEAT_Q: "Authentication, Admin Dashboard"}, "tool result's answers")
    equal([q["multiSelect"] for q in got["questions"]], [True], "tool result's questions")
    finish(ed, mock)


# --- Claude Code's own AskUserQuestion (stream-json control channel, the claude adapter) --------

def claude_stream(wd, mock, args=(), prompt="Set up the project.", askhost_args=()):
    """askhost --stdio -- claude (the claude adapter adds the control-channel flags)."""
    claude = agent_bin("anthropic-ai-claude-code", "claude")
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    ed = Editor(wd, list(askhost_args), env=agent_env(wd, mock, IS_SANDBOX="1"))
    ed.initialize(name="e2e-editor")
    rid = ed.request("agent/start", {"command": [claude] + list(args), "cwd": project})
    check("pid" in ed.result_of(rid, timeout=30).get("result", {}), "agent/start")
    if prompt:
        rid = ed.request("agent/prompt", {"text": prompt})
        equal(ed.result_of(rid, timeout=30).get("result"), {}, "agent/prompt")
    return ed


def claude_said(mock):
    """The tool result Claude handed its model for AskUserQuestion."""
    return mock.tool_result()


@case
def claude_option():
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], QUESTIONS + MULTI)
    ed = claude_stream(wd, mock)
    shown = answer(ed, {"answered": True, "answers": [
        option(DB_Q, "PostgreSQL (Recommended)"),
        {"question": FEAT_Q, "answer": ["Authentication", "REST API"], "wasCustom": False}]})
    equal(shown["agent"], "claude", "agent name")
    equal([q["question"] for q in shown["questions"]], [DB_Q, FEAT_Q], "questions shown")
    equal(shown["questions"][1]["multiSelect"], True, "multi-select")
    res = claude_said(mock)
    equal(res["is_error"], False, "is_error")
    equal(res["text"], f'Your questions have been answered: "{DB_Q}"="PostgreSQL (Recommended)", '
          f'"{FEAT_Q}"="Authentication, REST API". You can now continue with these answers in mind.', "tool result")
    ed.method("agent/output", timeout=TIMEOUT, where=lambda m: "All set." in m["params"]["text"])
    out = "".join(m["params"]["text"] for m in ed.seen if m.get("method") == "agent/output")
    check('{"type"' not in out, f"no raw stream-json in the output: {out!r}")
    finish(ed, mock)


@case
def claude_other_with_notes():
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], QUESTIONS)
    ed = claude_stream(wd, mock)
    answer(ed, {"answered": True, "answers": [
        {"question": DB_Q, "answer": "DynamoDB", "wasCustom": True, "notes": "we already run it"}]})
    res = claude_said(mock)
    check(f'"{DB_Q}"="DynamoDB"' in res["text"] and "we already run it" in res["text"], f"tool result: {res['text']!r}")
    finish(ed, mock)


@case
def claude_cancel():
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], QUESTIONS)
    ed = claude_stream(wd, mock)
    answer(ed, {"answered": False, "cancelled": True})
    res = claude_said(mock)
    equal(res["is_error"], True, "is_error")
    check("User declined to answer" in res["text"], f"tool result: {res['text']!r}")
    finish(ed, mock)


BASH = {"command": "touch made-by-bash.txt", "description": "Create a marker file"}


@case
def claude_permission_denied():
    wd = Workdir()
    mock = Mock(wd, ["Bash"], BASH)
    ed = claude_stream(wd, mock)
    show = ed.method("ask/show", timeout=TIMEOUT)
    q = show["params"]["questions"][0]
    equal([o["label"] for o in q["options"]], ["Allow", "Deny", "Always allow this tool"], "choices")
    check("touch made-by-bash.txt" in q["question"], f"question names the command: {q['question']!r}")
    ed.reply(show["id"], {"answered": True, "answers": [option(q["question"], "Deny")]})
    res = mock.tool_result()
    equal(res["is_error"], True, "is_error")
    check("The user denied Bash" in res["text"], f"tool result: {res['text']!r}")
    check(not os.path.exists(wd.file("project/made-by-bash.txt")), "the command did not run")
    finish(ed, mock)


@case
def claude_allow_tools():
    wd = Workdir()
    mock = Mock(wd, ["Bash"], BASH)
    ed = claude_stream(wd, mock, askhost_args=["--allow-tools", "Bash"])
    res = mock.tool_result()
    equal(res["is_error"], False, f"is_error ({res['text']!r})")
    check(os.path.exists(wd.file("project/made-by-bash.txt")), "the command ran without a question")
    check(not [m for m in ed.seen if m.get("method") == "ask/show"], "nothing was asked")
    ed.method("agent/output", timeout=TIMEOUT,
              where=lambda m: m["params"]["text"].strip() == "[askhost] allowed Bash (--allow-tools)")
    finish(ed, mock)


def a_second_turn(ed, mock, agent):
    """After the first turn ends, the editor's agent/prompt gets a second question: the agent is
    still there (a prompt on its command line under --stdio is not one turn)."""
    ed.method("agent/output", timeout=TIMEOUT, where=lambda m: "All set." in m["params"]["text"])
    rid = ed.request("agent/prompt", {"text": "And the cache?"})
    equal(ed.result_of(rid, timeout=30).get("result"), {}, "a second agent/prompt is taken")
    answer(ed, {"answered": True, "answers": [option(DB_Q, "PostgreSQL (Recommended)")]})
    results = wait_for(lambda: [r for r in mock.requests() if "tool_result" in r][1:], timeout=TIMEOUT,
                       what="the second turn's tool result")
    check("PostgreSQL" in results[0]["tool_result"]["text"], f"second answer delivered: {results[0]!r}")
    check(not [m for m in ed.seen if m.get("method") == "agent/exit"], agent + " did not exit after the first turn")
    finish(ed, mock)


@case
def claude_always_allow():
    """Always allow this tool: the next call runs without a question, and the log line credits the
    person's choice, not an --allow-tools that was never given."""
    wd = Workdir()
    mock = Mock(wd, ["Bash"], BASH)
    ed = claude_stream(wd, mock)
    show = ed.method("ask/show", timeout=TIMEOUT)
    q = show["params"]["questions"][0]
    ed.reply(show["id"], {"answered": True, "answers": [option(q["question"], "Always allow this tool")]})
    equal(mock.tool_result()["is_error"], False, "the first call ran")
    ed.method("agent/output", timeout=TIMEOUT, where=lambda m: "All set." in m["params"]["text"])
    os.remove(wd.file("project/made-by-bash.txt"))
    rid = ed.request("agent/prompt", {"text": "Once more."})
    equal(ed.result_of(rid, timeout=30).get("result"), {}, "agent/prompt")
    said = ed.method("agent/output", timeout=TIMEOUT, where=lambda m: "[askhost] allowed Bash" in m["params"]["text"])
    equal(said["params"]["text"].strip(), "[askhost] allowed Bash (you chose Always earlier in this session)",
          "the log line")
    wait_for(lambda: os.path.exists(wd.file("project/made-by-bash.txt")), timeout=TIMEOUT,
             what="the second call to run")
    check(not [m for m in ed.seen if m.get("method") == "ask/show"], "nothing was asked the second time")
    finish(ed, mock)


@case
def claude_prompt_on_the_command_line():
    """askhost --stdio -- claude "prompt": the first prompt of many, as --prompt is; the session stays
    open for the editor's next agent/prompt."""
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], QUESTIONS)
    ed = claude_stream(wd, mock, args=["Set up the project."], prompt=None)
    answer(ed, {"answered": True, "answers": [option(DB_Q, "SQLite")]})
    check(f'"{DB_Q}"="SQLite"' in claude_said(mock)["text"], "answer delivered")
    a_second_turn(ed, mock, "Claude")


@case
def claude_stop_while_asking():
    """agent/stop with a question open: Claude is interrupted, the question closes, Claude ends."""
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], QUESTIONS)
    ed = claude_stream(wd, mock)
    show = ed.method("ask/show", timeout=TIMEOUT)
    rid = ed.request("agent/stop")
    cancel = ed.method("$/cancelRequest", timeout=30)
    equal(cancel["params"]["id"], show["id"], "the open question is withdrawn")
    check("result" in ed.result_of(rid, timeout=30), "agent/stop answered once Claude exited")
    ed.method("agent/exit", timeout=30)
    finish(ed, mock)


@case
def claude_in_the_terminal():
    """askhost --tui -- claude "prompt": the question in the terminal dialog, answered with keys."""
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], QUESTIONS)
    claude = agent_bin("anthropic-ai-claude-code", "claude")
    env = agent_env(wd, mock, IS_SANDBOX="1")
    passed = ["%s=%s" % (k, env[k]) for k in ("HOME", "TMPDIR", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY",
                                              "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_TELEMETRY",
                                              "DISABLE_ERROR_REPORTING", "DISABLE_AUTOUPDATER", "IS_SANDBOX")]
    t = Tmux(wd, ["env"] + passed + [ASKHOST, "--tui", "--", claude, "Set up the project."], height=30)
    try:
        t.wait_screen("> 1. PostgreSQL (Recommended)", timeout=TIMEOUT)
        t.keys("Down", "Enter")  # SQLite
        equal(mock.tool_result()["text"], f'Your questions have been answered: "{DB_Q}"="SQLite". '
              "You can now continue with these answers in mind.", "tool result")
        screen = t.wait_screen("All set.", timeout=TIMEOUT)
        check('{"type"' not in screen, "readable output, not stream-json:\n" + screen)
        equal(t.exit_status(timeout=TIMEOUT), 0, "askhost ends with Claude's turn")
    finally:
        t.kill()
        mock.stop()


@case
def claude_print_mode_with_prompt_flag():
    """askhost --print --prompt TEXT -- claude: nobody to ask, so the pending-questions file; one turn."""
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], QUESTIONS)
    claude = agent_bin("anthropic-ai-claude-code", "claude")
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    r = subprocess.run([ASKHOST, "--print", "--prompt", "Set up the project.", "--", claude], cwd=project,
                       env=agent_env(wd, mock, IS_SANDBOX="1"), capture_output=True, timeout=TIMEOUT,
                       stdin=subprocess.DEVNULL)
    mock.stop()
    equal(r.returncode, 0, "exit status (stderr: %r)" % r.stderr.decode()[-500:])
    res = mock.tool_result(timeout=1)
    equal(res["is_error"], True, "is_error")
    check(res["text"].startswith("Questions pending. User input required."), f"tool result: {res['text']!r}")
    with open(os.path.join(project, ".askhost", "pending-questions.json")) as f:
        equal([q["question"] for q in json.load(f)["questions"]], [DB_Q], "pending questions")
    check(b"All set." in r.stdout, "Claude's reply printed: %r" % r.stdout.decode()[-300:])


# --- REQ-AUQ-005: a Claude Code sub-agent may not ask ------------------------------------------
# Claude Code 2.1.197 offers a sub-agent (its Agent tool) no AskUserQuestion, but it does offer
# MCP tools; the call then comes marked with agent_id in can_use_tool and in hook input (not in
# the MCP request). docs/subagents.md.

SUB_PROMPT = "Ask the user which database to use."


def subagent_mock(wd):
    return Mock(wd, ["Agent"], {"description": "Pick a database", "prompt": SUB_PROMPT,
                                "subagent_type": "general-purpose"},
                subagent={"prompt": SUB_PROMPT, "tools": ["mcp__ask__ask_user_question"],
                          "input": {"questions": QUESTIONS}}, wait_for_subagent=True)


def subagent_result(mock):
    found = wait_for(lambda: [r for r in mock.requests() if r.get("subagent") and "tool_result" in r],
                     timeout=TIMEOUT, what="the sub-agent's tool result")
    return found[0]["tool_result"]


MCP_ASK = {"mcpServers": {"ask": {"type": "stdio", "command": ASKHOST, "args": ["mcp"]}}}


@case
def claude_subagent_question_refused_on_the_control_channel():
    wd = Workdir()
    mock = subagent_mock(wd)
    ed = claude_stream(wd, mock, args=["--mcp-config", json.dumps(MCP_ASK), "--strict-mcp-config"])
    res = subagent_result(mock)
    equal(res["is_error"], True, "is_error")
    check("Only the main conversation can ask the user questions" in res["text"], f"tool result: {res['text']!r}")
    ed.method("agent/output", timeout=TIMEOUT, where=lambda m: "All set." in m["params"]["text"])
    check(not [m for m in ed.seen if m.get("method") == "ask/show"], "nothing was asked")
    finish(ed, mock)


@case
def claude_subagent_question_refused_by_the_hook():
    """claude -p with askhost hook installed and askhost mcp as a server, askhost not running Claude."""
    wd = Workdir()
    mock = subagent_mock(wd)
    claude = agent_bin("anthropic-ai-claude-code", "claude")
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    settings = wd.file("settings.json")
    env = agent_env(wd, mock, IS_SANDBOX="1")
    r = subprocess.run([ASKHOST, "hook", "install", "--settings", settings], env=env, capture_output=True)
    equal(r.returncode, 0, r.stderr.decode())
    r = subprocess.run([claude, "-p", "Go.", "--settings", settings, "--mcp-config", json.dumps(MCP_ASK),
                        "--strict-mcp-config", "--allowedTools", "mcp__ask__ask_user_question"],
                       cwd=project, env=env, capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    mock.stop()
    equal(r.returncode, 0, "exit status (stderr: %r)" % r.stderr.decode()[-500:])
    res = subagent_result(mock)
    equal(res["is_error"], True, "is_error")
    check("Only the main conversation can ask the user questions" in res["text"], f"tool result: {res['text']!r}")


@case
def codex_subagent_question_refused():
    """Codex (multi_agent): a spawned agent's MCP call says thread_source "subagent" in its _meta;
    askhost mcp refuses it at once, and the sub-agent's model reads the refusal."""
    wd = Workdir()
    mock = Mock(wd, ["spawn_agent"], {"message": SUB_PROMPT, "task_name": "db"},
                subagent={"prompt": SUB_PROMPT, "tools": ["mcp__ask__ask_user_question", "ask_user_question"],
                          "input": {"questions": QUESTIONS}}, wait_for_subagent=True)
    codex = agent_bin("openai-codex", "codex")
    write_codex_config(wd, mock, features="multi_agent = true")
    ed = start(wd, agent_env(wd, mock), [codex, "exec", "--skip-git-repo-check", "--json", "Go."])
    res = subagent_result(mock)
    check("Only the main conversation can ask the user questions" in res["text"], f"tool result: {res['raw']!r}")
    ed.method("agent/exit", timeout=TIMEOUT)
    check(not [m for m in ed.seen if m.get("method") == "ask/show"], "nothing was asked")
    finish(ed, mock)


# --- pi in RPC mode (the pi adapter) and the ask_user extension ---------------------------------

PI_EXTENSION = os.path.join(ROOT, "plugins", "pi", "extension", "ask_user.ts")
PI_DIALOGS = os.path.join(HERE, "pi_dialogs.ts")
NAME_Q = "What should we name this service?"
LENIENT = [dict(QUESTIONS[0]), {"question": NAME_Q, "header": "Service name"}]


def pi_agent(wd, mock, extension, prompt="Set up the project.", words=()):
    pi, project = pi_setup(wd, mock)
    ed = Editor(wd, [], env=agent_env(wd, mock))
    ed.initialize(name="e2e-editor")
    argv = [pi, *PI_FLAGS, "-e", extension] + list(words)
    rid = ed.request("agent/start", {"command": argv, "cwd": project})
    check("pid" in ed.result_of(rid, timeout=30).get("result", {}), "agent/start")
    if prompt is not None:
        rid = ed.request("agent/prompt", {"text": prompt})
        equal(ed.result_of(rid, timeout=30).get("result"), {}, "agent/prompt")
    return ed


@case
def pi_prompt_on_the_command_line():
    """askhost --stdio -- pi ... "prompt": the first prompt, and pi stays for the editor's next one."""
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], QUESTIONS)
    ed = pi_agent(wd, mock, PI_EXTENSION, prompt=None, words=["Set up the project."])
    answer(ed, {"answered": True, "answers": [option(DB_Q, "SQLite")]})
    check('"SQLite"' in mock.tool_result()["text"], "first answer delivered")
    a_second_turn(ed, mock, "pi")


@case
def pi_ask_user_other_and_free_text():
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], {"questions": LENIENT, "metadata": {"source": "project-setup"}})
    ed = pi_agent(wd, mock, PI_EXTENSION)
    shown = answer(ed, {"answered": True, "answers": [
        {"question": DB_Q, "answer": "DynamoDB", "wasCustom": True},
        {"question": NAME_Q, "answer": "order-processor", "wasCustom": True}]})
    equal(shown["agent"], "pi", "agent name")
    equal(shown["metadata"], {"source": "project-setup"}, "metadata")
    equal(shown["questions"][1]["options"], [], "a free-text question")
    res = mock.tool_result()
    equal(res["text"], f'User has answered your questions: "{DB_Q}"="DynamoDB", "{NAME_Q}"="order-processor".' + TAIL,
          "tool result")
    finish(ed, mock)


@case
def pi_ask_user_multiselect():
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], MULTI)
    ed = pi_agent(wd, mock, PI_EXTENSION)
    answer(ed, {"answered": True, "answers": [
        {"question": FEAT_Q, "answer": ["REST API", "Admin Dashboard"], "wasCustom": False}]})
    equal(mock.tool_result()["text"], f'User has answered your questions: "{FEAT_Q}"="REST API, Admin Dashboard".' + TAIL,
          "tool result")
    finish(ed, mock)


@case
def pi_ask_user_cancel():
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], QUESTIONS)
    ed = pi_agent(wd, mock, PI_EXTENSION)
    answer(ed, {"answered": False, "cancelled": True})
    equal(json.loads(mock.tool_result()["text"]), {"answered": False, "answers": [], "cancelled": True}, "tool result")
    finish(ed, mock)


@case
def pi_extension_dialogs():
    """pi's own select, input, confirm and editor dialogs, answered as questions."""
    wd = Workdir()
    mock = Mock(wd, ["dialogs"], {"kinds": ["select", "input", "confirm", "editor"]})
    ed = pi_agent(wd, mock, PI_DIALOGS)
    shown = answer(ed, {"answered": True, "answers": [option("Pick a color", "green")]})
    equal([o["label"] for o in shown["questions"][0]["options"]], ["red", "green", "blue"], "select options")
    shown = answer(ed, {"answered": True, "answers": [{"question": "Your name?", "answer": "Alice", "wasCustom": True}]})
    equal(shown["questions"][0]["options"], [], "input is free text")
    shown = answer(ed, {"answered": True, "answers": [option("Proceed?\n\nReally do it?", "Yes")]})
    shown = answer(ed, {"answered": True, "answers": [option("Edit text", "Keep it as it is")]})
    res = mock.tool_result()
    equal(res["text"], 'dialogs={"select":"green","input":"Alice","confirm":true,"editor":"line1\\nline2"}',
          "what the dialogs returned")
    ed.method("agent/output", timeout=TIMEOUT, where=lambda m: "dialogs: starting" in m["params"]["text"])
    finish(ed, mock)


@case
def pi_dialog_timeout_closes_it():
    wd = Workdir()
    mock = Mock(wd, ["dialogs"], {"kinds": ["timeout"]})
    ed = pi_agent(wd, mock, PI_DIALOGS)
    show = ed.method("ask/show", timeout=TIMEOUT)
    cancel = ed.method("$/cancelRequest", timeout=15)
    equal(cancel["params"]["id"], show["id"], "the dialog pi gave up on is closed")
    equal(mock.tool_result()["text"], "dialogs={}", "pi got no answer")
    finish(ed, mock)


@case
def pi_questions_command():
    """The extension's /questions shows and clears the pending questions (askhost questions)."""
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], QUESTIONS)
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    # A question left pending in the project, as `askhost mcp --print` leaves it (nobody to ask, no waiting).
    calls = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                 "name": "ask_user_question", "arguments": {"questions": QUESTIONS}}}]
    subprocess.run([ASKHOST, "mcp", "--print"], input="".join(json.dumps(c) + "\n" for c in calls).encode(), cwd=project,
                   env=wd.env(), capture_output=True, start_new_session=True, timeout=30)
    pending = os.path.join(project, ".askhost", "pending-questions.json")
    check(os.path.exists(pending), "a pending question to show")
    ed = pi_agent(wd, mock, PI_EXTENSION, prompt="/questions")
    ed.method("agent/output", timeout=TIMEOUT, where=lambda m: DB_Q in m["params"]["text"])
    rid = ed.request("agent/prompt", {"text": "/questions clear"})
    ed.result_of(rid, timeout=30)
    wait_for(lambda: not os.path.exists(pending) or not json.load(open(pending)).get("questions"), timeout=30,
             what="the pending questions to be cleared")
    check(not [r for r in mock.requests() if r.get("main")], "a command is not a model turn")
    finish(ed, mock)


@case
def pi_in_the_terminal():
    """askhost --tui -- pi ... "prompt": ask_user in the terminal dialog, an Other answer typed."""
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], QUESTIONS)
    pi, project = pi_setup(wd, mock)
    env = agent_env(wd, mock)
    passed = ["%s=%s" % (k, env[k]) for k in ("HOME", "TMPDIR", "PI_CODING_AGENT_DIR", "PI_OFFLINE", "PI_TELEMETRY")]
    argv = [pi, *PI_FLAGS, "-e", PI_EXTENSION,
            "Set up the project."]
    t = Tmux(wd, ["env"] + passed + [ASKHOST, "--tui", "--"] + argv, height=30)
    try:
        t.wait_screen("> 1. PostgreSQL (Recommended)", timeout=TIMEOUT)
        t.keys("0")  # Other
        t.text("DynamoDB")
        t.keys("Enter")
        equal(mock.tool_result()["text"], f'User has answered your questions: "{DB_Q}"="DynamoDB".' + TAIL,
              "tool result")
        t.wait_screen("All set.", timeout=TIMEOUT)
        equal(t.exit_status(timeout=TIMEOUT), 0, "askhost ends with pi's turn")
    finally:
        t.kill()
        mock.stop()


if __name__ == "__main__":
    raise SystemExit(run_cases())
