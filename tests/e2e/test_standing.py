"""Agents in their own terminal UIs (tmux), offline against the mock model API, asking through
`askhost mcp` with nothing of askhost's in their environment: Codex and Gemini CLI answered from
an editor client of a standing host that has the project open; Codex with no host, its question
waiting past a minute and answered by `askhost attach` from another tmux window."""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ASKHOST, Editor, Tmux, Workdir, case, check, equal, wait_for  # noqa: E402
from e2e_common import (TIMEOUT, Mock, agent_bin, agent_env, cleanup_codex, doc_snippet,  # noqa: E402
                        leave_the_shared_folder_as_found, run_cases, shared_registry_env, with_askhost_on_path,
                        write_codex_config)

DB_Q = "Which database should we use?"
DATABASE = {"question": DB_Q, "header": "Database", "multiSelect": False, "options": [
    {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
    {"label": "SQLite", "description": "Lightweight, file-based"},
    {"label": "MongoDB", "description": "Document store"}]}
CODEX_TOOLS = ["mcp__ask__ask_user_question", "ask_user_question"]


def codex_tui(wd, mock, project):
    leave_the_shared_folder_as_found()
    codex = agent_bin("openai-codex", "codex")
    # Configured as docs/mcp.md says (its snippet, askhost by name on PATH).
    write_codex_config(wd, mock, ask_server=doc_snippet("codex"),
                       extra=f'[projects."{project}"]\ntrust_level = "trusted"\n')
    env = with_askhost_on_path(agent_env(wd, mock))
    keep = ("HOME", "CODEX_HOME", "MOCK_API_KEY", "NO_PROXY", "no_proxy", "PATH", "LANG")
    env.setdefault("LANG", "C.UTF-8")
    t = Tmux(wd, ["sh", "-c", 'cd "$0" && exec env -u XDG_RUNTIME_DIR "$@"', project]
             + ["%s=%s" % (k, env[k]) for k in keep if k in env] + [codex], width=120, height=40)
    return t


def type_prompt(t, text, ready):
    t.wait_screen(ready, timeout=TIMEOUT)
    time.sleep(0.5)
    t.text(text)
    t.wait_screen(text, timeout=30)
    t.keys("Enter")
    t.wait_screen("Working", timeout=TIMEOUT)


@case
def codex_tui_asks_in_the_editor_of_its_workspace():
    wd = Workdir()
    project = os.path.realpath(wd.file("project"))
    os.makedirs(project)
    mock = Mock(wd, CODEX_TOOLS, [DATABASE])
    ed = Editor(wd, env=shared_registry_env(wd))
    ed.initialize(name="e2e-editor", folders=[project])
    t = codex_tui(wd, mock, project)
    try:
        type_prompt(t, "Set up the project.", "Ask Codex to do anything")
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("codex", "mcp"), "named as Codex's, through MCP")
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": DB_Q, "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False}]})
        res = mock.tool_result()
        check(res["text"].endswith('"answers":{"%s":"SQLite"}}' % DB_Q), "what the model read: " + res["text"])
        screen = t.wait_screen("All set.", timeout=TIMEOUT)
        # Nothing of a dialog was drawn over Codex (its own UI shows the call and its result).
        check(not any(mark in screen for mark in ("Other (type your answer)", "Enter to select", "> 1. PostgreSQL")),
              "Codex's screen is its own:\n" + screen)
        check("Called ask.ask_user_question" in screen, "Codex shows the call:\n" + screen)
    finally:
        t.kill()
        mock.stop()
        cleanup_codex(wd)


@case
def codex_tui_with_no_host_waits_past_a_minute_for_attach():
    wd = Workdir()
    project = os.path.realpath(wd.file("project"))
    os.makedirs(project)
    mock = Mock(wd, CODEX_TOOLS, [DATABASE])
    t = codex_tui(wd, mock, project)
    try:
        type_prompt(t, "Set up the project.", "Ask Codex to do anything")
        # askhost mcp waits as a host of its own, registered for the project.
        wait_for(lambda: os.path.exists(os.path.join(project, ".askhost", "pending-questions.json")),
                 timeout=TIMEOUT, what="the question waiting")
        time.sleep(65)  # past a minute: the question still waits, nothing reached the model
        equal([r for r in mock.requests() if "tool_result" in r], [], "no result yet")
        a = Tmux(wd, ["env", "-u", "XDG_RUNTIME_DIR", "sh", "-c", 'cd "$0" && exec "$@"', project, ASKHOST, "attach"],
                 env=shared_registry_env(wd))
        try:
            a.wait_screen("> 1. PostgreSQL (Recommended)", timeout=30)
            a.keys("3")  # MongoDB
            res = mock.tool_result()
            check(res["text"].endswith('"answers":{"%s":"MongoDB"}}' % DB_Q), "what the model read: " + res["text"])
        finally:
            a.kill()
        t.wait_screen("All set.", timeout=TIMEOUT)
    finally:
        t.kill()
        mock.stop()
        cleanup_codex(wd)


