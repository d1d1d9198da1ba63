"""The agents' own question tools, caught by askhost's hooks: the real Gemini CLI (ask_user, through
`askhost gemini-hook install`) and Codex in Plan mode (request_user_input, through `askhost
codex-hook install`), each in its own terminal UI in tmux, offline against the mock model API.
An editor's standing host with the project open answers; the model's next request holds the
answer; the agent's own dialog never drew. With nowhere to show the question, Gemini's own dialog
opens at once and answering it works."""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ASKHOST, Editor, Tmux, Workdir, case, check, equal, wait_for  # noqa: E402
from e2e_common import (TIMEOUT, Mock, agent_bin, agent_env, cleanup_codex, finish,  # noqa: E402
                        leave_the_shared_folder_as_found, run_cases, shared_registry_env, write_codex_config)

DB_Q = "Which database should we use?"
FEAT_Q = "Which features should we include?"
GEMINI_DB = {"question": DB_Q, "header": "Database", "type": "choice", "multiSelect": False, "options": [
    {"label": "PostgreSQL", "description": "Battle-tested relational DB"},
    {"label": "SQLite", "description": "Lightweight, file-based"}]}
GEMINI_FEATURES = {"question": FEAT_Q, "header": "Features", "type": "choice", "multiSelect": True, "options": [
    {"label": "Auth", "description": "Sign-in and sessions"},
    {"label": "Search", "description": "Full-text search"},
    {"label": "Export", "description": "CSV export"}]}


# What Gemini CLI 0.61.0's own ask_user dialog shows (its title, its custom-value row, its keys).
GEMINI_DIALOG = ("Answer Questions", "Enter a custom value", "Enter to select")


def project_of(wd):
    project = os.path.realpath(wd.file("project"))
    os.makedirs(project, exist_ok=True)
    return project


def gemini_tui(wd, mock, project):
    """Gemini CLI in its TUI with askhost's hooks installed as docs/gemini.md says (and no MCP server)."""
    gemini = agent_bin("google-gemini-cli", "gemini")
    env = agent_env(wd, mock, GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{mock.port}", GEMINI_API_KEY="dummy")
    os.makedirs(os.path.join(env["HOME"], ".gemini"), exist_ok=True)
    with open(os.path.join(env["HOME"], ".gemini", "settings.json"), "w") as f:
        json.dump({"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                   "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}}}, f)
    r = subprocess.run([ASKHOST, "gemini-hook", "install"], env=env, capture_output=True, text=True)
    equal(r.returncode, 0, "install: " + r.stderr)
    keep = ("HOME", "GOOGLE_GEMINI_BASE_URL", "GEMINI_API_KEY", "NO_PROXY", "no_proxy", "PATH", "XDG_RUNTIME_DIR")
    env.setdefault("LANG", "C.UTF-8")
    return Tmux(wd, ["sh", "-c", 'cd "$0" && exec env "$@"', project]
                + ["%s=%s" % (k, env[k]) for k in keep if k in env] + [gemini, "-i", "Set up the project."],
                width=120, height=40)


@case
def gemini_ask_user_answered_in_the_editor():
    """Two questions, one multi-select: the editor gets both intact, its answer reaches the model in
    words, in question order; Gemini's own dialog never drew."""
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["ask_user"], [GEMINI_DB, GEMINI_FEATURES])
    ed = Editor(wd)
    ed.initialize(name="e2e-editor", folders=[project])
    t = gemini_tui(wd, mock, project)
    try:
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("gemini", "hook"), "named as Gemini's, through its hook")
        qs = p["questions"]
        equal([(q["question"], q.get("header"), bool(q.get("multiSelect"))) for q in qs],
              [(DB_Q, "Database", False), (FEAT_Q, "Features", True)], "both questions intact")
        equal([[(o["label"], o.get("description")) for o in q["options"]] for q in qs],
              [[(o["label"], o["description"]) for o in GEMINI_DB["options"]],
               [(o["label"], o["description"]) for o in GEMINI_FEATURES["options"]]], "their options")
        check(not any(m in t.screen() for m in GEMINI_DIALOG), "no dialog of Gemini's while asking:\n" + t.screen())
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": DB_Q, "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False},
            {"question": FEAT_Q, "answer": ["Auth", "Export"], "wasCustom": False}]})
        res = mock.tool_result()
        text = res["text"]
        check(text.startswith("Tool execution blocked: The user answered your questions"), "what the model read: " + text)
        check('"%s"="SQLite", "%s"="Auth, Export".' % (DB_Q, FEAT_Q) in text, "the answers in order: " + text)
        screen = t.wait_screen("All set.", timeout=TIMEOUT)
        check(not any(m in screen for m in GEMINI_DIALOG), "Gemini's dialog never drew:\n" + screen)
        finish(ed, mock)
    finally:
        t.kill()
        mock.stop()


