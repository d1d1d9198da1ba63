"""Neovim bridge tests: real Neovim, the real askhost (--stdio) and the scripted agent.

`test_neovim.py --list` names the cases; `test_neovim.py CASE` runs one. Most cases run in
headless Neovim (tests/neovim/cases.lua, a small Lua harness ending in `cquit 0`/`cquit 1`);
`screen_dialog_in_tmux` runs real Neovim in tmux and reads the screen. Exit 0 = pass, 1 = fail,
77 = skipped (no nvim).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))  # meson's --list runs without PYTHONPATH

from harness import (ROOT, SCRIPTED_AGENT, ASKHOST, DATABASE_Q, Workdir, ask_request, finish,  # noqa: E402
                     kill_tmux_server, on_sigterm_finish)
PLUGIN = os.path.join(ROOT, "editor-bridges", "neovim")
CASES_LUA = os.path.join(HERE, "cases.lua")
RUN_LUA = os.path.join(HERE, "run.lua")
SCREEN_CASE = "screen_dialog_in_tmux"
TIMEOUT = 60


def lua_cases():
    with open(CASES_LUA, encoding="utf-8") as f:
        return re.findall(r"^H\.case\('([a-z0-9_]+)'", f.read(), re.M)


def nvim_base(wd):
    return ["nvim", "-u", "NONE", "-i", "NONE", "-n",
            "--cmd", "set rtp^=" + PLUGIN, "-c", "runtime plugin/askhost.lua"]


def run_headless(name):
    wd = Workdir()
    env = wd.env(ASKHOST_NVIM_CASE=name, ASKHOST_NVIM_WORKDIR=wd.path, SCRIPTED_AGENT=SCRIPTED_AGENT,
                 ASKHOST=ASKHOST, ASKHOST_NVIM_TIMEOUT_MS=str((TIMEOUT - 15) * 1000))
    cmd = ["timeout", "-k", "5", str(TIMEOUT), "nvim", "--headless"] + nvim_base(wd)[1:] + ["-c", "luafile " + RUN_LUA]
    p = subprocess.run(cmd, env=env, cwd=wd.path, stdin=subprocess.DEVNULL, capture_output=True)
    out = (p.stdout + p.stderr).decode("utf-8", "replace").strip()
    if out:
        print(out)
    if p.returncode == 124:
        print(f"FAIL: nvim did not finish within {TIMEOUT}s")
        return 1
    if p.returncode != 0:
        print(f"FAIL: nvim exited with {p.returncode} (workdir {wd.path})")
        return 1
    if "ASKHOST-NVIM-TEST: ok" not in out:
        print("FAIL: exit 0 without the harness's closing ok line")
        return 1
    return 0


def tmux(server, *args, check=True):
    return subprocess.run(["tmux", "-L", server, "-f", "/dev/null"] + list(args), capture_output=True,
                          check=check, timeout=10)


def capture(server):
    return tmux(server, "capture-pane", "-p", "-t", "main").stdout.decode("utf-8", "replace")


def run_screen():
    """Real nvim in tmux: the floating dialog is on screen, with its border, question and options."""
    wd = Workdir()
    server = f"askhost-nvim-{os.getpid()}"
    agent = wd.agent([{"out": "on screen"}, {"send": ask_request("req-1", [DATABASE_Q])}, {"recv": 1}])
    script = wd.file("nvim.sh")
    nvim = nvim_base(wd) + [
        "-c", "lua require('askhost').setup({binary = os.getenv('ASKHOST'), notify = false})",
        "-c", "AskHost start " + " ".join(shlex.quote(a) for a in agent)]
    with open(script, "w") as f:
        f.write("#!/bin/sh\n" + " ".join(shlex.quote(a) for a in nvim) + "\necho $? > " +
                shlex.quote(wd.file("nvim.status")) + "\n")
    os.chmod(script, 0o755)
    env = wd.env(LANG="C.UTF-8", LC_ALL="C.UTF-8", ASKHOST=ASKHOST, TERM="xterm-256color")
    env.pop("TMUX", None)
    shot = ""
    try:
        subprocess.run(["tmux", "-L", server, "-f", "/dev/null", "new-session", "-d", "-s", "main",
                        "-x", "100", "-y", "30", script], env=env, cwd=wd.path, check=True, timeout=10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            shot = capture(server)
            if "Other (type your answer)" in shot and "╰" in shot:
                break
            time.sleep(0.1)
        with open(wd.file("screen.txt"), "w", encoding="utf-8") as f:
            f.write(shot)
        print(shot)
        lines = shot.splitlines()
        problems = []
        for needle in ["Which database should we use?", "Database", "1. PostgreSQL (Recommended)",
                       "Battle-tested relational DB", "2. SQLite", "3. MongoDB",
                       "4. Other (type your answer)", "Esc to cancel"]:
            if needle not in shot:
                problems.append(f"{needle!r} not on screen")
        top = [i for i, l in enumerate(lines) if "╭" in l and "╮" in l]
        bottom = [i for i, l in enumerate(lines) if "╰" in l and "╯" in l]
        if not top or not bottom:
            problems.append("no rounded border (╭ ╮ ╰ ╯) on screen")
        else:
            t, b = top[0], bottom[-1]
            left, right = lines[t].index("╭"), lines[t].index("╮")
            inside = lines[t + 1:b]
            if not all(len(l) > right and l[left] == "│" and l[right] == "│" for l in inside):
                problems.append("the border's sides do not enclose the dialog")
            if not any("Which database should we use?" in l for l in inside):
                problems.append("the question is not inside the border")
            width = right - left + 1
            if abs(left - (100 - width) // 2) > 2:
                problems.append(f"not centred: left edge at column {left}, width {width}")
            if not (0 < t and b < 29):
                problems.append(f"not vertically inside the screen: rows {t}..{b}")
        if problems:
            print("FAIL: " + "; ".join(problems))
            return 1
        # And it answers: a number key picks (after the key guard's first moment).
        time.sleep(0.5)
        tmux(server, "send-keys", "-t", "main", "2")
        deadline = time.monotonic() + 10
        records = []
        while time.monotonic() < deadline and not records:
            records = [r for r in wd.records() if r != "EOF"]
            time.sleep(0.1)
        if not records or records[0].get("answers", [{}])[0].get("answer") != "SQLite":
            print(f"FAIL: the agent received {records!r}")
            return 1
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and "Which database" in capture(server):
            time.sleep(0.1)
        if "Which database" in capture(server):
            print("FAIL: the dialog is still on screen after the answer")
            return 1
        tmux(server, "send-keys", "-t", "main", "Escape", ":qa!", "Enter")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not os.path.exists(wd.file("nvim.status")):
            time.sleep(0.1)
        return 0
    finally:
        kill_tmux_server(server)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--list":
        print("\n".join(lua_cases() + [SCREEN_CASE]))
        return 0
    if len(sys.argv) < 2:
        print(f"usage: {sys.argv[0]} --list | CASE", file=sys.stderr)
        return 2
    name = sys.argv[1]
    if shutil.which("nvim") is None:
        print("SKIP: nvim is not installed")
        return 77
    if name not in lua_cases() + [SCREEN_CASE]:
        print(f"no such case: {name}", file=sys.stderr)
        return 2
    on_sigterm_finish()  # meson's timeout: nvim runs under timeout(1), in a process group of its own
    try:
        rc = run_screen() if name == SCREEN_CASE else run_headless(name)
    except BaseException:
        finish(False)
        raise
    # The case's folder goes when it passed; a process it left is ended either way.
    return rc if finish(rc == 0) else 1


if __name__ == "__main__":
    sys.exit(main())
