#!/usr/bin/env python3
"""The end of `./dev test`: did the run leave anything behind in its temporary folder?

    leftovers.py RUN_TMP OUT.json

RUN_TMP is the run's own temporary folder (`./dev test` points TMPDIR at it, so every test's
folder is made in it, and TMUX_TMPDIR, so every private tmux server's socket is too). A process
still alive whose command line names a path in RUN_TMP, or whose working directory, executable or
an environment variable (other than TMPDIR and TMUX_TMPDIR themselves) lies in it, was started by
the run and outlived it, and so was a tmux server still answering on a socket in RUN_TMP: each is
named, then ended, and the check fails. The tests' folder guards (tests/reap.py, started by
harness.guard_folder and the Node scenes) are not left over: each ends itself once its test is
gone, after up to a second's poll and reap.py's grace, so the check first waits for them
(GUARD_PATIENCE) and counts only those still there after it. What the folder still holds is counted and named (the
failed tests' kept folders, and anything else a test left there). OUT.json gets {"passed",
"failed", "failures"} for tests/summarize.py, so a left process counts in the run's closing
`N passed, N failed` line.

Outside RUN_TMP, in the user's own folders: ./dev test points XDG_STATE_HOME at RUN_TMP/state, so
that an askhost a test started without a state folder of its own writes its journals and pending
files there, where tests would share them; any askhost file there fails the check. So does a host's
record left in the registry askhost uses without XDG_RUNTIME_DIR (/run/user/UID/askhost or
/tmp/askhost-UID) that names a folder in RUN_TMP; a record whose host is gone is removed, with its
socket.
"""
import json
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integration"))

from harness import end_processes, processes_in  # noqa: E402

TMP_VARS = ("TMPDIR", "TMP", "TEMP", "TEMPDIR", "TMUX_TMPDIR")
# What ./dev test itself keeps in RUN_TMP (not the tests').
OWN = ("phases.tsv", "installs.log", "test-cpu.tsv", "test-cpu-asan.tsv", "state")
SHARED_REGISTRIES = ("/run/user/%d/askhost" % os.geteuid(), "/tmp/askhost-%d" % os.geteuid())


GUARD_PATIENCE = 40.0  # reap.py's 20 s grace, its 5 + 5 s of SIGTERM and SIGKILL, tail's 1 s poll


