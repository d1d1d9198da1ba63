"""Shared helpers for integration tests that drive the real askhost binary.

A test file defines cases with @case and ends with `main()`, which exits with the case's status.
meson asks the file for its cases (`--list`) and registers one test per case; `python3 FILE CASE`
runs one. Exit 0 = pass, 1 = fail (with a message saying what differed), 77 = skipped.

A case leaves nothing behind: when it ends, `finish` ends every process still tied to one of its
Workdirs (the agents' daemons too, e.g. Codex's app-server, which outlives its TUI with init as
parent) and removes the Workdirs, or keeps them when the case failed and prints where they are.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ASKHOST = os.environ.get("ASKHOST", os.path.join(ROOT, "build", "askhost"))
SCRIPTED_AGENT = os.path.join(ROOT, "tests", "agents", "scripted-agent")
DEMO_AGENT = os.path.join(ROOT, "plugins", "native", "demo-agent")

_cases = {}
_workdirs = []  # every Workdir this process made: finish() ends their processes and removes them
_guards = set()  # the pids of the Workdirs' guards (guard_folder): finish() leaves them be
_at_end = []  # what finish() runs first (a mock server's stop, ...)
_after_processes = []  # what finish() runs last, once the case's processes are ended


class Failure(Exception):
    pass


class Skip(Exception):
    pass


def case(fn):
    _cases[fn.__name__] = fn
    return fn


def check(cond, message):
    if not cond:
        raise Failure(message)


def equal(actual, expected, what="value"):
    if actual != expected:
        raise Failure(f"{what}:\n  expected {expected!r}\n  actual   {actual!r}")


class Workdir:
    """A private temporary directory, removed unless the test failed (see finish)."""

    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="askhost-test-")
        _workdirs.append(self)
        # If this process is killed before finish() runs (SIGKILL, or SIGTERM with no time to act).
        _guards.add(guard_folder(self.path, keep=True))
        self.script_count = 0
        # A test that waits with nobody to ask must not open a tmux popup in the terminal the
        # suite runs in (a developer's tmux): popups are off unless a test turns them on.
        self.popups = False

    def file(self, name):
        return os.path.join(self.path, name)

    def agent(self, steps, record="record.jsonl"):
        """argv of the scripted agent running `steps`, recording what it receives."""
        self.script_count += 1
        script = self.file(f"script{self.script_count}.json")
        with open(script, "w") as f:
            json.dump(steps, f)
        return [SCRIPTED_AGENT, script, self.file(record)]

    def records(self, record="record.jsonl"):
        """What the scripted agent received, decoded ("EOF" stays a string); whole lines only, as
        read_records."""
        return [l if l == "EOF" else json.loads(l) for l in whole_lines(self.file(record))]

    def env(self, **extra):
        env = dict(os.environ)
        env["XDG_STATE_HOME"] = self.file("state")
        env["XDG_RUNTIME_DIR"] = self.file("run")
        env["HOME"] = self.path
        env["XDG_CONFIG_HOME"] = self.file("config")
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        os.makedirs(self.file("config/askhost"), exist_ok=True)
        with open(self.file("config/askhost/config"), "w") as f:
            f.write("tmux-popup = %s\n" % ("true" if self.popups else "false"))
        env.update(extra)
        return env


def guard_folder(folder, keep):
    """Starts, in a session of its own, a guard of `folder`: an `sh` and a `tail` that wait for
    this process to end and then, if the folder is still there, run tests/reap.py on it (which ends
    what is still tied to it and removes it, or keeps it). Returns the guard's pid, which is tied
    to the folder itself (its command line names it)."""
    script = 'tail --pid="$1" -f /dev/null; [ -e "$2" ] || exit 0; shift 2; exec "$@"'
    argv = [sys.executable, os.path.join(ROOT, "tests", "reap.py")] + (["--keep"] if keep else []) + [folder]
    return subprocess.Popen(["sh", "-c", script, "guard", str(os.getpid()), folder] + argv, start_new_session=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).pid


def run(args, wd, stdin_text="", timeout=30, env=None, cwd=None):
    """Run askhost with pipes on stdin/stdout/stderr (so: no terminal)."""
    return subprocess.run([ASKHOST] + args, input=stdin_text.encode(), capture_output=True,
                          timeout=timeout, env=env or wd.env(), cwd=cwd or wd.path)


def ask_request(request_id, questions, **extra):
    msg = {"type": "ask_user_request", "requestId": request_id, "questions": questions}
    msg.update(extra)
    return msg


DATABASE_Q = {
    "question": "Which database should we use?",
    "header": "Database",
    "options": [
        {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
        {"label": "SQLite", "description": "Lightweight, file-based"},
        {"label": "MongoDB", "description": "Document store"},
    ],
}
NAME_Q = {"question": "What should we name this service?", "header": "Service Name"}
FEATURES_Q = {
    "question": "Which features should we include?",
    "header": "Features",
    "multiSelect": True,
    "options": [
        {"label": "Authentication", "description": "OAuth2 + JWT"},
        {"label": "REST API", "description": "OpenAPI spec included"},
        {"label": "Admin Dashboard"},
    ],
}


def pauses(first=0.05, longest=0.2):
    """A poll's pauses: `first`, then a fifth longer each time up to `longest` (in about a second;
    a `first` longer than that stays). A check that starts a process, as reading a tmux screen
    does, costs about 17 ms of CPU on this machine, most of it in the kernel: polled 20 times a
    second through an agent's long start it takes a third of a core; a person's pace needs 5."""
    pause = first
    while True:
        yield pause
        if pause < longest:
            pause = min(longest, pause * 1.2)


def wait_for(predicate, timeout=10.0, interval=0.05, what="condition"):
    """predicate's first truthy value, polled (see pauses) until `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    for pause in pauses(interval):
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout}s waiting for {what}")
        time.sleep(pause)


