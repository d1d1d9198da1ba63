#!/usr/bin/env python3
"""Replays an editor-protocol transcript against the real askhost, in the spirit of clangd's lit tests.

A transcript is a text file of directives, one per line (a JSON value may span lines until it
parses; `#` starts a comment line):

  agent: [STEPS]        the scripted agent (tests/agents/scripted-agent) askhost runs
  args: --stdio ...     askhost's arguments before `-- AGENT` (default: --stdio)
  --> MESSAGE           send MESSAGE (a JSON object) in a Content-Length frame
  --> raw: "TEXT"       send TEXT as is (a JSON string: escapes allowed, "\\udcff" for the byte 0xff
                        that is not UTF-8), e.g. a broken frame
  <-- MESSAGE           wait for a message from askhost that matches MESSAGE: every key given must
                        be there with an equal value ("{{any}}" matches anything; "{{NAME=}}"
                        captures the value as $NAME for later messages, written "{{$NAME}}")
  <-- then: MESSAGE     like <--, but only a message that arrived after the one the previous <--
                        matched will do: an order check
  <-/ MESSAGE           assert that no message matching MESSAGE has arrived so far (messages are
                        read up to each <--'s match; those a <-- matched do not count)
  agent-received: [RESPONSES]   the agent's received responses, each matched like <--
  exit: N               close nothing; wait for askhost to exit with N

usage: run.py FILE.test   (ASKHOST names the binary)
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from harness import Editor, Failure, Workdir, finish  # noqa: E402


def parse(path):
    directives = []
    pending = None
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            if pending is None:
                stripped = line.strip()
                if not stripped or stripped.startswith("#"):
                    continue
                for tag in ("-->", "<--", "<-/", "agent:", "args:", "agent-received:", "exit:"):
                    if stripped.startswith(tag):
                        pending = [tag, stripped[len(tag):].strip(), lineno]
                        break
                else:
                    raise SystemExit(f"{path}:{lineno}: unknown directive: {stripped}")
            else:
                pending[1] += "\n" + line.rstrip("\n")
            tag, text, start = pending
            if tag == "args:":
                directives.append((tag, text, start))
                pending = None
                continue
            modifier = {"-->": "raw:", "<--": "then:"}.get(tag)
            if modifier and text.startswith(modifier):
                try:
                    directives.append((modifier[:-1], json.loads(text[len(modifier):]), start))
                    pending = None
                except json.JSONDecodeError:
                    pass
                continue
            try:
                directives.append((tag, json.loads(text), start))
                pending = None
            except json.JSONDecodeError:
                pass
    if pending:
        raise SystemExit(f"{path}:{pending[2]}: unfinished JSON")
    return directives


def substitute(value, captures):
    if isinstance(value, str) and value.startswith("{{$") and value.endswith("}}"):
        return captures[value[3:-2]]
    if isinstance(value, dict):
        return {k: substitute(v, captures) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, captures) for v in value]
    return value


def matches(expected, actual, captures, new):
    if isinstance(expected, str) and expected.startswith("{{") and expected.endswith("}}"):
        inner = expected[2:-2]
        if inner == "any":
            return True
        if inner.endswith("="):
            new[inner[:-1]] = actual
            return True
        if inner.startswith("$"):
            return captures.get(inner[1:]) == actual
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and matches(v, actual[k], captures, new) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(
            matches(e, a, captures, new) for e, a in zip(expected, actual))
    return expected == actual


def run(path):
    wd = Workdir()
    directives = parse(path)
    args = ["--"]
    agent = None
    extra = []
    for tag, value, _ in directives:
        if tag == "agent:":
            agent = wd.agent(value)
        elif tag == "args:":
            extra = value.split()
    if extra and extra[0] == "--stdio":
        extra = extra[1:]
    ed = Editor(wd, extra + (args + agent if agent else []))
    captures = {}
    arrival = {}  # id(message) -> its place in the order askhost sent it
    kept = []  # the numbered messages, alive so that their ids stay theirs
    last = -1  # the place of the message the previous <-- matched

    def place(m):
        if id(m) not in arrival:
            arrival[id(m)] = len(kept)
            kept.append(m)
        return arrival[id(m)]

    for tag, value, lineno in directives:
        where = f"{os.path.basename(path)}:{lineno}"
        if tag == "-->":
            ed.send(substitute(value, captures))
        elif tag == "raw":
            ed.send_raw(value.encode("utf-8", "surrogateescape"))
        elif tag in ("<--", "then"):
            def pred(m, value=value, after=last if tag == "then" else -1):
                new = {}
                # Every message reaches pred first in the order it arrived, so place() numbers it so.
                if place(m) > after and matches(value, m, captures, new):
                    captures.update(new)
                    return True
                return False
            try:
                what = f"{where} {'then: ' if tag == 'then' else ''}{json.dumps(value)}"
                last = place(ed.wait(pred, what=what))
            except Failure as f:
                raise Failure(f"{where}: {f}")
        elif tag == "<-/":
            for m in ed.seen:
                if matches(value, m, captures, {}):
                    raise Failure(f"{where}: unexpected message {json.dumps(m)}")
        elif tag == "agent-received:":
            got = [r for r in wd.records() if r != "EOF"]
            if len(got) != len(value) or not all(matches(e, a, captures, {}) for e, a in zip(value, got)):
                raise Failure(f"{where}: the agent received\n  {json.dumps(got)}\nexpected\n  {json.dumps(value)}")
        elif tag == "exit:":
            try:
                code = ed.exit_code()
            except Exception:
                ed.kill()
                raise Failure(f"{where}: askhost did not exit")
            if code != value:
                raise Failure(f"{where}: exit code {code}, expected {value}")
    ed.kill()


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        run(sys.argv[1])
    except Failure as f:
        print(f"FAIL: {f}")
        finish(False)
        return 1
    if not finish(True):
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
