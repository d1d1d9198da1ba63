#!/usr/bin/env python3
"""Agents askhost did not start find the editor's standing host by workspace: the registry, the
one lookup (askhost hosts), askhost mcp asking through it, elicitation, and askhost mcp waiting
as a host of its own until someone answers."""
import json
import os
import signal
import stat
import subprocess
import sys
import time

from harness import (ASKHOST, DATABASE_Q, FEATURES_Q, Editor, McpClient, Tmux, Workdir, case, check, equal, strict,
                     main, wait_for)



def ws(wd, *parts):
    path = os.path.join(wd.path, "ws", *parts)
    os.makedirs(path, exist_ok=True)
    return os.path.realpath(path)


def hosts(wd, cwd):
    out = subprocess.run([ASKHOST, "hosts", "--json"], cwd=cwd, env=wd.env(), capture_output=True, check=True)
    return json.loads(out.stdout)


def standing(wd, folders, name="test-editor"):
    """An editor's standing host: askhost --stdio with no agent, given its workspace folders."""
    ed = Editor(wd)
    res = ed.initialize(name=name, folders=folders)
    sock = res["result"]["socket"]
    # Registered once the record names the folders.
    wait_for(lambda: any(h["socket"] == sock and h["workspaceFolders"] for h in hosts(wd, wd.path)["hosts"]),
             what="the host's registry record")
    return ed, sock


def until(mcp, pred, what, timeout=10.0):
    """Reads askhost mcp's lines until one matches; returns it and what came before."""
    before = []
    while True:
        msg = mcp.read(timeout)
        if pred(msg):
            return msg, before
        before.append(msg)


def answer_show(ed, show, label):
    q = show["params"]["questions"][0]["question"]
    ed.reply(show["id"], {"answered": True, "answers": [{"question": q, "answer": label, "selectedOption": label,
                                                         "wasCustom": False}]})


def answer(ed, label, where=None):
    show = ed.method("ask/show", where=where)
    answer_show(ed, show, label)
    return show


@case
def standing_host_registers_its_workspace_and_leaves_at_exit():
    wd = Workdir()
    folder = ws(wd)
    ed, sock = standing(wd, [folder], name="Neovim")
    listing = hosts(wd, ws(wd, "src", "deep"))
    equal(listing["chosen"], sock, "the host chosen for a folder inside the workspace")
    rec = [h for h in listing["hosts"] if h["socket"] == sock][0]
    equal(rec["workspaceFolders"][0]["path"], folder, "workspace folder")
    equal((rec["client"]["name"], rec["kind"]), ("Neovim", "editor"), "client and kind")
    record_file = os.path.join(os.path.dirname(sock), "host-%d.json" % rec["pid"])
    equal(stat.S_IMODE(os.stat(record_file).st_mode), 0o600, "record mode")
    equal(stat.S_IMODE(os.stat(os.path.dirname(sock)).st_mode), 0o700, "registry directory mode")
    equal(hosts(wd, wd.path)["chosen"], None, "no host for a folder outside the workspace")
    ed.request("shutdown")
    ed.notify("exit")
    equal(ed.exit_code(), 0, "exit code")
    check(not os.path.exists(record_file), "the record is removed at exit")
    equal(hosts(wd, folder)["hosts"], [], "registry after exit")


@case
def workspace_folders_follow_the_editor():
    wd = Workdir()
    a, b = ws(wd, "a"), ws(wd, "b")
    ed, sock = standing(wd, [a])
    ed.notify("workspace/didChangeWorkspaceFolders",
              {"event": {"added": [{"uri": "file://" + b, "name": "b"}], "removed": [{"uri": "file://" + a, "name": "a"}]}})
    wait_for(lambda: hosts(wd, b)["chosen"] == sock, what="the host chosen for the added folder")
    equal(hosts(wd, a)["chosen"], None, "the removed folder has no host")