@case
def gemini_with_nowhere_to_show_opens_its_own_dialog():
    """No editor's host, no tmux client, no askhost web: the hook gives the question back at once
    and Gemini's own dialog asks; its answer reaches the model as Gemini's own result."""
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["ask_user"], [GEMINI_DB])
    t = gemini_tui(wd, mock, project)
    try:
        t.wait_screen("Answer Questions", timeout=TIMEOUT)
        t.wait_screen("Lightweight, file-based", timeout=10)
        time.sleep(0.5)  # at a person's pace
        t.keys("Down")
        time.sleep(0.3)
        t.keys("Enter")
        t.wait_screen("Database → SQLite", timeout=30)
        res = mock.tool_result()
        check(not res["is_error"] and "SQLite" in res["text"], "Gemini's own result: " + res["text"])
        t.wait_screen("All set.", timeout=TIMEOUT)
    finally:
        t.kill()
        mock.stop()


@case
def gemini_in_tmux_with_no_editor_asks_in_a_popup_over_its_pane():
    """No editor, a tmux client looking at Gemini's pane: somewhere to show, so the question opens in
    a popup over that pane (askhost's own dialog), answered with keys; Gemini's dialog never drew."""
    wd = Workdir()
    wd.popups = True
    project = project_of(wd)
    mock = Mock(wd, ["ask_user"], [GEMINI_DB])
    t = gemini_tui(wd, mock, project)
    outer = "askhost-look-%d" % os.getpid()
    # A terminal that looks at Gemini's session: a tmux client of that server, in a second server.
    subprocess.run(["tmux", "-L", outer, "-f", "/dev/null", "new-session", "-d", "-s", "look", "-x", "130", "-y", "45",
                    "env", "-u", "TMUX", "tmux", "-L", t.name, "attach"], check=True)

    def screen():
        return subprocess.run(["tmux", "-L", outer, "capture-pane", "-p", "-t", "look"], capture_output=True,
                              text=True).stdout
    try:
        wait_for(lambda: "Other (type your answer)" in screen() and "┌" in screen(), timeout=TIMEOUT,
                 what="the popup over Gemini")
        check(not any(m in screen() for m in GEMINI_DIALOG), "Gemini's dialog is not open:\n" + screen())
        time.sleep(0.5)  # the popup's key guard
        subprocess.run(["tmux", "-L", outer, "send-keys", "-t", "look", "2"], check=True)
        res = mock.tool_result()
        check('"%s"="SQLite".' % DB_Q in res["text"], "what the model read: " + res["text"])
        t.wait_screen("All set.", timeout=TIMEOUT)
        check(not any(m in t.screen() for m in GEMINI_DIALOG), "Gemini's dialog never drew:\n" + t.screen())
    finally:
        subprocess.run(["tmux", "-L", outer, "kill-server"], capture_output=True)
        t.kill()
        mock.stop()


