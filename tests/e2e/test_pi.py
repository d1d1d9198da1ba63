"""pi's ask_user extension (plugins/pi/extension/ask_user.ts) on its own: its unit tests (the
extension loaded as pi loads it, pi_extension_unit.mjs) and the real pi CLI against the mock model
API without askhost around it: print mode (`pi -p`) and the pending-questions file."""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ASKHOST, ROOT, Workdir, case, check, equal  # noqa: E402
from e2e_common import PI_FLAGS, PiRpc, pi_setup, TIMEOUT, Mock, agent_bin, agent_env, run_cases  # noqa: E402

PI_EXTENSION = os.path.join(ROOT, "plugins", "pi", "extension", "ask_user.ts")
TAIL = " You can now continue with the user's answers in mind."
DB_Q = "Which database should we use?"
NAME_Q = "What should we name this service?"
QUESTIONS = [
    {"question": DB_Q, "header": "Database", "options": [
        {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
        {"label": "SQLite", "description": "Lightweight, file-based"}]},
    {"question": NAME_Q, "header": "Service name"},
]


def pi_package():
    pi = agent_bin("mariozechner-pi-coding-agent", "pi")
    return os.path.join(os.path.dirname(os.path.dirname(pi)), "@mariozechner", "pi-coding-agent")


def unit(name):
    """One case of pi_extension_unit.mjs, run with node like pi runs the extension."""
    wd = Workdir()
    tmp = wd.file("tmp")
    os.makedirs(tmp, exist_ok=True)
    env = dict(wd.env(), ASKHOST=ASKHOST, TMPDIR=tmp)
    env.pop("ASKHOST_PI_PARENT_PID", None)
    if name == "subagent_is_refused":
        env["ASKHOST_PI_PARENT_PID"] = "1"  # a pi started this one
    r = subprocess.run(["node", os.path.join(HERE, "pi_extension_unit.mjs"), pi_package(), PI_EXTENSION, name],
                       env=env, capture_output=True, timeout=TIMEOUT)
    equal(r.returncode, 0, "unit case %s: %s%s" % (name, r.stdout.decode(), r.stderr.decode()[-2000:]))


def unit_case(name):
    def run():
        unit(name)
    run.__name__ = "extension_" + name
    return case(run)


for _name in ("modes", "print_mode_writes_the_pending_file_itself", "print_mode_goes_through_askhost_when_installed",
              "render", "pi_dialogs_multi_select_discard_and_long_answer",
              "without_askhost_suggestions_are_options_and_unknown_fields_refused",
              "presets_reach_askhost_and_top_level_fields_are_checked", "answers_flag_answers_the_next_ask_once",
              "questions_command_without_askhost", "subagent_marks",
              "subagent_is_refused", "compaction_keeps_the_answers", "summary_vectors"):
    unit_case(_name)


def pi_print(wd, mock, env, prompt="Set up the project."):
    """pi -p in the project folder, nothing around it; its result."""
    pi, project = pi_setup(wd, mock)
    argv = [pi, "-p", *PI_FLAGS, "-e", PI_EXTENSION, prompt]
    return subprocess.run(argv, cwd=project, env=env, capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL,
                          start_new_session=True)


def tool_results(mock):
    return [r["tool_result"]["text"] for r in mock.requests() if "tool_result" in r]


def two_passes(wd, env_for, answer):
    """Pass 1: pi -p asks, the questions go to the pending file and the model reads that they are
    pending. `answer(project)` answers the file. Pass 2: pi -p again, the model gets the answers."""
    mock = Mock(wd, ["ask_user"], {"questions": QUESTIONS})
    env = env_for(mock)
    r = pi_print(wd, mock, env)
    equal(r.returncode, 0, "pi -p exits 0 (stderr: %r)" % r.stderr.decode()[-800:])
    (first,) = tool_results(mock)
    check(first.startswith("Questions pending. User input required."), f"the model reads: {first!r}")
    check("run pi under askhost" not in first, first)
    check(b"All set." in r.stdout, "pi printed the model's last words: %r" % r.stdout.decode()[-300:])
    project = wd.file("project")
    with open(os.path.join(project, ".askhost", "pending-questions.json")) as f:
        equal([q["question"] for q in json.load(f)["questions"]], [DB_Q, NAME_Q], "the pending questions")
    answer(project)
    r = pi_print(wd, mock, env)
    equal(r.returncode, 0, "second pass (stderr: %r)" % r.stderr.decode()[-800:])
    results = tool_results(mock)
    equal(len(results), 2, "two tool results")
    return results[1]


@case
def pi_print_mode_through_askhost():
    """pi -p with askhost installed (ASKHOST_BIN): askhost --print keeps the file and the journal;
    `askhost answer --text` answers it, and the second pass hands the answers over."""
    wd = Workdir()

    def answer(project):
        r = subprocess.run([ASKHOST, "answer", "--text", "sqlite, call it order-processor"], cwd=project,
                           env=wd.env(), capture_output=True, timeout=30)
        equal(r.returncode, 0, r.stderr.decode())

    second = two_passes(wd, lambda mock: agent_env(wd, mock), answer)
    equal(second, f'User has answered your questions: "{DB_Q}"="SQLite", "{NAME_Q}"="call it order-processor".'
          + TAIL, "the second pass")
    check(os.listdir(wd.file("state/askhost/sessions")), "askhost journalled the exchange")


@case
def pi_print_mode_without_askhost():
    """pi -p with no askhost anywhere: the extension writes the same file format itself, and reads
    the answers set in it by hand."""
    wd = Workdir()

    def answer(project):
        path = os.path.join(project, ".askhost", "pending-questions.json")
        with open(path) as f:
            doc = json.load(f)
        doc["questions"][0]["answer"] = 1
        doc["questions"][1]["answer"] = "order-processor"
        with open(path, "w") as f:
            json.dump(doc, f)

    def env_for(mock):
        env = agent_env(wd, mock, ASKHOST_BIN=wd.file("no-askhost-here"))
        env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep)
                                      if not os.path.exists(os.path.join(p, "askhost")))
        return env

    second = two_passes(wd, env_for, answer)
    equal(second, f'User has answered your questions: "{DB_Q}"="PostgreSQL (Recommended)", "{NAME_Q}"="order-processor".'
          + TAIL, "the second pass")


