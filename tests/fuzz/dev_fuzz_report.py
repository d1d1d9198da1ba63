#!/usr/bin/env python3
"""./dev fuzz's own reporting, tried on stand-ins for the libFuzzer targets: no fuzz build needed.

A build directory of its own (ASKHOST_FUZZ_BUILD_DIR) holds three stand-ins that print what
libFuzzer prints, and `./dev fuzz --run-only` runs them: `planted` crashes on an input planted in
its corpus (an ASan report, the input saved, the final stats printed twice, as libFuzzer does after
a crash); `clean` runs its runs and finds nothing; `deliberate` reports what the probe before the
table expects. The run must end non-zero with the whole table, the planted crash a REPORT that names
its input, askhost's first frame in it and the log; the runs counted once per process and summed
over the processes; and no shell error on the way."""
import hashlib
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CLEAN_RUNS = 500  # per process, when no -runs= is given
CRASH_RUNS = 1046  # executed before the planted input's crash

# One stand-in for every target: what it does depends on its name (fuzz_NAME).
STAND_IN = r'''#!/usr/bin/env python3
import hashlib, os, sys
ROOT, CLEAN_RUNS, CRASH_RUNS = %(root)r, %(clean)d, %(crash)d
name = os.path.basename(sys.argv[0])[len("fuzz_"):]
flags = dict(a[1:].split("=", 1) for a in sys.argv[1:] if a.startswith("-") and "=" in a)
paths = [a for a in sys.argv[1:] if not a.startswith("-")]
err = sys.stderr

def stats(runs):
    err.write("stat::number_of_executed_units: %%d\nstat::average_exec_per_sec:     %%d\n"
              "stat::new_units_added:          0\nstat::slowest_unit_time_sec:    0\n"
              "stat::peak_rss_mb:              31\n" %% (runs, runs))

if name == "deliberate":  # the probe: a report for each deliberate bug, none for RapidJSON's
    if os.path.basename(paths[0]) == "rapidjson":
        sys.exit(0)
    err.write("../tests/fuzz/fuzz_deliberate.cpp:20:7: runtime error: deliberate\n")
    err.flush()
    # As the sanitizers end a run (abort_on_error): the shell must not say "Aborted" here. And, as
    # ASan does (disable_coredump), without a core file: none may be left where the test ran.
    import resource
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.abort()

inputs = []
for p in paths:
    if os.path.isdir(p):
        inputs += [os.path.join(p, f) for f in sorted(os.listdir(p))]
err.write("INFO: Seed: 1\nINFO: %%d files found in %%s\n" %% (len(inputs), paths[0]))
for path in inputs:
    data = open(path, "rb").read()
    if name == "planted" and b"PLANTED-CRASH" in data:
        build = os.path.join(ROOT, "build-fuzz")
        err.write("=================================================================\n"
                  "==4242==ERROR: AddressSanitizer: stack-use-after-return on address 0x7f3a2c400130 at pc 0x55 bp 0x7f sp 0x7f\n"
                  "READ of size 8 at 0x7f3a2c400130 thread T0\n"
                  "    #0 0x55d0c0 in std::deque<std::shared_ptr<askhost::Broker::Entry>, std::allocator<std::shared_ptr<askhost::Broker::Entry> > >::empty() const /usr/include/c++/12/bits/stl_deque.h:1466:22\n"
                  "    #1 0x55d0c1 in askhost::Broker::show_head() %%s/../host/core/broker.cpp:134:9\n"
                  "    #2 0x55d0c2 in LLVMFuzzerTestOneInput %%s/../tests/fuzz/fuzz_editor.cpp:99:8\n"
                  "    #3 0x55d0c3 in fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, unsigned long) (%%s/tests/fuzz/fuzz_planted+0x1234)\n"
                  "SUMMARY: AddressSanitizer: stack-use-after-return /usr/include/c++/12/bits/stl_deque.h:1466:22 in empty\n"
                  "==4242==ABORTING\n" %% (build, build, build))
        stats(CRASH_RUNS)
        saved = flags["artifact_prefix"] + "crash-" + hashlib.sha1(data).hexdigest()
        open(saved, "wb").write(data)
        err.write("MS: 0 ; base unit: 0000000000000000000000000000000000000000\n"
                  "artifact_prefix='%%s'; Test unit written to %%s\n" %% (flags["artifact_prefix"], saved))
        stats(CRASH_RUNS)
        sys.exit(1)
runs = int(flags.get("runs", CLEAN_RUNS))
err.write("Done %%d runs in 1 second(s)\n" %% runs)
stats(runs)
'''


