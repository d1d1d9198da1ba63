"""`askhost mcp` through the real binary: an MCP client on its stdio, the host it asks through
(askhost --stdio with a scripted editor), and the no-host fallback (the pending-questions file)."""
import json
import os
import queue
import shutil
import subprocess

from harness import (host_socket, McpClient, Skip, strict, ASKHOST, DATABASE_Q, Failure, FEATURES_Q, Editor, Tmux, Workdir, answer_of, case, check, equal,
                     main, read_records, shlex_quote, wait_for)

MODEL_TAIL = " You can now continue with the user's answers in mind."


def host(wd):
    """askhost --stdio with no agent, a scripted editor answering, and its socket path."""
    ed = Editor(wd)
    ed.initialize()
    path = host_socket(wd)
    return ed, path


def mcp_through_host():
    """A host (host()) and an initialized `askhost mcp` that asks through it: (wd, ed, mcp)."""
    wd = Workdir()
    ed, sock = host(wd)
    mcp = McpClient(wd, env=wd.env(ASKHOST_SOCKET=sock))
    mcp.initialize()
    return wd, ed, mcp


def shutdown(ed):
    rid = ed.request("shutdown")
    ed.result_of(rid)
    ed.notify("exit")
    equal(ed.exit_code(), 0, "host exit code")



def echoed(*questions):
    """The questions as the reference's result echoes them beside the answers."""
    return [dict(strict(q), multiSelect=q.get("multiSelect", False)) for q in questions]


@case
def handshake_and_tool_list():
    wd = Workdir()
    mcp = McpClient(wd)
    rid = mcp.request("server/discover")  # the 2026-07-28 probe (test_mcp_modern.py); then the handshake
    check("2025-11-25" in mcp.reply_to(rid)["result"]["supportedVersions"], "discover names the 2025 versions")
    res = mcp.initialize("2025-11-25")
    equal(res["protocolVersion"], "2025-11-25", "negotiated version")
    equal(res["serverInfo"]["name"], "askhost", "serverInfo.name")
    check("tools" in res["capabilities"], "tools capability")
    rid = mcp.request("ping")
    equal(mcp.reply_to(rid)["result"], {}, "ping")
    rid = mcp.request("tools/list")
    tools = mcp.reply_to(rid)["result"]["tools"]
    equal([t["name"] for t in tools], ["ask_user_question"], "tools")
    schema = tools[0]["inputSchema"]
    q = schema["properties"]["questions"]
    equal((q["minItems"], q["maxItems"]), (1, 4), "questions count")
    equal(q["items"]["properties"]["header"]["maxLength"], 12, "header maxLength")
    opts = q["items"]["properties"]["options"]
    equal((opts["minItems"], opts["maxItems"]), (2, 4), "options count")
    equal(sorted(opts["items"]["properties"]), ["description", "label", "preview"], "option fields")
    equal(sorted(schema["properties"]), ["annotations", "answers", "metadata", "questions"], "top-level fields")
    check("(Recommended)" in tools[0]["description"], "the description teaches the recommended option")
    equal(tools[0]["annotations"]["readOnlyHint"], True, "read-only, as the reference's tool is")
    equal(mcp.close(), 0, "exit code at end of input")


@case
def version_negotiation():
    for asked, got in [("2025-06-18", "2025-06-18"), ("2024-11-05", "2024-11-05"), ("1999-01-01", "2025-11-25")]:
        wd = Workdir()
        mcp = McpClient(wd)
        equal(mcp.initialize(asked)["protocolVersion"], got, f"version for {asked}")
        mcp.close()