@case
def codex_tui_in_tmux_with_no_editor_asks_in_a_popup_over_its_pane():
    """No editor: the question opens in a tmux popup over Codex's own pane (its server gets no TMUX
    and no terminal: the pane is found from its parent processes), answered with keys."""
    wd = Workdir()
    wd.popups = True
    project = os.path.realpath(wd.file("project"))
    os.makedirs(project)
    mock = Mock(wd, CODEX_TOOLS, [DATABASE])
    t = codex_tui(wd, mock, project)  # the agent's session, on its own tmux server
    outer = "askhost-look-%d" % os.getpid()
    # A terminal that looks at Codex's session: a tmux client of that server, in a second server.
    subprocess.run(["tmux", "-L", outer, "-f", "/dev/null", "new-session", "-d", "-s", "look", "-x", "130", "-y", "45",
                    "env", "-u", "TMUX", "tmux", "-L", t.name, "attach"], check=True)

    def screen():
        return subprocess.run(["tmux", "-L", outer, "capture-pane", "-p", "-t", "look"], capture_output=True,
                              text=True).stdout
    try:
        type_prompt(t, "Set up the project.", "Ask Codex to do anything")
        wait_for(lambda: "Other (type your answer)" in screen() and "┌" in screen(), timeout=TIMEOUT,
                 what="the popup over Codex")
        check("Codex" in screen() or "Working" in screen(), "Codex's screen under the popup:\n" + screen())
        time.sleep(0.5)  # the popup's key guard
        subprocess.run(["tmux", "-L", outer, "send-keys", "-t", "look", "2"], check=True)
        res = mock.tool_result()
        check(res["text"].endswith('"answers":{"%s":"SQLite"}}' % DB_Q), "what the model read: " + res["text"])
        t.wait_screen("All set.", timeout=TIMEOUT)
        check("Other (type your answer)" not in t.screen(), "the popup is gone:\n" + t.screen())
    finally:
        subprocess.run(["tmux", "-L", outer, "kill-server"], capture_output=True)
        t.kill()
        mock.stop()
        cleanup_codex(wd)


def gemini_tui(wd, mock, project):
    gemini = agent_bin("google-gemini-cli", "gemini")
    env = with_askhost_on_path(agent_env(wd, mock, GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{mock.port}",
                                         GEMINI_API_KEY="dummy"))
    os.makedirs(os.path.join(env["HOME"], ".gemini"), exist_ok=True)
    with open(os.path.join(env["HOME"], ".gemini", "settings.json"), "w") as f:
        # The MCP server as docs/mcp.md says (its snippet, askhost by name on PATH).
        json.dump({"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                   "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
                   **json.loads(doc_snippet("gemini"))}, f)
    keep = ("HOME", "GOOGLE_GEMINI_BASE_URL", "GEMINI_API_KEY", "NO_PROXY", "no_proxy", "PATH", "XDG_RUNTIME_DIR")
    env.setdefault("LANG", "C.UTF-8")
    return Tmux(wd, ["sh", "-c", 'cd "$0" && exec env "$@"', project]
                + ["%s=%s" % (k, env[k]) for k in keep if k in env] + [gemini, "-i", "Set up the project."],
                width=120, height=40)


@case
def gemini_tui_asks_in_the_editor_of_its_workspace():
    """Gemini's TUI keeps the terminal raw and offers no elicitation: the editor is asked, nothing drawn."""
    wd = Workdir()
    project = os.path.realpath(wd.file("project"))
    os.makedirs(project)
    mock = Mock(wd, ["mcp_ask_ask_user_question", "ask_user_question"], [DATABASE])
    ed = Editor(wd)
    ed.initialize(name="e2e-editor", folders=[project])
    t = gemini_tui(wd, mock, project)
    try:
        show = ed.method("ask/show", timeout=TIMEOUT)
        equal((show["params"]["agent"], show["params"]["route"]), ("gemini", "mcp"), "named as Gemini's, through MCP")
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": DB_Q, "answer": "PostgreSQL (Recommended)", "selectedOption": "PostgreSQL (Recommended)",
             "wasCustom": False}]})
        res = mock.tool_result()
        check("PostgreSQL (Recommended)" in res["text"], "what the model read: " + res["text"])
        screen = t.wait_screen("All set.", timeout=TIMEOUT)
        check(not any(mark in screen for mark in ("Other (type your answer)", "Enter to select")),
              "Gemini's screen is its own:\n" + screen)
    finally:
        t.kill()
        mock.stop()


if __name__ == "__main__":
    raise SystemExit(run_cases())