@case
def pi_dialogs_without_askhost_tick_several_and_ask_before_discarding():
    """The real pi in RPC mode, no askhost: ask_user asks with pi's own dialogs. A multi-select
    ticks two rows then Done (REQ-AUQ-002); Esc on the next question asks "Discard 1 answer?", and
    No asks that question again."""
    wd = Workdir()
    features = {"question": "Which features?", "multiSelect": True,
                "options": [{"label": "Auth"}, {"label": "REST API"}, {"label": "Admin"}]}
    mock = Mock(wd, ["ask_user"], {"questions": [features, {"question": NAME_Q}]})
    pi = PiRpc(wd, mock)
    pi.send({"id": "p1", "type": "prompt", "message": "Set up the project."})

    def dialog(method):
        return pi.until(lambda m: m.get("type") == "extension_ui_request" and m.get("method") == method,
                        f"a {method} dialog")

    def reply(ask, **answer):
        time.sleep(0.4)  # a person reading the dialog
        pi.send({"type": "extension_ui_response", "id": ask["id"], **answer})

    for pick in ("[ ] Auth", "[ ] Admin"):
        ask = dialog("select")
        check(pick in ask["options"], f"{pick} offered: {ask['options']}")
        reply(ask, value=pick)
    ask = dialog("select")
    equal(ask["options"], ["[x] Auth", "[ ] REST API", "[x] Admin", "[ ] Other (type your answer)", "Done"], "the ticks")
    reply(ask, value="Done")
    reply(dialog("input"), cancelled=True)
    ask = dialog("confirm")
    equal(ask["title"], "Discard 1 answer?", "asked before discarding")
    reply(ask, confirmed=False)
    ask = dialog("input")
    check(NAME_Q in ask["title"], f"the same question again: {ask['title']!r}")
    reply(ask, value="order-processor")
    equal(mock.tool_result()["text"], f'User has answered your questions: "Which features?"="Auth, Admin", '
          f'"{NAME_Q}"="order-processor".' + TAIL, "the model reads both answers")
    pi.until(lambda m: m.get("type") == "agent_end", "agent_end")
    pi.stop()
    mock.stop()
    mock.check_offline()