@case
def answered_through_the_host():
    wd, ed, mcp = mcp_through_host()
    rid = mcp.call({"questions": [strict(DATABASE_Q), strict(FEATURES_Q)], "metadata": {"source": "setup"}})
    show = ed.method("ask/show")
    p = show["params"]
    equal(p["agent"], "test-agent", "agent is the MCP client's name")
    equal(p["metadata"], {"source": "setup"}, "metadata")
    equal([q["question"] for q in p["questions"]], [DATABASE_Q["question"], FEATURES_Q["question"]], "questions")
    ed.reply(show["id"], {"answered": True, "answers": [
        answer_of(DATABASE_Q["question"], "SQLite", "SQLite"),
        {"question": FEATURES_Q["question"], "answer": ["Authentication", "REST API"], "wasCustom": False}]})
    res = mcp.reply_to(rid)["result"]
    equal(res["content"], [{"type": "text", "text": 'User has answered your questions: "Which database should we use?"'
                            '="SQLite", "Which features should we include?"="Authentication, REST API".' + MODEL_TAIL}],
          "model text")
    equal(res["structuredContent"], {"questions": echoed(DATABASE_Q, FEATURES_Q),
                                     "answers": {DATABASE_Q["question"]: "SQLite",
                                                 FEATURES_Q["question"]: "Authentication, REST API"}}, "answers map")
    equal(res.get("isError"), False, "isError")
    mcp.close()
    shutdown(ed)


@case
def other_answer_with_notes():
    wd, ed, mcp = mcp_through_host()
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, name="AskUserQuestion")
    show = ed.method("ask/show")
    ed.reply(show["id"], {"answered": True, "answers": [
        {"question": DATABASE_Q["question"], "answer": "DynamoDB", "wasCustom": True, "notes": "we run it already"}]})
    res = mcp.reply_to(rid)["result"]
    equal(res["content"][0]["text"], 'User has answered your questions: "Which database should we use?"="DynamoDB" '
                                     'user notes: we run it already.' + MODEL_TAIL, "model text")
    equal(res["structuredContent"], {"questions": echoed(DATABASE_Q), "answers": {DATABASE_Q["question"]: "DynamoDB"},
                                     "annotations": {DATABASE_Q["question"]: {"notes": "we run it already"}}},
          "structured content")
    mcp.close()
    shutdown(ed)


@case
def cancel_is_a_tool_error():
    wd, ed, mcp = mcp_through_host()
    rid = mcp.call({"questions": [strict(DATABASE_Q)]})
    show = ed.method("ask/show")
    ed.reply(show["id"], {"answered": False, "cancelled": True})
    res = mcp.reply_to(rid)["result"]
    equal(res, {"content": [{"type": "text", "text": "User declined to answer questions"}], "isError": True}, "result")
    mcp.close()
    shutdown(ed)


@case
def client_cancel_withdraws_the_question():
    wd, ed, mcp = mcp_through_host()
    rid = mcp.call({"questions": [strict(DATABASE_Q)]})
    show = ed.method("ask/show")
    mcp.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": rid, "reason": "user"}})
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"]["id"], show["id"], "the ask/show request is cancelled")
    ed.method("ask/state", where=lambda m: m["params"]["state"] == "idle")
    mcp.close()
    shutdown(ed)


@case
def a_request_id_still_open_is_refused_and_the_first_call_goes_on():
    """A second tools/call with the id of an open one took over its cancel handle."""
    wd, ed, mcp = mcp_through_host()
    first = {"jsonrpc": "2.0", "id": "call-1", "method": "tools/call",
             "params": {"name": "ask_user_question", "arguments": {"questions": [strict(DATABASE_Q)]}}}
    mcp.send(first)
    show = ed.method("ask/show")
    second = json.loads(json.dumps(first))
    second["params"]["arguments"]["questions"] = [strict(FEATURES_Q)]
    mcp.send(second)
    mcp.send({"jsonrpc": "2.0", "id": "call-1", "method": "ping"})
    for what in ("the second tools/call", "a ping"):
        equal(mcp.reply_to("call-1").get("error"),
              {"code": -32600, "message": 'request id already in use: "call-1" is a tools/call still waiting for '
                                          "its answer"}, what)
    # The first call's cancel handle is intact: cancelling it withdraws its question.
    mcp.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "call-1"}})
    equal(ed.method("$/cancelRequest")["params"]["id"], show["id"], "the first question is withdrawn")
    # and gets no reply (MCP): the ping's reply is the next line.
    check(not [m for m in ed.seen if m.get("method") == "ask/show"], f"no second question: {ed.seen}")
    # Once the first call has ended, its id may be used again.
    rid = mcp.request("ping")
    equal(mcp.reply_to(rid)["result"], {}, "still serving")
    mcp.send(second)
    show = ed.method("ask/show")
    equal(show["params"]["questions"][0]["question"], FEATURES_Q["question"], "the id taken again")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(FEATURES_Q["question"], ["REST API"])]})
    check("result" in mcp.reply_to("call-1"), "answered")
    mcp.close()
    shutdown(ed)


