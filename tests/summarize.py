#!/usr/bin/env python3
"""Sums every suite `./dev test` ran into one closing line: `N passed, N failed, N skipped`.

meson's testlog.json has one record per meson test. A Boost.Test executable holds many test
cases: its own report ("N test cases out of M passed") is counted case by case. Other suites
(the bridges' own runners) may leave extra JSON files `{"passed":N,"failed":N,"skipped":N}`
named on the command line after the testlog. Further testlogs (`testlog.json`, or
`testlog-WRAPPER.json` from a run with meson's --wrapper, from another build, e.g. the sanitizer
build) are counted the same way, their failures named with that build.
"""
import json
import os
import re
import sys

BOOST = re.compile(r"(\d+) test cases? out of (\d+) (passed|failed)")
BOOST_DETAIL = re.compile(r"(\d+) test cases? out of (\d+) failed")
TESTLOG = re.compile(r"testlog(-[^/]*)?\.json")


def count_testlog(path, label):
    passed = failed = skipped = 0
    failures = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            result = t.get("result")
            out = (t.get("stdout") or "") + (t.get("stderr") or "")
            cases = BOOST.findall(out)
            if cases and result in ("OK", "FAIL"):
                total = int(cases[0][1])
                bad = sum(int(n) for n, _, kind in cases if kind == "failed")
                # "N out of M passed" lines list passes; failed lines list failures.
                if bad == 0 and result == "FAIL":
                    bad = max(1, total - sum(int(n) for n, _, kind in cases if kind == "passed"))
                passed += total - bad
                failed += bad
                if bad:
                    failures.append(label + t["name"])
            elif result == "OK":
                passed += 1
            elif result in ("SKIP",):
                skipped += 1
            else:
                failed += 1
                failures.append(label + t["name"])
    return passed, failed, skipped, failures


def main():
    passed, failed, skipped, failures = count_testlog(sys.argv[1], "")
    for extra in sys.argv[2:]:
        if TESTLOG.fullmatch(os.path.basename(extra)):
            build = os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(extra))))
            try:
                counts = count_testlog(extra, build + ": ")
            except FileNotFoundError:
                print(f"missing: {extra}")
                failed += 1
                failures.append(extra)
                continue
            passed, failed, skipped = passed + counts[0], failed + counts[1], skipped + counts[2]
            failures += counts[3]
            continue
        try:
            with open(extra) as f:
                e = json.load(f)
        except FileNotFoundError:
            continue
        passed += e.get("passed", 0)
        failed += e.get("failed", 0)
        skipped += e.get("skipped", 0)
        failures += e.get("failures", [])
    if failures:
        print("failed: " + ", ".join(failures))
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
