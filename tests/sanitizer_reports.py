#!/usr/bin/env python3
"""Turns the reports AddressSanitizer / UBSan wrote (log_path=DIR/asan.PID, DIR/ubsan.PID) into the
extra summary JSON that summarize.py counts: every report is one failure, whatever the exit code
of the process that wrote it. The first lines of each report go to stderr."""
import json
import os
import sys


def main():
    d = sys.argv[1]
    failures = []
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        path = os.path.join(d, name)
        with open(path, errors="replace") as f:
            text = f.read()
        if not text.strip():
            continue
        failures.append(f"sanitizer report {name}")
        print(f"==> {path}", file=sys.stderr)
        print("\n".join(text.splitlines()[:40]), file=sys.stderr)
    json.dump({"passed": 0, "failed": len(failures), "skipped": 0, "failures": failures}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
