"""REQ-AUQ-005 with the real agent CLIs where the agent does not mark a sub-agent's call itself
(docs/subagents.md): Claude Code's sub-agent through `askhost mcp` alone (no hook, askhost not
running Claude), and a pi sub-agent (pi's own subagent example extension) with the ask_user
extension. Offline against the mock model API, as tests/e2e/test_agents.py."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ASKHOST, ROOT, Editor, Workdir, case, check, equal, wait_for  # noqa: E402
from e2e_common import (CLAUDE, PI_FLAGS, finish, on_each_claude, pi_setup, TIMEOUT, Mock, agent_bin,  # noqa: E402
                        agent_env, run_cases)

REFUSAL = "Only the main conversation can ask the user questions"
SUB_PROMPT = "Ask the user which database to use."
QUESTIONS = [{"question": "Which database should we use?", "header": "Database", "options": [
    {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
    {"label": "SQLite", "description": "Lightweight, file-based"}]}]


def subagent_result(mock):
    found = wait_for(lambda: [r for r in mock.requests() if r.get("subagent") and "tool_result" in r],
                     timeout=TIMEOUT, what="the sub-agent's tool result")
    return found[0]["tool_result"]


@on_each_claude
def claude_subagent_refused_through_mcp_alone(version):
    """claude -p with `askhost mcp --print` as its only way to ask: the sub-agent's call carries
    nothing but its tool_use id; askhost finds it in the sub-agent's transcript and refuses it.
    (Newer Claude Code runs the sub-agent in the background and tells the main conversation when
    it is done: the mock starts it once.)"""
    wd = Workdir()
    mock = Mock(wd, ["Agent"], {"description": "Pick a database", "prompt": SUB_PROMPT,
                                "subagent_type": "general-purpose"},
                subagent={"prompt": SUB_PROMPT, "tools": ["mcp__ask__ask_user_question"],
                          "input": {"questions": QUESTIONS}}, wait_for_subagent=True, ask_once=True)
    claude = agent_bin(CLAUDE, "claude", version)
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    config = {"mcpServers": {"ask": {"type": "stdio", "command": ASKHOST, "args": ["mcp", "--print"]}}}
    r = subprocess.run([claude, "-p", "Go.", "--mcp-config", json.dumps(config), "--strict-mcp-config",
                        "--allowedTools", "mcp__ask__ask_user_question"], cwd=project,
                       env=agent_env(wd, mock, IS_SANDBOX="1"), capture_output=True, timeout=TIMEOUT,
                       stdin=subprocess.DEVNULL)
    mock.stop()
    equal(r.returncode, 0, "exit status (stderr: %r)" % r.stderr.decode()[-500:])
    res = subagent_result(mock)
    equal(res["is_error"], True, "is_error")
    check(REFUSAL in res["text"], f"the sub-agent reads: {res['text']!r}")
    check(not os.path.exists(os.path.join(project, ".askhost", "pending-questions.json")), "nothing pending")


@on_each_claude
def claude_main_conversation_asked_through_mcp_alone(version):
    """The same route, the main conversation's call: asked (the pending file, in print mode)."""
    wd = Workdir()
    mock = Mock(wd, ["mcp__ask__ask_user_question"], {"questions": QUESTIONS})
    claude = agent_bin(CLAUDE, "claude", version)
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    config = {"mcpServers": {"ask": {"type": "stdio", "command": ASKHOST, "args": ["mcp", "--print"]}}}
    r = subprocess.run([claude, "-p", "Go.", "--mcp-config", json.dumps(config), "--strict-mcp-config",
                        "--allowedTools", "mcp__ask__ask_user_question"], cwd=project,
                       env=agent_env(wd, mock, IS_SANDBOX="1"), capture_output=True, timeout=TIMEOUT,
                       stdin=subprocess.DEVNULL)
    mock.stop()
    equal(r.returncode, 0, "exit status (stderr: %r)" % r.stderr.decode()[-500:])
    res = mock.tool_result()
    check("pending-questions.json" in res["text"], f"tool result: {res['text']!r}")
    with open(os.path.join(project, ".askhost", "pending-questions.json")) as f:
        equal([q["question"] for q in json.load(f)["questions"]], [QUESTIONS[0]["question"]], "asked: pending")


@case
def pi_subagent_refused():
    """askhost runs pi with pi's own subagent extension; the sub-agent (a `pi --mode json -p` the
    extension starts) loads ask_user from the agent folder and asks: refused, nothing shown."""
    wd = Workdir()
    mock = Mock(wd, ["subagent"], {"agent": "worker", "task": SUB_PROMPT},
                subagent={"prompt": SUB_PROMPT, "tools": ["ask_user"], "input": {"questions": QUESTIONS}})
    pi, project = pi_setup(wd, mock)
    agent_dir = wd.file("pi_agent")
    examples = os.path.join(os.path.dirname(os.path.dirname(pi)), "@mariozechner", "pi-coding-agent", "examples",
                            "extensions")
    with open(os.path.join(agent_dir, "settings.json"), "w") as f:
        json.dump({"defaultProvider": "mock", "defaultModel": "mock-model"}, f)
    os.makedirs(os.path.join(agent_dir, "agents"), exist_ok=True)
    with open(os.path.join(agent_dir, "agents", "worker.md"), "w") as f:
        f.write("---\nname: worker\ndescription: Does one task\n---\n\nDo the task.\n")
    os.makedirs(os.path.join(agent_dir, "extensions"), exist_ok=True)
    os.symlink(os.path.join(ROOT, "plugins", "pi", "extension", "ask_user.ts"),
               os.path.join(agent_dir, "extensions", "ask_user.ts"))
    ed = Editor(wd, [], env=agent_env(wd, mock))
    ed.initialize(name="e2e-editor")
    argv = [pi, *PI_FLAGS, "-e", os.path.join(examples, "subagent", "index.ts"),
            "-e", os.path.join(ROOT, "plugins", "pi", "extension", "ask_user.ts")]
    rid = ed.request("agent/start", {"command": argv, "cwd": project})
    check("pid" in ed.result_of(rid, timeout=30).get("result", {}), "agent/start")
    rid = ed.request("agent/prompt", {"text": "Set up the project."})
    equal(ed.result_of(rid, timeout=30).get("result"), {}, "agent/prompt")
    res = subagent_result(mock)
    check(REFUSAL in res["text"], f"the sub-agent reads: {res['text']!r}")
    main = wait_for(lambda: [r for r in mock.requests() if r.get("main") and not r.get("subagent")
                             and "tool_result" in r], timeout=TIMEOUT, what="the main conversation's tool result")
    check(main, "the main conversation went on")
    check(not [m for m in ed.seen if m.get("method") == "ask/show"], "nothing was asked")
    finish(ed, mock)


if __name__ == "__main__":
    raise SystemExit(run_cases())
