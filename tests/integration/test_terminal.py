"""The real binary in a real terminal (tmux): the dialog, attach, and the question hook."""
import os
import subprocess
import time

from harness import (host_socket, ASKHOST, agent_pids, DATABASE_Q, DEMO_AGENT, NAME_Q, Editor, Tmux, Workdir,
                     ask_request, case, check, equal, main, wait_for)


def responses(wd):
    return [r for r in wd.records() if r != "EOF"]


@case
def demo_agent_through_the_dialog():
    wd = Workdir()
    t = Tmux(wd, [ASKHOST, "--tui", "--", DEMO_AGENT], height=30)
    try:
        t.wait_screen("> 1. PostgreSQL (Recommended)")
        s = t.screen()
        check("4. Other (type your answer)" in s, s)
        check("□ Service Name" in s, s)
        t.keys("Down", "Enter")                 # SQLite
        t.wait_screen("What should we name this service?")
        t.text("billing-api")
        t.keys("Enter")
        t.wait_screen("Which features should we include?")
        t.keys("Space", "Down", "Space", "Enter")  # Authentication + REST API
        s = t.wait_screen("Enter to submit")
        check("Service Name: billing-api" in s, s)
        t.keys("Enter")
        s = t.wait_screen("the model reads")
        check("What should we name this service? -> billing-api (typed)" in s, s)
        check("Which features should we include? -> Authentication, REST API" in s, s)
        check("demo-agent: planning a new service..." in s, "agent output before the dialog is back on screen")
        check("? 3 questions answered" in s, "one-line record of the exchange: " + s)
        equal(t.exit_status(), 0, "exit status")
    finally:
        t.kill()


@case
def a_terminal_that_cannot_show_the_dialog_falls_back_to_the_pending_file():
    """TERM=dumb or an unknown TERM: the questions go to the pending-questions file and stderr says
    why, with --tui and without it; the agent hears "pending", never a silent cancel."""
    for term, why in (("dumb", "TERM=dumb cannot move the cursor"),
                      ("no-such-terminal", "unknown terminal type TERM=no-such-terminal")):
        for mode in (["--tui"], []):
            wd = Workdir()
            t = Tmux(wd, ["env", "TERM=" + term, ASKHOST] + mode + ["--"]
                     + wd.agent([{"send": ask_request("r", [DATABASE_Q])}, {"recv": 1}]), width=120)
            try:
                t.wait_screen("no dialog on this terminal (%s)" % why)
                equal(t.exit_status(), 0, "exit status")
                (r,) = [x for x in wd.records() if x != "EOF"]
                check(r.get("pendingFile") and not r.get("cancelled"), f"{term} {mode}: the agent hears pending: {r!r}")
                check(os.path.exists(wd.file(".askhost/pending-questions.json")), "the pending-questions file")
            finally:
                t.kill()


@case
def a_multi_line_paste_is_text_not_keys():
    """Bracketed paste: two lines pasted into a free-text question stay its answer, line break and
    all; they neither submit it nor answer the next question."""
    wd = Workdir()
    t = Tmux(wd, [ASKHOST, "--tui", "--"] + wd.agent([{"send": ask_request("r", [NAME_Q, DATABASE_Q])}, {"recv": 1}]),
             height=30)
    try:
        t.wait_screen("What should we name this service?")
        time.sleep(0.5)
        subprocess.run(["tmux", "-L", t.name, "set-buffer", "use postgres\ncall it billing"], check=True)
        subprocess.run(["tmux", "-L", t.name, "paste-buffer", "-p"], check=True)  # -p: bracketed
        s = t.wait_screen("call it billing")
        check("use postgres↵" in s and "What should we name this service?" in s, "still the first question:\n" + s)
        t.keys("Enter")
        t.wait_screen("Which database should we use?")
        t.keys("2")
        t.wait_screen("Enter to submit")
        t.keys("Enter")
        equal(t.exit_status(), 0, "exit status")
        (r,) = [x for x in wd.records() if x != "EOF"]
        equal([a["answer"] for a in r["answers"]], ["use postgres\ncall it billing", "SQLite"], "the answers")
    finally:
        t.kill()


@case
def escape_cancels_and_the_agent_is_told():
    wd = Workdir()
    t = Tmux(wd, [ASKHOST, "--tui", "--"] + wd.agent([{"send": ask_request("r", [DATABASE_Q])}, {"recv": 1}]))
    try:
        t.wait_screen("> 1. PostgreSQL (Recommended)")
        t.keys("Escape")
        equal(t.exit_status(), 0, "exit status")
        (r,) = responses(wd)
        equal((r["answered"], r["cancelled"], r["answers"]), (False, True, []), "cancelled response")
    finally:
        t.kill()


