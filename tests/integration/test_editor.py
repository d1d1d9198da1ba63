"""The editor protocol through the real binary: askhost --stdio with a scripted editor and agent.

What needs timing, processes, signals, sockets or files; cases that are only messages in and
replies compared are transcripts (tests/transcripts/)."""
import json
import os
import signal
import stat
import subprocess
import time

from harness import (host_socket, strict, DATABASE_Q, NAME_Q, Editor, Workdir, answer_of, ask_request, case, check,
                     equal, main)


def responses(wd):
    return [r for r in wd.records() if r != "EOF"]


def start(wd, steps, args=None, caps=None):
    ed = Editor(wd, (args or []) + ["--"] + wd.agent(steps))
    init = ed.initialize(caps)
    return ed, init


def shutdown(ed):
    rid = ed.request("shutdown")
    equal(ed.result_of(rid).get("result", "missing"), None, "shutdown result")
    ed.notify("exit")
    return ed.exit_code()


@case
def strict_answers_over_the_cap_are_kept_in_a_file_lenient_ones_whole():
    """--profile strict: a 120 000-byte answer reaches the agent cut, with where the whole is; under
    the lenient profile (no cap) it reaches the agent whole."""
    for profile in ("strict", "lenient"):
        wd = Workdir()
        q = strict(DATABASE_Q)
        ed, _ = start(wd, [{"send": ask_request("r", [q])}, {"recv": 1}], args=["--profile", profile])
        show = ed.method("ask/show")
        typed = "y" * 120000
        ed.reply(show["id"], {"answered": True, "answers": [answer_of(q["question"], typed, custom=True)]})
        ed.method("agent/exit")
        (r,) = responses(wd)
        got = r["answers"][0]["answer"]
        if profile == "lenient":
            equal(got, typed, "lenient: the whole answer")
        else:
            check(got.startswith("y" * 2000 + " [... cut: the whole answer, 120000 bytes, is in "), got[:2100])
            with open(got.split(" is in ", 1)[1].rstrip("]")) as f:
                equal(f.read(), typed, "kept whole")
        shutdown(ed)


def stderr_output(ed):
    return ed.method("agent/output", where=lambda m: m["params"]["stream"] == "stderr")["params"]["text"]


@case
def agent_output_goes_on_in_whole_lines():
    """stderr written in fragments (as Codex writes `workdir: DIR`) reaches the editor as one line;
    a partial line with no line break after it (a prompt) still goes on, while the agent waits.
    The partial-line wait is long here (ASKHOST_PARTIAL_LINE_MS) so that fragments 5 ms apart join
    however loaded the machine is; the agent waits for input, far longer than that."""
    wd = Workdir()
    steps = [{"errraw": "workdir:"}, {"sleep": 0.005}, {"errraw": " "}, {"sleep": 0.005},
             {"errraw": "/tmp/project"}, {"sleep": 0.005}, {"errraw": "\n"}, {"errraw": "Continue? "}, {"recv": 1}]
    ed = Editor(wd, ["--"] + wd.agent(steps), env=wd.env(ASKHOST_PARTIAL_LINE_MS="2000"))
    ed.initialize()
    equal(stderr_output(ed), "workdir: /tmp/project\n", "one whole line")
    equal(stderr_output(ed), "Continue? ", "the partial line on its own")
    check(not [m for m in ed.seen if m.get("method") == "agent/exit"], "before the agent exits")
    shutdown(ed)


@case
def a_partial_line_goes_on_after_the_wait():
    """The default wait (and the default when ASKHOST_PARTIAL_LINE_MS does not read, which is
    reported): the whole line goes on at once, the prompt after it on its own, while the agent
    waits for input."""
    for env, problem in ((None, None), ("soon", "ASKHOST_PARTIAL_LINE_MS=soon: expected milliseconds")):
        wd = Workdir()
        steps = [{"errraw": "ready\nContinue? "}, {"recv": 1}]
        ed = Editor(wd, ["--"] + wd.agent(steps), env=wd.env(**({"ASKHOST_PARTIAL_LINE_MS": env} if env else {})))
        ed.initialize()
        equal(stderr_output(ed), "ready\n", "the whole line")
        equal(stderr_output(ed), "Continue? ", "the partial line, after the wait")
        check(not [m for m in ed.seen if m.get("method") == "agent/exit"], "before the agent exits")
        shutdown(ed)
        if problem:
            with open(ed.stderr_path) as f:
                logged = f.read()
            check(problem in logged, f"reported: {logged!r}")


@case
def protocol_lines_inside_a_run_of_output_keep_their_place():
    """One write of many lines with a question among them (askhost takes a read's lines at once):
    what came before the question reaches the editor before its ask/show, what came after it
    after, and lines that only look like messages (a "type" in text, an unknown type) are output."""
    wd = Workdir()
    ask = json.dumps(ask_request("r", [NAME_Q]))
    before = "".join(f"before {i:03d} " + "x" * 60 + "\n" for i in range(300))
    before += 'a "type" in plain text\n'
    after = '{"type": "not_a_message_askhost_knows"}\n' + "".join(f"after {i:03d}\n" for i in range(300))
    ed, _ = start(wd, [{"raw": before + "  " + ask + "\n" + after}, {"recv": 1}, {"out": "done"}])
    def output_in(messages):
        return "".join(m["params"]["text"] for m in messages if m.get("method") == "agent/output")

    show = ed.method("ask/show")  # what came before it is left in ed.seen
    equal(output_in(ed.seen), before, "the output before the question, before it")
    shown_at = len(ed.seen)
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "Ada", custom=True)]})
    ed.method("agent/exit")
    equal(output_in(ed.seen[shown_at:]), after + "done\n", "the output after it, after it")
    (r,) = responses(wd)
    equal((r["requestId"], r["answers"][0]["answer"]), ("r", "Ada"), "the answer")
    equal(shutdown(ed), 0, "exit code")


