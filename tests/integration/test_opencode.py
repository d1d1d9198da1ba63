#!/usr/bin/env python3
"""askhost opencode: `ask` as askhost's OpenCode plugin runs it (the question request on stdin)
against an editor's standing host found by OpenCode's folder: answered, declined, withdrawn when
OpenCode's own dialog answered first (SIGTERM), no host, bad input; and `install` (user-wide,
--project, --dir, twice, --remove, someone else's file)."""
import json
import os
import signal
import subprocess
import sys

from harness import ASKHOST, Workdir, case, check, equal, main
from hook_runs import finish, project, standing, start, start_under_an_agent

DB_Q = "Which database should we use?"
FEAT_Q = "Which features should we include?"
QUESTIONS = [
    {"question": DB_Q, "header": "Database", "options": [
        {"label": "PostgreSQL", "description": "Battle-tested"}, {"label": "SQLite", "description": "File-based"}]},
    {"question": FEAT_Q, "header": "Features", "multiple": True, "options": [
        {"label": "Auth", "description": "OAuth2"}, {"label": "REST API", "description": "OpenAPI"},
        {"label": "Admin", "description": "A web UI"}]},
]
MARKER = "// askhost's OpenCode plugin"


def start_ask(wd, raw=None, env=None):
    request = {"id": "que_1", "sessionID": "ses_1", "directory": project(wd), "questions": QUESTIONS}
    return start(wd, ["opencode", "ask"], request, raw, env)


@case
def answered_in_the_editor_is_opencodes_reply():
    wd = Workdir()
    ed = standing(wd)
    p = start_ask(wd)
    show = ed.method("ask/show")
    params = show["params"]
    equal((params["agent"], params["route"]), ("opencode", "plugin"), "agent and route")
    equal([q["question"] for q in params["questions"]], [DB_Q, FEAT_Q], "both questions")
    equal([q.get("multiSelect", False) for q in params["questions"]], [False, True], "the multi-select")
    equal(params["questions"][0]["header"], "Database", "the header")
    ed.reply(show["id"], {"answered": True, "answers": [
        {"question": DB_Q, "answer": "DuckDB", "wasCustom": True},
        {"question": FEAT_Q, "answer": ["Auth", "Admin"], "wasCustom": False}]})
    out, _ = finish(p)
    equal(out, {"answers": [["DuckDB"], ["Auth", "Admin"]]}, "OpenCode's reply, in the order of its questions")


@case
def a_cancel_in_the_editor_is_opencodes_reject():
    wd = Workdir()
    ed = standing(wd)
    p = start_ask(wd)
    show = ed.method("ask/show")
    ed.reply(show["id"], {"answered": False, "cancelled": True})
    out, _ = finish(p)
    equal(out, {"reject": True}, "a reject")


@case
def sigterm_withdraws_the_editors_question():
    """The plugin's SIGTERM (the person answered in OpenCode's own dialog): the editor's copy closes."""
    wd = Workdir()
    ed = standing(wd)
    p = start_ask(wd)
    show = ed.method("ask/show")
    p.send_signal(signal.SIGTERM)
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"]["id"], show["id"], "the editor's question is withdrawn")
    out, _ = finish(p)
    equal(out, None, "nothing printed")


@case
def opencode_gone_withdraws_the_editors_question():
    """OpenCode killed without a word to its plugin: askhost's ask sees its parent gone and the
    editor's copy closes."""
    wd = Workdir()
    ed = standing(wd)
    agent = start_under_an_agent(wd, ["opencode", "ask"], {"id": "que_1", "sessionID": "ses_1",
                                                          "directory": project(wd), "questions": QUESTIONS})
    show = ed.method("ask/show")
    agent.kill()
    agent.wait()
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"]["id"], show["id"], "the editor's question is withdrawn")


@case
def no_host_prints_nothing_at_once():
    """Nowhere to show: OpenCode's own dialog is the only one."""
    wd = Workdir()
    out, _ = finish(start_ask(wd))
    equal(out, None, "nothing printed")


@case
def own_questions_never_leaves_them_to_opencode():
    """`own-questions = never` in askhost's settings: OpenCode's dialog alone, even with a host."""
    wd = Workdir()
    ed = standing(wd)
    env = wd.env()
    with open(wd.file("config/askhost/config"), "a") as f:
        f.write("own-questions = never\n")
    out, _ = finish(start_ask(wd, env=env))
    equal(out, None, "nothing printed")
    check(not [m for m in ed.seen if m.get("method") == "ask/show"], "nothing was shown")