def whole_lines(path):
    """The lines another process appends to PATH, each whole and not blank: a last line still being
    written (no newline yet) is left for the next read. [] while the file does not exist."""
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return []
    return [line for line in text.split("\n")[:-1] if line.strip()]


def read_records(path):
    """The JSON lines another process appends to PATH (whole_lines), decoded."""
    return [json.loads(line) for line in whole_lines(path)]


def at_end(fn, after_processes=False):
    """Runs fn when the case ends, passed or failed, before its leftover processes are looked for
    (after_processes: once they are ended, to tidy what they held)."""
    (_after_processes if after_processes else _at_end).append(fn)


def _under(path, roots):
    return any(path == r or path.startswith(r + "/") for r in roots)


def processes_in(roots, exclude=(), ignore_vars=()):
    """[(pid, command line)] of the live processes tied to a folder in roots: their command line
    names a path in one, or their working directory, executable or an environment variable (HOME,
    XDG_RUNTIME_DIR, CODEX_HOME, ...) lies in one. Zombies, the pids in exclude and the variables
    named in ignore_vars are left out."""
    roots = sorted({os.path.realpath(r) for r in roots} | {os.path.abspath(r) for r in roots})
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) in exclude:
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
            with open(f"/proc/{d}/cmdline", "rb") as f:
                argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
        except OSError:
            continue  # gone meanwhile
        places = []
        # Each of these may be refused (a kernel thread, a process of another user namespace).
        for link in ("cwd", "exe"):
            try:
                places.append(os.readlink(f"/proc/{d}/{link}").removesuffix(" (deleted)"))
            except OSError:
                pass
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                env = [v.decode("utf-8", "replace").partition("=") for v in f.read().split(b"\0")]
            places += [value for name, _, value in env if name not in ignore_vars]
        except OSError:
            pass
        if any(r in a for a in argv for r in roots) or any(_under(p, roots) for p in places if p):
            found.append((int(d), " ".join(argv)))
    return found


def end_processes(roots, exclude=(), ignore_vars=()):
    """Ends the processes tied to roots (SIGTERM, then SIGKILL for those still there after a few
    seconds). Returns [(pid, command line)] of those it found and the ones that outlived SIGKILL."""
    exclude = set(exclude) | {os.getpid()}
    found = processes_in(roots, exclude, ignore_vars)
    for sig, patience in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        left = processes_in(roots, exclude, ignore_vars)
        for pid, _ in left:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + patience
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = processes_in(roots, exclude, ignore_vars)
    return found, processes_in(roots, exclude, ignore_vars)