@case
def agent_crash_mid_question_withdraws_and_a_new_agent_can_start():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [NAME_Q])}, {"sleep": 0.3}, {"signal": "SEGV"}])
    show = ed.method("ask/show")
    ed.method("$/cancelRequest", where=lambda m: m["params"]["id"] == show["id"])
    ex = ed.method("agent/exit")
    equal(ex["params"], {"exitCode": None, "signal": signal.SIGSEGV}, "agent/exit")
    ed.method("ask/state", where=lambda m: m["params"]["state"] == "idle")
    rid = ed.request("agent/start", {"command": wd.agent([{"out": "second life"}], record="r2.jsonl")})
    check(ed.result_of(rid)["result"]["pid"] > 0, "pid")
    ed.method("agent/output", where=lambda m: m["params"]["text"] == "second life\n")
    ed.method("agent/exit")
    equal(shutdown(ed), 0, "exit code")


@case
def editor_vanishing_mid_question_gives_connection_lost_and_no_orphan():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [NAME_Q])}, {"recv": 1}, {"sleep": 30}])
    ed.method("ask/show")
    pid_line = subprocess.run(["pgrep", "-f", f"{wd.path}/script1.json"], capture_output=True,
                              text=True).stdout.split()
    check(pid_line, "agent running")
    ed.close()  # stdin closes: the editor is gone
    equal(ed.exit_code(), 1, "askhost exit code")
    (r,) = responses(wd)
    equal(r, {"type": "ask_user_response", "requestId": "r", "answered": False, "connectionLost": True},
          "response")
    for pid in pid_line:
        check(not os.path.exists(f"/proc/{pid}"), f"agent {pid} still running")


@case
def oversized_frame_is_skipped_and_the_stream_continues():
    wd = Workdir()
    ed = Editor(wd)
    ed.initialize()
    big = b"x" * (9 * 1024 * 1024)
    ed.send_raw(b"Content-Length: %d\r\n\r\n" % len(big) + big)
    ed.wait(lambda m: m.get("error", {}).get("code") == -32600, what="oversized frame error")
    equal(shutdown(ed), 0, "exit code after the skipped frame")


@case
def socket_is_private_and_named_in_the_agent_environment():
    wd = Workdir()
    script = wd.file("env.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\necho \"SOCKET=$ASKHOST_SOCKET\"\nsleep 30\n")
    os.chmod(script, 0o755)
    ed = Editor(wd, ["--", script])
    ed.initialize()
    out = ed.method("agent/output", where=lambda m: m["params"]["text"].startswith("SOCKET="))
    path = out["params"]["text"].strip()[len("SOCKET="):]
    check(path.startswith(wd.file("run")), f"socket under XDG_RUNTIME_DIR: {path}")
    equal(stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode), 0o700, "directory mode")
    check(stat.S_ISSOCK(os.stat(path).st_mode), "a socket")
    equal(stat.S_IMODE(os.stat(path).st_mode) & 0o077, 0, "socket not open to others")
    equal(shutdown(ed), 0, "exit code")
    check(not os.path.exists(path), "socket removed at exit")


@case
def two_clients_first_answer_wins():
    wd = Workdir()
    ed = Editor(wd, ["--"] + wd.agent([{"sleep": 0.5}, {"send": ask_request("r", [NAME_Q])}, {"recv": 1}]))
    ed.initialize()
    path = host_socket(wd)
    other = Editor(wd, sock_path=path)
    other.initialize(name="second")
    s1 = ed.method("ask/show")
    s2 = other.method("ask/show")
    equal(s1["params"]["id"], s2["params"]["id"], "same ask")
    other.reply(s2["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "from-socket", custom=True)]})
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"]["id"], s1["id"], "the other client is withdrawn")
    ed.reply(s1["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "too-late", custom=True)]})
    for client in (ed, other):
        client.method("ask/state", where=lambda m: m["params"]["state"] == "idle")
    ed.method("agent/exit")
    (r,) = responses(wd)
    equal(r["answers"][0]["answer"], "from-socket", "first answer won")
    other.close()
    equal(shutdown(ed), 0, "exit code")


@case
def socket_client_vanishing_is_no_loss_while_the_editor_shows_it():
    wd = Workdir()
    ed = Editor(wd, ["--"] + wd.agent([{"sleep": 0.5}, {"send": ask_request("r", [NAME_Q])}, {"recv": 1}]))
    ed.initialize()
    path = host_socket(wd)
    other = Editor(wd, sock_path=path)
    other.initialize(name="second")
    other.method("ask/show")
    other.close()
    s1 = ed.method("ask/show")
    time.sleep(0.3)
    ed.reply(s1["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "kept", custom=True)]})
    ed.method("agent/exit")
    (r,) = responses(wd)
    equal(r["answers"][0]["answer"], "kept", "answer")
    shutdown(ed)


if __name__ == "__main__":
    raise SystemExit(main())
