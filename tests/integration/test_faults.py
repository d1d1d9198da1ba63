"""Faults: the agent crashes, ignores SIGTERM or floods output while a question is open; an editor
vanishes; two clients answer at the same moment; askhost itself is SIGKILLed while journalling.
Each ends in the typed outcome the protocol names, with no zombie, no orphan, nothing answered lost."""
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

from harness import (host_socket, ASKHOST, DATABASE_Q, NAME_Q, Editor, Failure, Workdir, agent_pids, answer_of, ask_request,
                     case, check, equal, main, run, wait_for)


def responses(wd, record="record.jsonl"):
    return [r for r in wd.records(record) if r != "EOF"]


def shutdown(ed):
    rid = ed.request("shutdown")
    ed.result_of(rid)
    ed.notify("exit")
    return ed.exit_code()


def proc_state(pid):
    """'Z' for a zombie, another state letter for a live process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def children_of(pid):
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append((int(d), fields[0]))
    return out


_SANITIZED = []


def sanitized():
    """Whether the askhost under test is built with AddressSanitizer: its instrumented code calls
    __asan_init, whether the runtime is linked in (clang) or a shared libasan (gcc)."""
    if not _SANITIZED:
        with open(ASKHOST, "rb") as f:
            _SANITIZED.append(b"__asan_init" in f.read())
    return _SANITIZED[0]


def no_zombie_children(proc, what):
    zombies = [c for c, state in children_of(proc.pid) if state == "Z"]
    check(not zombies, f"{what}: askhost has zombie children {zombies}")


def gone(pids, what, timeout=10.0):
    wait_for(lambda: all(proc_state(p) in (None, "Z") for p in pids), timeout=timeout, what=what)


def editor_with(wd, steps, args=None, record="record.jsonl"):
    ed = Editor(wd, (args or []) + ["--"] + wd.agent(steps, record=record))
    ed.initialize()
    return ed


def flood_agent(wd, lines, line_len=100, before=None, after_recv=None):
    """A Python agent: optional request, `lines` lines of output as fast as it can, then reads a line."""
    script = wd.file("flood.py")
    with open(script, "w") as f:
        f.write(f"""import json, sys
before = json.loads({json.dumps(json.dumps(before))})
if before: print(json.dumps(before), flush=True)
w = sys.stdout.write
for i in range({lines}):
    w("line %08d %s\\n" % (i, "x" * {line_len}))
sys.stdout.flush()
if before:
    rec = open({json.dumps(wd.file('record.jsonl'))}, "a")
    rec.write(sys.stdin.readline()); rec.close()