def finish(passed):
    """Ends the case: runs the at_end hooks, ends every process still tied to its Workdirs and
    checks that none is left, then removes the Workdirs when the case passed (or skipped), else
    keeps them and prints their paths. Returns False when a process could not be ended."""
    while _at_end:
        try:
            _at_end.pop()()
        except Exception as e:  # a hook's failure must not keep the rest from running
            print(f"cleanup: {e!r}")
    roots = [wd.path for wd in _workdirs]
    if not roots:
        return True
    # What the case itself stopped may still be on its way out: a moment to go by itself (an
    # `askhost --stdio` whose pipes the case still holds goes only when told).
    deadline = time.monotonic() + 0.5
    while processes_in(roots, {os.getpid()} | _guards) and time.monotonic() < deadline:
        time.sleep(0.1)
    ended, alive = end_processes(roots, _guards)
    for pid, argv in ended:
        print(f"ended a process the case left: {pid} {argv[:300]}")
    forget_tmux_servers(ended)
    while _after_processes:
        try:
            _after_processes.pop()()
        except Exception as e:
            print(f"cleanup: {e!r}")
    for pid, argv in alive:
        print(f"FAIL: a process of the case outlived SIGKILL: {pid} {argv[:300]}")
    if passed and not alive:
        for wd in _workdirs:
            shutil.rmtree(wd.path, ignore_errors=True)
    else:
        for wd in _workdirs:
            print(f"kept the case's folder: {wd.path}")
    _workdirs.clear()
    return not alive


