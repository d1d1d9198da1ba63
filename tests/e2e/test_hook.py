"""Claude Code in its own terminal UI (tmux), offline against the mock model API, with `askhost
hook` in its settings: its AskUserQuestion and a Bash permission are answered from an editor
client of a standing host that has the project open; with no host, Claude's own dialog appears
and is answered with keys. The assertions are on what the model API received. Each case runs on the
pinned Claude Code and again on each newer one ./dev installs (CASE@VERSION)."""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ASKHOST, Tmux, Workdir, check, equal, wait_for  # noqa: E402
from e2e_common import (CLAUDE_CHANGED_AFTER, TIMEOUT, ClaudeTui, Mock, on_each_claude, on_newer_claude,  # noqa: E402
                        project_of, run_cases, standing_editor, version_key)


DB_Q = "Which database should we use?"
FEAT_Q = "Which features should we include?"
DATABASE = {"question": DB_Q, "header": "Database", "multiSelect": False, "options": [
    {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
    {"label": "SQLite", "description": "Lightweight, file-based"},
    {"label": "MongoDB", "description": "Document store"}]}
FEATURES = {"question": FEAT_Q, "header": "Features", "multiSelect": True, "options": [
    {"label": "Authentication", "description": "OAuth2 + JWT"},
    {"label": "REST API", "description": "OpenAPI spec included"},
    {"label": "Admin Dashboard", "description": "A web UI"}]}
TAIL = " You can now continue with these answers in mind."


def model_reads(version, answers, labels_only=True):
    """The tool result Claude's model reads for these answers (`"q"="a", ...`)."""
    if labels_only or version_key(version) <= version_key(CLAUDE_CHANGED_AFTER):
        return f"Your questions have been answered: {answers}." + TAIL
    return (f"The user answered: {answers}. Read the answers carefully \u2014 they may request clarification, "
            "changes, or that you not proceed \u2014 and follow what they actually say.")


@on_each_claude
def claude_tui_question_answered_in_the_editor(version):
    """AskUserQuestion (a single choice and a multi-select) answered in the editor of the workspace."""
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], [DATABASE, FEATURES])
    with ClaudeTui(wd, mock, version=version) as c:
        ed = standing_editor(wd, c.project)
        c.prompt("Set up the project.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("claude", "hook"), "named as Claude's, through the hook")
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": DB_Q, "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False},
            {"question": FEAT_Q, "answer": ["Authentication", "REST API"], "wasCustom": False}]})
        equal(mock.tool_result()["text"],
              f'Your questions have been answered: "{DB_Q}"="SQLite", "{FEAT_Q}"="Authentication, REST API".' + TAIL,
              "what the model read")
        c.t.wait_screen("All set.", timeout=TIMEOUT)


@on_newer_claude
def claude_tui_in_auto_mode_question_answered_in_the_editor(version):
    """Claude's defaults as they come (auto mode, its notice on screen): its AskUserQuestion still
    goes through the hook to the editor, and the answer reaches the model."""
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], [DATABASE])
    with ClaudeTui(wd, mock, version=version, its_defaults=True) as c:
        ed = standing_editor(wd, c.project)
        c.wait_ready()
        c.t.wait_screen("auto mode on", timeout=TIMEOUT)
        c.prompt("Set up the project.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        equal((show["params"]["agent"], show["params"]["route"]), ("claude", "hook"), "named as Claude's, through the hook")
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": DB_Q, "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False}]})
        equal(mock.tool_result()["text"], model_reads(version, f'"{DB_Q}"="SQLite"'), "what the model read")
        c.t.wait_screen("All set.", timeout=TIMEOUT)


