"""The agents' own question tools, caught by askhost's hooks: the real Gemini CLI (ask_user, through
`askhost gemini-hook install`) and Codex in Plan mode (request_user_input, through `askhost
codex-hook install`), each in its own terminal UI in tmux, offline against the mock model API.
An editor's standing host with the project open answers, or with no editor a tmux popup over the
agent's pane; the model's next request holds the answer; the agent's own dialog never drew. With
nowhere to show the question, the agent's own dialog opens at once and answering it works. The
agent's own record of a session answered in the editor, read by askhost's compaction hooks as
after a compaction, gives the answers back. The same through the page of `askhost web`: tests/web/e2e.js (real_gemini, real_codex). Each case runs on
the pinned version and again on each newer one ./dev installs (CASE@VERSION, AGENTS_NEWER)."""
import glob
import json
import os
import subprocess
import sys
import time

from e2e_common import (CODEX, CODEX_DIALOG, CODEX_QUESTIONS, DB_Q, FEAT_Q, GEMINI, GEMINI_DIALOG, GEMINI_QUESTIONS,
                        NAME_Q, TIMEOUT, CodexTui, GeminiTui, Mock, TmuxLook, answer_in_a_popup, finish, on_each,
                        project_of, run_cases, shared_registry_env, standing_editor)
from harness import ASKHOST, Workdir, check, equal, wait_for


def compaction_words(wd, command, event, record, **extra):
    """What `askhost COMMAND` (the agent's compaction hook) prints for the agent's own record of
    the session: its additionalContext, or ""."""
    hook = {"session_id": "s", "transcript_path": record, "cwd": wd.path, "hook_event_name": event, **extra}
    r = subprocess.run([ASKHOST, command], input=json.dumps(hook).encode(), env=wd.env(), capture_output=True,
                       timeout=30)
    equal(r.returncode, 0, r.stderr.decode())
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout.strip() else ""


def gemini_answers_kept_through_a_compression(wd):
    """Gemini's own record of the session (the ask_user call answered through the hook), as a
    compression leaves it (a `$set` of the messages without the call): the BeforeAgent hook gives
    the answers back."""
    records = wait_for(lambda: glob.glob(os.path.join(wd.file("home"), ".gemini", "tmp", "*", "chats", "*.jsonl")),
                       what="Gemini's session record")
    with open(records[0]) as f:
        lines = f.read()
    compressed = wd.file("compressed.jsonl")
    with open(compressed, "w") as f:
        f.write(lines + json.dumps({"$set": {"messages": [
            {"id": "snap", "type": "user", "content": [{"text": "<state_snapshot>so far</state_snapshot>"}]}]}}) + "\n")
    text = compaction_words(wd, "gemini-hook", "BeforeAgent", compressed, prompt="Go on.")
    for sentence in (f'User was asked "{DB_Q}" and chose SQLite.', f'User was asked "{FEAT_Q}" and chose Auth and Export.'):
        check(sentence in text, "the answers kept through a compression: %r" % text)


def codex_answers_kept_through_a_compaction(wd, sentences):
    """Codex's own rollout of the session (the request_user_input call answered through the hook):
    the SessionStart hook after a compaction gives the answers back."""
    rollouts = wait_for(lambda: glob.glob(os.path.join(wd.file("codex_home"), "sessions", "**", "rollout-*.jsonl"),
                                          recursive=True), what="Codex's rollout")
    text = compaction_words(wd, "codex-hook", "SessionStart", rollouts[0], source="compact")
    for sentence in sentences:
        check(sentence in text, "the answers kept through a compaction: %r" % text)


@on_each(GEMINI)
def gemini_ask_user_answered_in_the_editor(version):
    """Two questions, one multi-select: the editor gets both intact, its answer reaches the model in
    words, in question order; Gemini's own dialog never drew."""
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["ask_user"], GEMINI_QUESTIONS)
    ed = standing_editor(wd, project)
    with GeminiTui(wd, mock, project, hooks=True, version=version) as gemini:
        t = gemini.t
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("gemini", "hook"), "named as Gemini's, through its hook")
        qs = p["questions"]
        equal([(q["question"], q.get("header"), bool(q.get("multiSelect"))) for q in qs],
              [(DB_Q, "Database", False), (FEAT_Q, "Features", True)], "both questions intact")
        equal([[(o["label"], o.get("description")) for o in q["options"]] for q in qs],
              [[(o["label"], o["description"]) for o in q["options"]] for q in GEMINI_QUESTIONS], "their options")
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
    gemini_answers_kept_through_a_compression(wd)