@case
def a_nested_request_id_in_a_cancel_is_ignored():
    wd = Workdir()
    mcp = McpClient(wd)
    mcp.initialize()
    n = 200_000
    mcp.send_raw(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":' + b"[" * n + b"]" * n +
                 b"}}\n")
    rid = mcp.request("ping")
    equal(mcp.reply_to(rid, timeout=30)["result"], {}, "still serving")
    equal(mcp.close(), 0, "exit code")


@case
def invalid_input_names_the_field():
    wd = Workdir()
    mcp = McpClient(wd)
    mcp.initialize()
    bad = strict(DATABASE_Q)
    bad["header"] = "Thirteen char"
    rid = mcp.call({"questions": [bad]})
    res = mcp.reply_to(rid)["result"]
    equal(res["isError"], True, "isError")
    equal(res["content"][0]["text"],
          'Invalid ask_user_question input: questions[0].header: header for "%s" exceeds 12 chars' % bad["question"],
          "message")
    rid = mcp.call({"questions": [strict(DATABASE_Q)], "extra": 1})
    equal(mcp.reply_to(rid)["result"]["content"][0]["text"], "Invalid ask_user_question input: extra: unknown field",
          "unknown field")
    rid = mcp.request("tools/call", {"name": "nope", "arguments": {}})
    equal(mcp.reply_to(rid)["error"]["code"], -32602, "unknown tool")
    mcp.send_raw(b"{not json\n")
    equal(mcp.read()["error"]["code"], -32700, "parse error")
    rid = mcp.request("ping")
    equal(mcp.reply_to(rid)["result"], {}, "still serving after a bad line")
    mcp.close()


@case
def presupplied_answers_return_at_once():
    wd = Workdir()
    mcp = McpClient(wd)
    mcp.initialize()
    rid = mcp.call({"questions": [strict(DATABASE_Q)], "answers": {DATABASE_Q["question"]: "SQLite"},
                    "annotations": {DATABASE_Q["question"]: {"notes": "small"}}})
    res = mcp.reply_to(rid)["result"]
    equal(res["content"][0]["text"], 'User has answered your questions: "Which database should we use?"="SQLite" '
                                     'user notes: small.' + MODEL_TAIL, "model text")
    mcp.close()


@case
def the_alias_is_served_as_the_tool():
    """The reference's alias: a call to AskUserQuestion asks and answers as ask_user_question does; any
    other name is refused by name, never taken for the tool."""
    wd, ed, mcp = mcp_through_host()
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, name="AskUserQuestion")
    show = ed.method("ask/show")
    equal([q["question"] for q in show["params"]["questions"]], [DATABASE_Q["question"]], "asked in the editor")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(DATABASE_Q["question"], "SQLite", "SQLite")]})
    res = mcp.reply_to(rid)["result"]
    equal(res["content"][0]["text"], 'User has answered your questions: "Which database should we use?"="SQLite".'
          + MODEL_TAIL, "model text")
    equal(res["structuredContent"]["answers"], {DATABASE_Q["question"]: "SQLite"}, "answers map")
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, name="ask_user")
    err = mcp.reply_to(rid)["error"]
    equal((err["code"], err["message"]), (-32602, "Unknown tool: ask_user"), "another name is refused")
    mcp.close()
    shutdown(ed)


@case
def a_progress_token_comes_back_as_the_client_wrote_it():
    """Issue 20: a number askhost only echoes keeps its literal, even past 64 bits."""
    wd = Workdir()
    ed, sock = host(wd)
    mcp = McpClient(wd, env=wd.env(ASKHOST_SOCKET=sock), args=["--progress-interval", "0.1"])
    mcp.initialize()
    token = "123456789012345678901234567890"
    call = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "ask_user_question", "arguments": {"questions": [strict(DATABASE_Q)], "metadata": {"n": "@"}},
        "_meta": {"progressToken": "@"}}}).replace('"@"', token)
    mcp.send_raw(call.encode() + b"\n")
    show = ed.method("ask/show")
    try:
        line = mcp.lines.get(timeout=10)
    except queue.Empty:
        raise Failure("no progress notification in 10 s")
    check(line is not None and b'"method":"notifications/progress"' in line, f"a progress notification: {line!r}")
    check(b'"progressToken":' + token.encode() + b"," in line, f"the token as written: {line!r}")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(DATABASE_Q["question"], "SQLite", "SQLite")]})
    while True:
        msg = mcp.read()
        if msg.get("id") == 7:
            break
    equal(msg["result"]["structuredContent"], {"questions": echoed(DATABASE_Q), "answers": {DATABASE_Q["question"]: "SQLite"}},
          "answers")
    mcp.close()
    shutdown(ed)


