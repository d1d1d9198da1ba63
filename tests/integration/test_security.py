"""Hostile input: control sequences in every text field, invalid UTF-8, absurd frame lengths,
deeply nested JSON, and socket clients of another user. What is only messages in and replies out
(HTML previews with script, params of the wrong type, broken Content-Lengths) is in tests/transcripts/."""
import os
import subprocess
import tempfile
import sys
import time

from harness import (host_socket, ASKHOST, Editor, Skip, Tmux, Workdir, ask_request, case, check, encode_frame, equal, main,
                     wait_for)

ESC = "\x1b"
TITLE = ESC + "]0;PWNED-TITLE\x07"       # set the window title
RED = ESC + "[31;1m"                      # colours
PALETTE = ESC + "]4;1;#00ff00\x07"       # redefine a colour
CLEAR = ESC + "[2J" + ESC + "[H"          # wipe the screen
CLIP = ESC + "]52;c;cm0gLXJmIH4=\x07"    # write the clipboard
C1 = "\u009b31m"                          # CSI as a C1 control
BIDI = "\u202e"                           # right-to-left override


def responses(wd):
    return [r for r in wd.records() if r != "EOF"]


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))


def shutdown(ed):
    rid = ed.request("shutdown")
    ed.result_of(rid)
    ed.notify("exit")
    return ed.exit_code()


@case
def control_sequences_in_every_field_are_shown_not_run_in_the_terminal():
    wd = Workdir()
    q = {"question": "Q1 " + TITLE + RED + "red?" + CLIP,
         "header": "H" + PALETTE,
         "options": [{"label": "L1" + CLEAR + "x", "description": "D1" + C1 + BIDI + "y"},
                     {"label": "L2\x07\x08\x7f", "description": "D2 " + RED}]}
    t = Tmux(wd, [ASKHOST, "--tui", "--"] + wd.agent([{"send": ask_request("r", [q])}, {"recv": 1}]), height=30)
    try:
        s = t.wait_screen("Q1 ^[]0;PWNED-TITLE^G^[[31;1mred?^[]52;c;cm0gLXJmIH4=^G")
        for shown in ("L1^[[2J^[[Hx", "D1<U+009B>31m<U+202E>y", "L2^G^H^?", "D2 ^[[31;1m"):
            check(shown in s, f"{shown!r} on screen:\n{s}")
        title = subprocess.run(["tmux", "-L", t.name, "display-message", "-p", "#{pane_title}"],
                               capture_output=True, text=True).stdout
        check("PWNED" not in title, f"the pane title changed: {title!r}")
        styled = subprocess.run(["tmux", "-L", t.name, "capture-pane", "-p", "-e"], capture_output=True,
                                text=True).stdout
        line = next((l for l in styled.splitlines() if "red?" in l), "")
        check("\x1b[31" not in line.split("red?")[0][-40:] and "\x1b[1;31" not in line,
              f"agent text drew in red: {line!r}")
        t.keys("Enter")
        wait_for(lambda: responses(wd), what="the answer")
        (r,) = responses(wd)
        equal(r["answers"][0]["answer"], "L1" + CLEAR + "x", "the label goes back to the agent as it was")
    finally:
        t.kill()


@case
def invalid_utf8_in_agent_output_reaches_editors_as_valid_text():
    wd = Workdir()
    script = wd.file("bytes.py")
    with open(script, "w") as f:
        f.write("import sys\nsys.stdout.buffer.write(b'bad \\xff\\xfe\\xc0\\xaf end\\n\\xed\\xa0\\x80x\\n')\n")
    ed = Editor(wd, ["--", sys.executable, script])
    ed.initialize()
    text = ""
    while "x\n" not in text:
        text += ed.method("agent/output")["params"]["text"]
    equal(text, "bad \ufffd\ufffd\ufffd\ufffd end\n\ufffd\ufffd\ufffdx\n", "repaired text")
    equal(shutdown(ed), 0, "exit code")


@case
def content_length_of_2_to_the_40_is_refused_without_buffering():
    wd = Workdir()
    ed = Editor(wd)
    ed.initialize()
    before = rss_kb(ed.proc.pid)
    ed.send_raw(b"Content-Length: 1099511627776\r\n\r\n" + b"x" * (4 << 20))
    err = ed.wait(lambda m: m.get("error", {}).get("code") == -32600, what="oversized frame error")
    check("1099511627776" in err["error"]["message"], err["error"]["message"])
    time.sleep(0.3)
    grew = rss_kb(ed.proc.pid) - before
    check(grew < 2048, f"askhost grew by {grew} kB while skipping")
    ed.close()
    equal(ed.exit_code(), 1, "exit code when the editor leaves")


