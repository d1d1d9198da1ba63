#!/usr/bin/env python3
"""An agent's own terminal UI (the pinned CLI, in tmux) asking offline against the mock model API,
with askhost's hook (Claude Code, Gemini CLI, Codex in Plan mode) or plugin (OpenCode) installed
and no editor. Run by tests/web/e2e.js (the real_claude, real_gemini, real_codex and real_opencode*
scenarios) in the folder of its real `askhost web` (the same state, runtime and config folders, so
the same registry). Says what happens as JSON lines on stdout:

  {"event": "asked", "questions": [...]}      the agent runs; the questions its model asks
  {"event": "dialog", "screen": "..."}        the agent's own dialog is on screen (claude, opencode)
  {"event": "answered_own"}                   answered in the agent's own dialog ("answer-own" below)
  {"event": "tool_result", "text": "...", "own_dialog": null}
                                              what the model API received as the tool's result;
                                              own_dialog: a screen on which the agent's own dialog
                                              was seen meanwhile (gemini, codex), else null
  {"event": "dialog_gone", "screen": "..."}   the agent's own dialog left its screen (claude, opencode)
  {"event": "done", "screen": "..."}          the agent's turn ended
  {"event": "skip", "why": "..."}             the CLI is not installed (exit 77)

A line "answer-own" on stdin answers in OpenCode's own dialog, by keys. The scene then waits for
its stdin to close (or SIGTERM) and ends the agent, its tmux server and the mock.

usage: agent_scene.py FOLDER claude|gemini|codex|opencode

ASKHOST_SCENE_CLAUDE=newest runs the newest Claude Code ./dev installs beside the pin (AGENTS_NEWER)
instead of the pin (meson's `web browser real_claude@newest`).
"""
import json
import os
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TESTS, "integration"))
sys.path.insert(0, os.path.join(TESTS, "e2e"))

from harness import Skip, wait_for  # noqa: E402
from e2e_common import (CLAUDE, CODEX_DIALOG, CODEX_QUESTIONS, GEMINI_DIALOG, GEMINI_QUESTIONS,  # noqa: E402
                        OPENCODE_QUESTIONS, TIMEOUT, ClaudeTui, CodexTui, GeminiTui, Mock, OpencodeTui, newer_versions,
                        project_of, version_key)

CLAUDE_QUESTION = {"question": "Which database should we use?", "header": "Database", "multiSelect": False,
                   "options": [{"label": "PostgreSQL", "description": "Battle-tested relational DB"},
                               {"label": "SQLite", "description": "Lightweight, file-based"}]}

# Per agent: its tool, the questions, what of its own dialog shows on its screen, and whether
# askhost keeps that dialog away (the hooks do; Claude's and OpenCode's dialogs stay beside askhost's).
AGENTS = {
    "claude": ("AskUserQuestion", [CLAUDE_QUESTION], ("Battle-tested relational DB",), False),
    "gemini": ("ask_user", GEMINI_QUESTIONS, GEMINI_DIALOG, True),
    "codex": ("request_user_input", CODEX_QUESTIONS, CODEX_DIALOG, True),
    "opencode": ("question", OPENCODE_QUESTIONS, ("1. PostgreSQL",), False),
}


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


_said = threading.Lock()


def say(**what):
    with _said:
        print(json.dumps(what), flush=True)


def start(agent, wd, mock):
    """The agent's TUI, asked to set up the project (Codex in Plan mode)."""
    if agent == "claude":
        version = None
        if os.environ.get("ASKHOST_SCENE_CLAUDE") == "newest":
            newer = newer_versions(CLAUDE)
            if not newer:
                raise Skip("./dev installs no Claude Code beside the pin (AGENTS_NEWER)")
            version = max(newer, key=version_key)
        tui = ClaudeTui(wd, mock, version=version)
        tui.prompt("Set up the project.")
    elif agent == "gemini":
        tui = GeminiTui(wd, mock, project_of(wd), hooks=True)
    elif agent == "codex":
        tui = CodexTui(wd, mock, project_of(wd), hooks=True, shared_registry=False)
        tui.prompt("Plan the project.", plan=True)
    else:
        tui = OpencodeTui(wd, mock, project_of(wd))
        tui.prompt("Set up the project.")
    return tui


class Watch:
    """The agent's screen looked at until the tool's result arrives: the first screen that showed
    its own dialog, if one did."""

    def __init__(self, tui, marks):
        self.seen, self.over = None, threading.Event()
        self.thread = threading.Thread(target=self._run, args=(tui, marks), daemon=True)
        self.thread.start()

    def _run(self, tui, marks):
        while not self.over.is_set():
            screen = tui.screen()
            if self.seen is None and any(m in screen for m in marks):
                self.seen = screen
            self.over.wait(0.1)

    def stop(self):
        self.over.set()
        self.thread.join()
        return self.seen


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    wd, agent = Folder(sys.argv[1]), sys.argv[2]
    tool, questions, marks, kept_away = AGENTS[agent]
    tui = None
    try:
        mock = Mock(wd, [tool], {"questions": questions})
    except Skip as e:
        say(event="skip", why=str(e))
        return 77
    try:
        try:
            tui = start(agent, wd, mock)
        except Skip as e:
            say(event="skip", why=str(e))
            return 77
        say(event="asked", questions=questions)
        watch = Watch(tui, marks) if kept_away else None
        if not kept_away:
            say(event="dialog", screen=tui.t.wait_screen(marks[0], timeout=TIMEOUT))
        stdin_closed = threading.Event()

        def commands():
            for line in sys.stdin:
                if line.strip() == "answer-own":
                    tui.answer_in_own_dialog()
                    say(event="answered_own")
            stdin_closed.set()
        threading.Thread(target=commands, daemon=True).start()
        text = mock.tool_result(timeout=600)["text"]
        say(event="tool_result", text=text, own_dialog=watch.stop() if watch else None)
        if not kept_away:
            wait_for(lambda: marks[0] not in tui.screen(), timeout=TIMEOUT, what="the agent's own dialog to close")
            say(event="dialog_gone", screen=tui.screen())
        say(event="done", screen=tui.t.wait_screen("All set.", timeout=TIMEOUT))
        stdin_closed.wait()
        return 0
    finally:
        if tui:
            # The agent writes into its HOME as it ends: it must be gone before the folder is removed.
            pane = subprocess.run(["tmux", "-L", tui.t.name, "list-panes", "-F", "#{pane_pid}"],
                                  capture_output=True, text=True).stdout.split()
            family = descendants(int(pane[0])) if pane else []
            tui.end()
            end_all(family)
            sock = os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", "tmux-%d" % os.geteuid(), tui.t.name)
            if os.path.exists(sock):
                os.unlink(sock)
        mock.stop()


if __name__ == "__main__":
    sys.exit(main())