@case
def print_writes_the_pending_file():
    wd = Workdir()
    mcp = McpClient(wd, args=["--print"])  # no ASKHOST_SOCKET, no terminal, no waiting
    mcp.initialize()
    rid = mcp.call({"questions": [strict(DATABASE_Q)]})
    res = mcp.reply_to(rid)["result"]
    check(res["content"][0]["text"].startswith("Questions pending. User input required."), "pending text")
    equal(res["structuredContent"], {"pendingFile": ".askhost/pending-questions.json"}, "pending file")
    with open(wd.file(".askhost/pending-questions.json")) as f:
        pending = json.load(f)
    equal([q["question"] for q in pending["questions"]], [DATABASE_Q["question"]], "pending questions")
    mcp.close()
    # With no host of the agent's, askhost mcp journals under a session of its own, the file's.
    session = pending["sessionId"]
    check(session != "", "a session of its own in the pending file")
    journal = read_records(wd.file("state/askhost/sessions/%s.jsonl" % session))
    check(any(DATABASE_Q["question"] in json.dumps(r) for r in journal), f"the exchange journalled: {journal}")


@case
def no_host_asks_in_the_terminal():
    """No ASKHOST_SOCKET but a terminal: the dialog opens on /dev/tty (here a tmux pane)."""
    wd = Workdir()
    fifo, out = wd.file("mcp-in"), wd.file("mcp-out.jsonl")
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # held open: the server sees end of input only when we close it
    t = Tmux(wd, ["sh", "-c", "exec %s mcp < %s > %s" % (shlex_quote(ASKHOST), shlex_quote(fifo), shlex_quote(out))])
    try:
        def send(obj):
            os.write(writer, json.dumps(obj).encode() + b"\n")
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "ask_user_question", "arguments": {"questions": [strict(DATABASE_Q)]}}})
        t.wait_screen("> 1. PostgreSQL (Recommended)")
        t.keys("Down", "Enter")  # SQLite

        def reply():
            return [r for r in read_records(out) if r.get("id") == 2]
        (res,) = wait_for(reply, what="the tool result")
        equal(res["result"]["structuredContent"],
              {"questions": echoed(DATABASE_Q), "answers": {DATABASE_Q["question"]: "SQLite"}}, "answers")
        os.close(writer)
        writer = None
        equal(t.exit_status(), 0, "exit status")
    finally:
        if writer is not None:
            os.close(writer)
        t.kill()


@case
def result_over_the_cap_keeps_the_whole_answer_in_a_file():
    """The tool's 100 000-byte result cap loses nothing: the longest texts are cut to their first
    2000 bytes (never inside a character) and the agent reads where the whole is."""
    wd, ed, mcp = mcp_through_host()
    rid = mcp.call({"questions": [strict(DATABASE_Q), strict(FEATURES_Q)]})
    show = ed.method("ask/show")
    typed = "é" * 75000 + "the end"  # 150 007 bytes
    notes = "n" * 30000
    ed.reply(show["id"], {"answered": True, "answers": [
        answer_of(DATABASE_Q["question"], typed, custom=True),
        {"question": FEATURES_Q["question"], "answer": ["Authentication"], "wasCustom": False, "notes": notes}]})
    res = mcp.reply_to(rid)["result"]
    equal(res["isError"], False, "answered, not an error: " + res["content"][0]["text"][:300])
    check(len(json.dumps(res, ensure_ascii=False).encode()) <= 100000, "the result fits the cap")
    got = res["structuredContent"]["answers"][DATABASE_Q["question"]]
    check(got.startswith("é" * 1000 + " [... cut: the whole answer, 150007 bytes, is in "), got[:2100])
    path = got.split(" is in ", 1)[1].rstrip("]")
    equal(os.path.dirname(path), os.path.join(wd.path, ".askhost", "answers"), "beside the asking agent")
    with open(path, encoding="utf-8") as f:
        equal(f.read(), typed, "the whole answer, kept")
    equal(oct(os.stat(path).st_mode & 0o777), "0o600", "private")
    check(notes in res["content"][0]["text"], "the notes fit once the long answer is cut: not cut")
    mcp.close()
    shutdown(ed)