def _terminated(signum, frame):
    """SIGTERM, as meson's timeout sends it to the test's process group, with SIGKILL to the same
    group half a second later: too soon for finish() (it gives what it ends seconds to go), and
    the case's tmux servers, hosts and agents' daemons are in groups of their own, out of both
    signals' reach. So finish() runs in a child in a session of its own, its output in the case's
    kept folder, and this process ends at once."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    log = _workdirs[0].file("after-sigterm.txt") if _workdirs else os.devnull
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            # Not the parent's objects: a thread of the parent may have held their locks.
            sys.stdout = sys.stderr = open(1, "w", buffering=1, closefd=False)
            finish(False)
        finally:
            os._exit(0)
    print(f"FAIL: terminated (SIGTERM: the test's time ran out?); what the case started is ended by "
          f"pid {pid}, which writes to {log}", flush=True)
    os._exit(1)


def on_sigterm_finish():
    """On SIGTERM, the case's processes are ended and its folders kept, in a process that outlives
    this one (see _terminated). For a test file with a main() of its own that calls finish()."""
    signal.signal(signal.SIGTERM, _terminated)


def main():
    """Runs the case sys.argv names and exits with its status: a file that ends with a bare `main()`
    fails when its case does (two files did so, and their failures passed)."""
    raise SystemExit(_run())


def _run():
    if len(sys.argv) > 1 and sys.argv[1] == "--list":
        print("\n".join(_cases))
        return 0
    if len(sys.argv) < 2 or sys.argv[1] not in _cases:
        print(f"usage: {sys.argv[0]} --list | CASE  (cases: {', '.join(_cases)})", file=sys.stderr)
        return 2
    on_sigterm_finish()  # meson's timeout: still end what the case started
    try:
        _cases[sys.argv[1]]()
        rc = 0
    except Skip as s:
        print(f"SKIP: {s}")
        rc = 77
    except Failure as f:
        print(f"FAIL: {f}")
        rc = 1
    except BaseException:
        finish(False)
        raise
    if not finish(rc != 1):
        rc = 1
    if rc == 0:
        print("ok")
    return rc


# ---------------------------------------------------------------------------------------------
# A scripted editor: the editor protocol (JSON-RPC with Content-Length frames) over pipes or a
# Unix socket, with a reader thread collecting everything the host sends.

import queue
import socket
import threading
import urllib.parse


def encode_frame(obj):
    body = json.dumps(obj).encode() if not isinstance(obj, (bytes, str)) else (
        obj.encode() if isinstance(obj, str) else obj)
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class FrameReader:
    def __init__(self):
        self.buf = b""

    def feed(self, data):
        self.buf += data
        out = []
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return out
            length = None
            for line in self.buf[:end].split(b"\r\n"):
                k, _, v = line.partition(b":")
                if k.strip().lower() == b"content-length":
                    length = int(v.strip())
            if length is None or len(self.buf) < end + 4 + length:
                return out
            out.append(json.loads(self.buf[end + 4:end + 4 + length]))
            self.buf = self.buf[end + 4 + length:]


class RpcPeer:
    """What both kinds of test client share: numbered JSON-RPC requests through self.send."""

    next_id = 1

    def request(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return rid


class Editor(RpcPeer):
    """One client. `proc` mode runs askhost --stdio; `sock` mode connects to a host's socket."""

    def __init__(self, wd, args=None, sock_path=None, env=None, cwd=None):
        self.wd = wd
        self.messages = queue.Queue()
        self.seen = []
        self.next_id = 1
        self.proc = None
        self.sock = None
        if sock_path:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.connect(sock_path)
            self._read = lambda: self.sock.recv(65536)
            self._write = self.sock.sendall
        else:
            self.stderr_path = wd.file("askhost-stderr.txt")
            self.proc = subprocess.Popen([ASKHOST, "--stdio"] + (args or []), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=open(self.stderr_path, "wb"),
                                         env=env or wd.env(), cwd=cwd or wd.path)
            self._read = lambda: os.read(self.proc.stdout.fileno(), 65536)

            def write(data):
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            self._write = write
        self.reader = threading.Thread(target=self._pump, daemon=True)
        self.reader.start()

    def _pump(self):
        fr = FrameReader()
        while True:
            try:
                data = self._read()
            except OSError:
                data = b""
            if not data:
                self.messages.put(None)
                return
            for m in fr.feed(data):
                self.messages.put(m)

    def send_raw(self, data):
        self._write(data)

    def send(self, obj):
        self._write(encode_frame(obj))

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def reply(self, rid, result):
        self.send({"jsonrpc": "2.0", "id": rid, "result": result})

    def wait(self, predicate, timeout=10.0, what="message"):
        """The first message (seen before or arriving now) that predicate accepts; consumes it."""
        for i, m in enumerate(self.seen):
            if predicate(m):
                return self.seen.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"timed out waiting for {what}; got: {self.seen[-8:]!r}")
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if m is None:
                self.messages.put(None)
                raise Failure(f"connection closed while waiting for {what}; got: {self.seen[-8:]!r}")
            if predicate(m):
                return m
            self.seen.append(m)

    def result_of(self, rid, timeout=10.0):
        return self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout, f"reply {rid}")

    def method(self, name, timeout=10.0, where=None):
        return self.wait(lambda m: m.get("method") == name and (where is None or where(m)), timeout, name)

    def initialize(self, caps=None, name="test-editor", folders=None):
        params = {"clientInfo": {"name": name}, "capabilities": caps if caps is not None else {"ask": {}}}
        if folders is not None:
            params["workspaceFolders"] = [{"uri": "file://" + urllib.parse.quote(f), "name": os.path.basename(f)}
                                          for f in folders]
        rid = self.request("initialize", params)
        res = self.result_of(rid)
        self.notify("initialized", {})
        return res

    def closed(self, timeout=10.0):
        """Waits until the host closes the connection."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                m = self.messages.get(timeout=0.1)
            except queue.Empty:
                continue
            if m is None:
                self.messages.put(None)
                return True
            self.seen.append(m)
        return False

    def exit_code(self, timeout=15.0):
        return self.proc.wait(timeout=timeout)

    def close(self):
        if self.sock:
            self.sock.close()
        if self.proc:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def answer_of(question, value, selected=None, custom=False):
    a = {"question": question, "answer": value, "wasCustom": custom}
    if selected:
        a["selectedOption"] = selected
    return a


# ---------------------------------------------------------------------------------------------
# A real terminal: tmux with a private server, keys sent, the screen read back.

class Tmux:
    def __init__(self, wd, command, width=80, height=24, env=None):
        if not shutil.which("tmux"):
            raise Skip("tmux is not installed")
        self.wd = wd
        self.name = "askhost-test-%d-%d" % (os.getpid(), int(time.monotonic() * 1000) % 100000)
        self.socket = tmux_socket(self.name)
        self.status_file = wd.file("tmux-status-%s" % self.name)
        env = env or wd.env()
        env.setdefault("LANG", "C.UTF-8")
        env["TERM"] = "screen-256color"
        envs = " ".join("%s=%s" % (k, shlex_quote(v)) for k, v in env.items()
                        if k in ("LANG", "HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "PATH", "ASKHOST_SOCKET", "TERM",
                                 "TMPDIR"))
        # The wrapper shell ignores SIGINT so that Ctrl-C reaches only the program under test.
        shell = "trap '' INT; cd %s && env %s %s; echo $? > %s; sleep 60" % (
            shlex_quote(wd.path), envs, " ".join(shlex_quote(c) for c in command), shlex_quote(self.status_file))
        at_end(self.kill)  # also when the case fails
        subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", "new-session", "-d", "-x", str(width),
                        "-y", str(height), "sh", "-c", shell], check=True, env=env)

    def screen(self):
        return subprocess.run(["tmux", "-L", self.name, "capture-pane", "-p"], capture_output=True,
                              text=True).stdout

    def wait_screen(self, text, timeout=10.0):
        deadline = time.monotonic() + timeout
        for pause in pauses():
            s = self.screen()
            if text in s:
                return s
            if time.monotonic() > deadline:
                raise Failure(f"screen never showed {text!r}; it shows:\n{s}")
            time.sleep(pause)

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", self.name, "send-keys"] + list(keys), check=True)

    def text(self, s):
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-l", s], check=True)

    def exit_status(self, timeout=15.0):
        def read():
            try:
                with open(self.status_file) as f:
                    return f.read().strip() or None
            except FileNotFoundError:
                return None
        return int(wait_for(read, timeout=timeout, what="the program to exit"))

    def kill(self):
        kill_tmux_server(self.name)


def tmux_socket(name):
    """The socket of the tmux server `tmux -L name` starts."""
    return os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", "tmux-%d" % os.geteuid(), name)


def forget_tmux_servers(ended):
    """Removes the sockets of the tmux servers among `ended` ([(pid, command line)] of processes
    end_processes ended): a tmux server ended by a signal leaves its socket behind."""
    for _, argv in ended:
        words = argv.split()
        if not words or os.path.basename(words[0]) != "tmux":
            continue
        for flag, value in zip(words, words[1:]):
            if flag in ("-S", "-L"):
                try:
                    os.unlink(value if flag == "-S" else tmux_socket(value))
                except OSError:
                    pass
                break


def kill_tmux_server(name):
    """Ends the private tmux server `tmux -L name` and removes its socket, which tmux leaves
    behind (thousands piled up in /tmp/tmux-UID, each one a server askhost's popup looks at)."""
    subprocess.run(["tmux", "-L", name, "kill-server"], capture_output=True)
    try:
        os.unlink(tmux_socket(name))
    except FileNotFoundError:
        pass


def shlex_quote(s):
    import shlex
    return shlex.quote(s)


def agent_pids(script_path):
    """Pids of live scripted agents running `script_path` (not shells that merely mention it)."""
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            with open(f"/proc/{d}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and script_path.encode() in argv and any(a.endswith(b"scripted-agent") for a in argv[:2]):
            pids.append(int(d))
    return pids


def host_socket(wd):
    """The socket of the (one) host running in wd's private XDG_RUNTIME_DIR, once it listens."""
    sock_dir = wd.file("run/askhost")
    return wait_for(lambda: [os.path.join(sock_dir, p) for p in sorted(os.listdir(sock_dir)) if p.endswith(".sock")]
                    if os.path.isdir(sock_dir) else None, what="the host's socket")[0]


class McpClient(RpcPeer):
    """`askhost mcp` as an agent runs it: newline-delimited JSON-RPC on its stdin/stdout."""

    def __init__(self, wd, env=None, cwd=None, args=()):
        self.proc = subprocess.Popen([ASKHOST, "mcp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=open(wd.file("mcp-stderr.txt"), "ab"), env=env or wd.env(),
                                     cwd=cwd or wd.path, start_new_session=True)  # no controlling terminal
        self.lines = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj):
        self.send_raw(json.dumps(obj).encode() + b"\n")

    def read(self, timeout=10.0):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Failure("no reply from askhost mcp")
        check(line is not None, "askhost mcp closed its stdout")
        check(line.endswith(b"\n") and b"\n" not in line[:-1], "one message per line")
        return json.loads(line)

    def reply_to(self, rid, timeout=10.0):
        msg = self.read(timeout)
        equal(msg.get("id"), rid, "reply id")
        return msg

    def initialize(self, version="2025-11-25", caps=None, name="test-agent"):
        rid = self.request("initialize", {"protocolVersion": version, "capabilities": caps or {},
                                          "clientInfo": {"name": name, "version": "1"}})
        res = self.reply_to(rid)["result"]
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return res

    def call(self, arguments, name="ask_user_question", meta=None):
        params = {"name": name, "arguments": arguments}
        if meta is not None:
            params["_meta"] = meta
        return self.request("tools/call", params)

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=10)


def strict(q):
    """A question in the strict shape (every option has a description)."""
    q = json.loads(json.dumps(q))
    for o in q.get("options", []):
        o.setdefault("description", "")
    return q