@case
def output_is_held_while_the_dialog_is_open():
    wd = Workdir()
    steps = [{"out": "before"}, {"send": ask_request("r", [NAME_Q])}, {"out": "during"}, {"recv": 1},
             {"out": "after"}]
    t = Tmux(wd, [ASKHOST, "--tui", "--"] + wd.agent(steps))
    try:
        s = t.wait_screen("What should we name this service?")
        time.sleep(0.3)
        check("during" not in t.screen(), "agent output does not scribble over the dialog")
        t.text("x")
        t.keys("Enter")
        s = t.wait_screen("after")
        lines = [l for l in s.splitlines() if l.strip()]
        check(lines.index("before") < lines.index("during") < lines.index("after"), s)
    finally:
        t.kill()


@case
def sigint_in_the_terminal_restores_it_and_stops_the_agent():
    wd = Workdir()
    t = Tmux(wd, [ASKHOST, "--tui", "--"] + wd.agent([{"send": ask_request("r", [NAME_Q])}, {"recv": 1}]))
    try:
        t.wait_screen("What should we name this service?")
        t.keys("C-c")
        equal(t.exit_status(), 130, "exit status 128+SIGINT")
        equal(agent_pids(wd.file("script1.json")), [], "agents left behind")
    finally:
        t.kill()


@case
def attach_answers_a_headless_agents_question():
    wd = Workdir()
    # The host's own editor cannot show questions ("ask": false): only the attached terminal can.
    steps = [{"sleep": 1.0}, {"send": ask_request("r", [DATABASE_Q])}, {"recv": 1}]
    ed = Editor(wd, ["--"] + wd.agent(steps))
    ed.initialize(caps={"ask": False})
    path = host_socket(wd)
    t = Tmux(wd, [ASKHOST, "attach", path])
    try:
        t.wait_screen("> 1. PostgreSQL (Recommended)")
        t.keys("3")  # quick select MongoDB
        ed.method("agent/exit", timeout=15)
        (r,) = responses(wd)
        equal(r["answers"][0]["answer"], "MongoDB", "answer from the attached terminal")
        equal(r["answers"][0]["selectedOption"], "MongoDB", "selectedOption")
        ed.request("shutdown")
        ed.notify("exit")
        equal(ed.exit_code(), 0, "host exit")
        equal(t.exit_status(), 1, "attach exits when the host goes away")
        check("the host went away" in t.screen(), t.screen())
    finally:
        t.kill()
        ed.kill()


@case
def attach_shows_previews_and_takes_notes():
    """askhost attach is the terminal dialog: it declares previews and notes, so the host sends them."""
    wd = Workdir()
    layout = {"question": "Which layout?", "header": "Layout", "options": [
        {"label": "Sidebar", "preview": "# Sidebar"}, {"label": "Top bar", "preview": "<p>The <b>top</b> bar</p>"}]}
    steps = [{"sleep": 1.0}, {"send": ask_request("r", [layout])}, {"recv": 1}]
    ed = Editor(wd, ["--"] + wd.agent(steps))
    ed.initialize(caps={"ask": False})
    t = Tmux(wd, [ASKHOST, "attach", host_socket(wd)])
    try:
        t.wait_screen("── Preview")
        t.wait_screen("# Sidebar")
        t.keys("Down")
        t.wait_screen("The top bar")
        t.keys("n")
        t.wait_screen("Note: ")
        t.text("two rows")
        t.wait_screen("Note: two rows")
        t.keys("Enter")
        t.wait_screen("Enter to select")
        t.keys("Enter")
        ed.method("agent/exit", timeout=15)
        (r,) = responses(wd)
        a = r["answers"][0]
        equal(a["answer"], "Top bar", "answer from the attached terminal")
        equal(a.get("preview"), "<p>The <b>top</b> bar</p>", "the picked preview")
        equal(a.get("notes"), "two rows", "the note")
    finally:
        t.kill()
        ed.kill()


@case
def attach_without_a_host_says_so():
    wd = Workdir()
    p = subprocess.run([ASKHOST, "attach", wd.file("nope.sock")], capture_output=True, env=wd.env(),
                       stdin=subprocess.DEVNULL)
    check(p.returncode != 0, "fails")
    check(b"askhost attach:" in p.stderr, p.stderr)


@case
def stdio_typed_at_a_terminal_says_what_it_waits_for():
    """`askhost --stdio` is for an editor to run; typed at a terminal it says so (rather than a
    silent cursor that ignores what is typed), and Ctrl-C ends it."""
    wd = Workdir()
    t = Tmux(wd, [ASKHOST, "--stdio"], width=100)
    try:
        screen = t.wait_screen("for an editor to run")
        check("docs/protocol.md" in screen and "Ctrl-C" in screen, screen)
        time.sleep(0.5)
        t.keys("C-c")
        equal(t.exit_status(), 130, "exit status after Ctrl-C")
    finally:
        t.kill()