print("flood done", flush=True)
""")
    return [sys.executable, script]


# ---- the agent -----------------------------------------------------------------------------------

@case
def agent_crash_mid_question_is_reaped_and_the_dialog_withdrawn():
    wd = Workdir()
    ed = editor_with(wd, [{"send": ask_request("r", [NAME_Q])}, {"sleep": 0.3}, {"signal": "SEGV"}])
    show = ed.method("ask/show")
    pids = agent_pids(wd.file("script1.json"))
    ed.method("$/cancelRequest", where=lambda m: m["params"]["id"] == show["id"])
    equal(ed.method("agent/exit")["params"], {"exitCode": None, "signal": signal.SIGSEGV}, "agent/exit")
    ed.method("ask/state", where=lambda m: m["params"]["state"] == "idle")
    # askhost lives on (--stdio): the crashed agent must already be reaped, not a zombie.
    for p in pids:
        equal(proc_state(p), None, f"agent {p} after its crash")
    no_zombie_children(ed.proc, "after the crash")
    equal(responses(wd), [], "nobody left to answer")
    equal(shutdown(ed), 0, "exit code")


@case
def agent_crash_mid_question_in_print_mode_exits_with_its_signal():
    wd = Workdir()
    p = subprocess.run([ASKHOST, "--print", "--"] + wd.agent([{"send": ask_request("r", [NAME_Q])},
                                                              {"signal": "KILL"}]),
                       capture_output=True, timeout=30, env=wd.env(), cwd=wd.path)
    equal(p.returncode, 128 + signal.SIGKILL, "exit status")


@case
def agent_ignoring_sigterm_is_killed_after_the_grace_on_agent_stop():
    wd = Workdir()
    ed = editor_with(wd, [{"ignore": "TERM"}, {"send": ask_request("r", [NAME_Q])}, {"sleep": 60}])
    show = ed.method("ask/show")
    pids = agent_pids(wd.file("script1.json"))
    check(pids, "agent running")
    start = time.monotonic()
    rid = ed.request("agent/stop")
    res = ed.result_of(rid, timeout=20)["result"]
    took = time.monotonic() - start
    equal(res, {"exitCode": None, "signal": signal.SIGKILL}, "agent/stop result")
    check(2.5 <= took < 10, f"SIGKILL after the 3 s grace, took {took:.1f}s")
    ed.method("$/cancelRequest", where=lambda m: m["params"]["id"] == show["id"])
    for p in pids:
        equal(proc_state(p), None, f"agent {p}")
    no_zombie_children(ed.proc, "after agent/stop")
    equal(shutdown(ed), 0, "exit code")


@case
def agent_flooding_output_while_a_question_is_open():
    wd = Workdir()
    n = 50000  # 5.5 MB: under the 16 MiB a slow client may have queued, so nothing may be dropped
    ed = Editor(wd, ["--"] + flood_agent(wd, n, before=ask_request("r", [NAME_Q])))
    ed.initialize()
    show = ed.method("ask/show", timeout=20)
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "calm", custom=True)]})
    text = []
    while True:
        m = ed.method("agent/output", timeout=60)
        text.append(m["params"]["text"])
        if "flood done" in m["params"]["text"]:
            break
    lines = "".join(text).splitlines()
    equal(len(lines), n + 1, "every line of output, none lost")
    check(all(lines[i].startswith("line %08d " % i) for i in range(0, n, 997)), "lines in order")
    ed.method("agent/exit", timeout=20)
    (r,) = responses(wd)
    equal((r["requestId"], r["answered"], r["answers"][0]["answer"]), ("r", True, "calm"), "the answer")
    equal(shutdown(ed), 0, "exit code")


@case
def flood_with_a_client_that_never_reads_stays_bounded():
    """A socket client that stops reading must neither stall the editor nor grow askhost unboundedly;
    what it missed is dropped (beyond 16 MiB queued) and a note says so when it reads again."""
    wd = Workdir()
    n = 250000  # 27 MB of output: more than the 16 MiB a client that does not read may have queued
    script = wd.file("flood.py")
    with open(script, "w") as f:
        f.write(f"""import os, sys, time
time.sleep(1)
w = sys.stdout.write
for i in range({n}):
    w("line %08d %s\\n" % (i, "y" * 100))
