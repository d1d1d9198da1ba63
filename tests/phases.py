#!/usr/bin/env python3
"""Where a `./dev test` run's time went: one table, printed before the closing line.

Usage: phases.py PHASES_TSV [TESTLOG.json ...]

PHASES_TSV has a line per phase the dev script timed: NAME, start, end (seconds since the epoch)
and its exit status; phases that ran beside each other overlap in the "from" column. Each meson
testlog adds a row per suite (its tests' summed time, and from its first test's start to its last
test's end) and the three slowest tests, so a slow test is named in every run's output.
"""
import json
import os
import sys


def clock(seconds):
    seconds = max(0, int(round(seconds)))
    return f'{seconds // 60}:{seconds % 60:02d}'


def read_phases(path):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) >= 3:
                rows.append((parts[0], float(parts[1]), float(parts[2]), parts[3] if len(parts) > 3 else '0'))
    return rows


def read_testlog(path):
    tests = []
    with open(path) as f:
        for line in f:
            if line.strip():
                t = json.loads(line)
                if 'starttime' in t and 'duration' in t:
                    tests.append(t)
    return tests


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    phases = read_phases(sys.argv[1]) if os.path.exists(sys.argv[1]) else []
    logs = []
    for path in sys.argv[2:]:
        if os.path.exists(path):
            build = os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(path))))
            logs.append((build, read_testlog(path)))
    if not phases and not logs:
        return 0
    t0 = min([p[1] for p in phases] + [t['starttime'] for _, ts in logs for t in ts])
    end = max([p[2] for p in phases] + [t['starttime'] + t['duration'] for _, ts in logs for t in ts])
    print()
    print('Where the time went (m:ss; "from" is when it started; rows that overlap ran side by side)')
    print(f'  {"phase":<58} {"from":>6} {"took":>6}')
    for name, start, stop, status in phases:
        note = '' if status == '0' else f'  (exit {status})'
        print(f'  {name:<58} {clock(start - t0):>6} {clock(stop - start):>6}{note}')
    for build, tests in logs:
        suites = {}
        for t in tests:
            suite = t['name'].split(':', 1)[1].split(' / ', 1)[0] if ':' in t['name'] else '?'
            suites.setdefault(suite, []).append(t)
        print(f'  tests in {build}/, by suite: {"tests":>5} {"summed":>7}  (first start, last end)')
        for suite, ts in sorted(suites.items(), key=lambda kv: -sum(t['duration'] for t in kv[1])):
            first = min(t['starttime'] for t in ts)
            last = max(t['starttime'] + t['duration'] for t in ts)
            summed = sum(t['duration'] for t in ts)
            print(f'    {suite:<40} {len(ts):>5} {clock(summed):>7}  ({clock(first - t0)} to {clock(last - t0)})')
        slow = sorted(tests, key=lambda t: -t['duration'])[:3]
        print('    slowest: ' + '; '.join(f"{t['name'].split(' / ', 1)[-1]} {clock(t['duration'])}" for t in slow))
    print(f'  {"in all":<58} {"":>6} {clock(end - t0):>6}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