@case
def a_question_hook_that_cannot_run_is_a_usage_error():
    """--on-question runs when a question waits, maybe hours later: a command that could never run
    (a typo in its program, an unterminated quote) is said at once, not swallowed then."""
    wd = Workdir()
    for cmd, what in (("notfiy-send hello", "'notfiy-send' is not found on PATH"),
                      ("notify-send 'hello", "unterminated single quote in: notify-send 'hello"),
                      ("", "no command given"),
                      (wd.file("missing-script"), "'%s' is not a program that can be run" % wd.file("missing-script"))):
        for sub in ([], ["web"]):
            args = sub + ["--on-question", cmd] + ([] if sub else ["--print", "--", "true"])
            p = subprocess.run([ASKHOST] + args, capture_output=True, text=True, env=wd.env(), cwd=wd.path,
                               stdin=subprocess.DEVNULL, timeout=20)
            name = " ".join(["askhost"] + sub)
            equal(p.returncode, 2, f"{name} --on-question {cmd!r}: exit status ({p.stderr!r})")
            equal(p.stderr.splitlines()[0], f"{name}: --on-question: {what}", f"{name} --on-question {cmd!r}: stderr")
    p = subprocess.run([ASKHOST, "--on-question", "true", "--print", "--", "true"], capture_output=True, text=True,
                       env=wd.env(), cwd=wd.path, stdin=subprocess.DEVNULL, timeout=20)
    equal(p.returncode, 0, f"a command on PATH: {p.stderr!r}")


@case
def hooks_typed_at_a_terminal_say_who_runs_them():
    """askhost hook, codex-hook and gemini-hook read the agent's JSON on stdin: typed at a terminal
    they say so and how to set them up (exit 2), rather than wait for input nobody sends."""
    wd = Workdir()
    for sub in ("hook", "codex-hook", "gemini-hook"):
        t = Tmux(wd, [ASKHOST, sub], width=200)
        try:
            screen = t.wait_screen("install sets it up")
            check(f"askhost {sub}:" in screen and "not a terminal" in screen, screen)
            equal(t.exit_status(), 2, f"askhost {sub}: exit status")
        finally:
            t.kill()


@case
def mcp_typed_at_a_terminal_says_what_it_waits_for():
    """`askhost mcp` is for an agent's MCP configuration; typed at a terminal it says so, and
    Ctrl-C ends it."""
    wd = Workdir()
    t = Tmux(wd, [ASKHOST, "mcp"], width=200)
    try:
        screen = t.wait_screen("for an agent's MCP configuration to run")
        check("docs/mcp.md" in screen and "Ctrl-C" in screen, screen)
        time.sleep(0.5)
        t.keys("C-c")
        equal(t.exit_status(), 0, "exit status after Ctrl-C")
    finally:
        t.kill()


@case
def question_hook_runs_with_the_question_in_its_environment():
    wd = Workdir()
    hook = wd.file("hook.sh")
    with open(hook, "w") as f:
        f.write('#!/bin/sh\nprintf "%s|%s|%s" "$ASKHOST_QUESTION" "$ASKHOST_QUESTION_COUNT" "$ASKHOST_AGENT" > '
                + wd.file("hook.out") + "\n")
    os.chmod(hook, 0o755)
    ed = Editor(wd, ["--on-question", hook, "--"] + wd.agent([{"send": ask_request("r", [NAME_Q])}, {"recv": 1}]))
    ed.initialize()
    show = ed.method("ask/show")
    out = wait_for(lambda: os.path.exists(wd.file("hook.out")) and open(wd.file("hook.out")).read(),
                   what="the hook's output")
    equal(out, "What should we name this service?|1|scripted-agent", "hook environment")
    ed.reply(show["id"], {"answered": False, "cancelled": True})
    ed.method("agent/exit")
    ed.request("shutdown")
    ed.notify("exit")
    equal(ed.exit_code(), 0, "exit")


@case
def question_hook_arguments_keep_their_quotes():
    wd = Workdir()
    hook = wd.file("hook args.sh")
    with open(hook, "w") as f:
        f.write('#!/bin/sh\nfor a in "$@"; do printf "[%s]" "$a"; done > ' + wd.file("hook.out") + "\n")
    os.chmod(hook, 0o755)
    cmd = "'%s' 'two words' \"say \\\"hi\\\"\" plain" % hook
    ed = Editor(wd, ["--on-question", cmd, "--"] + wd.agent([{"send": ask_request("r", [NAME_Q])}, {"recv": 1}]))
    ed.initialize()
    show = ed.method("ask/show")
    out = wait_for(lambda: os.path.exists(wd.file("hook.out")) and open(wd.file("hook.out")).read(),
                   what="the hook's output")
    equal(out, '[two words][say "hi"][plain]', "arguments as quoted")
    ed.reply(show["id"], {"answered": False, "cancelled": True})
    ed.method("agent/exit")
    ed.request("shutdown")
    ed.notify("exit")
    equal(ed.exit_code(), 0, "exit")


if __name__ == "__main__":
    raise SystemExit(main())
