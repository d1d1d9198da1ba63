"""Agents in their own terminal UIs (tmux), offline against the mock model API, asking through
`askhost mcp` with nothing of askhost's in their environment: Codex and Gemini CLI answered from
an editor client of a standing host that has the project open; Codex with no host, its question
waiting past a minute and answered by `askhost attach` from another tmux window."""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ASKHOST, Tmux, Workdir, case, check, equal, wait_for  # noqa: E402
from e2e_common import (TIMEOUT, CodexTui, GeminiTui, Mock, TmuxLook, answer_in_a_popup, project_of,  # noqa: E402
                        run_cases, shared_registry_env, standing_editor)

DB_Q = "Which database should we use?"
DATABASE = {"question": DB_Q, "header": "Database", "multiSelect": False, "options": [
    {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
    {"label": "SQLite", "description": "Lightweight, file-based"},
    {"label": "MongoDB", "description": "Document store"}]}
CODEX_TOOLS = ["mcp__ask__ask_user_question", "ask_user_question"]


@case
def codex_tui_asks_in_the_editor_of_its_workspace():
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, CODEX_TOOLS, [DATABASE])
    ed = standing_editor(wd, project, env=shared_registry_env(wd))
    with CodexTui(wd, mock, project) as codex:
        t = codex.t
        codex.prompt("Set up the project.")
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


@case
def codex_tui_with_no_host_waits_past_a_minute_for_attach():
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, CODEX_TOOLS, [DATABASE])
    with CodexTui(wd, mock, project) as codex:
        t = codex.t
        codex.prompt("Set up the project.")
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


@case
def codex_tui_in_tmux_with_no_editor_asks_in_a_popup_over_its_pane():
    """No editor: the question opens in a tmux popup over Codex's own pane (its server gets no TMUX
    and no terminal: the pane is found from its parent processes), answered with keys."""
    wd = Workdir()
    wd.popups = True
    project = project_of(wd)
    mock = Mock(wd, CODEX_TOOLS, [DATABASE])
    with CodexTui(wd, mock, project) as codex:  # the agent's session, on its own tmux server
        look = TmuxLook(codex)
        codex.prompt("Set up the project.")
        answer_in_a_popup(codex, look, ["2"], under=("Codex", "Working"))  # SQLite
        res = mock.tool_result()
        check(res["text"].endswith('"answers":{"%s":"SQLite"}}' % DB_Q), "what the model read: " + res["text"])
        codex.t.wait_screen("All set.", timeout=TIMEOUT)
        check("Other (type your answer)" not in look.screen(), "the popup is gone:\n" + look.screen())


@case
def gemini_tui_asks_in_the_editor_of_its_workspace():
    """Gemini's TUI keeps the terminal raw and offers no elicitation: the editor is asked, nothing drawn."""
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["mcp_ask_ask_user_question", "ask_user_question"], [DATABASE])
    ed = standing_editor(wd, project)
    with GeminiTui(wd, mock, project) as gemini:
        t = gemini.t
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


if __name__ == "__main__":
    raise SystemExit(run_cases())
