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
  {"event": "failed", "why": "...", "screen": "..."}
                                              the scene ended before "done" (an exception, a wait
                                              that timed out, SIGTERM); screen: the agent's
  {"event": "skip", "why": "..."}             the CLI is not installed (exit 77)

A line "answer-own" on stdin answers in OpenCode's own dialog, by keys. The scene then waits for
its stdin to close (or SIGTERM) and ends the agent, its tmux server and the mock. Whatever ends it
(its stdin closed early because e2e.js is gone, SIGTERM, an exception, a wait that timed out),
it ends everything it started before it exits: the tmux server, its socket, and every process
tied to the agent's folders (its HOME, its project), the agent's daemons too.

usage: agent_scene.py FOLDER claude|gemini|codex|opencode

ASKHOST_SCENE_CLAUDE=newest runs the newest Claude Code ./dev installs beside the pin (AGENTS_NEWER)
instead of the pin (meson's `web browser real_claude@newest`).
"""
import json
import os
import signal
import sys
import threading
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TESTS, "integration"))
sys.path.insert(0, os.path.join(TESTS, "e2e"))

from harness import Skip, end_processes, forget_tmux_servers, wait_for  # noqa: E402
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


_said = threading.Lock()


def say(**what):
    with _said:
        print(json.dumps(what), flush=True)


def make(agent, wd, mock):
    """The agent's TUI, started in its tmux server (which the caller ends, whatever happens next)."""
    if agent == "claude":
        version = None
        if os.environ.get("ASKHOST_SCENE_CLAUDE") == "newest":
            newer = newer_versions(CLAUDE)
            if not newer:
                raise Skip("./dev installs no Claude Code beside the pin (AGENTS_NEWER)")
            version = max(newer, key=version_key)
        return ClaudeTui(wd, mock, version=version)
    if agent == "gemini":
        return GeminiTui(wd, mock, project_of(wd), hooks=True)
    if agent == "codex":
        return CodexTui(wd, mock, project_of(wd), hooks=True, shared_registry=False)
    return OpencodeTui(wd, mock, project_of(wd))


def begin(agent, tui):
    """The agent asked to set up the project (Codex in Plan mode; Gemini CLI has its prompt)."""
    if agent == "codex":
        tui.prompt("Plan the project.", plan=True)
    elif agent != "gemini":
        tui.prompt("Set up the project.")


def end_scene(wd, tui, mock):
    """Ends what the scene started: the agent's terminal (its tmux server, whose socket tmux leaves
    behind), every process still tied to the agent's folders (the agent writes into its HOME as it
    ends, and some leave a daemon with init as its parent), then the mock model API. Not e2e.js's
    askhost web, whose HOME is the folder above the agent's."""
    if tui:
        tui.end()
    if mock:
        mock.stop()
    # The mock by its script too: one whose start failed has no object to stop.
    roots = [wd.file(d) for d in ("home", "project", "codex_home") if os.path.isdir(wd.file(d))]
    ended, alive = end_processes(roots + [wd.file("model-script.json")], {os.getppid()})
    forget_tmux_servers(ended)
    for pid, argv in alive:
        print(f"agent_scene: outlived SIGKILL: {pid} {argv[:200]}", file=sys.stderr)


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


class Ended(Exception):
    """SIGTERM, or e2e.js gone (the scene's stdin closed before it was told to end)."""


def main():
    def ended(signum, frame):
        raise Ended("SIGTERM")
    signal.signal(signal.SIGTERM, ended)
    wd, agent = Folder(sys.argv[1]), sys.argv[2]
    tool, questions, marks, kept_away = AGENTS[agent]
    tui = mock = None
    said_done, stdin_closed = threading.Event(), threading.Event()

    def commands():
        for line in sys.stdin:
            if line.strip() == "answer-own":
                tui.answer_in_own_dialog()
                say(event="answered_own")
        stdin_closed.set()
        if not said_done.is_set():
            os.kill(os.getpid(), signal.SIGTERM)  # e2e.js is gone: end now, not at a wait's timeout
    try:
        threading.Thread(target=commands, daemon=True).start()
        try:
            mock = Mock(wd, [tool], {"questions": questions})
            tui = make(agent, wd, mock)
            begin(agent, tui)
        except Skip as e:
            say(event="skip", why=str(e))
            return 77
        say(event="asked", questions=questions)
        watch = Watch(tui, marks) if kept_away else None
        if not kept_away:
            say(event="dialog", screen=tui.t.wait_screen(marks[0], timeout=TIMEOUT))
        text = mock.tool_result(timeout=600)["text"]
        say(event="tool_result", text=text, own_dialog=watch.stop() if watch else None)
        if not kept_away:
            wait_for(lambda: marks[0] not in tui.screen(), timeout=TIMEOUT, what="the agent's own dialog to close")
            say(event="dialog_gone", screen=tui.screen())
        screen = tui.t.wait_screen("All set.", timeout=TIMEOUT)
        said_done.set()
        say(event="done", screen=screen)
        stdin_closed.wait()
        return 0
    except BaseException as e:
        # What ended it, for e2e.js (which shows the scene's stderr too); then the cleanup below.
        if not isinstance(e, Ended):
            traceback.print_exc()
        say(event="failed", why="SIGTERM" if isinstance(e, Ended) else f"{type(e).__name__}: {e}",
            screen=tui.screen() if tui else "")
        return 1
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut the cleanup short
        end_scene(wd, tui, mock)


if __name__ == "__main__":
    sys.exit(main())
