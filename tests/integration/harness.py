"""Shared helpers for integration tests that drive the real askhost binary.

A test file defines cases with @case and ends with `main()`. meson asks the file for its cases
(`--list`) and registers one test per case; `python3 FILE CASE` runs one. Exit 0 = pass,
1 = fail (with a message saying what differed), 77 = skipped.
"""
import json
import os
import shutil
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
    """A private temporary directory, removed unless the test failed."""

    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="askhost-test-")
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
        try:
            with open(self.file(record)) as f:
                lines = [l.rstrip("\n") for l in f if l.strip()]
        except FileNotFoundError:
            return []
        return [l if l == "EOF" else json.loads(l) for l in lines]

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


def wait_for(predicate, timeout=10.0, interval=0.05, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--list":
        print("\n".join(_cases))
        return 0
    if len(sys.argv) < 2 or sys.argv[1] not in _cases:
        print(f"usage: {sys.argv[0]} --list | CASE  (cases: {', '.join(_cases)})", file=sys.stderr)
        return 2
    try:
        _cases[sys.argv[1]]()
    except Skip as s:
        print(f"SKIP: {s}")
        return 77
    except Failure as f:
        print(f"FAIL: {f}")
        return 1
    print("ok")
    return 0


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
        self.status_file = wd.file("tmux-status-%s" % self.name)
        env = env or wd.env()
        env.setdefault("LANG", "C.UTF-8")
        env["TERM"] = "screen-256color"
        envs = " ".join("%s=%s" % (k, shlex_quote(v)) for k, v in env.items()
                        if k in ("LANG", "HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "PATH", "ASKHOST_SOCKET", "TERM"))
        # The wrapper shell ignores SIGINT so that Ctrl-C reaches only the program under test.
        shell = "trap '' INT; cd %s && env %s %s; echo $? > %s; sleep 60" % (
            shlex_quote(wd.path), envs, " ".join(shlex_quote(c) for c in command), shlex_quote(self.status_file))
        subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", "new-session", "-d", "-x", str(width),
                        "-y", str(height), "sh", "-c", shell], check=True, env=env)

    def screen(self):
        return subprocess.run(["tmux", "-L", self.name, "capture-pane", "-p"], capture_output=True,
                              text=True).stdout

    def wait_screen(self, text, timeout=10.0):
        deadline = time.monotonic() + timeout
        while True:
            s = self.screen()
            if text in s:
                return s
            if time.monotonic() > deadline:
                raise Failure(f"screen never showed {text!r}; it shows:\n{s}")
            time.sleep(0.05)

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
        subprocess.run(["tmux", "-L", self.name, "kill-server"], capture_output=True)


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
