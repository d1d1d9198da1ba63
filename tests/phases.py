#!/usr/bin/env python3
"""Where a `./dev test` run's time went: one table, printed before the closing line.

Usage: phases.py PHASES_TSV [TESTLOG.json ...] [--cpu TESTLOG.json CPU_TSV ...]

PHASES_TSV has a line per phase the dev script timed: NAME, start, end (seconds since the epoch),
its exit status and, where the run could count it (./dev's control groups), its CPU-seconds and
how many of them were spent in the kernel; phases that ran beside each other overlap in the
"from" column. Each meson testlog adds a row per suite (its tests' summed time, and from its first
test's start to its last test's end) and the three slowest tests, so a slow test is named in every
run's output. `--cpu` gives a testlog the CPU-seconds of each of its tests (lines of CPU-seconds,
those in the kernel, and the test's command, tab-separated, that tests/cpu_wrap wrote): its suites
then show their CPU too, and the tests that took most.
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
                cpu = float(parts[4]) if len(parts) > 4 and parts[4] else None
                kernel = float(parts[5]) if len(parts) > 5 and parts[5] else None
                rows.append((parts[0], float(parts[1]), float(parts[2]), parts[3] if len(parts) > 3 else '0', cpu, kernel))
    return rows


def read_cpu(path):
    """{the test's command, words joined by tabs: [its CPU-seconds, those in the kernel]} (a
    command run twice: summed)."""
    cpu = {}
    if os.path.exists(path):
        with open(path, errors='replace') as f:
            for line in f:
                seconds, _, rest = line.rstrip('\n').partition('\t')
                kernel, _, command = rest.partition('\t')
                try:
                    used = (float(seconds), float(kernel))
                except ValueError:
                    continue
                was = cpu.setdefault(command, [0.0, 0.0])
                was[0] += used[0]
                was[1] += used[1]
    return cpu


def command_of(test):
    words = [w for w in test.get('command') or []]
    if words and os.path.basename(words[0]) == 'cpu_wrap':
        words = words[1:]
    return '\t'.join(words)


def cpu_seconds(seconds):
    return '' if seconds is None else f'{seconds:.0f}'


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
    logs, paths, cpu_of = [], [], {}
    rest = sys.argv[2:]
    while rest:
        if rest[0] == '--cpu' and len(rest) >= 3:
            if rest[1]:
                cpu_of[os.path.abspath(rest[1])] = read_cpu(rest[2])
            rest = rest[3:]
        else:
            paths.append(rest[0])
            rest = rest[1:]
    for path in paths:
        if path and os.path.exists(path):
            build = os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(path))))
            logs.append((build, read_testlog(path), cpu_of.get(os.path.abspath(path))))
    if not phases and not logs:
        return 0
    t0 = min([p[1] for p in phases] + [t['starttime'] for _, ts, _ in logs for t in ts])
    end = max([p[2] for p in phases] + [t['starttime'] + t['duration'] for _, ts, _ in logs for t in ts])
    with_cpu = any(p[4] is not None for p in phases)
    print()
    print('Where the time went (m:ss; "from" is when it started; rows that overlap ran side by side' +
          ('; "CPU-s": the CPU-seconds of all it ran, "kernel": those of them in the kernel)' if with_cpu else ')'))
    print(f'  {"phase":<58} {"from":>6} {"took":>6}' + (f' {"CPU-s":>6} {"kernel":>6}' if with_cpu else ''))
    for name, start, stop, status, cpu, kernel in phases:
        note = '' if status == '0' else f'  (exit {status})'
        print(f'  {name:<58} {clock(start - t0):>6} {clock(stop - start):>6}' +
              (f' {cpu_seconds(cpu):>6} {cpu_seconds(kernel):>6}' if with_cpu else '') + note)
    for build, tests, cpu in logs:
        print_suites(build, tests, cpu, t0)
    total_cpu = sum(p[4] for p in phases if p[4] is not None)
    total_kernel = sum(p[5] for p in phases if p[5] is not None)
    print(f'  {"in all":<58} {"":>6} {clock(end - t0):>6}' +
          (f' {total_cpu:>6.0f} {total_kernel:>6.0f}' if with_cpu else ''))
    return 0


def print_suites(build, tests, cpu, t0):
    """The suites of one testlog: their tests' summed time and, given each test's CPU-seconds
    (tests/cpu_wrap's; None without), their CPU, most first; then the slowest and hungriest tests."""
    suites, unnamed = {}, dict(cpu or {})
    for t in tests:
        suite = t['name'].split(':', 1)[1].split(' / ', 1)[0] if ':' in t['name'] else '?'
        t['cpu'], t['kernel'] = unnamed.pop(command_of(t), (None, None))
        suites.setdefault(suite, []).append(t)
    cpu_head = f' {"CPU-s":>6} {"kernel":>6}' if cpu is not None else ''
    print(f'  tests in {build}/, by suite: {"tests":>5} {"summed":>7}{cpu_head}  (first start, last end)')
    order = (lambda ts: -sum(t['cpu'] or 0 for t in ts)) if cpu is not None else (lambda ts: -sum(t['duration'] for t in ts))
    for suite, ts in sorted(suites.items(), key=lambda kv: order(kv[1])):
        first = min(t['starttime'] for t in ts)
        last = max(t['starttime'] + t['duration'] for t in ts)
        summed = sum(t['duration'] for t in ts)
        used = (f' {sum(t["cpu"] or 0 for t in ts):>6.0f} {sum(t["kernel"] or 0 for t in ts):>6.0f}'
                if cpu is not None else '')
        print(f'    {suite:<40} {len(ts):>5} {clock(summed):>7}{used}  ({clock(first - t0)} to {clock(last - t0)})')
    if unnamed:
        print(f'    {"unnamed (a command not in the testlog)":<40} {len(unnamed):>5} {"":>7} {sum(v[0] for v in unnamed.values()):>6.0f} {sum(v[1] for v in unnamed.values()):>6.0f}')
    slow = sorted(tests, key=lambda t: -t['duration'])[:3]
    print('    slowest: ' + '; '.join(f"{t['name'].split(' / ', 1)[-1]} {clock(t['duration'])}" for t in slow))
    if cpu is not None:
        hungry = sorted((t for t in tests if t['cpu'] is not None), key=lambda t: -t['cpu'])[:3]
        print('    most CPU: ' + '; '.join(f"{t['name'].split(' / ', 1)[-1]} {t['cpu']:.0f} s" for t in hungry))
        kernel = sorted((t for t in tests if t['kernel'] is not None), key=lambda t: -t['kernel'])[:3]
        print('    most in the kernel: ' + '; '.join(f"{t['name'].split(' / ', 1)[-1]} {t['kernel']:.0f} s" for t in kernel))

if __name__ == '__main__':
    sys.exit(main())