@on_each(GEMINI)
def gemini_with_nowhere_to_show_opens_its_own_dialog(version):
    """No editor's host, no tmux client, no askhost web: the hook gives the question back at once
    and Gemini's own dialog asks; its answer reaches the model as Gemini's own result."""
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["ask_user"], GEMINI_QUESTIONS[:1])
    with GeminiTui(wd, mock, project, hooks=True, version=version) as gemini:
        t = gemini.t
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


@on_each(GEMINI)
def gemini_in_tmux_with_no_editor_asks_in_a_popup_over_its_pane(version):
    """No editor, a tmux client looking at Gemini's pane: somewhere to show, so both questions open
    in a popup over that pane (askhost's own dialog), answered with keys; Gemini's dialog never drew."""
    wd = Workdir()
    wd.popups = True
    project = project_of(wd)
    mock = Mock(wd, ["ask_user"], GEMINI_QUESTIONS)
    with GeminiTui(wd, mock, project, hooks=True, version=version) as gemini:
        look = TmuxLook(gemini)  # Gemini asks on its own, once started
        # SQLite; Auth and Export ticked, Enter takes the ticks; Enter on Submit.
        answer_in_a_popup(gemini, look, ["2", "1", "3", "Enter", "Enter"], own_dialog=GEMINI_DIALOG)
        res = mock.tool_result()
        check('"%s"="SQLite", "%s"="Auth, Export".' % (DB_Q, FEAT_Q) in res["text"], "what the model read: " + res["text"])
        gemini.t.wait_screen("All set.", timeout=TIMEOUT)
        check(not any(m in gemini.screen() for m in GEMINI_DIALOG), "Gemini's dialog never drew:\n" + gemini.screen())


@on_each(CODEX)
def codex_plan_mode_question_answered_in_the_editor(version):
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["request_user_input"], {"questions": CODEX_QUESTIONS})
    ed = standing_editor(wd, project, env=shared_registry_env(wd))
    with CodexTui(wd, mock, project, hooks=True, version=version) as codex:
        codex.prompt("Plan the project.", plan=True)
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("codex", "hook"), "named as Codex's, through its hook")
        equal([q["question"] for q in p["questions"]], [q["question"] for q in CODEX_QUESTIONS], "both questions")
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": DB_Q, "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False},
            {"question": NAME_Q, "answer": "order-service", "wasCustom": True}]})
        res = mock.tool_result()
        check(res["text"].startswith("Tool call blocked by PreToolUse hook: The user answered your questions"),
              "what the model read: " + res["text"])
        check('[database] "%s"="SQLite", [service_name] "%s"="order-service".' % (DB_Q, NAME_Q)
              in res["text"], "what the model read: " + res["text"])
        screen = codex.t.wait_screen("All set.", timeout=TIMEOUT)
        check(not any(m in screen for m in CODEX_DIALOG), "Codex's dialog never drew:\n" + screen)
        finish(ed, mock)
        codex_answers_kept_through_a_compaction(wd, [f'User was asked "{DB_Q}" and chose SQLite.',
                                                     f"User was asked \"{NAME_Q}\" and answered 'order-service'."])


# issue 45: a command the model runs with escalated permissions under approval_policy on-request,
# which Codex asks to approve.
CODEX_COMMAND = "echo 'ls? (list files)' ; touch made-by-codex.txt"
CODEX_ESCALATED = {"cmd": CODEX_COMMAND, "sandbox_permissions": "require_escalated",
                   "justification": "Make a marker file"}