@case
def nested_workspaces_route_by_depth():
    wd = Workdir()
    outer_ed, outer = standing(wd, [ws(wd)], name="outer")
    inner_ed, inner = standing(wd, [ws(wd, "inner")], name="inner")
    equal(hosts(wd, ws(wd, "inner", "x"))["chosen"], inner, "deepest folder wins")
    equal(hosts(wd, ws(wd, "other"))["chosen"], outer, "outer folder elsewhere")
    # An MCP agent in its own terminal, in a subfolder of the inner workspace, with no ASKHOST_SOCKET.
    mcp = McpClient(wd, cwd=ws(wd, "inner", "x"))
    mcp.initialize(name="codex-mcp-client")
    rid = mcp.call({"questions": [strict(DATABASE_Q)]})
    show = answer(inner_ed, "SQLite")
    p = show["params"]
    equal((p["route"], p["agent"], p["client"], p["cwd"]), ("mcp", "codex", "codex-mcp-client", ws(wd, "inner", "x")),
          "route, agent, client, cwd")
    equal(p["who"], "codex · MCP", "who asks, as every face names it (tests/text/who_asks.json)")
    res = mcp.reply_to(rid)["result"]
    equal(res["structuredContent"]["answers"], {DATABASE_Q["question"]: "SQLite"}, "answers")
    check(not any(m.get("method") == "ask/show" for m in outer_ed.seen), "the outer host was not asked")
    mcp.close()


@case
def dead_and_foreign_records_are_ignored():
    wd = Workdir()
    live_ed, live = standing(wd, [ws(wd)])
    reg = os.path.dirname(live)
    done = subprocess.run(["true"])  # a pid that no longer runs
    dead = subprocess.Popen(["true"])
    dead.wait()
    record = {"version": 1, "pid": dead.pid, "socket": reg + "/host-%d.sock" % dead.pid, "kind": "editor",
              "workspaceFolders": [{"uri": "file://" + ws(wd, "deeper"), "name": "deeper"}],
              "client": {"name": "ghost"}, "startMs": 1}
    dead_file = os.path.join(reg, "host-%d.json" % dead.pid)
    with open(dead_file, "w") as f:
        json.dump(record, f)
    os.chmod(dead_file, 0o600)
    # Another user's record (a live pid, so only its owner rules it out), and one readable by all.
    foreign_file = os.path.join(reg, "host-1.json")
    with open(foreign_file, "w") as f:
        json.dump(dict(record, pid=1, socket=reg + "/host-1.sock"), f)
    os.chmod(foreign_file, 0o600)
    if os.geteuid() == 0:
        os.chown(foreign_file, 65534, 65534)
    else:
        os.chmod(foreign_file, 0o644)
    listing = hosts(wd, ws(wd, "deeper"))
    equal([h["socket"] for h in listing["hosts"]], [live], "only the live host of this user")
    equal(listing["chosen"], live, "chosen")
    check(not os.path.exists(dead_file), "the dead host's record is cleaned")
    check(os.path.exists(foreign_file), "another user's record is left alone")
    text = subprocess.run([ASKHOST, "hosts"], cwd=ws(wd, "deeper"), env=wd.env(), capture_output=True, text=True).stdout
    check("skipped " + foreign_file in text, "askhost hosts says what it skipped: " + text)
    del done


@case
def hostile_records_neither_drive_the_terminal_nor_overflow_the_count():
    """Issue 20: records are files any process of this user may write. Names and folders with
    escape sequences are shown as text by askhost hosts and status; two hosts each claiming
    2147483647 waiting questions add up (an int once overflowed)."""
    wd = Workdir()
    live_ed, live = standing(wd, [ws(wd)])
    reg = os.path.dirname(live)
    sleepers = [subprocess.Popen(["sleep", "60"]) for _ in range(2)]
    try:
        for p in sleepers:
            record = {"version": 1, "pid": p.pid, "socket": reg + "/host-%d.sock" % p.pid,
                      "kind": "mcp\u001b]0;owned\u0007", "client": {"name": "\u001b[31mred"},
                      "workspaceFolders": [{"path": "/srv/\u001b[2J\u009b31m"}],
                      "startMs": 1, "waiting": 2147483647, "waitingSince": -9223372036854775808}
            path = os.path.join(reg, "host-%d.json" % p.pid)
            with open(path, "w") as f:
                json.dump(record, f)
            os.chmod(path, 0o600)
        for args in (["status"], ["status", "--tmux"], ["hosts"]):
            out = subprocess.run([ASKHOST] + args, cwd=ws(wd), env=wd.env(), capture_output=True).stdout
            check(b"\x1b" not in out and b"\xc2\x9b" not in out and b"\x07" not in out,
                  f"askhost {' '.join(args)} writes no control sequence: {out!r}")
        out = subprocess.run([ASKHOST, "status"], cwd=ws(wd), env=wd.env(), capture_output=True, text=True).stdout
        check(out.startswith("4294967294 questions wait"), f"the sum: {out!r}")
        got = json.loads(subprocess.run([ASKHOST, "status", "--json"], cwd=ws(wd), env=wd.env(),
                                        capture_output=True, text=True).stdout)
        equal(got["waiting"], 4294967294, "the sum in --json")
        equal(sorted(h["kind"] for h in got["hosts"]), ["mcp\u001b]0;owned\u0007"] * 2, "JSON keeps the text as it is")
    finally:
        for p in sleepers:
            p.kill()
            p.wait()


