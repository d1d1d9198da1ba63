"""OpenCode's own `question` tool through askhost's OpenCode plugin (plugins/opencode): the
plugin's unit tests (opencode_plugin_unit.ts, run by the Bun inside OpenCode's binary), and the real
OpenCode in its terminal UI (tmux), offline against the mock model API (an OpenAI-compatible
provider), with `askhost opencode install` in its user-wide config: the model asks two questions
(one multi-select); answered in an editor of a standing host, or first in OpenCode's own dialog,
which withdraws the editor's copy; with no editor, in askhost's tmux popup over OpenCode's pane;
with nowhere to show, in OpenCode's own dialog alone. A shell command OpenCode asks to run
(`"bash": "ask"`) goes to the editor as a typed permission, or is answered in OpenCode's own
prompt first; and /compact gives the summariser the session's answers. The assertions are on what
the model API received. The same through the page of `askhost web`: tests/web/e2e.js
(real_opencode*). Each TUI case runs on the pinned OpenCode and again on each newer one ./dev
installs (CASE@VERSION, AGENTS_NEWER)."""
import json
import os
import subprocess
import sys
import time

from e2e_common import (DB_Q, FEAT_Q, OPENCODE, OPENCODE_QUESTIONS as QUESTIONS, OPENCODE_TAIL as TAIL, TIMEOUT, Mock,
                        OpencodeTui, TmuxLook, agent_bin, answer_in_a_popup, on_each, project_of, run_cases,
                        standing_editor)
from harness import ASKHOST, ROOT, Workdir, case, check, equal, processes_in, wait_for

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.join(ROOT, "plugins", "opencode", "plugin", "askhost.ts")


def opencode():
    return agent_bin("opencode-ai", "opencode")


def unit_case(name):
    def run():
        wd = Workdir()
        tmp = wd.file("tmp")
        os.makedirs(tmp)
        r = subprocess.run([opencode(), os.path.join(HERE, "opencode_plugin_unit.ts"), PLUGIN, name],
                           env=dict(wd.env(), BUN_BE_BUN="1", TMPDIR=tmp), capture_output=True, timeout=TIMEOUT)
        equal(r.returncode, 0, "unit case %s: %s%s" % (name, r.stdout.decode(), r.stderr.decode()[-2000:]))
    run.__name__ = "plugin_" + name
    return case(run)


for _name in ("answers_go_to_opencodes_reply", "a_decline_is_opencodes_reject",
              "nothing_printed_leaves_opencodes_dialog", "answered_in_opencode_ends_askhosts_copy",
              "dismissed_in_opencode_ends_askhosts_copy", "one_ask_for_two_copies_of_the_plugin",
              "other_events_and_no_askhost_are_harmless", "a_permission_goes_to_opencodes_permission_reply",
              "a_permission_answered_in_opencode_ends_askhosts_copy", "a_permission_askhost_leaves_is_opencodes_alone",
              "the_compaction_gets_the_sessions_answers"):
    unit_case(_name)


@on_each(OPENCODE)
def opencode_tui_in_tmux_with_no_editor_asks_in_a_popup_over_its_pane(version):
    """No editor, a tmux client looking at OpenCode's pane: both questions open in askhost's popup
    over it, answered with keys; the model reads OpenCode's own result with them, and OpenCode's
    dialog, drawn beside all along, goes."""
    wd = Workdir()
    wd.popups = True
    mock = Mock(wd, ["question"], QUESTIONS)
    with OpencodeTui(wd, mock, project_of(wd), version=version) as oc:
        look = TmuxLook(oc)
        oc.prompt("Set up the project.")
        # SQLite; Authentication and REST API ticked, Enter takes the ticks; Enter on Submit.
        answer_in_a_popup(oc, look, ["2", "1", "2", "Enter", "Enter"])
        equal(mock.tool_result()["text"],
              f'User has answered your questions: "{DB_Q}"="SQLite", "{FEAT_Q}"="Authentication, REST API".' + TAIL,
              "what the model read")
        oc.t.wait_screen("All set.", timeout=TIMEOUT)
        check("1. PostgreSQL" not in oc.screen(), "OpenCode's dialog is gone:\n" + oc.screen())
        mock.check_offline()