@case
def header_block_over_the_limit_keeps_the_stream():
    """A 9000-byte header line is dropped whole (overflowing and negative Content-Lengths: framing.test)."""
    wd = Workdir()
    ed = Editor(wd)
    ed.initialize()
    ed.send_raw(b"X" * 9000 + b"\r\n\r\n")
    ed.wait(lambda m: "header block over" in m.get("error", {}).get("message", ""), what="long header refused")
    equal(shutdown(ed), 0, "exit code: the stream went on")


@case
def deeply_nested_json_from_an_editor():
    wd = Workdir()
    ed = Editor(wd)
    ed.initialize()
    depth = 1_000_000
    ed.send_raw(encode_frame(b"[" * depth + b"]" * depth))
    ed.send_raw(encode_frame(b'{"jsonrpc":"2.0","id":' + b"[" * depth + b"]" * depth + b',"method":"x"}'))
    ed.send_raw(encode_frame(b'{"jsonrpc":"2.0","id":5,"method":"agent/prompt","params":{"text":' + b"[" * depth +
                             b"]" * depth + b"}}"))
    errors = [ed.wait(lambda m: "error" in m, timeout=30, what=f"error {i}") for i in range(3)]
    equal(sorted(e["error"]["code"] for e in errors), [-32602, -32600, -32600], f"errors: {errors}")
    # A client's own question (ask/submit, as askhost mcp sends it) nested as deep.
    ed.send_raw(encode_frame(b'{"jsonrpc":"2.0","id":6,"method":"ask/submit","params":{"questions":[{"question":'
                             b'"Q?"}],"metadata":{"a":' + b"[" * depth + b"]" * depth + b"}}}"))
    res = ed.result_of(6, timeout=30)["result"]
    equal((res["answered"], res["error"]["code"], res["error"]["path"]), (False, "invalid_schema", "metadata"),
          "refused")
    # A $/cancelRequest whose id is nested as deep (serialising it crashed askhost): ignored.
    ed.send_raw(encode_frame(b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":' + b"[" * 200_000 +
                             b"]" * 200_000 + b"}}"))
    equal(shutdown(ed), 0, "exit code: still serving")


@case
def deeply_nested_json_from_the_agent():
    wd = Workdir()
    depth = 1_000_000
    deep = "[" * depth + "]" * depth
    line = ('{"type":"ask_user_request","requestId":"r","questions":[{"question":"Q?"}],"metadata":{"a":' +
            deep + '}}')
    steps = [{"raw": line + "\n"}, {"recv": 1}, {"raw": '{"type":"x","v":' + deep + "}\n"}, {"out": "still here"}]
    p = subprocess.run([ASKHOST, "--print", "--"] + wd.agent(steps), capture_output=True, timeout=60,
                       env=wd.env(), cwd=wd.path)
    equal(p.returncode, 0, f"exit code (stderr: {p.stderr[-500:]!r})")
    (r,) = responses(wd)
    equal(r["error"]["code"], "invalid_schema", "refused")
    equal(r["error"]["path"], "metadata", "path")
    check(p.stdout.endswith(b"still here\n"), "output after the deep line")


@case
def answer_given_a_megabyte_of_brackets_changes_nothing():
    """askhost answer parsed its input recursively: 1 MB of '[' overflowed the stack."""
    wd = Workdir()
    steps = [{"send": ask_request("r", [{"question": "Name?"}, {"question": "Colour?"}])}, {"recv": 1}]
    p = subprocess.run([ASKHOST, "--print", "--"] + wd.agent(steps), capture_output=True, timeout=30,
                       env=wd.env(), cwd=wd.path)
    equal(p.returncode, 0, f"the asking run (stderr: {p.stderr!r})")
    pending = wd.file(".askhost/pending-questions.json")
    with open(pending, "rb") as f:
        before = f.read()
    n = 1 << 20
    with open(wd.file("deep.json"), "w") as f:
        f.write("[" * n)
    with open(wd.file("deep-closed.json"), "w") as f:
        f.write("[" * n + "]" * n)
    for how, args, stdin in (("on stdin", ["answer"], b"[" * n), ("--file", ["answer", "--file", "deep.json"], b""),
                             ("--file, closed", ["answer", "--file", "deep-closed.json"], b""),
                             ("- on stdin, as an object", ["answer", "--file", "-"], b'{"Name?":' + b"[" * n)):
        p = subprocess.run([ASKHOST] + args, input=stdin, capture_output=True, timeout=60, env=wd.env(), cwd=wd.path)
        err = p.stderr.decode(errors="replace")
        equal(p.returncode, 1, f"{how}: exit code (stderr: {err[-300:]!r})")
        check(".askhost/pending-questions.json is unchanged" in err, f"{how}: {err!r}")
        check("nested deeper than 128 levels" in err, f"{how}: says why: {err!r}")
        with open(pending, "rb") as f:
            equal(f.read(), before, f"{how}: the pending file, byte for byte")
    p = subprocess.run([ASKHOST, "answer", '["ada", "blue"]'], capture_output=True, timeout=30, env=wd.env(),
                       cwd=wd.path)
    equal(p.returncode, 0, f"a sane answer afterwards (stderr: {p.stderr!r})")


@case
def answers_flag_nested_deep_is_refused_by_name():
    wd = Workdir()
    n = 60_000  # an argument holds at most 128 kB
    for deep in ("[" * n + "]" * n, "[" * (2 * n)):
        p = subprocess.run([ASKHOST, "--print", "--answers", deep, "--"] + wd.agent([{"out": "never run"}]),
                           capture_output=True, timeout=60, env=wd.env(), cwd=wd.path)
        err = p.stderr.decode(errors="replace")
        equal(p.returncode, 2, f"exit code (stderr: {err[-300:]!r})")
        check("--answers: refused JSON at line 1, column 129: nested deeper than 128 levels" in err, err)
        check(b"never run" not in p.stdout, "the agent is not started")


@case
def socket_client_of_another_user_is_refused():
    if os.geteuid() != 0:
        raise Skip("needs root to act as another user")
    wd = Workdir()
    ed = Editor(wd, ["--"] + wd.agent([{"sleep": 30}]))
    ed.initialize()
    path = host_socket(wd)
    nobody = 65534
    probe = (
        "import os, socket, sys\n"
        "os.setgid(%d); os.setuid(%d)\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "try:\n    s.connect(sys.argv[1])\nexcept OSError as e:\n    print('refused:', e.errno); sys.exit(0)\n"
        "try:\n  s.sendall(b'Content-Length: 58\\r\\n\\r\\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}')\nexcept OSError:\n  pass\n"
        "s.settimeout(5)\n"
        "try:\n    data = s.recv(4096)\nexcept (ConnectionResetError, BrokenPipeError):\n    data = b''\n"
        "except OSError:\n    data = b'timeout'\n"
        "print('closed' if data == b'' else 'answered: %%r' %% data)\n") % (nobody, nobody)
    # The private directory alone keeps another user out.
    p = subprocess.run([sys.executable, "-c", probe, path], capture_output=True, text=True, timeout=20)
    check(p.stdout.startswith("refused:"), f"through the 0700 directory: {p.stdout!r} {p.stderr!r}")
    # With the directory and the socket opened up, askhost's own peer check must still refuse.
    d = os.path.dirname(path)
    while True:
        os.chmod(d, 0o755)
        if d == wd.path:
            break
        d = os.path.dirname(d)
    # ./dev test's own temporary folder (TMPDIR, mode 0700) holds the case's: open it too, or the
    # path alone would keep the other user out.
    run_tmp = os.path.dirname(wd.path)
    if run_tmp == tempfile.gettempdir() and not os.stat(run_tmp).st_mode & 0o001:
        os.chmod(run_tmp, os.stat(run_tmp).st_mode | 0o055)
    os.chmod(path, 0o777)
    p = subprocess.run([sys.executable, "-c", probe, path], capture_output=True, text=True, timeout=20)
    equal(p.stdout.strip(), "closed", f"another uid on the opened socket ({p.stderr!r})")
    with open(ed.stderr_path) as f:
        log = f.read()
    check("refused a socket client of another user (uid 65534)" in log, f"logged: {log!r}")
    rid = ed.request("agent/stop")
    ed.result_of(rid, timeout=20)
    equal(shutdown(ed), 0, "exit code")


if __name__ == "__main__":
    raise SystemExit(main())
