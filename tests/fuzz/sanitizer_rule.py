#!/usr/bin/env python3
"""Proves the rule "any sanitizer report fails the run" with the options the run itself uses.

usage: sanitizer_rule.py REPLAY_DELIBERATE INPUTS_DIR

Runs the test-only target fuzz_deliberate on each input in INPUTS_DIR with the environment's
UBSAN_OPTIONS and ASAN_OPTIONS (those ./dev sanitize sets), its reports sent to a directory of its
own, and counts them with tests/sanitizer_reports.py, as ./dev test does. Undefined behaviour in
askhost's own code (even the check the RapidJSON suppression names) and a heap overflow must each
be counted; RapidJSON's suppressed report and a clean input must not. Skipped (77) outside a
sanitizer run."""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORTS = os.path.join(HERE, "..", "sanitizer_reports.py")

# input -> words its report must hold, or None for no report
EXPECTED = {
    "signed-overflow": "signed integer overflow",
    "pointer-overflow": "pointer",
    "heap-overflow": "heap-buffer-overflow",
    "rapidjson": None,
    "nothing": None,
}


def with_log_path(options, path):
    kept = [o for o in options.split(":") if o and not o.startswith("log_path=")]
    return ":".join(kept + ["log_path=" + path])


def main():
    replay, inputs = sys.argv[1], sys.argv[2]
    ubsan, asan = os.environ.get("UBSAN_OPTIONS", ""), os.environ.get("ASAN_OPTIONS", "")
    if "halt_on_error=1" not in ubsan:
        print("SKIP: not a sanitizer run (UBSAN_OPTIONS has no halt_on_error=1; run ./dev sanitize)")
        return 77
    if not re.search(r"(^|:)suppressions=", ubsan):
        print("FAIL: UBSAN_OPTIONS names no suppressions file: RapidJSON's report would fail every run")
        return 1
    failures = []
    for name, words in EXPECTED.items():
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, UBSAN_OPTIONS=with_log_path(ubsan, d + "/ubsan"),
                       ASAN_OPTIONS=with_log_path(asan, d + "/asan"))
            p = subprocess.run([replay, os.path.join(inputs, name)], env=env, capture_output=True, timeout=60)
            counted = subprocess.run([sys.executable, REPORTS, d], capture_output=True, text=True)
            failed = json.loads(counted.stdout)["failed"]
            text = "".join(open(os.path.join(d, f), errors="replace").read() for f in os.listdir(d))
        if words is None:
            if failed or p.returncode:
                failures.append(f"{name}: expected no report, got {failed} (exit {p.returncode}): {text[:300]}")
        elif failed != 1 or words not in text or p.returncode == 0:
            failures.append(f"{name}: expected one report with {words!r} and a failed exit, got {failed} "
                            f"(exit {p.returncode}): {text[:300]}")
        else:
            print(f"{name}: reported, counted, exit {p.returncode}")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
