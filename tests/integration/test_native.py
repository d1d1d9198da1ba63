"""The native agent protocol through the real binary, with pipes only (no terminal, no editor)."""
import os
import signal
import subprocess
import time

from harness import (DEMO_AGENT, ASKHOST, DATABASE_Q, NAME_Q, Workdir, ask_request, case, check,
                     equal, main, run)


def responses(wd):
    return [r for r in wd.records() if r != "EOF"]


@case
def refused_strict_five_options():
    wd = Workdir()
    q = dict(DATABASE_Q, options=[{"label": f"o{i}", "description": "d"} for i in range(5)])
    agent = wd.agent([{"send": ask_request("r1", [q])}, {"recv": 1}])
    p = run(["--print", "--profile", "strict", "--"] + agent, wd)
    equal(p.returncode, 0, "exit code")
    (r,) = responses(wd)
    equal(r["type"], "ask_user_response", "type")
    equal(r["requestId"], "r1", "requestId")
    equal(r["answered"], False, "answered")
    equal(r["error"]["code"], "invalid_schema", "error code")
    equal(r["error"]["path"], "questions[0].options", "error path")
    equal(r["error"]["message"], 'questions[0].options: Question "%s" must have 2-4 options' % q["question"],
          "error message")


@case
def refused_empty_questions():
    wd = Workdir()
    agent = wd.agent([{"send": ask_request("r1", [])}, {"recv": 1}])
    run(["--print", "--"] + agent, wd)
    (r,) = responses(wd)
    equal(r["error"]["code"], "invalid_schema", "error code")
    check(r["error"]["message"].startswith("questions"), f"message names the field: {r['error']}")


@case
def subagent_refused():
    wd = Workdir()
    agent = wd.agent([{"send": ask_request(7, [NAME_Q], subagent=True)}, {"recv": 1}])
    run(["--print", "--"] + agent, wd)
    (r,) = responses(wd)
    equal(r["requestId"], 7, "numeric requestId echoed as a number")
    equal(r["answered"], False, "answered")
    equal(r["error"]["code"], "subagent", "error code")
    check("main conversation" in r["error"]["message"], f"message: {r['error']['message']}")


@case
def preset_answers_returned_without_asking():
    wd = Workdir()
    req = ask_request("r1", [DATABASE_Q, NAME_Q],
                      answers={"Which database should we use?": "SQLite",
                               "What should we name this service?": "billing"})
    agent = wd.agent([{"send": req}, {"recv": 1}])
    p = run(["--print", "--"] + agent, wd)
    equal(p.returncode, 0, "exit code")
    (r,) = responses(wd)
    equal(r["answered"], True, "answered")
    equal([a["answer"] for a in r["answers"]], ["SQLite", "billing"], "answers")
    equal(r["answers"][0].get("selectedOption"), "SQLite", "selectedOption")
    equal(r["answers"][1]["wasCustom"], True, "free text is custom")
    equal(r["text"], 'User has answered your questions: "Which database should we use?"="SQLite", '
          '"What should we name this service?"="billing". '
          "You can now continue with the user's answers in mind.", "model text")
    check(not os.path.exists(wd.file(".askhost/pending-questions.json")), "nothing was written")


@case
def output_passes_through_untouched_and_in_order():
    wd = Workdir()
    lines = ["plain line", "{not json at all", '{"type":"progress","pct":50}', "  spaced  ",
             "ünïcödé ✓ 中文", '{"type": "ask_user_request" broken']
    steps = [{"out": l} for l in lines] + [{"err": "to stderr"}, {"raw": "no newline at end"}]
    p = run(["--print", "--"] + wd.agent(steps), wd)
    equal(p.returncode, 0, "exit code")
    equal(p.stdout.decode(), "\n".join(lines) + "\nno newline at end\n", "stdout")
    equal(p.stderr.decode(), "to stderr\n", "stderr")


@case
def missing_request_id_is_refused():
    wd = Workdir()
    agent = wd.agent([{"send": {"type": "ask_user_request", "questions": [NAME_Q]}}, {"recv": 1}])
    run(["--print", "--"] + agent, wd)
    (r,) = responses(wd)
    equal(r["requestId"], None, "requestId")
    equal(r["error"]["path"], "requestId", "error path")


@case
def invalid_utf8_request_is_output_not_a_crash():
    wd = Workdir()
    script = wd.file("bad.sh")
    with open(script, "wb") as f:
        f.write(b'#!/bin/sh\nprintf \'{"type":"ask_user_request","requestId":"x","questions":[{"question":"\\377\\376"}]}\\n\'\n')
    os.chmod(script, 0o755)
    p = run(["--print", "--", script], wd)
    equal(p.returncode, 0, "exit code")
    check(b"\xff\xfe" in p.stdout, "the line is passed on as output")


@case
def exit_code_is_the_agents():
    wd = Workdir()
    p = run(["--print", "--"] + wd.agent([{"out": "bye"}, {"exit": 7}]), wd)
    equal(p.returncode, 7, "exit code")


@case
def agent_killed_by_signal_gives_128_plus_n():
    wd = Workdir()
    p = run(["--print", "--"] + wd.agent([{"signal": "SEGV"}]), wd)
    equal(p.returncode, 128 + signal.SIGSEGV, "exit code")