def plant(directory, data):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, hashlib.sha1(data).hexdigest())
    with open(path, "wb") as f:
        f.write(data)
    return path


def run_dev(build, targets, args, jobs=1):
    env = dict(os.environ, ASKHOST_FUZZ_BUILD_DIR=build, ASKHOST_FUZZ_TARGETS=targets,
               ASKHOST_FUZZ_JOBS=str(jobs))
    return subprocess.run([os.path.join(ROOT, "dev"), "fuzz", "--run-only", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def rows(table):
    """target -> (runs, result and the indented lines under it)"""
    out, last = {}, None
    for line in table.splitlines()[1:]:
        m = re.match(r"^(\S+)\s+(\d+)\s+(\d+)\s+(.*)$", line)
        if m:
            last = m.group(1)
            out[last] = [int(m.group(2)), m.group(4)]
        elif last and line.startswith(" "):
            out[last][1] += "\n" + line.strip()
    return out


def check(p, build, want_runs, planted, failures, what):
    def fail(why):
        failures.append(f"{what}: {why}\n--- stdout\n{p.stdout}--- stderr\n{p.stderr[-3000:]}")
    if p.returncode == 0:
        return fail("the run passed over a planted crash")
    if re.search(r"syntax error|dev: line \d+|command not found|unbound variable", p.stderr):
        return fail("a shell error")
    table = open(os.path.join(build, "last-run.txt")).read()
    if table.strip() not in p.stdout:
        return fail("last-run.txt is not the table the run printed")
    got = rows(table)
    if set(got) != set(want_runs):
        return fail(f"the table has rows {sorted(got)}, not {sorted(want_runs)}")
    for target, runs in want_runs.items():
        if runs is not None and got[target][0] != runs:
            fail(f"{target} made {got[target][0]} runs by the table, not {runs}")
    if got["clean"][1] != "no report":
        fail(f"clean: {got['clean'][1]!r}")
    report = got["planted"][1]
    wanted = ["REPORT: ERROR: AddressSanitizer: stack-use-after-return",
              f"input: {planted} (saved as {build}/crashes/planted-crash-{os.path.basename(planted)})",
              "frame: askhost::Broker::show_head() host/core/broker.cpp:134:9"]
    for w in wanted:
        if w not in report:
            fail(f"the report does not say {w!r}: {report!r}")
    # The log of the process that found it: with two processes sharing the corpus, either may.
    if not re.search(r"log:   " + re.escape(build) + r"/fuzz-planted(\.\d+)?\.log", report):
        fail(f"the report names no log of the planted target: {report!r}")


def main():
    failures = []
    with tempfile.TemporaryDirectory() as build:
        os.makedirs(os.path.join(build, "tests", "fuzz"))
        for name in ("planted", "clean", "deliberate"):
            path = os.path.join(build, "tests", "fuzz", "fuzz_" + name)
            with open(path, "w") as f:
                f.write(STAND_IN % {"root": ROOT, "clean": CLEAN_RUNS, "crash": CRASH_RUNS})
            os.chmod(path, 0o755)
        plant(os.path.join(build, "corpus", "planted"), b"{}")
        planted = plant(os.path.join(build, "corpus", "planted"), b"R PLANTED-CRASH\n")
        plant(os.path.join(build, "corpus", "clean"), b"{}")

        # Every target for its seconds, one process each; the crashing one first: the table goes on.
        p = run_dev(build, "planted clean", ["1"])
        check(p, build, {"planted": CRASH_RUNS, "clean": CLEAN_RUNS}, planted, failures, "./dev fuzz 1")
        # A campaign: two processes per target, their runs summed (a crash stops both: no count).
        p = run_dev(build, "clean planted", ["--long", "1000"], jobs=2)
        check(p, build, {"planted": None, "clean": 1000}, planted, failures, "./dev fuzz --long 1000")
        if "minimising" in p.stderr:
            failures.append("the campaign minimised the corpus after a report")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("ok: a planted crash ends in a named REPORT, the table complete, the runs counted once")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