sys.stdout.flush()
print("flood done", flush=True)
""")
    ed = Editor(wd, ["--", sys.executable, script])
    ed.initialize()
    path = host_socket(wd)
    import socket
    from harness import FrameReader, encode_frame
    lazy = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    lazy.connect(path)
    lazy.sendall(encode_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}) +
                 encode_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    peak = 0
    exited = False
    while not exited:
        m = ed.wait(lambda m: m.get("method") in ("agent/output", "agent/exit"), timeout=90, what="output")
        exited = m["method"] == "agent/exit"
        with open(f"/proc/{ed.proc.pid}/status") as f:
            rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
        peak = max(peak, rss)
    # 16 MiB queued for the lazy client at most, plus the host itself. (Under AddressSanitizer freed
    # memory waits in its quarantine, so RSS says nothing there.)
    if not sanitized():
        check(peak < 200 * 1024, f"askhost RSS peaked at {peak} kB")
    # The lazy client reads at last: it is told how much it missed.
    fr = FrameReader()
    lazy.settimeout(20)
    note = None
    while note is None:
        data = lazy.recv(1 << 20)
        check(data, "the lazy client was disconnected before it was told what it missed")
        for m in fr.feed(data):
            if m.get("method") == "agent/output" and "bytes of agent output dropped" in m["params"]["text"]:
                note = m["params"]["text"]
    lazy.close()
    equal(shutdown(ed), 0, "exit code")


def slow_editor_gets_every_line(initialize_late):
    """The editor that started askhost falls behind (here: reads nothing for a while, or has not even
    initialized) while the agent prints 44 MB: askhost stops reading the agent instead of queueing
    without bound or dropping, and when the editor reads again every line arrives, in order."""
    from harness import FrameReader, encode_frame
    wd = Workdir()
    n = 400000  # 44 MB, far beyond what askhost queues for an editor before the agent has to wait
    agent = flood_agent(wd, n)
    p = subprocess.Popen([ASKHOST, "--stdio", "--"] + agent, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=open(wd.file("askhost-stderr.txt"), "wb"), env=wd.env(), cwd=wd.path)
    hello = (encode_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}) +
             encode_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    if not initialize_late:
        p.stdin.write(hello)
        p.stdin.flush()
    pids = wait_for(lambda: [c for c, _ in children_of(p.pid)], what="the agent")
    time.sleep(3)  # not reading: the agent fills what askhost queues, then waits on its pipe
    check(all(proc_state(pid) not in (None, "Z") for pid in pids), "the agent waits, it has not finished")
    with open(f"/proc/{p.pid}/status") as f:
        rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
    if not sanitized():
        check(rss < 64 * 1024, f"askhost holds what it queued, not the whole flood: RSS {rss} kB")
    if initialize_late:
        p.stdin.write(hello)
        p.stdin.flush()
    fr, text, exited = FrameReader(), [], False
    while not exited:
        data = os.read(p.stdout.fileno(), 1 << 20)
        check(data, "askhost closed its output before agent/exit")
        for m in fr.feed(data):
            if m.get("method") == "agent/output":
                check(m["params"]["stream"] == "stdout", f"nothing dropped: {m['params']['text'][:200]!r}")
                text.append(m["params"]["text"])
            exited = exited or m.get("method") == "agent/exit"
    lines = "".join(text).splitlines()
    equal(len(lines), n + 1, "every line of output, none lost")
    check(all(lines[i].startswith("line %08d " % i) for i in range(0, n, 4999)), "lines in order")
    equal(lines[-1], "flood done", "the last line")
    p.stdin.write(encode_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) +
                  encode_frame({"jsonrpc": "2.0", "method": "exit"}))
    p.stdin.close()
    equal(p.wait(timeout=20), 0, "exit code")


@case
def editor_that_stops_reading_loses_no_output_and_the_agent_waits():
    slow_editor_gets_every_line(initialize_late=False)


@case
def output_before_the_editor_initializes_is_kept_whole():
    slow_editor_gets_every_line(initialize_late=True)


# ---- the clients -----------------------------------------------------------------------------------

@case
def editor_vanishing_mid_question_leaves_no_orphan_and_no_zombie():
    wd = Workdir()
    ed = editor_with(wd, [{"send": ask_request("r", [DATABASE_Q])}, {"recv": 1}, {"sleep": 30}])
    ed.method("ask/show")
    pids = agent_pids(wd.file("script1.json"))
    check(pids, "agent running")
    ed.proc.stdin.close()
    equal(ed.exit_code(), 1, "askhost exit code")
    equal(responses(wd), [{"type": "ask_user_response", "requestId": "r", "answered": False,
                           "connectionLost": True}], "typed outcome")
    gone(pids, "the agent to be stopped")


@case
def two_clients_answer_at_the_same_moment():
    wd = Workdir()
    rounds = 10
    steps = [{"sleep": 0.5}]
    for i in range(rounds):
        steps += [{"send": ask_request(f"r{i}", [{"question": f"Race {i}?"}])}, {"recv": 1}]
    ed = editor_with(wd, steps)
    path = host_socket(wd)
    other = Editor(wd, sock_path=path)
    other.initialize(name="second")
    for i in range(rounds):
        q = f"Race {i}?"
        s1 = ed.method("ask/show", where=lambda m: m["params"]["questions"][0]["question"] == q)
        s2 = other.method("ask/show", where=lambda m: m["params"]["questions"][0]["question"] == q)
        go = threading.Barrier(2)

        def answer(client, show, who):
            go.wait()
            client.reply(show["id"], {"answered": True, "answers": [answer_of(q, who, custom=True)]})

        threads = [threading.Thread(target=answer, args=(ed, s1, f"editor {i}")),
                   threading.Thread(target=answer, args=(other, s2, f"socket {i}"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    ed.method("agent/exit", timeout=20)
    got = responses(wd)
    equal([r["requestId"] for r in got], [f"r{i}" for i in range(rounds)], "exactly one response per request")
    for i, r in enumerate(got):
        check(r["answers"][0]["answer"] in (f"editor {i}", f"socket {i}"), f"answer {i}: {r}")
    for client in (ed, other):
        client.method("ask/state", where=lambda m: m["params"]["state"] == "idle")
    other.close()
    equal(shutdown(ed), 0, "exit code")


# ---- askhost itself ----------------------------------------------------------------------------------

def journal_records(wd, kills):
    """The whole records of the session's journals, each journal held to its rule (docs/files.md,
    "Reading"; Journal::append in host/store/journal.cpp): a host killed while writing may leave
    its last record cut short, and the next host to append to that journal ends the torn line
    with a newline before its own records. So a torn line is a cut-off record (it starts with
    `{`) that ends its run: after it come only the file's end or the records of later runs (none
    of its own run's or an earlier run's), and there is at most one per kill."""
    d = wd.file("state/askhost/sessions")
    recs = []
    for name in os.listdir(d) if os.path.isdir(d) else []:
        with open(os.path.join(d, name)) as f:
            lines = f.read().split("\n")
        runs = []  # the runs in the order their records appear
        torn = []  # (line number, the run of the whole record before it)
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                check(line.startswith("{"), f"{name}: line {i + 1} is not a cut-off record: {line[:80]!r}")
                torn.append((i + 1, runs[-1] if runs else None))
                continue
            recs.append(rec)
            run = rec.get("run")
            if run not in runs:
                runs.append(run)
            check(run == runs[-1], f"{name}: line {i + 1}: run {run} writes again after run {runs[-1]}")
            for line_no, before in torn:
                check(run != before, f"{name}: line {line_no} is torn, yet its run {before} wrote line {i + 1}")
        check(len(torn) <= kills, f"{name}: {len(torn)} torn lines ({[n for n, _ in torn]}) after {kills} kills")
    return recs


@case
def sigkill_while_journalling_loses_no_answer_and_leaves_no_orphan():
    seed = int(os.environ.get("ASKHOST_TEST_SEED") or time.time_ns() % 2**32)
    try:
        kill_while_journalling(random.Random(seed))
    except Failure as f:
        raise Failure(f"{f}\n(seed {seed}: ASKHOST_TEST_SEED={seed} runs the case with the same kill delays)")


def kill_while_journalling(rng):
    """Four hosts in turn on one session, each SIGKILLed while it journals the answers it hands
    back, at a random moment; the journal it leaves is checked against its rule after each kill."""
    wd = Workdir()
    tears = []  # the records torn as a kill mid-write tears them
    for k in range(4):
        record = f"kill{k}.jsonl"
        steps = []
        for i in range(300):
            steps += [{"send": ask_request(f"r{i}", [{"question": f"Kill {k} question {i}?"}])}, {"recv": 1}]
        steps.append({"sleep": 60})
        ed = editor_with(wd, steps, args=["--session", "killed"], record=record)
        stop = threading.Event()

        def answer_all():
            while not stop.is_set():
                try:
                    s = ed.method("ask/show", timeout=0.2)
                except Failure:
                    continue
                q = s["params"]["questions"][0]["question"]
                try:
                    ed.reply(s["id"], {"answered": True, "answers": [answer_of(q, "yes " + q, custom=True)]})
                except OSError:
                    return  # askhost was killed

        t = threading.Thread(target=answer_all, daemon=True)
        t.start()
        wait_for(lambda: len(responses(wd, record)) >= 3, timeout=20, what="a few answers")
        time.sleep(rng.uniform(0.0, 0.5))
        pids = agent_pids(wd.file(f"script{k + 1}.json"))
        ed.proc.send_signal(signal.SIGKILL)
        ed.proc.wait(timeout=10)
        stop.set()
        t.join()
        got = responses(wd, record)
        recs = journal_records(wd, kills=k + 1)
        answered = {r["questions"][0]["question"] for r in recs
                    if r.get("type") == "outcome" and r.get("outcome") == "answered"}
        for r in got:
            q = f"Kill {k} question {r['requestId'][1:]}?"
            equal(r["answers"][0]["answer"], "yes " + q, "the answer handed back")
            check(q in answered, f"kill {k}: {q!r} was handed to the agent but is not in the journal")
        # The agent must not outlive askhost (it would be an orphan, adopted by init).
        gone(pids, "the agent to end with askhost", timeout=10)
        for cut in tears:  # ended by the next host, which wrote on a line of its own after it
            check(cut in journal_lines(wd), f"kill {k}: the torn record {cut[:60]!r}... is not a line of its own")
        if k % 2 == 0:
            # A kill lands inside a record's write only now and then: tear the killed host's
            # last record as such a kill does, so that every run sees the next host end it.
            tears.append(tear_last_record(wd, rng))
    # askhost's own reader skips each torn line with a warning that names it.
    r = run(["history", "--session", "killed", "--json"], wd)
    equal(r.returncode, 0, "askhost history's exit code")
    warnings = json.loads(r.stdout)["warnings"]
    for n in [i + 1 for i, line in enumerate(journal_lines(wd)) if line in tears]:
        check(f"line {n}: torn record (askhost stopped while writing it), skipped" in warnings,
              f"askhost history names the torn line {n}: {warnings}")
    check(all("torn" in w for w in warnings), f"only torn lines are skipped: {warnings}")


def journal_lines(wd):
    with open(wd.file("state/askhost/sessions/killed.jsonl")) as f:
        return f.read().split("\n")


def tear_last_record(wd, rng):
    """Cuts the journal's last record short (its newline and a random part of its end gone), as a
    kill in the middle of its write leaves it; returns what is left of it."""
    path = wd.file("state/askhost/sessions/killed.jsonl")
    with open(path, "rb") as f:
        data = f.read()
    check(data.endswith(b"\n"), "the journal ends with a whole record before the tear")
    start = data.rfind(b"\n", 0, len(data) - 1) + 1
    cut = start + rng.randint(1, len(data) - 1 - start - 1)
    with open(path, "r+b") as f:
        f.truncate(cut)
    return data[start:cut].decode()


@case
def sigkill_of_askhost_while_its_agent_is_busy_leaves_no_orphan():
    """An agent that is not reading (working, sleeping) would outlive a SIGKILLed askhost."""
    wd = Workdir()
    ed = editor_with(wd, [{"send": ask_request("r", [NAME_Q])}, {"recv": 1}, {"sleep": 60}])
    show = ed.method("ask/show")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "x", custom=True)]})
    wait_for(lambda: responses(wd), what="the answer")
    pids = agent_pids(wd.file("script1.json"))
    check(pids, "agent running (asleep)")
    ed.proc.send_signal(signal.SIGKILL)
    ed.proc.wait(timeout=10)
    gone(pids, "the agent to end with askhost", timeout=10)


if __name__ == "__main__":
    raise SystemExit(main())