@on_each(CODEX)
def codex_approval_answered_in_the_editor(version):
    """Codex's approval of a command, through askhost codex-hook's PermissionRequest: the editor is
    shown the typed permission with the whole command and the model's justification, Allow goes
    back, Codex runs exactly that command, and its own prompt never draws."""
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["exec_command"], CODEX_ESCALATED)
    ed = standing_editor(wd, project, env=shared_registry_env(wd))
    with CodexTui(wd, mock, project, hooks=True, version=version, approval="on-request") as codex:
        codex.prompt("Make the marker.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("codex", "hook"), "Codex's, through its hook")
        perm = p["permission"]
        equal((perm["tool"], perm["command"], perm["reason"]), ("Bash", CODEX_COMMAND, "Make a marker file"),
              "the typed permission: the whole command")
        equal([o["label"] for o in perm["options"]], ["Allow", "Deny"], "Allow and Deny")
        check("Would you like to run" not in codex.screen(), "Codex's own prompt waits:\n" + codex.screen())
        question = p["questions"][0]["question"]
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": question, "answer": "Allow", "selectedOption": "Allow", "wasCustom": False}]})
        mock.tool_result()
        wait_for(lambda: os.path.exists(os.path.join(project, "made-by-codex.txt")), timeout=TIMEOUT,
                 what="the command to run")
        screen = codex.t.wait_screen("All set.", timeout=TIMEOUT)
        check("Would you like to run" not in screen, "Codex's own prompt never drew:\n" + screen)
        finish(ed, mock)


@on_each(CODEX)
def codex_approval_refused_in_the_editor_in_the_persons_words(version):
    """A refusal typed in the editor: Codex runs nothing, and what the model reads of the call
    carries the person's words."""
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["exec_command"], CODEX_ESCALATED)
    ed = standing_editor(wd, project, env=shared_registry_env(wd))
    with CodexTui(wd, mock, project, hooks=True, version=version, approval="on-request") as codex:
        codex.prompt("Make the marker.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        question = show["params"]["questions"][0]["question"]
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": question, "answer": "not in this folder, use /tmp", "wasCustom": True}]})
        res = mock.tool_result()
        check("not in this folder, use /tmp" in res["text"], "what the model read: " + res["text"])
        codex.t.wait_screen("All set.", timeout=TIMEOUT)
        check(not os.path.exists(os.path.join(project, "made-by-codex.txt")), "the command did not run")
        finish(ed, mock)


@on_each(CODEX)
def codex_approval_in_tmux_with_no_editor_asks_in_a_popup_with_the_whole_command(version):
    """No editor, a tmux client looking at Codex's pane: Codex's approval opens in askhost's popup
    over it, the whole command drawn from the typed permission; 1 (Allow) runs it, and Codex's own
    prompt never drew."""
    wd = Workdir()
    wd.popups = True
    project = project_of(wd)
    mock = Mock(wd, ["exec_command"], CODEX_ESCALATED)
    with CodexTui(wd, mock, project, hooks=True, version=version, approval="on-request") as codex:
        look = TmuxLook(codex)
        codex.prompt("Make the marker.")
        answer_in_a_popup(codex, look, [], own_dialog=("Would you like to run",))
        screen = look.screen()
        check("Bash wants to run:" in screen and "│ " + CODEX_COMMAND in screen,
              "the whole command in the popup:\n" + screen)
        time.sleep(0.5)  # the popup's key guard, then a person's pace
        look.keys("1")
        wait_for(lambda: os.path.exists(os.path.join(project, "made-by-codex.txt")), timeout=TIMEOUT,
                 what="the command to run")
        screen = codex.t.wait_screen("All set.", timeout=TIMEOUT)
        check("Would you like to run" not in screen, "Codex's own prompt never drew:\n" + screen)


@on_each(CODEX)
def codex_plan_mode_in_tmux_with_no_editor_asks_in_a_popup_over_its_pane(version):
    """No editor, a tmux client looking at Codex's pane (Plan mode): both questions open in a popup
    over that pane, answered with keys; the model reads them keyed by their ids, and Codex's own
    dialog never drew."""
    wd = Workdir()
    wd.popups = True
    project = project_of(wd)
    mock = Mock(wd, ["request_user_input"], {"questions": CODEX_QUESTIONS})
    with CodexTui(wd, mock, project, hooks=True, version=version) as codex:
        look = TmuxLook(codex)
        codex.prompt("Plan the project.", plan=True)
        # SQLite, then api; Enter on Submit.
        answer_in_a_popup(codex, look, ["2", "2", "Enter"], own_dialog=CODEX_DIALOG, under=("Plan mode", "Working"))
        res = mock.tool_result()
        check('[database] "%s"="SQLite", [service_name] "%s"="api".' % (DB_Q, NAME_Q) in res["text"],
              "what the model read: " + res["text"])
        screen = codex.t.wait_screen("All set.", timeout=TIMEOUT)
        check(not any(m in screen for m in CODEX_DIALOG), "Codex's dialog never drew:\n" + screen)


@on_each(CODEX)
def codex_with_nowhere_to_show_opens_its_own_dialog(version):
    """No editor's host, no tmux client, no askhost web: Codex draws its own dialog at once and its
    answer reaches the model as Codex's own result."""
    wd = Workdir()
    project = project_of(wd)
    mock = Mock(wd, ["request_user_input"], {"questions": CODEX_QUESTIONS[:1]})
    with CodexTui(wd, mock, project, hooks=True, version=version) as codex:
        t = codex.t
        codex.prompt("Plan the project.", plan=True)
        t.wait_screen("Lightweight, file-based", timeout=TIMEOUT)
        time.sleep(0.5)  # at a person's pace
        t.keys("Down")
        time.sleep(0.3)
        t.keys("Enter")
        res = mock.tool_result()
        check("SQLite" in res["text"] and "blocked" not in res["text"], "Codex's own result: " + res["text"])
        t.wait_screen("All set.", timeout=TIMEOUT)


if __name__ == "__main__":
    sys.exit(run_cases())