@case
def mcp_without_a_host_waits_and_an_attached_client_answers():
    wd = Workdir()
    folder = ws(wd, "proj")
    mcp = McpClient(wd, cwd=folder, args=["--progress-interval", "0.1"])
    mcp.initialize(name="codex-mcp-client")
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, meta={"progressToken": 7})
    # It waits as a host of its own, registered for its folder: what `askhost attach` there finds.
    sock = wait_for(lambda: hosts(wd, folder)["hosts"], what="askhost mcp's own host")[0]
    equal((sock["kind"], sock["workspaceFolders"][0]["path"]), ("mcp", folder), "kind and folder")
    equal(hosts(wd, folder)["chosen"], None, "an agent's stand-in is no host for other agents")
    equal(hosts(wd, folder)["attach"], sock["socket"], "but askhost attach finds it")
    # Progress while it waits, on the call's token.
    progress, _ = until(mcp, lambda m: m.get("method") == "notifications/progress", "progress")
    equal(progress["params"]["progressToken"], 7, "progress token")
    # The pending-questions file keeps the record (written off the host's loop: wait for it).
    pending = os.path.join(folder, ".askhost", "pending-questions.json")
    wait_for(lambda: os.path.exists(pending), what="the pending record")
    with open(pending) as f:
        equal([q["question"] for q in json.load(f)["questions"]], [DATABASE_Q["question"]], "pending record")
    # A client that leaves without answering does not end the question.
    first = Editor(wd, sock_path=sock["socket"])
    first.initialize(name="askhost attach")
    first.method("ask/show")
    first.sock.close()
    second = Editor(wd, sock_path=sock["socket"])
    second.initialize(name="askhost attach")
    answer(second, "SQLite")
    res, _ = until(mcp, lambda m: m.get("id") == rid, "the tool result")
    equal(res["result"]["structuredContent"]["answers"], {DATABASE_Q["question"]: "SQLite"}, "answers")
    wait_for(lambda: not os.path.exists(pending), what="the record leaving the pending file once answered")
    mcp.close()


@case
def mcp_waiting_is_answered_with_askhost_answer():
    wd = Workdir()
    folder = ws(wd, "proj")
    mcp = McpClient(wd, cwd=folder)
    mcp.initialize(name="codex-mcp-client")
    rid = mcp.call({"questions": [strict(DATABASE_Q), strict(FEATURES_Q)]})
    pending = os.path.join(folder, ".askhost", "pending-questions.json")
    wait_for(lambda: os.path.exists(pending), what="the pending record")
    out = subprocess.run([ASKHOST, "answer", '[2, [1, 3]]'], cwd=folder, env=wd.env(), capture_output=True, text=True)
    equal(out.returncode, 0, "askhost answer: " + out.stderr)
    res = mcp.reply_to(rid, timeout=15)["result"]
    equal(res["structuredContent"]["answers"], {DATABASE_Q["question"]: "SQLite",
                                                FEATURES_Q["question"]: "Authentication, Admin Dashboard"}, "answers")
    check(not os.path.exists(pending), "the answered entries leave the file")
    mcp.close()


@case
def mcp_that_ends_while_its_question_waits_takes_its_record_out_of_the_file():
    # Two agents' askhost mcp wait in one folder, both recorded in its pending file (written off
    # their loops, each under the folder's lock); what each has queued is written before it ends.
    wd = Workdir()
    folder = ws(wd, "proj")
    pending = os.path.join(folder, ".askhost", "pending-questions.json")

    def waiting():
        if not os.path.exists(pending):
            return []
        with open(pending) as f:
            return sorted(q["question"] for q in json.load(f)["questions"])

    first = McpClient(wd, cwd=folder)
    first.initialize(name="codex-mcp-client")
    first.call({"questions": [strict(DATABASE_Q)]})
    second = McpClient(wd, cwd=folder)
    second.initialize(name="codex-mcp-client")
    second.call({"questions": [strict(FEATURES_Q)]})
    both = sorted([DATABASE_Q["question"], FEATURES_Q["question"]])
    wait_for(lambda: waiting() == both, what="both questions in the pending file")
    # A signal: the first one's entries leave the file by the time the process is gone.
    first.proc.send_signal(signal.SIGTERM)
    first.proc.wait(timeout=10)
    equal(waiting(), [FEATURES_Q["question"]], "the other agent's question stays")
    # The end of its input: the same for the second.
    equal(second.close(), 0, "askhost mcp exits at the end of its input")
    check(not os.path.exists(pending), "no question left: no file")