@case
def host_gone_mid_question():
    wd, ed, mcp = mcp_through_host()
    rid = mcp.call({"questions": [strict(DATABASE_Q)]})
    ed.method("ask/show")
    ed.kill()
    res = mcp.reply_to(rid)["result"]
    equal(res, {"content": [{"type": "text", "text": "User declined to answer questions (the connection to the user "
                                                     "was lost)"}], "isError": True}, "result")
    mcp.close()


# The official TypeScript SDK's v1 client, pinned in ./dev (AGENTS) and installed by `./dev agents`.
SDK_V1 = os.path.join(os.environ.get("ASKHOST_AGENTS_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "askhost-agents"),
    "modelcontextprotocol-sdk-1.32.2")


@case
def the_sdk_v1_client_gets_the_2025_handshake_byte_for_byte():
    if not os.path.isdir(os.path.join(SDK_V1, "node_modules", "@modelcontextprotocol", "sdk")):
        raise Skip("@modelcontextprotocol/sdk 1.32.2 is not installed (./dev agents)")
    if not shutil.which("node"):
        raise Skip("no node")
    wd = Workdir()
    proj = os.path.join(wd.path, "ws", "proj")  # no host's workspace: the client's form asks
    os.makedirs(proj)
    wire = wd.file("wire.jsonl")
    env = wd.env(MCP_SDK_DIR=SDK_V1, ASKHOST=ASKHOST, PROJ=proj, QUESTION=json.dumps(strict(DATABASE_Q)), WIRE=wire)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_sdk_v1_client.cjs")
    out = subprocess.run(["node", script], env=env, capture_output=True, text=True, timeout=60)  # only a hang
    equal(out.returncode, 0, "the SDK client: " + out.stderr[-2000:])
    got = json.loads(out.stdout)
    equal(got["version"]["name"], "askhost", "serverInfo")
    equal(got["tools"], ["ask_user_question"], "tools")
    equal(got["pre"]["answers"], {DATABASE_Q["question"]: DATABASE_Q["options"][0]["label"]}, "pre-answered")
    equal(got["asked"]["answers"], {DATABASE_Q["question"]: DATABASE_Q["options"][1]["label"]},
          "answered in the client's form (elicitation/create)")
    equal(len(got["forms"]), 1, "one form shown")
    # What askhost mcp wrote is the 2025 era's, byte for byte: the same lines a raw 2025 client gets
    # for the same requests, no 2026-07-28 member anywhere.
    lines = open(wire, "rb").read().splitlines(keepends=True)
    init = json.loads(lines[0])
    equal(init["id"], 0, "the initialize reply first")
    equal(list(init["result"]), ["protocolVersion", "capabilities", "serverInfo", "instructions"], "its members")
    equal((init["result"]["protocolVersion"], init["result"]["capabilities"]), ("2025-11-25", {"tools": {"listChanged": False}}),
          "version and capabilities")
    check(not any(b"resultType" in line or b"io.modelcontextprotocol/" in line for line in lines),
          "nothing of 2026-07-28 on the 2025 era")
    raw = McpClient(wd, cwd=proj)
    raw.next_id = 0
    raw.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                               "clientInfo": {"name": "sdk-v1-client", "version": "1.0.0"}})
    equal(raw.lines.get(timeout=10), lines[0], "initialize's reply, byte for byte")
    raw.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    raw.request("tools/list")
    equal(raw.lines.get(timeout=10), lines[1], "tools/list's reply, byte for byte")
    equal(raw.close(), 0, "exit code")


if __name__ == "__main__":
    raise SystemExit(main())
