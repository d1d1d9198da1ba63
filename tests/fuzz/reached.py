#!/usr/bin/env python3
"""The project's files a fuzz target is built from, and whether a change touched them.

    tests/fuzz/reached.py BINARY                 the files, one a line
    tests/fuzz/reached.py BINARY --since REV     "unchanged", or the files changed since REV

A fuzz campaign runs in parts (docs/robustness.md): a part run on one commit still counts on a later
one while nothing its target is built from has changed. What a target is built from is read from
the binary's DWARF line tables (llvm-dwarfdump): every source and header that put code into it,
including the inline functions and templates of headers. A header that only declares adds no line
and is not listed; a change to one that matters changes a file that is.
Exit: 0 unchanged (or the list printed), 1 changed, 2 an error.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def die(message):
    print("reached.py: " + message, file=sys.stderr)
    sys.exit(2)


def dwarfdump():
    for name in ("llvm-dwarfdump", "llvm-dwarfdump-19", "llvm-dwarfdump-14"):
        if shutil.which(name):
            return name
    die("no llvm-dwarfdump on PATH (Debian: llvm)")


def reached(binary, root=ROOT):
    """The files under root (not in a build folder) whose lines are in binary, relative to root."""
    out = subprocess.run([dwarfdump(), "--debug-line", binary], capture_output=True, text=True, check=True).stdout
    dirs, files, name = {}, set(), None
    for line in out.splitlines():
        if line.startswith("debug_line["):
            dirs, name = {}, None
            continue
        m = re.match(r'\s*include_directories\[\s*(\d+)\] = "(.*)"', line)
        if m:
            dirs[int(m.group(1))] = m.group(2)
            continue
        m = re.match(r'\s*name: "(.*)"', line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"\s*dir_index: (\d+)", line)
        if m and name is not None:
            folder = dirs.get(int(m.group(1)), "")
            path = os.path.normpath(os.path.join(dirs.get(0, ""), folder, name))
            rel = os.path.relpath(path, root)
            if not rel.startswith("..") and not rel.split(os.sep)[0].startswith("build"):
                files.add(rel)
            name = None
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--since", metavar="REV", help="say which of the files changed since REV (git diff REV)")
    ap.add_argument("--root", default=ROOT, help="the source tree the binary was built from (default: this one)")
    a = ap.parse_args()
    if not os.path.isfile(a.binary):
        die(f"no such binary: {a.binary}")
    files = reached(a.binary, os.path.realpath(a.root))
    if not a.since:
        print("\n".join(sorted(files)))
        return 0
    diff = subprocess.run(["git", "-C", ROOT, "diff", "--name-only", a.since], capture_output=True, text=True)
    if diff.returncode != 0:
        die(f"git diff {a.since}: {diff.stderr.strip()}")
    changed = sorted(files & set(diff.stdout.split()))
    print(f"{os.path.basename(a.binary)}: {len(files)} files; " +
          ("changed since " + a.since + ": " + " ".join(changed) if changed else "unchanged since " + a.since))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