@case
def mcp_waiting_asks_an_editor_that_opens_the_workspace_later():
    wd = Workdir()
    folder = ws(wd, "proj")
    mcp = McpClient(wd, cwd=ws(wd, "proj", "sub"))
    mcp.initialize(name="gemini-cli-mcp-client")
    rid = mcp.call({"questions": [strict(FEATURES_Q)]})
    wait_for(lambda: hosts(wd, folder)["hosts"], what="askhost mcp's own host")
    ed, _ = standing(wd, [folder])
    show = ed.method("ask/show", timeout=15)
    equal((show["params"]["route"], show["params"]["agent"]), ("mcp", "gemini"), "route and agent")
    q = show["params"]["questions"][0]
    ed.reply(show["id"], {"answered": True, "answers": [{"question": q["question"], "answer": ["Authentication", "REST API"],
                                                         "wasCustom": False}]})
    res = mcp.reply_to(rid, timeout=15)["result"]
    equal(res["structuredContent"]["answers"], {FEATURES_Q["question"]: "Authentication, REST API"}, "answers")
    mcp.close()


def elicitation_session(wd, reply):
    mcp = McpClient(wd, cwd=ws(wd, "proj"))
    mcp.initialize(caps={"elicitation": {}}, name="claude-code")
    rid = mcp.call({"questions": [strict(DATABASE_Q), strict(FEATURES_Q)]})
    req, _ = until(mcp, lambda m: m.get("method") == "elicitation/create", "elicitation/create")
    time.sleep(1.5)  # as long as a person looks at the form: a reply sooner is no person's
    mcp.send({"jsonrpc": "2.0", "id": req["id"], "result": reply})
    res = mcp.reply_to(rid)["result"]
    mcp.close()
    return req["params"], res


@case
def elicitation_asks_in_the_clients_own_form():
    wd = Workdir()
    params, res = elicitation_session(wd, {"action": "accept", "content": {
        "q1": "Other (type below)", "q1_other": "DuckDB", "q2": ["Authentication", "REST API"]}})
    schema = params["requestedSchema"]["properties"]
    equal([o["const"] for o in schema["q1"]["oneOf"]],
          ["PostgreSQL (Recommended)", "SQLite", "MongoDB", "Other (type below)"], "single-select choices")
    equal(schema["q2"]["items"]["enum"], ["Authentication", "REST API", "Admin Dashboard"], "multi-select items")
    equal(schema["q1_other"]["type"], "string", "free text for Other")
    equal(res["structuredContent"]["answers"], {DATABASE_Q["question"]: "DuckDB",
                                                FEATURES_Q["question"]: "Authentication, REST API"}, "answers")


@case
def an_instant_decline_is_no_answer_and_the_question_waits():
    """codex exec, approval "never" and claude -p refuse the form within milliseconds."""
    wd = Workdir()
    folder = ws(wd, "proj")
    mcp = McpClient(wd, cwd=folder)
    mcp.initialize(caps={"elicitation": {"form": {}}}, name="codex-mcp-client")
    rid = mcp.call({"questions": [strict(DATABASE_Q)]})
    req, _ = until(mcp, lambda m: m.get("method") == "elicitation/create", "elicitation/create")
    mcp.send({"jsonrpc": "2.0", "id": req["id"], "result": {"action": "decline"}})
    own = wait_for(lambda: hosts(wd, folder)["hosts"], what="askhost mcp waiting as a host")[0]
    ed = Editor(wd, sock_path=own["socket"])
    ed.initialize(name="askhost attach")
    answer(ed, "MongoDB")
    res, _ = until(mcp, lambda m: m.get("id") == rid, "the tool result")
    equal(res["result"]["structuredContent"]["answers"], {DATABASE_Q["question"]: "MongoDB"}, "answers")
    mcp.close()


@case
def elicitation_declined_is_a_cancel():
    wd = Workdir()
    _, res = elicitation_session(wd, {"action": "decline"})
    check(res.get("isError") is True, "a declined form is no answer")
    check(res["content"][0]["text"].startswith("User declined to answer questions"), res["content"][0]["text"])