def askhost_asks(wd):
    """The `askhost opencode ask` processes the plugin started for this case."""
    return [argv for _, argv in processes_in([wd.path]) if argv.startswith(ASKHOST + " opencode ask")]


@on_each(OPENCODE)
def opencode_tui_its_own_dialog_answers_with_nowhere_to_show_then_beside_the_editor(version):
    """No editor's host, no tmux client, no askhost web: askhost keeps nothing waiting (its ask ends
    at once, nothing counted), OpenCode's own dialog asks, and its answer reaches the model. Then
    an editor's host starts and the model asks again: OpenCode's own dialog stays usable beside
    askhost's; answered there first, the editor's copy is withdrawn, and the model reads OpenCode's
    answer. One OpenCode start for both."""
    wd = Workdir()
    mock = Mock(wd, ["question"], QUESTIONS)
    answered = f'User has answered your questions: "{DB_Q}"="PostgreSQL", "{FEAT_Q}"="Authentication".' + TAIL
    with OpencodeTui(wd, mock, project_of(wd), version=version) as oc:
        oc.prompt("Set up the project.")
        oc.t.wait_screen("1. PostgreSQL", timeout=TIMEOUT)
        wait_for(lambda: not askhost_asks(wd), timeout=30, what="askhost's ask to end, left to OpenCode")
        status = subprocess.run([ASKHOST, "status", "--tmux"], env=wd.env(), capture_output=True, text=True, timeout=10)
        equal(status.stdout.strip(), "", "nothing waits in askhost")
        oc.answer_in_own_dialog()
        equal(mock.tool_result()["text"], answered, "what the model read")
        oc.t.wait_screen("All set.", timeout=TIMEOUT)

        ed = standing_editor(wd, oc.project)
        oc.prompt("Once more.", after="All set.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        oc.answer_in_own_dialog()
        cancel = ed.method("$/cancelRequest", timeout=TIMEOUT)
        equal(cancel["params"]["id"], show["id"], "the editor's question is withdrawn")
        equal(mock.tool_result(nth=1)["text"], answered, "what the model read the second time")
        mock.check_offline()


@on_each(OPENCODE)
def opencode_tui_permission_answered_in_the_editor_then_in_its_own_prompt(version):
    """OpenCode asks before it runs a shell command (`"bash": "ask"`): the editor gets the prompt as
    a typed permission (the whole command, OpenCode's three replies), "Allow once" there runs the
    command, and OpenCode's own prompt goes. The same command asked for again (a second prompt) is
    answered first in OpenCode's own prompt (Enter on its first choice, allow once): the editor's
    copy is withdrawn, and the command runs. One OpenCode start for both."""
    wd = Workdir()
    mock = Mock(wd, ["bash"], {"command": "touch marker.txt", "description": "Create a marker file"})
    with OpencodeTui(wd, mock, project_of(wd), permission={"bash": "ask"}, version=version) as oc:
        marker = os.path.join(oc.project, "marker.txt")
        ed = standing_editor(wd, oc.project)
        oc.prompt("Make a marker.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("opencode", "plugin"), "named as OpenCode's, through the plugin")
        perm = p.get("permission") or {}
        equal((perm.get("tool"), perm.get("command")), ("bash", "touch marker.txt"), "the typed permission")
        equal([(o["label"], o["kind"]) for o in perm.get("options", [])],
              [("Allow once", "allow_once"), ("Always allow", "allow_always"), ("Reject", "reject_once")],
              "OpenCode's three replies")
        label = "Allow once"
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": p["questions"][0]["question"], "answer": label, "selectedOption": label, "wasCustom": False}]})
        res = mock.tool_result()
        check(not res["is_error"], "the command ran: %r" % res)
        wait_for(lambda: os.path.exists(marker), timeout=TIMEOUT, what="the marker")
        oc.t.wait_screen("All set.", timeout=TIMEOUT)
        check("Permission required" not in oc.screen(), "OpenCode's prompt is gone:\n" + oc.screen())

        os.remove(marker)
        oc.prompt("Make it again.", after="All set.")
        again = ed.method("ask/show", timeout=TIMEOUT)
        check(again["id"] != show["id"], "a question of its own")
        equal((again["params"].get("permission") or {}).get("command"), "touch marker.txt", "the same command")
        oc.t.wait_screen("Permission required", timeout=TIMEOUT)
        time.sleep(0.5)  # at a person's pace
        oc.t.keys("Enter")
        cancel = ed.method("$/cancelRequest", timeout=TIMEOUT)
        equal(cancel["params"]["id"], again["id"], "the editor's copy is withdrawn")
        wait_for(lambda: os.path.exists(marker), timeout=TIMEOUT, what="the marker, made again")
        mock.check_offline()


@on_each(OPENCODE)
def opencode_tui_questions_answered_in_the_editor_then_compacted(version):
    """Two questions, one multi-select: the editor gets both intact, its answer reaches the model as
    OpenCode's own result, and OpenCode's dialog goes. Then /compact: the summarisation request
    OpenCode sends carries the answers in askhost history --summary's words (the plugin's
    compaction hook). One OpenCode start for both (about 20 CPU-s each)."""
    wd = Workdir()
    mock = Mock(wd, ["question"], QUESTIONS)
    with OpencodeTui(wd, mock, project_of(wd), version=version) as oc:
        ed = standing_editor(wd, oc.project)
        oc.prompt("Set up the project.")
        show = ed.method("ask/show", timeout=TIMEOUT)
        p = show["params"]
        equal((p["agent"], p["route"]), ("opencode", "plugin"), "named as OpenCode's, through the plugin")
        equal([(q["question"], q.get("header"), q.get("multiSelect", False), [o["label"] for o in q["options"]])
               for q in p["questions"]],
              [(q["question"], q["header"], q.get("multiple", False), [o["label"] for o in q["options"]])
               for q in QUESTIONS], "both questions intact")
        ed.reply(show["id"], {"answered": True, "answers": [
            {"question": DB_Q, "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False},
            {"question": FEAT_Q, "answer": ["Authentication", "REST API"], "wasCustom": False}]})
        equal(mock.tool_result()["text"],
              f'User has answered your questions: "{DB_Q}"="SQLite", "{FEAT_Q}"="Authentication, REST API".' + TAIL,
              "what the model read")
        oc.t.wait_screen("All set.", timeout=TIMEOUT)
        check("1. PostgreSQL" not in oc.screen(), "OpenCode's dialog is gone:\n" + oc.screen())
        said = [json.dumps(f'User was asked "{DB_Q}" and chose SQLite.')[1:-1],
                json.dumps(f'User was asked "{FEAT_Q}" and chose Authentication and REST API.')[1:-1]]
        check(not any(said[0] in json.dumps(r.get("body")) for r in mock.requests()), "not yet")
        # OpenCode's slash command, picked from its list as a person does.
        oc.t.text("/compact")
        oc.t.wait_screen("Compact session", timeout=30)
        time.sleep(0.3)
        oc.t.keys("Enter")
        found = wait_for(lambda: [r for r in mock.requests() if all(w in json.dumps(r.get("body")) for w in said)],
                         timeout=TIMEOUT, what="the compaction's request with the answers")
        check("Keep in the summary what the user decided when asked" in json.dumps(found[0]["body"]), "askhost's words")
        mock.check_offline()

if __name__ == "__main__":
    sys.exit(run_cases())