@case
def agent_not_found():
    wd = Workdir()
    p = run(["--print", "--", "no-such-agent-xyz"], wd)
    equal(p.returncode, 127, "exit code")
    check(b"no-such-agent-xyz" in p.stderr and b"not found" in p.stderr, f"stderr: {p.stderr!r}")
    p = run(["--print", "--", wd.file("no/such/agent")], wd)
    equal(p.returncode, 127, "a path that is not there: exit code (%r)" % p.stderr)


@case
def agent_path_with_spaces():
    """An agent in a folder whose name has a space (Boost.Process once split its path there)."""
    wd = Workdir()
    folder = wd.file("my agents")
    os.makedirs(folder)
    agent = os.path.join(folder, "scripted agent")
    with open(agent, "w") as f:
        f.write("#!/bin/sh\necho \"ran with: $1\"\n")
    os.chmod(agent, 0o755)
    p = run(["--print", "--", agent, "one arg"], wd)
    equal(p.returncode, 0, "exit code (%r)" % p.stderr)
    check(b"ran with: one arg" in p.stdout, "the agent ran, its argument whole: %r" % p.stdout)


@case
def agent_found_but_cannot_run_gives_126():
    """As a shell does: 126 for a program that is there but cannot be executed."""
    wd = Workdir()
    script = wd.file("not-executable")
    with open(script, "w") as f:
        f.write("#!/bin/sh\necho hi\n")
    os.chmod(script, 0o644)
    folder = wd.file("a-folder")
    os.makedirs(folder)
    for what, path in (("not executable", script), ("a directory", folder)):
        p = run(["--print", "--", path], wd)
        equal(p.returncode, 126, f"{what}: exit code ({p.stderr!r})")
        check(path.encode() in p.stderr and b"cannot run" in p.stderr, f"{what}: stderr: {p.stderr!r}")
    p = run(["--print", "--adapter", "no-such-adapter", "--", script], wd)
    equal(p.returncode, 2, f"an unknown adapter is a usage error ({p.stderr!r})")


@case
def usage_errors():
    wd = Workdir()
    p = run([], wd)
    equal(p.returncode, 2, "no agent: exit code")
    check(b"askhost --help" in p.stderr, f"stderr points at --help: {p.stderr!r}")
    p = run(["--bogus", "--", "true"], wd)
    equal(p.returncode, 2, "unknown option: exit code")
    check(b"--bogus" in p.stderr, f"stderr names the option: {p.stderr!r}")
    p = run(["--timeout", "soon", "--", "true"], wd)
    equal(p.returncode, 2, "bad timeout: exit code")
    p = run(["--help"], wd)
    equal(p.returncode, 0, "--help exit code")
    check(b"Usage:" in p.stdout, "--help prints usage")
    p = run(["--version"], wd)
    check(p.stdout.startswith(b"askhost "), f"--version: {p.stdout!r}")
    # --opt=value works wherever --opt value does; a flag without a value refuses one.
    p = run(["--timeout=soon", "--", "true"], wd)
    equal(p.returncode, 2, "bad --timeout=: exit code")
    check(b"'soon'" in p.stderr, f"stderr names the value: {p.stderr!r}")
    p = run(["--stdio=yes"], wd)
    equal(p.returncode, 2, "--stdio=: exit code")
    check(b"--stdio takes no value" in p.stderr, f"stderr: {p.stderr!r}")
    p = run(["--print", "--pending-file=elsewhere.json", "--", DEMO_AGENT], wd)
    check(os.path.exists(wd.file("elsewhere.json")), "--pending-file=PATH used")


@case
def sigterm_stops_an_agent_that_ignores_it():
    wd = Workdir()
    agent = wd.agent([{"ignore": "TERM"}, {"out": "ready"}, {"sleep": 60}])
    proc = subprocess.Popen([ASKHOST, "--print", "--"] + agent, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=wd.env(), cwd=wd.path)
    equal(proc.stdout.readline(), b"ready\n", "agent started")
    agent_pids = subprocess.run(["pgrep", "-f", wd.path + "/script1.json"], capture_output=True,
                                text=True).stdout.split()
    check(agent_pids, "agent process found")
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=20)
    equal(code, 128 + signal.SIGTERM, "askhost exit code")
    check(time.monotonic() - start < 15, "stopped after the grace period, not hanging")
    for pid in agent_pids:
        check(not os.path.exists(f"/proc/{pid}"), f"agent {pid} left behind")


@case
def agent_closing_stdout_early_is_not_a_hang():
    wd = Workdir()
    script = wd.file("close.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\necho before\nexec 1>&-\nsleep 0.3\nexit 4\n")
    os.chmod(script, 0o755)
    p = run(["--print", "--", script], wd, timeout=15)
    equal(p.returncode, 4, "exit code")
    equal(p.stdout, b"before\n", "stdout")


@case
def background_child_holding_pipes_does_not_block_exit():
    wd = Workdir()
    script = wd.file("bg.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n(sleep 30) &\necho done\nexit 0\n")
    os.chmod(script, 0o755)
    start = time.monotonic()
    p = run(["--print", "--", script], wd, timeout=20)
    equal(p.returncode, 0, "exit code")
    check(time.monotonic() - start < 10, "askhost did not wait for the background child")


if __name__ == "__main__":
    raise SystemExit(main())