def parent(pid):
    """pid's parent, 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


def is_guard(pid, command):
    """A folder guard: the `sh` waiting on its test, the `tail` it waits with, or the reap.py it
    became (the `tail` names no folder; its parent does). command is the joined command line."""
    reaper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reap.py")
    if reaper in command:
        return True
    if command.startswith("tail --pid="):
        try:
            with open(f"/proc/{parent(pid)}/cmdline", "rb") as f:
                return reaper.encode() in f.read()
        except OSError:
            return False
    return False


def wait_for_guards(root, mine):
    deadline = time.monotonic() + GUARD_PATIENCE
    while time.monotonic() < deadline:
        guards = [p for p, argv in processes_in([root], mine, TMP_VARS) if is_guard(p, argv)]
        if not guards:
            return
        time.sleep(0.2)


def ancestors():
    pids, pid = set(), os.getpid()
    while pid > 1:
        pids.add(pid)
        pid = parent(pid)
    return pids


def tmux_servers(root):
    """[(socket, live)] of the tmux sockets in root/tmux-UID (TMUX_TMPDIR's folder)."""
    folder = os.path.join(root, "tmux-%d" % os.geteuid())
    found = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        path = os.path.join(folder, name)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            found.append((path, True))
        except OSError:
            found.append((path, False))
        finally:
            s.close()
    return found


def shared_state_files(root):
    """askhost's files in the run's shared XDG_STATE_HOME (RUN_TMP/state), each with the agent of
    its first journal line when it has one."""
    base = os.path.join(root, "state", "askhost")
    found = []
    for dirpath, _, files in os.walk(base):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            agent = ""
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    agent = json.loads(f.readline()).get("agent", "")
            except (OSError, ValueError, AttributeError):
                pass
            found.append(os.path.relpath(path, base) + (f" (agent {agent})" if agent else ""))
    return found


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def shared_registry_records(root, registries=SHARED_REGISTRIES):
    """[(record path, pid, alive)] of the hosts' records in the shared registries that name a path
    in root (a workspace folder, the socket); those of hosts that are gone are removed."""
    found = []
    for folder in registries:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            if not name.endswith(".json"):
                continue
            try:
                with open(path) as f:
                    record = json.load(f)
            except (OSError, ValueError):
                continue
            if not isinstance(record, dict) or root + os.sep not in json.dumps(record, ensure_ascii=False):
                continue
            pid = record.get("pid") if isinstance(record.get("pid"), int) else 0
            live = pid > 0 and alive(pid)
            found.append((path, pid, live))
            if not live:
                for gone in (path, record.get("socket")):
                    if isinstance(gone, str) and os.path.dirname(gone) == folder:
                        try:
                            os.unlink(gone)
                        except OSError:
                            pass
    return found


def folder_report(root):
    entries = sorted(e for e in os.listdir(root) if e not in OWN) if os.path.isdir(root) else []
    size = 0
    for dirpath, _, files in os.walk(root):
        for name in files:
            try:
                size += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    kept = [e for e in entries if e.startswith("askhost-test-")]
    sockets = [os.path.basename(p) for p, _ in tmux_servers(root)]
    others = [e for e in entries if e not in kept and e != "tmux-%d" % os.geteuid()]
    line = f"{len(entries)} entries, {size / 1e6:.1f} MB"
    if kept:
        line += f"; {len(kept)} askhost-test-* folders (kept by failed cases)"
    if sockets:
        line += f"; {len(sockets)} tmux sockets ({', '.join(sockets[:5])}{', ...' if len(sockets) > 5 else ''})"
    if others:
        line += f"; also: {', '.join(others[:10])}{', ...' if len(others) > 10 else ''}"
    return line


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    mine = ancestors()
    wait_for_guards(root, mine)
    left = processes_in([root], mine, TMP_VARS)
    failures = []
    for pid, argv in left:
        failures.append(f"left running: {pid} {argv[:200]}")
        print(f"left running after the tests (its command line or folder is in {root}): {pid} {argv[:500]}")
    if left:
        _, alive = end_processes([root], mine, TMP_VARS)
        for pid, argv in alive:
            print(f"could not end {pid} {argv[:200]}")
    for path, live in tmux_servers(root):
        if live:
            sessions = subprocess.run(["tmux", "-S", path, "list-sessions"], capture_output=True, text=True).stdout
            failures.append(f"left running: the tmux server of {path}")
            print(f"left running after the tests: the tmux server of {path}: {sessions.strip()[:300]}")
            subprocess.run(["tmux", "-S", path, "kill-server"], capture_output=True)
    state = shared_state_files(root)
    if state:
        failures.append(f"{len(state)} askhost files in the run's shared state folder")
        print(f"written in the run's shared state folder ({root}/state, XDG_STATE_HOME) by an askhost a test "
              f"started without a state folder of its own: {', '.join(state[:10])}{', ...' if len(state) > 10 else ''}")
    for path, pid, live in shared_registry_records(root):
        failures.append(f"a host's record left in {os.path.dirname(path)}")
        print(f"left in the shared registry: {path} (pid {pid}, {'still running' if live else 'gone: removed'}),"
              f" naming a folder in {root}")
    left = left or failures
    print(f"the run's temporary folder {root}: {folder_report(root)}")
    with open(out, "w") as f:
        json.dump({"passed": 0 if left else 1, "failed": 1 if left else 0,
                   "failures": ["leftovers (" + "; ".join(failures) + ")"] if left else []}, f)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
