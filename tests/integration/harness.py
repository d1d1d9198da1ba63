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
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
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