@case
def bad_input_is_left_to_opencode():
    wd = Workdir()
    standing(wd)
    for raw, why in ((b"{ not json", "not a JSON object"), (b'{"id":"que_1","questions":[]}', "no questions"),
                     (json.dumps({"id": "q", "questions": [{"question": "Q?"}, {"question": "Q?"}]}).encode(),
                      "questions[1]")):
        out, err = finish(start_ask(wd, raw))
        equal(out, None, "nothing printed for " + why)
        check("left to OpenCode" in err and why in err, err)


@case
def typed_at_a_terminal_or_with_options_is_a_usage_error():
    wd = Workdir()
    for args, says in ((["opencode"], "say install or ask"), (["opencode", "ask", "--project"], "goes with install"),
                       (["opencode", "install", "--project", "--dir", "x"], "give one"),
                       (["opencode", "nonsense"], "nonsense")):
        r = subprocess.run([ASKHOST] + args, env=wd.env(), capture_output=True, text=True, stdin=subprocess.DEVNULL)
        equal(r.returncode, 2, " ".join(args))
        check(says in r.stderr, r.stderr)


def install(wd, *args, cwd=None):
    r = subprocess.run([ASKHOST, "opencode", "install", *args], env=wd.env(), capture_output=True, text=True,
                       cwd=cwd or wd.path)
    equal(r.returncode, 0, "install %s: %s" % (args, r.stderr))
    return r.stdout


@case
def install_user_wide_twice_keeps_one_and_remove_takes_only_askhosts():
    wd = Workdir()
    plugins = wd.file("config/opencode/plugin")
    os.makedirs(plugins)
    with open(os.path.join(plugins, "theirs.ts"), "w") as f:
        f.write("export const Theirs = async () => ({})\n")
    ours = os.path.join(plugins, "askhost.ts")
    out = install(wd)
    check("added to " + ours in out, out)
    with open(ours) as f:
        text = f.read()
    check(text.startswith(MARKER), text[:80])
    check("const ASKHOST: string = %s;" % json.dumps(os.path.realpath(ASKHOST)) in text, "askhost's full path")
    out = install(wd)
    check("already in " + ours in out, out)
    equal(sorted(os.listdir(plugins)), ["askhost.ts", "theirs.ts"], "one plugin of askhost's, the other kept")
    # An older askhost's plugin is replaced, still one.
    with open(ours, "w") as f:
        f.write(MARKER + ": an older one\n")
    check("updated in " + ours in install(wd), "updated")
    equal(sorted(os.listdir(plugins)), ["askhost.ts", "theirs.ts"], "still one")
    out = install(wd, "--remove")
    check("removed from " + ours in out, out)
    equal(os.listdir(plugins), ["theirs.ts"], "the other plugin kept")
    check("is not in" in install(wd, "--remove"), "a second remove says so")


@case
def install_project_and_dir_and_plugins_folder():
    wd = Workdir()
    proj = project(wd)
    install(wd, "--project", cwd=proj)
    check(os.path.exists(os.path.join(proj, ".opencode", "plugin", "askhost.ts")), "in the project's .opencode/plugin")
    # A config folder that has plugins/ (OpenCode reads both): ours goes there, and stays there.
    other = wd.file("other")
    os.makedirs(os.path.join(other, "plugins"))
    install(wd, "--dir", other)
    install(wd, "--dir", other)
    equal(os.listdir(os.path.join(other, "plugins")), ["askhost.ts"], "in plugins/, once")
    check(not os.path.exists(os.path.join(other, "plugin")), "no second folder")
    install(wd, "--dir", other, "--remove")
    equal(os.listdir(os.path.join(other, "plugins")), [], "removed")


@case
def someone_elses_askhost_ts_is_left_as_it_is():
    wd = Workdir()
    plugins = wd.file("config/opencode/plugin")
    os.makedirs(plugins)
    with open(os.path.join(plugins, "askhost.ts"), "w") as f:
        f.write("// mine\n")
    for extra in ([], ["--remove"]):
        r = subprocess.run([ASKHOST, "opencode", "install", *extra], env=wd.env(), capture_output=True, text=True)
        equal(r.returncode, 1, "refused " + " ".join(extra))
        check("not askhost's plugin; left as it is" in r.stderr, r.stderr)
    with open(os.path.join(plugins, "askhost.ts")) as f:
        equal(f.read(), "// mine\n", "left as it is")


if __name__ == "__main__":
    sys.exit(main())
