#!/usr/bin/env python3
"""askhost's benchmarks: each compared program runs side by side, round after round, in one run;
the table shows medians over the rounds and the ratios. `./dev bench` builds and runs this.

  round trip   a scripted agent asks, a scripted editor answers at once: through askhost, over a
               direct pipe (the physical floor), and through a vscode-jsonrpc relay in Node
  MCP          start -> initialize -> tools/list -> tools/call with answers -> result: askhost mcp
               and the same tool on the official MCP TypeScript SDK; then the warm call: the same
               tools/call again and again in one session
  output       an agent prints many lines; askhost forwards them as agent/output; against cat
               (and cat piped into cat, a process in the middle that only copies)
  memory       askhost's peak RSS idle and with 1000 pending asks
  web          askhost-web's resident memory with 100 askhost mcp hosts waiting, and the time from an
               ask to the WebSocket message that shows it on the page (--only web)
  instructions askhost's own user-space instructions (valgrind's callgrind) per round trip, per MCP
               session and per MB of output: the same figure whatever else the machine is doing,
               so a before/after (--against) can be read on a busy machine

Nothing here is a test: no time is asserted anywhere.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


NO_RUNTIME_DIR = object()  # env(): XDG_RUNTIME_DIR left unset


def pct(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p))]


class Bench:
    def __init__(self, args):
        self.args = args
        b = os.path.abspath(args.build)
        self.askhost = os.path.join(b, "askhost")
        # Another askhost (an earlier commit, `./dev bench --against REV`) measured in the same rounds.
        self.baseline = os.path.abspath(args.baseline) if args.baseline else None
        self.base_name = f"askhost @{args.baseline_label or 'baseline'}"
        self.agent = os.path.join(b, "bench", "rt_agent")
        self.editor = os.path.join(b, "bench", "rt_editor")
        self.node = shutil.which("node") if os.path.isdir(os.path.join(HERE, "node_modules")) else None
        self.tmp = tempfile.mkdtemp(prefix="askhost-bench-")
        # askhost's journal lives on disk (a home directory), as it would for a person.
        self.state = os.path.join(b, "bench-state")
        os.makedirs(self.state, exist_ok=True)
        self.rows = []

    def env(self, state=None):
        e = dict(os.environ)
        if state is NO_RUNTIME_DIR:
            # ssh sessions, containers, agents that strip the environment (Codex): askhost's
            # sockets and registry fall back to /tmp/askhost-UID, on disk where /tmp is.
            e["XDG_STATE_HOME"] = self.state
            e.pop("XDG_RUNTIME_DIR", None)
        else:
            e["XDG_STATE_HOME"] = state or self.state
            e["XDG_RUNTIME_DIR"] = self.tmp
        return e

    def run(self, argv, env=None):
        p = subprocess.run(argv, capture_output=True, text=True, env=env or self.env(), cwd=self.tmp, timeout=600)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(argv[:6])}... exited {p.returncode}: {p.stderr[-400:]}")
        return p.stdout

    # ---- round trip ---------------------------------------------------------------------------
    def roundtrip(self):
        n, warm, rounds = self.args.roundtrips, 200, self.args.rounds
        out = os.path.join(self.tmp, "rt.txt")
        agent = [self.agent, "roundtrip", str(n), str(warm), out]
        programs = [("direct pipe (floor)", [self.editor, "direct", "--"] + agent, None),
                    ("askhost", [self.editor, "rpc", "--", self.askhost, "--stdio", "--"] + agent, None)]
        if self.baseline:
            programs.append((self.base_name, [self.editor, "rpc", "--", self.baseline, "--stdio", "--"] + agent, None))
        # A write on a question's path shows here: the runtime directory on disk.
        programs.append(("askhost, XDG_RUNTIME_DIR unset", programs[1][1], NO_RUNTIME_DIR))
        if self.baseline:
            programs.append((self.base_name + ", XDG_RUNTIME_DIR unset", programs[2][1], NO_RUNTIME_DIR))
        if os.path.isdir("/dev/shm"):
            shm = tempfile.mkdtemp(prefix="askhost-bench-state-", dir="/dev/shm")
            programs.append(("askhost, journal on tmpfs", programs[1][1], shm))
        if self.node:
            programs.append(("Node relay (vscode-jsonrpc)",
                             [self.editor, "rpc", "--", self.node, os.path.join(HERE, "relay.mjs"), "--"] + agent, None))
        results = {name: {"p50": [], "p99": []} for name, _, _ in programs}
        # Pinned to one CPU (--pin): agent, askhost and editor share it, so the figure is the work
        # done, not how the scheduler spreads three processes over idle cores.
        pin = ["taskset", "-c", str(self.args.pin)] if self.args.pin is not None and shutil.which("taskset") else []
        for _ in range(rounds):
            for name, argv, state in programs:
                self.run(pin + argv, env=self.env(state))
                with open(out) as f:
                    v = sorted(int(x) for x in f)
                results[name]["p50"].append(pct(v, 0.50) / 1000)
                results[name]["p99"].append(pct(v, 0.99) / 1000)
        med = {k: (statistics.median(r["p50"]), statistics.median(r["p99"])) for k, r in results.items()}
        floor = med["direct pipe (floor)"][0]
        ask = med["askhost"][0]
        print(f"\nQuestion round trip ({n} per round, {rounds} rounds; medians of each round's p50/p99"
              f"{'; pinned to CPU ' + str(self.args.pin) if pin else ''})")
        print(f"  {'program':32} {'p50 µs':>10} {'p99 µs':>10}  ratio")
        # What a program in the middle adds to the direct pipe: the part it is responsible for.
        ask_added = ask - floor
        for name, (p50, p99) in med.items():
            if name.startswith("direct"):
                ratio = "1.00x (floor)"
            elif name.startswith("Node"):
                added = p50 - floor
                ratio = (f"{p50 / floor:.2f}x floor; askhost is {p50 / ask:.1f}x faster" if p50 >= ask else
                         f"{p50 / floor:.2f}x floor; askhost is {ask / p50:.1f}x slower")
                if ask_added > 0:
                    ratio += f"; adds {added:.1f} µs to the pipe, askhost {ask_added:.1f} µs ({added / ask_added:.1f}x less)"
            elif name == self.base_name:
                ratio = f"{p50 / floor:.2f}x floor; {self.vs(p50, ask, lower_is_better=True)}"
            else:
                ratio = f"{p50 / floor:.2f}x floor"
            print(f"  {name:32} {p50:10.1f} {p99:10.1f}  {ratio}")
            self.rows.append(("round trip", name, f"{p50:.1f} µs", f"{p99:.1f} µs", ratio))

    # ---- MCP ----------------------------------------------------------------------------------
    def mcp(self):
        rounds = max(self.args.rounds * 2, 10)
        programs = []
        probe = subprocess.run([self.editor, "mcp", "--", self.askhost, "mcp"], capture_output=True, text=True,
                               env=self.env(), cwd=self.tmp, timeout=60)
        if probe.returncode == 0:
            programs.append(("askhost mcp", [self.editor, "mcp", "--", self.askhost, "mcp"]))
        else:
            print("\nMCP: askhost mcp is not available in this build; only the SDK server is measured")
        if self.baseline and probe.returncode == 0:
            programs.append((self.base_name + " mcp", [self.editor, "mcp", "--", self.baseline, "mcp"]))
        if self.node:
            programs.append(("MCP SDK server (Node)", [self.editor, "mcp", "--", self.node,
                                                        os.path.join(HERE, "mcp-sdk-server.mjs")]))
        if not programs:
            return
        # Pinned (--pin), client and server share one CPU: no wait for an idle CPU to wake (in this
        # VM about 50 µs a message, which unpinned makes a warm call 8 or 65 µs by where they land).
        pin = ["taskset", "-c", str(self.args.pin)] if self.args.pin is not None and shutil.which("taskset") else []
        times = {name: [] for name, _ in programs}
        for _ in range(rounds):
            for name, argv in programs:
                times[name].append(float(self.run(pin + argv).strip()) * 1000)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"\nMCP: start -> initialize -> tools/list -> tools/call -> result ({rounds} rounds, median"
              f"{'; pinned to CPU ' + str(self.args.pin) if pin else ''})")
        base = med.get("askhost mcp")
        for name, ms in med.items():
            if name == self.base_name + " mcp":
                ratio = self.vs(ms, base, lower_is_better=True)
            else:
                ratio = f"askhost is {ms / base:.0f}x faster" if base and name != "askhost mcp" else ""
            print(f"  {name:32} {ms:10.2f} ms  {ratio}")
            self.rows.append(("MCP call", name, f"{ms:.2f} ms", "", ratio))
        # Warm: the same client's next calls in one session, one at a time (the median of the
        # rounds' p50 and p99).
        warm = {name: [] for name, _ in programs}
        for _ in range(max(3, self.args.rounds // 2)):
            for name, argv in programs:
                cmd = pin + [self.editor, "mcpwarm", "1000"] + argv[2:]
                p50, p99 = (float(x) for x in self.run(cmd).split())
                warm[name].append((p50, p99))
        print("\nMCP warm call: tools/call with answers -> result, in one session (p50, p99)")
        base = statistics.median(p for p, _ in warm["askhost mcp"]) if "askhost mcp" in warm else None
        for name, figures in warm.items():
            p50 = statistics.median(p for p, _ in figures)
            p99 = statistics.median(q for _, q in figures)
            if name == self.base_name + " mcp":
                ratio = self.vs(p50, base, lower_is_better=True)
            else:
                ratio = f"askhost is {p50 / base:.0f}x faster" if base and name != "askhost mcp" else ""
            print(f"  {name:32} {p50:10.1f} {p99:10.1f} µs  {ratio}")
            self.rows.append(("MCP warm call", name, f"{p50:.1f} µs", f"{p99:.1f} µs", ratio))

    # ---- output -------------------------------------------------------------------------------
    def output(self):
        data = os.path.join(self.tmp, "output.txt")
        lines = self.args.output_mb * 1024 * 1024 // 100
        with open(data, "w") as f:
            chunk = "".join(f"agent output line {i:08d} " + "x" * 70 + "\n" for i in range(10000))
            for _ in range(lines // 10000):
                f.write(chunk)
        size = os.path.getsize(data)
        # cat piped into cat: a process in the middle that only copies, the floor for anything in between
        # (twice the pipe copies of cat alone).
        programs = [("cat", [self.editor, "raw", "--", "cat", data]),
                    ("cat piped into cat", [self.editor, "raw", "--", "sh", "-c", 'cat "$0" | cat', data]),
                    ("askhost -> agent/output", [self.editor, "drain", "--", self.askhost, "--stdio", "--", "cat", data])]
        if self.baseline:
            programs.append((self.base_name + " -> agent/output",
                             [self.editor, "drain", "--", self.baseline, "--stdio", "--", "cat", data]))
        # Pinned (--pin), the three processes share one CPU: the figure is their work, not how the
        # scheduler spreads them (unpinned, cat alone runs at 0.8 or 3 GB/s as its reader lands on
        # the other CPU or the same one).
        pin = ["taskset", "-c", str(self.args.pin)] if self.args.pin is not None and shutil.which("taskset") else []
        rates = {name: [] for name, _ in programs}
        for _ in range(max(3, self.args.rounds // 2)):
            for name, argv in programs:
                nbytes, secs = self.run(pin + argv).split()
                rates[name].append(size / float(secs) / 1e6)
        med = {k: statistics.median(v) for k, v in rates.items()}
        print(f"\nAgent output: {size / 1e6:.0f} MB in lines of 100 bytes, to one client (median MB/s"
              f"{'; pinned to CPU ' + str(self.args.pin) if pin else ''})")
        for name, mbs in med.items():
            ratio = f"{mbs / med['cat']:.2f}x cat"
            if name != "cat":
                ratio += f", {mbs / med['cat piped into cat']:.2f}x cat piped into cat"
            if name.startswith(self.base_name):
                ratio += "; " + self.vs(mbs, med["askhost -> agent/output"], lower_is_better=False)
            print(f"  {name:32} {mbs:10.1f} MB/s  {ratio}")
            self.rows.append(("agent output, pinned" if pin else "agent output", name, f"{mbs:.1f} MB/s", "", ratio))

    # ---- memory -------------------------------------------------------------------------------
    def memory(self):
        # Peak RSS counts the pages of askhost's program and libraries mapped from their files
        # (shared with every other process that maps them); the anonymous part is its own.
        binaries = [("askhost", self.askhost)] + ([(self.base_name, self.baseline)] if self.baseline else [])
        for label, n in (("idle", 0), ("1000 pending asks", 1000)):
            peaks = {}
            for name, binary in binaries:
                hwm, anon = [], []
                for _ in range(3):
                    out = self.run([self.editor, "hold", str(n), "--", binary, "--stdio", "--",
                                    self.agent, "pending", str(n)]).split()
                    hwm.append(int(out[0]) / 1024)
                    anon.append(int(out[2]) / 1024 if len(out) > 2 and out[2].isdigit() else 0)
                peaks[name] = m = statistics.median(hwm)
                own = statistics.median(anon)
                ratio = self.vs(m, peaks["askhost"], lower_is_better=True) if name != "askhost" else ""
                print(f"\nMemory, {label}, {name}: peak RSS {m:.1f} MB ({own:.1f} MB anonymous)  {ratio}")
                self.rows.append(("memory", f"{name}, {label}", f"{m:.1f} MB peak RSS ({own:.1f} MB anonymous)", "",
                                  ratio))

    # ---- web ----------------------------------------------------------------------------------
    def web_env(self, tmp):
        """askhost web and its hosts in folders of their own under tmp."""
        env = self.env(os.path.join(tmp, "state"))
        env["XDG_RUNTIME_DIR"] = os.path.join(tmp, "run")
        env["XDG_CONFIG_HOME"] = os.path.join(tmp, "config")
        for k in ("TMUX", "ASKHOST_SOCKET"):
            env.pop(k, None)  # no popup, no editor's host: each askhost mcp waits as a host of its own
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700)
        return env

    def web_rss(self, binary, hosts):
        """askhost-web's resident memory (kB: VmRSS, VmHWM) with `hosts` askhost mcp waiting, each a
        host of its own with one question, and how long the last host took to be connected."""
        tmp = tempfile.mkdtemp(prefix="web-", dir=self.tmp)
        env = self.web_env(tmp)
        web = subprocess.Popen([binary, "web"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=tmp,
                               start_new_session=True)
        mcps = []
        try:
            if not web.stdout.readline().startswith(b"http"):
                raise RuntimeError("askhost web printed no URL")
            call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "ask_user_question", "arguments": {"questions": [{
                    "question": "Which database should we use?", "header": "Database", "multiSelect": False,
                    "options": [{"label": "PostgreSQL", "description": "Relational"},
                                {"label": "SQLite", "description": "A file"}]}]}}}
            init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
            lines = b"".join(json.dumps(m).encode() + b"\n" for m in
                             (init, {"jsonrpc": "2.0", "method": "notifications/initialized"}, call))
            def sockets():
                fd = f"/proc/{web.pid}/fd"
                n = 0
                for name in os.listdir(fd):
                    try:
                        n += os.readlink(os.path.join(fd, name)).startswith("socket:")
                    except OSError:
                        pass
                return n
            base = sockets()
            for _ in range(hosts):
                p = subprocess.Popen([binary, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, env=env, cwd=tmp, start_new_session=True)
                p.stdin.write(lines)
                p.stdin.flush()
                mcps.append(p)
            # Connected to every host (one socket each), then a moment for their questions to arrive.
            deadline = time.time() + 120
            while sockets() < base + hosts and time.time() < deadline:
                time.sleep(0.05)
            if sockets() < base + hosts:
                raise RuntimeError(f"askhost web connected to {sockets() - base} of {hosts} hosts")
            time.sleep(1.0)
            status = {}
            with open(f"/proc/{web.pid}/status") as f:
                for line in f:
                    k, _, v = line.partition(":")
                    status[k] = v.split()
            return int(status["VmRSS"][0]), int(status["VmHWM"][0])
        finally:
            for p in mcps:
                p.kill()
            for p in mcps:
                p.wait()
            web.terminate()
            web.wait(timeout=15)
            shutil.rmtree(tmp, ignore_errors=True)

    def web(self):
        binaries = [(name, binary) for name, binary in
                    [("askhost", self.askhost)] + ([(self.base_name, self.baseline)] if self.baseline else [])
                    if os.path.exists(os.path.join(os.path.dirname(binary), "askhost-web"))]
        if not binaries or binaries[0][0] != "askhost":
            print("\nweb: askhost-web is not built; skipped")
            return
        hosts = self.args.web_hosts
        rss = {name: [] for name, _ in binaries}
        for _ in range(max(1, self.args.rounds // 2)):
            for name, binary in binaries:
                rss[name].append(self.web_rss(binary, hosts)[0] / 1024)
        print(f"\naskhost-web with {hosts} askhost mcp waiting (resident MB, median)")
        now = statistics.median(rss["askhost"])
        for name, values in rss.items():
            m = statistics.median(values)
            ratio = self.vs(m, now, lower_is_better=True) if name != "askhost" else ""
            print(f"  {name:32} {m:10.1f} MB  {ratio}")
            self.rows.append(("memory", f"askhost-web, {hosts} hosts waiting ({name})", f"{m:.1f} MB RSS", "", ratio))
        self.web_latency(binaries)

    def web_latency_run(self, binary, asks):
        """With askhost web running and a page's WebSocket connected: for each of `asks` askhost mcp
        sessions (each a host of its own, as with no editor), the ms from its first tools/call (its
        host starts with that ask, after the page) and from its second (a host the page watches
        already) to the `added` message on the WebSocket. Each question is answered on the page."""
        import sys
        sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
        from web_client import Web, WsClient
        tmp = tempfile.mkdtemp(prefix="web-ask-", dir=self.tmp)
        env = self.web_env(tmp)
        question = {"question": "Which database should we use?", "header": "Database", "multiSelect": False,
                    "options": [{"label": "PostgreSQL", "description": "Relational"},
                                {"label": "SQLite", "description": "A file"}]}
        answer = {"answered": True, "answers": [{"question": question["question"], "answer": "SQLite",
                                                 "selectedOption": "SQLite", "wasCustom": False}]}

        def line(msg):
            return json.dumps(dict(msg, jsonrpc="2.0")).encode() + b"\n"

        starts, known = [], []
        web = Web(binary, env=env, cwd=tmp)
        try:
            ws = WsClient(web, web.login())
            ws.until(lambda m: m["type"] == "snapshot", "the snapshot")
            for _ in range(asks):
                mcp = subprocess.Popen([binary, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, env=env, cwd=tmp, start_new_session=True)
                try:
                    mcp.stdin.write(line({"id": 1, "method": "initialize", "params": {
                        "protocolVersion": "2025-11-25", "capabilities": {},
                        "clientInfo": {"name": "bench", "version": "1"}}}))
                    mcp.stdin.write(line({"method": "notifications/initialized"}))
                    mcp.stdin.flush()
                    mcp.stdout.readline()
                    for rid, times in ((2, starts), (3, known)):
                        call = line({"id": rid, "method": "tools/call", "params": {
                            "name": "ask_user_question", "arguments": {"questions": [question]}}})
                        t0 = time.perf_counter()
                        mcp.stdin.write(call)
                        mcp.stdin.flush()
                        added = ws.until(lambda m: m["type"] == "added", "the question on the page")
                        times.append((time.perf_counter() - t0) * 1000)
                        key = added["ask"]["key"]
                        ws.send({"type": "answer", "key": key, "outcome": answer})
                        if json.loads(mcp.stdout.readline()).get("id") != rid:
                            raise RuntimeError("askhost mcp did not answer its tools/call")
                        ws.until(lambda m: m["type"] == "removed" and m["key"] == key, "the question to leave")
                finally:
                    mcp.stdin.close()  # its end: the host leaves the registry
                    try:
                        mcp.wait(timeout=30)
                    except subprocess.TimeoutExpired:
                        mcp.kill()
                        mcp.wait()
                    mcp.stdout.close()
            ws.close()
        finally:
            web.stop()
            shutil.rmtree(tmp, ignore_errors=True)
        return starts, known

    def web_latency(self, binaries):
        asks = max(20, self.args.rounds * 10)
        figures = {name: ([], []) for name, _ in binaries}
        for _ in range(2):  # the binaries alternate, in two halves
            for name, binary in binaries:
                starts, known = self.web_latency_run(binary, asks // 2)
                figures[name][0].extend(starts)
                figures[name][1].extend(known)
        print(f"\nAsk to page: an askhost mcp tools/call to the WebSocket's `added` ({asks} asks, p50 and p95)")
        for label, i in (("host the page watches", 1), ("host that starts with the ask", 0)):
            base = None
            for name, values in figures.items():
                v = sorted(values[i])
                p50, p95 = statistics.median(v), pct(v, 0.95)
                if name == "askhost":
                    base = p50
                ratio = self.vs(p50, base, lower_is_better=True) if name != "askhost" else ""
                print(f"  {name + ', ' + label:52} {p50:8.2f} {p95:8.2f} ms  {ratio}")
                self.rows.append(("web: ask to page", f"{name}, {label}", f"{p50:.2f} ms", f"{p95:.2f} ms (p95)",
                                  ratio))

    # ---- instructions -----------------------------------------------------------------------
    def callgrind(self, argv_before, binary, argv_after):
        """Instructions askhost executed (callgrind's Ir) in one run, its children untraced."""
        outdir = tempfile.mkdtemp(prefix="cg-", dir=self.tmp)
        self.run(argv_before + ["valgrind", "--tool=callgrind", "--trace-children=no",
                                f"--callgrind-out-file={outdir}/cg.%p", binary] + argv_after)
        totals = []
        for name in os.listdir(outdir):
            with open(os.path.join(outdir, name)) as f:
                for line in f:
                    if line.startswith(("summary:", "totals:")):
                        totals.append(int(line.split()[1]))
                        break
        shutil.rmtree(outdir, ignore_errors=True)
        if not totals:
            raise RuntimeError("callgrind wrote no totals")
        return max(totals)  # askhost itself; a forked child before its exec counts little

    def instructions(self):
        if not shutil.which("valgrind"):
            print("\ninstructions: valgrind is not installed (apt-get install valgrind); skipped")
            return
        binaries = [("askhost", self.askhost)] + ([(self.base_name, self.baseline)] if self.baseline else [])
        small, large = 100, 1100
        data = os.path.join(self.tmp, "output-10mb.txt")
        with open(data, "w") as f:
            f.write(("agent output line " + "x" * 81 + "\n") * 100000)
        mb = os.path.getsize(data) / 1e6
        figures = {}
        for name, binary in binaries:
            def rt(n):
                return self.callgrind([self.editor, "rpc", "--"], binary,
                                      ["--stdio", "--", self.agent, "roundtrip", str(n), "0", os.devnull])
            per_rt = (rt(large) - rt(small)) / (large - small)
            mcp = self.callgrind([self.editor, "mcp", "--"], binary, ["mcp"])
            idle = self.callgrind([self.editor, "drain", "--"], binary, ["--stdio", "--", "true"])
            out = (self.callgrind([self.editor, "drain", "--"], binary, ["--stdio", "--", "cat", data]) - idle) / mb
            figures[name] = (per_rt, mcp, out)
        print("\nInstructions (callgrind Ir, askhost's own user space; repeatable under load)")
        base = figures.get(self.base_name)
        for name, (per_rt, mcp, out) in figures.items():
            for label, value, i in (("per round trip", per_rt, 0), ("per MCP session", mcp, 1),
                                    ("per MB of output", out, 2)):
                ratio = ""
                if base and name == "askhost":
                    ratio = self.vs(base[i], value, lower_is_better=True)
                print(f"  {name:32} {label:18} {value / 1000:12.1f} k  {ratio}")
                self.rows.append(("instructions " + label, name, f"{value / 1000:.1f} k", "", ratio))

    @staticmethod
    def vs(base, now, lower_is_better):
        """How the current askhost (`now`) compares with the baseline's figure."""
        if not base or not now:
            return ""
        better = now < base if lower_is_better else now > base
        change = abs(now - base) / base * 100
        return f"this commit {change:.1f}% {'better' if better else 'worse'} than the baseline"

    def markdown(self):
        lines = ["| benchmark | program | median | p99 | ratio |", "| --- | --- | --- | --- | --- |"]
        for r in self.rows:
            lines.append("| " + " | ".join(r) + " |")
        return "\n".join(lines)


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0]
    return (f"{platform.system()} {platform.release()}, {os.cpu_count()} CPUs ({cpu}), "
            f"load average {load:.1f} at the start")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--roundtrips", type=int, default=2000)
    ap.add_argument("--pin", type=int, metavar="CPU", help="run the round trips, MCP and the output pinned to this CPU (taskset)")
    ap.add_argument("--output-mb", type=int, default=100)
    ap.add_argument("--web-hosts", type=int, default=100, help="askhost mcp hosts waiting for the web row")
    ap.add_argument("--only", choices=["roundtrip", "mcp", "output", "memory", "instructions", "web"], action="append")
    ap.add_argument("--markdown", help="also write the table as markdown to this file")
    ap.add_argument("--baseline", help="another askhost binary, measured in the same rounds (./dev bench --against)")
    ap.add_argument("--baseline-label", help="its name in the table (a commit)")
    args = ap.parse_args()
    b = Bench(args)
    print("machine:", machine())
    if not b.node:
        print("Node peers not installed (bench/node_modules): their rows are skipped")
    for part in args.only or ["roundtrip", "mcp", "output", "memory", "web", "instructions"]:
        getattr(b, part)()
    md = b.markdown()
    print("\n" + md)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"Machine: {machine()}\n\n{md}\n")
    shutil.rmtree(b.tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
