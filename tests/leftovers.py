#!/usr/bin/env python3
"""The end of `./dev test`: did the run leave anything behind in its temporary folder?

    leftovers.py RUN_TMP OUT.json

RUN_TMP is the run's own temporary folder (`./dev test` points TMPDIR at it, so every test's
folder is made in it). A process still alive whose command line names a path in RUN_TMP, or
whose working directory, executable or an environment variable (other than TMPDIR itself) lies
in it, was started by the run and outlived it: each is named, then ended, and the check fails.
What the folder still holds is counted. OUT.json gets {"passed", "failed", "failures"} for
tests/summarize.py, so a left process counts in the run's closing `N passed, N failed` line.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "integration"))

from harness import end_processes, processes_in  # noqa: E402

TMP_VARS = ("TMPDIR", "TMP", "TEMP", "TEMPDIR")


def ancestors():
    pids, pid = set(), os.getpid()
    while pid > 1:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
    return pids


def folder_report(root):
    entries = sorted(os.listdir(root)) if os.path.isdir(root) else []
    size = 0
    for dirpath, _, files in os.walk(root):
        for name in files:
            try:
                size += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    tests = [e for e in entries if e.startswith("askhost-test-")]
    return f"{len(entries)} entries ({len(tests)} askhost-test-* folders), {size / 1e6:.1f} MB"


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    mine = ancestors()
    left = processes_in([root], mine, TMP_VARS)
    failures = []
    for pid, argv in left:
        failures.append(f"left running: {pid} {argv[:200]}")
        print(f"left running after the tests (its command line or folder is in {root}): {pid} {argv[:500]}")
    if left:
        _, alive = end_processes([root], mine, TMP_VARS)
        for pid, argv in alive:
            print(f"could not end {pid} {argv[:200]}")
    print(f"the run's temporary folder {root}: {folder_report(root)}")
    with open(out, "w") as f:
        json.dump({"passed": 0 if left else 1, "failed": 1 if left else 0,
                   "failures": ["leftovers (" + "; ".join(failures) + ")"] if left else []}, f)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
