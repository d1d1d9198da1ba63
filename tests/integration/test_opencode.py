#!/usr/bin/env python3
"""askhost opencode: `ask` as askhost's OpenCode plugin runs it (the question request on stdin)
against an editor's standing host found by OpenCode's folder: answered, declined, withdrawn when
OpenCode's own dialog answered first (SIGTERM), no host, bad input; `permission` (one of
OpenCode's permission prompts) the same way, as a typed permission; `summary` (the compaction's
words); and `install` (user-wide, --project, --dir, twice, --remove, someone else's file)."""
import json
import os
import signal
import subprocess
import sys

from harness import ASKHOST, Workdir, case, check, equal, main, wait_for
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
    for args, says in ((["opencode"], "say install, ask, permission or summary"), (["opencode", "ask", "--project"], "goes with install"),
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


def start_permission(wd):
    request = {"id": "per_1", "sessionID": "ses_1", "directory": project(wd), "permission": "bash",
               "patterns": ["git push origin main"], "always": ["git push *"],
               "metadata": {"command": "git push origin main"}}
    return start(wd, ["opencode", "permission"], request)


@case
def a_permission_prompt_answered_in_the_editor_is_opencodes_reply():
    """OpenCode's bash prompt in the editor as a typed permission with OpenCode's three replies;
    the pick is OpenCode's reply, a typed answer a reject with the person's words."""
    wd = Workdir()
    ed = standing(wd)
    for label, typed, want in (("Always allow", False, {"reply": "always"}),
                               ("not on main, please", True, {"reply": "reject", "message": "not on main, please"})):
        p = start_permission(wd)
        show = ed.method("ask/show")
        params = show["params"]
        equal((params["agent"], params["route"]), ("opencode", "plugin"), "agent and route")
        perm = params["permission"]
        equal((perm["tool"], perm["command"]), ("bash", "git push origin main"), "the typed permission")
        equal([(o["label"], o["kind"]) for o in perm["options"]],
              [("Allow once", "allow_once"), ("Always allow", "allow_always"), ("Reject", "reject_once")], "replies")
        answer = {"question": params["questions"][0]["question"], "answer": label, "wasCustom": typed}
        if not typed:
            answer["selectedOption"] = label
        ed.reply(show["id"], {"answered": True, "answers": [answer]})
        out, _ = finish(p)
        equal(out, want, "OpenCode's reply")


@case
def a_permission_answered_in_opencode_withdraws_the_editors_copy():
    wd = Workdir()
    ed = standing(wd)
    p = start_permission(wd)
    show = ed.method("ask/show")
    p.send_signal(signal.SIGTERM)
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"]["id"], show["id"], "the editor's copy is withdrawn")
    out, _ = finish(p)
    equal(out, None, "nothing printed")


@case
def a_permission_with_no_host_waits_beside_opencodes_prompt():
    """No host: a host of askhost's own that waits quietly (askhost status counts it) until
    OpenCode's prompt answers (the plugin's SIGTERM)."""
    wd = Workdir()
    p = start_permission(wd)
    def counted():
        out = subprocess.run([ASKHOST, "status", "--json"], env=wd.env(), capture_output=True, text=True, timeout=10)
        st = json.loads(out.stdout)
        return st if st["waiting"] == 1 else None

    got = wait_for(counted, what="askhost status counting it")
    equal(got["hosts"][0]["kind"], "opencode", "waiting in a host of its own")
    p.send_signal(signal.SIGTERM)
    out, _ = finish(p)
    equal(out, None, "nothing printed")


@case
def summary_gives_the_compaction_the_sessions_answers():
    wd = Workdir()
    calls = {"calls": [
        {"status": "completed", "questions": QUESTIONS, "answers": [["SQLite"], ["Auth", "Admin"]]},
        {"status": "error", "questions": [{"question": "Deploy now?", "header": "Deploy",
                                           "options": [{"label": "Yes"}, {"label": "No"}]}]}]}
    r = subprocess.run([ASKHOST, "opencode", "summary"], input=json.dumps(calls).encode(), env=wd.env(),
                       capture_output=True, timeout=30)
    equal(r.returncode, 0, r.stderr.decode())
    equal(r.stdout.decode(), "Keep in the summary what the user decided when asked, as it stands here (these are the "
          "user's own answers; later work should follow them): User was asked \"%s\" and chose SQLite. User was "
          "asked \"%s\" and chose Auth and Admin. User was asked \"Deploy now?\" and declined to answer.\n"
          % (DB_Q, FEAT_Q), "the words")
    r = subprocess.run([ASKHOST, "opencode", "summary"], input=b'{"calls": []}', env=wd.env(), capture_output=True,
                       timeout=30)
    equal((r.returncode, r.stdout), (0, b""), "nothing asked: nothing printed")


if __name__ == "__main__":
    sys.exit(main())