@case
def pi_dialogs_without_askhost_refuse_blank_text():
    """Issue 43: the real pi in RPC mode, no askhost: Enter in an empty (or blank) text field
    cancelled the whole ask. Now it is no answer, as in askhost's dialogs: pi says so and the
    field opens again."""
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], {"questions": [{"question": "Which port?"}, {"question": NAME_Q}]})
    pi = PiRpc(wd, mock)
    pi.send({"id": "p1", "type": "prompt", "message": "Set up the project."})

    def ui(method):
        return pi.until(lambda m: m.get("type") == "extension_ui_request" and m.get("method") in (method, "confirm"),
                        f"a {method} dialog")

    def reply(ask, **answer):
        time.sleep(0.4)  # a person reading the dialog
        pi.send({"type": "extension_ui_response", "id": ask["id"], **answer})

    for blank in ("", "   "):
        ask = ui("input")
        equal((ask["method"], ask["title"]), ("input", "Which port?"), "the question's field")
        reply(ask, value=blank)
        note = ui("notify")
        equal((note["method"], note.get("message")), ("notify", "Type an answer first"), f"{blank!r} refused")
    ask = ui("input")
    equal((ask["method"], ask["title"]), ("input", "Which port?"), "the same field again")
    reply(ask, value="8080")
    reply(ui("input"), value="order-processor")
    equal(mock.tool_result()["text"], 'User has answered your questions: "Which port?"="8080", '
          f'"{NAME_Q}"="order-processor".' + TAIL, "the model reads both answers")
    pi.until(lambda m: m.get("type") == "agent_end", "agent_end")
    pi.stop()
    mock.stop()
    mock.check_offline()


@case
def pi_without_askhost_offers_roo_suggestions_as_options():
    """The real pi in RPC mode, no askhost: a question with Roo Code's `suggestions` reaches the
    extension (pi's schema check lets it through) and is offered as a list, Other beside it."""
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], {"questions": [{"question": "Yes or no?", "suggestions": ["yes", "no"]}]})
    pi = PiRpc(wd, mock)
    pi.send({"id": "p1", "type": "prompt", "message": "Set up the project."})
    ask = pi.until(lambda m: m.get("type") == "extension_ui_request" and m.get("method") in ("select", "input"),
                   "a dialog")
    equal((ask["method"], ask.get("options")), ("select", ["yes", "no", "Other (type your answer)"]), "offered")
    time.sleep(0.4)  # a person reading the dialog
    pi.send({"type": "extension_ui_response", "id": ask["id"], "value": "no"})
    equal(mock.tool_result()["text"], 'User has answered your questions: "Yes or no?"="no".' + TAIL, "the model reads")
    pi.until(lambda m: m.get("type") == "agent_end", "agent_end")
    pi.stop()
    mock.stop()
    mock.check_offline()


@case
def pi_print_mode_with_the_answers_flag():
    """The spec's option C with the real pi and no askhost: `pi -p --answers '[...]'` answers the
    question set the model asks, in question order, without a pending file."""
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], {"questions": QUESTIONS})
    pi, project = pi_setup(wd, mock)
    env = agent_env(wd, mock, ASKHOST_BIN=wd.file("no-askhost-here"))
    r = subprocess.run([pi, "-p", *PI_FLAGS, "-e", PI_EXTENSION, "--answers", '[1, "order-processor"]',
                        "Set up the project."], cwd=project, env=env, capture_output=True, timeout=TIMEOUT,
                       stdin=subprocess.DEVNULL, start_new_session=True)
    equal(r.returncode, 0, "pi -p exits 0 (stderr: %r)" % r.stderr.decode()[-800:])
    equal(tool_results(mock), [f'User has answered your questions: "{DB_Q}"="PostgreSQL (Recommended)", '
                               f'"{NAME_Q}"="order-processor".' + TAIL], "the model reads the answers")
    check(not os.path.exists(os.path.join(project, ".askhost", "pending-questions.json")), "no pending file")
    mock.stop()
    mock.check_offline()


@case
def pi_install_loads_the_extension_as_a_package():
    """The spec's "publish as a pi-package": the extension's folder is a pi package, so `pi install
    FOLDER` (the source tree's, or the installed share/askhost/pi) loads ask_user in every pi run."""
    wd = Workdir()
    mock = Mock(wd, ["ask_user"], {"questions": QUESTIONS})
    pi, project = pi_setup(wd, mock)
    env = agent_env(wd, mock, ASKHOST_BIN=wd.file("no-askhost-here"))
    r = subprocess.run([pi, "install", os.path.dirname(PI_EXTENSION)], cwd=project, env=env, capture_output=True,
                       timeout=TIMEOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    equal(r.returncode, 0, "pi install (stderr: %r)" % r.stderr.decode()[-800:])
    flags = [f for f in PI_FLAGS if f != "--no-extensions"]
    r = subprocess.run([pi, "-p", *flags, "Set up the project."], cwd=project, env=env, capture_output=True,
                       timeout=TIMEOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    equal(r.returncode, 0, "pi -p exits 0 (stderr: %r)" % r.stderr.decode()[-800:])
    (result,) = tool_results(mock)
    check(result.startswith("Questions pending. User input required."), f"ask_user ran from the package: {result!r}")
    mock.stop()
    mock.check_offline()


if __name__ == "__main__":
    raise SystemExit(run_cases())