def codex_plan_tui(wd, mock, project):
    """The Codex TUI with askhost's hooks installed as docs/codex.md says, no MCP server, in Plan
    mode (Shift+Tab), hooks run without /hooks trust (the flag the tests use)."""
    leave_the_shared_folder_as_found()
    codex = agent_bin("openai-codex", "codex")
    write_codex_config(wd, mock, ask_server="", extra=f'[projects."{project}"]\ntrust_level = "trusted"\n')
    env = agent_env(wd, mock)
    r = subprocess.run([ASKHOST, "codex-hook", "install"], env=env, capture_output=True, text=True)
    equal(r.returncode, 0, "install: " + r.stderr)
    # As in test_standing: the editor's host and the hook meet in the registry askhost picks
    # without XDG_RUNTIME_DIR, whatever Codex passes its hooks.
    keep = ("HOME", "CODEX_HOME", "MOCK_API_KEY", "NO_PROXY", "no_proxy", "PATH", "LANG")
    env.setdefault("LANG", "C.UTF-8")
    return Tmux(wd, ["sh", "-c", 'cd "$0" && exec env -u XDG_RUNTIME_DIR "$@"', project]
                + ["%s=%s" % (k, env[k]) for k in keep if k in env] + [codex, "--dangerously-bypass-hook-trust"],
                width=120, height=40)


CODEX_QUESTIONS = [
    {"id": "database", "header": "Database", "question": DB_Q, "options": [
        {"label": "PostgreSQL (Recommended)", "description": "Battle-tested"},
        {"label": "SQLite", "description": "Lightweight, file-based"}]},
    {"id": "service_name", "header": "Name", "question": "What should we name the service?", "options": [
        {"label": "orders", "description": "After the domain"}, {"label": "api", "description": "Short"}]}]


@case
def codex_plan_mode_question_answered_in_the_editor():
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["request_user_input"], {"questions": CODEX_QUESTIONS})
    ed = Editor(wd, env=shared_registry_env(wd))
    ed.initialize(name="e2e-editor", folders=[project])
    t = codex_plan_tui(wd, mock, project)
    try:
        t.wait_screen("Ask Codex to do anything", timeout=TIMEOUT)
        # Plan mode: Shift+Tab, again if Codex was not yet taking keys.
        wait_for(lambda: "Plan mode" in t.screen() or t.keys("BTab") or time.sleep(2), timeout=30,
                 what="Codex in Plan mode")
        t.text("Plan the project.")
        t.wait_screen("Plan the project.", timeout=30)
        t.keys("Enter")
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("codex", "hook"), "named as Codex's, through its hook")
        equal([q["question"] for q in p["questions"]], [q["question"] for q in CODEX_QUESTIONS], "both questions")
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": DB_Q, "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False},
            {"question": CODEX_QUESTIONS[1]["question"], "answer": "order-service", "wasCustom": True}]})
        res = mock.tool_result()
        check(res["text"].startswith("Tool call blocked by PreToolUse hook: The user answered your questions"),
              "what the model read: " + res["text"])
        check('[database] "%s"="SQLite", [service_name] "%s"="order-service".' % (DB_Q, CODEX_QUESTIONS[1]["question"])
              in res["text"], "what the model read: " + res["text"])
        screen = t.wait_screen("All set.", timeout=TIMEOUT)
        check("Lightweight, file-based" not in screen, "Codex's dialog never drew:\n" + screen)
        finish(ed, mock)
    finally:
        t.kill()
        mock.stop()
        cleanup_codex(wd)


@case
def codex_with_nowhere_to_show_opens_its_own_dialog():
    """No editor's host, no tmux client, no askhost web: Codex draws its own dialog at once and its
    answer reaches the model as Codex's own result."""
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["request_user_input"], {"questions": CODEX_QUESTIONS[:1]})
    t = codex_plan_tui(wd, mock, project)
    try:
        t.wait_screen("Ask Codex to do anything", timeout=TIMEOUT)
        wait_for(lambda: "Plan mode" in t.screen() or t.keys("BTab") or time.sleep(2), timeout=30,
                 what="Codex in Plan mode")
        t.text("Plan the project.")
        t.wait_screen("Plan the project.", timeout=30)
        t.keys("Enter")
        t.wait_screen("Lightweight, file-based", timeout=TIMEOUT)
        time.sleep(0.5)  # at a person's pace
        t.keys("Down")
        time.sleep(0.3)
        t.keys("Enter")
        res = mock.tool_result()
        check("SQLite" in res["text"] and "blocked" not in res["text"], "Codex's own result: " + res["text"])
        t.wait_screen("All set.", timeout=TIMEOUT)
    finally:
        t.kill()
        mock.stop()
        cleanup_codex(wd)


if __name__ == "__main__":
    raise SystemExit(run_cases())