@on_each_claude
def claude_tui_typed_answer_from_the_editor(version):
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], [DATABASE])
    with ClaudeTui(wd, mock, version=version) as c:
        ed = standing_editor(wd, c.project)
        c.prompt("Set up the project.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        ed.reply(show["id"], {"answered": True, "answers": [{"question": DB_Q, "answer": "DuckDB", "wasCustom": True}]})
        equal(mock.tool_result()["text"], model_reads(c.version, f'"{DB_Q}"="DuckDB"', labels_only=False),
              "what the model read")


@on_each_claude
def claude_tui_question_cancelled_in_the_editor_is_a_decline(version):
    """A cancel in the editor: the model reads the decline as an error, never an empty answer."""
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], [DATABASE])
    with ClaudeTui(wd, mock, version=version) as c:
        ed = standing_editor(wd, c.project)
        c.prompt("Set up the project.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        ed.reply(show["id"], {"answered": False, "cancelled": True})
        res = mock.tool_result()
        equal(res["is_error"], True, "an error result: " + res["text"])
        check("User declined to answer questions" in res["text"], "the decline: " + res["text"])
        c.t.wait_screen("All set.", timeout=TIMEOUT)


@on_each_claude
def claude_tui_esc_in_claude_withdraws_the_editors_question(version):
    """Esc in Claude while the hook waits: Claude ends the hook, and the editor's question goes."""
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], [DATABASE])
    with ClaudeTui(wd, mock, version=version) as c:
        ed = standing_editor(wd, c.project)
        c.prompt("Set up the project.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        c.t.wait_screen("esc to interrupt", timeout=TIMEOUT)
        time.sleep(1.0)
        c.t.keys("Escape")
        cancel = ed.method("$/cancelRequest", timeout=TIMEOUT)
        equal(cancel["params"]["id"], show["id"], "the editor's question is withdrawn")


@on_each_claude
def claude_tui_bash_permission_from_the_editor(version):
    wd = Workdir()
    mock = Mock(wd, ["Bash"], {"command": "touch made-by-bash.txt", "description": "List files"})
    with ClaudeTui(wd, mock, version=version) as c:
        ed = standing_editor(wd, c.project)
        c.prompt("Make the marker file.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        q = show["params"]["questions"][0]
        check(q["question"].startswith("Allow Bash: touch made-by-bash.txt"), "the command first: " + q["question"])
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": q["question"], "answer": "Allow", "selectedOption": "Allow", "wasCustom": False}]})
        res = mock.tool_result()
        equal(res["is_error"], False, "the command ran: " + res["text"])
        wait_for(lambda: os.path.exists(os.path.join(c.project, "made-by-bash.txt")), timeout=TIMEOUT,
                 what="the file Bash made")


@on_each_claude
def claude_tui_edit_permission_carries_the_text_it_replaces(version):
    """An Edit of a file Claude has read asks with the text it replaces beside its new text: the
    editor's typed permission holds both, whole, and its Allow makes the edit."""
    wd = Workdir()
    target = os.path.join(project_of(wd), "auth.py")
    with open(target, "w") as f:
        f.write("def check(token):\n    if not token:\n        raise Denied\n    return True\n")
    old, new = "    if not token:\n        raise Denied\n", "    if token is None:\n        raise Denied('no token')\n"
    mock = Mock(wd, ["Read", "Edit"], None, calls=[
        {"tool": "Read", "input": {"file_path": target}},
        {"tool": "Edit", "input": {"file_path": target, "old_string": old, "new_string": new}}])
    with ClaudeTui(wd, mock, version=version) as c:
        ed = standing_editor(wd, c.project)
        c.prompt("Tighten the token check.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        perm = show["params"].get("permission") or {}
        equal((perm.get("tool"), perm.get("path"), perm.get("replaces"), perm.get("content")),
              ("Edit", target, old, new), "the edit, typed: " + json.dumps(perm))
        q = show["params"]["questions"][0]
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": q["question"], "answer": "Allow", "selectedOption": "Allow", "wasCustom": False}]})
        res = mock.tool_result(nth=1)
        equal(res["is_error"], False, "the edit was made: " + res["text"])
        with open(target) as f:
            equal(f.read(), "def check(token):\n" + new + "    return True\n", "the file, edited")
        c.t.wait_screen("All set.", timeout=TIMEOUT)


@on_each_claude
def claude_tui_permission_answered_in_claudes_own_dialog_withdraws_the_editors(version):
    """PermissionRequest asks in both places at once: keys in Claude's dialog win, the editor's closes."""
    wd = Workdir()
    mock = Mock(wd, ["Bash"], {"command": "touch made-by-bash.txt", "description": "Make a marker"})
    with ClaudeTui(wd, mock, version=version) as c:
        ed = standing_editor(wd, c.project)
        c.prompt("Make the marker file.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        c.t.wait_screen("Do you want to proceed?", timeout=TIMEOUT)  # Claude's own dialog, beside it
        press_until_gone(c.t, "Enter", "Do you want to proceed?")  # Yes
        cancel = ed.method("$/cancelRequest", timeout=TIMEOUT)
        equal(cancel["params"]["id"], show["id"], "the editor's question is withdrawn")
        equal(mock.tool_result()["is_error"], False, "the command ran")


def press_until_gone(t, key, text, tries=8):
    """Claude's dialog shows its text a moment before it takes keys, longer on a loaded machine:
    press `key` until `text` leaves the screen."""
    for _ in range(tries):
        t.keys(key)
        deadline = time.time() + 1.5
        while time.time() < deadline:
            if text not in t.screen():
                return
            time.sleep(0.1)
    raise AssertionError(f"{text!r} stayed on screen after {tries} presses of {key}")


def choose_second_option(t):
    """Down, Enter in Claude's own dialog, once it takes keys (its text shows a moment before)."""
    time.sleep(1.0)
    t.keys("Down")
    wait_for(lambda: any(l.strip().startswith("❯ 2.") or l.strip().startswith("> 2.") for l in t.screen().splitlines()),
             timeout=10, what="the cursor on the second option")
    t.keys("Enter")


def waiting(wd):
    out = subprocess.run([ASKHOST, "status", "--tmux"], env=wd.env(), capture_output=True, text=True, timeout=10)
    return out.stdout.strip()


@on_each_claude
def claude_tui_with_no_editor_counts_its_own_dialog_and_keys_answer(version):
    """No editor: Claude's own dialog shows (no popup over it), askhost status counts the question
    while it waits; keys in Claude answer it and the count drops."""
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], [DATABASE])
    with ClaudeTui(wd, mock, version=version) as c:
        c.prompt("Set up the project.")
        c.t.wait_screen("Battle-tested relational DB", timeout=TIMEOUT)
        wait_for(lambda: waiting(wd) == "? 1 waiting", timeout=30, what="the status line count")
        choose_second_option(c.t)  # SQLite, in Claude's own dialog
        text = mock.tool_result()["text"]
        check('"SQLite"' in text, "Claude's own answer reached the model: " + text)
        wait_for(lambda: waiting(wd) == "", timeout=30, what="the count to drop")


@on_each_claude
def claude_tui_with_no_editor_answered_by_attach_next_from_another_window(version):
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], [DATABASE])
    with ClaudeTui(wd, mock, version=version) as c:
        c.prompt("Set up the project.")
        c.t.wait_screen("Battle-tested relational DB", timeout=TIMEOUT)
        wait_for(lambda: waiting(wd) == "? 1 waiting", timeout=30, what="the status line count")
        a = Tmux(wd, [ASKHOST, "attach", "--next"])
        try:
            a.wait_screen("> 1. PostgreSQL (Recommended)", timeout=30)
            time.sleep(0.5)
            a.keys("3")  # MongoDB
            equal(mock.tool_result()["text"], f'Your questions have been answered: "{DB_Q}"="MongoDB".' + TAIL,
                  "what the model read")
            equal(a.exit_status(timeout=30), 0, "attach --next ends once nothing waits")
        finally:
            a.kill()
        wait_for(lambda: "Battle-tested relational DB" not in c.t.screen(), timeout=30, what="Claude's dialog to close")
        equal(waiting(wd), "", "nothing waits")


@on_each_claude
def claude_tui_without_a_host_shows_its_own_dialog(version):
    wd = Workdir()
    mock = Mock(wd, ["AskUserQuestion"], [DATABASE])
    with ClaudeTui(wd, mock, version=version) as c:
        c.prompt("Set up the project.")
        c.t.wait_screen("Battle-tested relational DB", timeout=TIMEOUT)  # Claude's own dialog
        choose_second_option(c.t)  # SQLite
        text = mock.tool_result()["text"]
        check('"SQLite"' in text, "Claude's own answer reached the model: " + text)


if __name__ == "__main__":
    raise SystemExit(run_cases())
