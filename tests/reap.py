#!/usr/bin/env python3
"""Ends what a test that is being ended by a signal started, after it has gone.

    reap.py [--wait PID]... [--keep] FOLDER...

meson's timeout sends SIGTERM to a test's process group and SIGKILL to it half a second later:
too soon for a test to stop its browsers, servers and agents, some of which are in groups of
their own (detached, daemons, tmux servers) that neither signal reaches. Such a test starts this
script detached (a session of its own) and exits. It waits for the PIDs named (a scene that
ends its own agent, at most 30 seconds), then ends every process still tied to a FOLDER (its
command line names it, or its working directory, executable or an environment variable lies in
it: tests/integration/harness.py's processes_in) with SIGTERM, then SIGKILL, removes the socket
of each tmux server it ended (tmux leaves it behind), and removes the FOLDERs unless --keep.
"""
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integration"))

from harness import end_processes, forget_tmux_servers  # noqa: E402


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def main(args):
    waits, keep, folders = [], False, []
    while args:
        a = args.pop(0)
        if a == "--wait" and args:
            waits.append(int(args.pop(0)))
        elif a == "--keep":
            keep = True
        else:
            folders.append(os.path.abspath(a))
    if not folders:
        print(__doc__, file=sys.stderr)
        return 2
    deadline = time.monotonic() + 30
    while any(alive(p) for p in waits) and time.monotonic() < deadline:
        time.sleep(0.2)
    ended, left = end_processes(folders, {os.getppid()})
    forget_tmux_servers(ended)
    for pid, argv in left:
        print(f"reap.py: outlived SIGKILL: {pid} {argv[:200]}", file=sys.stderr)
    if not keep:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
