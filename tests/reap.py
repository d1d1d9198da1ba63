#!/usr/bin/env python3
"""Ends what a test left in its folder once the test is gone, however it went.

    reap.py [--keep] FOLDER...

meson's timeout sends SIGTERM to a test's process group and SIGKILL to it half a second later,
and a test at nice 19 on a busy machine may not even run in that half second; its browsers,
servers and agents are often in groups of their own (detached, daemons, tmux servers) that
neither signal reaches. So a test starts a guard when it makes its folder (harness.guard_folder,
or the same `sh` line from Node: one `sh` and one `tail` waiting on its pid): once the test's
process is gone and the folder is still there, this script asks every process still tied to a
FOLDER to end (SIGTERM; a process is tied when its command line names the folder, or its working
directory, executable or an environment variable lies in it: tests/integration/harness.py's
processes_in), gives them 20 seconds (an agent scene ends its agent itself), then SIGKILLs what is
left, removes the socket of each tmux server it ended (tmux leaves it behind), and removes the
FOLDERs unless --keep (a failed test's folder is kept to be read).
"""
import os
import shutil
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "integration"))

from harness import end_processes, forget_tmux_servers, processes_in  # noqa: E402

GRACE = 20.0


def reap(folders, keep):
    mine = {os.getpid(), os.getppid()}
    asked = processes_in(folders, mine)
    for pid, _ in asked:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    deadline = time.monotonic() + GRACE
    while asked and time.monotonic() < deadline and processes_in(folders, mine):
        time.sleep(0.2)
    ended, left = end_processes(folders, mine)
    forget_tmux_servers(asked + ended)
    for pid, argv in left:
        print(f"reap.py: outlived SIGKILL: {pid} {argv[:200]}", file=sys.stderr)
    if not keep:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
    return 1 if left else 0


def main(args):
    keep = "--keep" in args
    args = [a for a in args if a != "--keep"]
    if not args or any(a.startswith("--") for a in args):
        print(__doc__, file=sys.stderr)
        return 2
    return reap([os.path.abspath(a) for a in args], keep)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