def status(wd, *flags):
    # The timeout only catches a hang: status reads files and never waits for a host.
    out = subprocess.run([ASKHOST, "status", *flags], env=wd.env(), capture_output=True, text=True, timeout=10)
    equal(out.returncode, 0, "askhost status: " + out.stderr)
    return json.loads(out.stdout) if "--json" in flags else out.stdout


@case
def status_counts_what_waits_in_every_host_even_a_stopped_one():
    wd = Workdir()
    equal(status(wd, "--tmux"), "\n", "nothing waits: an empty status line")
    ed, _ = standing(wd, [ws(wd, "a")])
    first = McpClient(wd, cwd=ws(wd, "a"))
    first.initialize(name="codex-mcp-client")
    r1 = first.call({"questions": [strict(DATABASE_Q)]})
    show = ed.method("ask/show")
    second = McpClient(wd, cwd=ws(wd, "b"))  # no host for b: it waits on its own
    second.initialize(name="gemini-cli-mcp-client")
    second.call({"questions": [strict(FEATURES_Q)]})
    got = wait_for(lambda: (lambda s: s if s["waiting"] == 2 else None)(status(wd, "--json")), what="2 waiting")
    equal(sorted((h["kind"], h["waiting"]) for h in got["hosts"]), [("editor", 1), ("mcp", 1)], "per host")
    equal(status(wd, "--tmux"), "? 2 waiting\n", "tmux status line")
    check("2 questions wait" in status(wd), "plain text")
    # A host that stopped answering (SIGSTOP) cannot hold status up: it reads the registry only.
    own = [h for h in got["hosts"] if h["kind"] == "mcp"][0]
    os.kill(own["pid"], signal.SIGSTOP)
    try:
        equal(status(wd, "--json")["waiting"], 2, "count with a stopped host")
    finally:
        os.kill(own["pid"], signal.SIGCONT)
    answer_show(ed, show, "SQLite")
    first.reply_to(r1)
    wait_for(lambda: status(wd, "--json")["waiting"] == 1, what="the count to drop")


@case
def status_lists_the_oldest_waiting_question_first():
    """askhost status says `attach --next` answers the oldest: its lines are in that order."""
    wd = Workdir()
    clients, pids = [], []
    third = dict(DATABASE_Q, question="Which cache should we use?", header="Cache")
    for folder, q in (("a", DATABASE_Q), ("b", FEATURES_Q), ("c", third)):
        c = McpClient(wd, cwd=ws(wd, folder))
        c.initialize(name="codex-mcp-client")
        c.call({"questions": [strict(q)]})
        n = len(clients) + 1
        got = wait_for(lambda: (lambda s: s if s["waiting"] == n else None)(status(wd, "--json")),
                       what=f"{n} waiting")
        pids += [h["pid"] for h in got["hosts"] if h["pid"] not in pids]
        clients.append(c)
        time.sleep(0.05)  # a later waitingSince for the next
    lines = [l for l in status(wd).splitlines() if l.startswith("  ")]
    equal([int(l.split(" in pid ")[1].split()[0]) for l in lines], pids, "oldest first:\n" + "\n".join(lines))
    for c in clients:
        c.close()


@case
def attach_next_answers_the_oldest_waiting_question_and_ends():
    wd = Workdir()
    older = McpClient(wd, cwd=ws(wd, "a"))
    older.initialize(name="codex-mcp-client")
    r1 = older.call({"questions": [strict(DATABASE_Q)]})
    wait_for(lambda: status(wd, "--json")["waiting"] == 1, what="the first question waiting")
    time.sleep(0.05)  # a later waitingSince for the second
    newer = McpClient(wd, cwd=ws(wd, "b"))
    newer.initialize(name="codex-mcp-client")
    newer.call({"questions": [strict(FEATURES_Q)]})
    wait_for(lambda: status(wd, "--json")["waiting"] == 2, what="both waiting")
    t = Tmux(wd, [ASKHOST, "attach", "--next"])
    try:
        t.wait_screen("Which database should we use?")
        t.keys("2")  # SQLite
        res, _ = until(older, lambda m: m.get("id") == r1, "the older call's result")
        equal(res["result"]["structuredContent"]["answers"], {DATABASE_Q["question"]: "SQLite"}, "answers")
        equal(t.exit_status(), 0, "attach --next ends once nothing waits in that host")
        # The registry's count is coalesced, at most a quarter of a second behind (docs/protocol.md).
        wait_for(lambda: status(wd, "--json")["waiting"] == 1, timeout=2, what="the newer question still waiting alone")
    finally:
        t.kill()
    older.close()
    newer.close()


if __name__ == "__main__":
    sys.exit(main())
