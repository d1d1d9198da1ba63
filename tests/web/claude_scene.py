#!/usr/bin/env python3
"""Claude Code's own terminal UI (the pinned CLI, in tmux) asking offline against the mock model
API, with `askhost hook` in its settings and no editor: its AskUserQuestion shows in Claude's own
dialog while the hook waits as a host of its own. Run by tests/web/e2e.js (scenario real_claude),
in the folder of its real `askhost web` (the same state, runtime and config folders, so the same
registry). Says what happens as JSON lines on stdout:

  {"event": "dialog", "screen": "..."}        Claude's dialog is on screen (the hook waits)
  {"event": "tool_result", "text": "..."}     what the model API received as the tool's result
  {"event": "dialog_gone", "screen": "..."}   Claude's dialog left its screen
  {"event": "skip", "why": "..."}             the CLI is not installed (exit 77)

then waits for its stdin to close (or SIGTERM) and ends Claude, its tmux server and the mock.

usage: claude_scene.py FOLDER

ASKHOST_SCENE_CLAUDE=newest runs the newest Claude Code ./dev installs beside the pin (AGENTS_NEWER)
instead of the pin (meson's `web browser real_claude@newest`).
"""
import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TESTS, "integration"))
sys.path.insert(0, os.path.join(TESTS, "e2e"))

from harness import Skip, wait_for  # noqa: E402
from e2e_common import CLAUDE, TIMEOUT, ClaudeTui, Mock, newer_versions, version_key  # noqa: E402

DATABASE = {"question": "Which database should we use?", "header": "Database", "multiSelect": False, "options": [
    {"label": "PostgreSQL", "description": "Battle-tested relational DB"},
    {"label": "SQLite", "description": "Lightweight, file-based"}]}
QUESTION_SHOWN = "Battle-tested relational DB"  # an option's description, in Claude's dialog


class Folder:
    """The folder e2e.js made for askhost web, as the harness's Workdir: the same XDG folders."""

    def __init__(self, path):
        self.path = path

    def file(self, name):
        return os.path.join(self.path, name)

    def env(self, **extra):
        env = dict(os.environ, HOME=self.path, XDG_RUNTIME_DIR=self.file("run"), XDG_STATE_HOME=self.file("state"),
                   XDG_CONFIG_HOME=self.file("config"))
        env.update(extra)
        return env


def descendants(pid):
    """pid and every process under it."""
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def end_all(pids):
    """Waits for pids to end (tmux's SIGHUP ends them), then kills what is left."""
    deadline = time.monotonic() + 15
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    for p in pids:
        if alive(p):
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass


def say(**what):
    print(json.dumps(what), flush=True)


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    wd = Folder(sys.argv[1])
    try:
        mock = Mock(wd, ["AskUserQuestion"], [DATABASE])
    except Skip as e:
        say(event="skip", why=str(e))
        return 77
    claude = None
    try:
        try:
            version = None
            if os.environ.get("ASKHOST_SCENE_CLAUDE") == "newest":
                newer = newer_versions(CLAUDE)
                if not newer:
                    raise Skip("./dev installs no Claude Code beside the pin (AGENTS_NEWER)")
                version = max(newer, key=version_key)
            claude = ClaudeTui(wd, mock, version=version)
        except Skip as e:
            say(event="skip", why=str(e))
            return 77
        claude.prompt("Set up the project.")
        say(event="dialog", screen=claude.t.wait_screen(QUESTION_SHOWN, timeout=TIMEOUT))
        say(event="tool_result", text=mock.tool_result(timeout=600)["text"])
        wait_for(lambda: QUESTION_SHOWN not in claude.t.screen(), timeout=TIMEOUT, what="Claude's dialog to close")
        say(event="dialog_gone", screen=claude.t.screen())
        sys.stdin.read()
        return 0
    finally:
        if claude:
            # Claude writes into its HOME as it ends: it must be gone before the folder is removed.
            pane = subprocess.run(["tmux", "-L", claude.t.name, "list-panes", "-F", "#{pane_pid}"],
                                  capture_output=True, text=True).stdout.split()
            family = descendants(int(pane[0])) if pane else []
            claude.t.kill()
            end_all(family)
            sock = os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", "tmux-%d" % os.geteuid(), claude.t.name)
            if os.path.exists(sock):
                os.unlink(sock)
        mock.stop()


if __name__ == "__main__":
    sys.exit(main())
