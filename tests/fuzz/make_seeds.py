#!/usr/bin/env python3
"""Writes the seed corpus (corpus/TARGET/NAME) from the protocol's own examples.

Run it again after changing it; the files it writes are committed. libFuzzer's finds go to a
working corpus in the fuzz build directory, not here.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

DB = {"question": "Which database should we use?", "header": "Database", "options": [
    {"label": "PostgreSQL (Recommended)", "description": "Battle-tested relational DB"},
    {"label": "SQLite", "description": "Lightweight, file-based", "preview": "```sql\nCREATE TABLE t;\n```"}],
    "multiSelect": False}
NAME = {"question": "What should we name this service?", "header": "Service Name"}
FEAT = {"question": "Which features?", "header": "Features", "multiSelect": True,
        "options": [{"label": "Auth"}, {"label": "REST API"}, {"label": "Admin"}]}
HTML = {"question": "Layout?", "header": "Layout", "options": [
    {"label": "Grid", "preview": "<div class=\"g\"><b>grid</b></div>"},
    {"label": "List", "preview": "<a href=\"https://example.org\">list</a>"}]}


def c(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def frame(body):
    b = body.encode() if isinstance(body, str) else body
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def rpc(id_, method, params=None):
    m = {"jsonrpc": "2.0", "method": method}
    if id_ is not None:
        m["id"] = id_
    if params is not None:
        m["params"] = params
    return c(m)


def main():
    # framing: byte 0 picks the body limit, byte 1 the cuts.
    init = rpc(1, "initialize", {"clientInfo": {"name": "nvim"}, "capabilities": {}})
    write("framing", "one", b"\x00\x07" + frame(init))
    write("framing", "two", b"\x00\x03" + frame(init) + frame(rpc(None, "initialized", {})))
    write("framing", "lf_only", b"\x00\x11" + b"Content-Length: 2\n\n{}")
    write("framing", "extra_headers", b"\x00\x05" + b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
          b"content-length: 2\r\n\r\n{}")
    write("framing", "oversized", b"\x01\x09" + b"Content-Length: 400\r\n\r\n" + b"x" * 400 + frame("{}"))
    write("framing", "huge_length", b"\x00\x02" + b"Content-Length: 1099511627776\r\n\r\n{}")
    write("framing", "bad_headers", b"\x00\x04" + b"Content-Length: -1\r\n\r\nContent-Length: 12x\r\n\r\n"
          b"no colon\r\n\r\n\r\n\r\n" + frame("[]"))
    write("framing", "zero", b"\x00\x01" + b"Content-Length: 0\r\n\r\n" + frame("1"))

    # jsonrpc (the editor hub): 'L' + one body per line, or 'R' + a raw stream.
    ok = {"answered": True, "answers": [
        {"question": "Which database?", "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False},
        {"question": "Name?", "answer": "svc", "wasCustom": True}]}
    session = [rpc(1, "initialize", {"clientInfo": {"name": "fuzz"}, "capabilities": {"ask": {}}}),
               rpc(None, "initialized", {}), c({"jsonrpc": "2.0", "id": 1, "result": ok}),
               c({"jsonrpc": "2.0", "id": 2, "result": {"answered": False, "cancelled": True}}),
               rpc(2, "shutdown"), rpc(None, "exit")]
    write("jsonrpc", "session", "L" + "\n".join(session))
    write("jsonrpc", "session_primary", "\x02" + "\n".join(session))
    write("jsonrpc", "agent_methods", "L" + "\n".join([
        rpc(1, "initialize", {"capabilities": {"ask": False}}), rpc(None, "initialized"),
        rpc(2, "agent/start", {"command": ["ok"], "cwd": "/", "env": {"A": "1"}, "adapter": "native"}),
        rpc(3, "agent/start", {"command": ["nope"]}), rpc(4, "agent/start", {"command": "x"}),
        rpc(5, "agent/prompt", {"text": "hi"}), rpc(6, "agent/stop"), rpc(7, "bogus"),
        rpc(None, "$/cancelRequest", {"id": 1}), rpc(8, "initialize", {})]))
    write("jsonrpc", "bad_messages", "L" + "\n".join([
        "{not json", "[]", "[1,2]", "3", '"s"', "null", c({"jsonrpc": "2.0", "id": [1], "method": "x"}),
        c({"jsonrpc": "2.0", "id": 1.5, "method": "x"}), c({"jsonrpc": "2.0", "id": 1, "method": 7}),
        c({"jsonrpc": "2.0", "id": 1, "method": "x", "params": 3}), c({"jsonrpc": "2.0", "id": 99, "result": 1}),
        c({"jsonrpc": "2.0", "result": 1}), rpc(1, "agent/stop"),
        c({"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": "no"}})]))
    write("jsonrpc", "bad_answers", "L" + "\n".join([
        rpc(1, "initialize", {"capabilities": {"ask": {"multiSelect": False, "previews": False}}}),
        rpc(None, "initialized"),
        c({"jsonrpc": "2.0", "id": 1, "result": {"answered": True, "answers": [
            {"question": "Which database?", "answer": ["a", "b"]}]}}),
        c({"jsonrpc": "2.0", "id": 2, "error": {"code": -32800, "message": "cancelled"}})]))
    write("jsonrpc", "raw", b"R" + frame(session[0]) + frame(session[1]) + b"Content-Length: 99999999\r\n\r\n{")

    # question: byte 0 picks the profile (odd: strict).
    ask = {"questions": [DB, NAME], "metadata": {"source": "project-setup"}}
    write("question", "lenient", "\x00" + c(ask))
    write("question", "strict", "\x01" + c({"questions": [DB, FEAT, HTML]}))
    write("question", "presets", "\x00" + c({"questions": [DB, NAME, FEAT], "answers": {
        DB["question"]: "SQLite", NAME["question"]: "svc", FEAT["question"]: ["Auth", "Admin"]},
        "annotations": {DB["question"]: {"preview": "p", "notes": "n"}}}))
    write("question", "refusals", "\x01" + c({"questions": [{"question": "q", "header": "much too long header",
                                                              "options": [{"label": "a"}]}], "extra": 1}))
    write("question", "hostile_preview", "\x00" + c({"questions": [{"question": "q", "options": [
        {"label": "a", "preview": "<svg/onload=alert(1)>"}, {"label": "b", "preview": "[x](javascript:alert(1))"},
        {"label": "c", "preview": "<a href=\"jav&#x61;script:x\">c</a>"}, {"label": "d", "preview": "<script>x</script>"}]}]}))
    write("question", "nested_metadata", "\x00" + '{"questions":[{"question":"q"}],"metadata":{"a":' +
          "[" * 40 + "]" * 40 + "}}")
    write("question", "escapes", "\x00" + c({"questions": [{"question": "\u001b]0;title\u0007 q\u009b",
                                                              "header": "\u202e", "options": [{"label": "\t"}]}]}))

    # native: byte 0 picks the profile; then the agent's stdout, line by line.
    lines = ["planning...", c({"type": "ask_user_request", "requestId": "req-1", "questions": [DB, NAME],
                               "metadata": {"source": "x"}}),
             c({"type": "ask_user_request", "requestId": 7, "questions": [FEAT]}),
             c({"type": "ask_user_request", "requestId": "req-3", "questions": [NAME], "answers": {NAME["question"]: "a"}}),
             c({"type": "ask_user_cancel", "requestId": 7}),
             c({"type": "ask_user_request", "requestId": "req-1", "questions": [NAME]}),
             c({"type": "ask_user_request", "requestId": "s", "questions": [NAME], "subagent": True}),
             c({"type": "ask_user_request", "questions": [NAME]}),
             c({"type": "ask_user_request", "requestId": {"x": 1}, "questions": [NAME]}),
             '{"type": "ask_user_request", broken', c({"type": "other"}), "  {\"type\":1}", ""]
    write("native", "session", "\x00" + "\n".join(lines))
    write("native", "strict", "\x01" + "\n".join(lines))

    # client_outcome: an ask/show result for the fuzzer's fixed three-question ask.
    write("client_outcome", "answered", c({"answered": True, "answers": [
        {"question": "Which database?", "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False},
        {"question": "Name?", "answer": "svc", "wasCustom": True, "notes": "n"},
        {"question": "Features?", "answer": ["Auth", "API"], "wasCustom": False}]}))
    write("client_outcome", "plain_list", c({"answered": True, "answers": [
        {"question": "Features?", "answer": "Auth"}, {"question": "Name?", "answer": "x"},
        {"question": "Which database?", "answer": "PostgreSQL", "preview": "p"}]}))
    write("client_outcome", "cancelled", c({"answered": False, "cancelled": True, "reason": "Esc"}))
    write("client_outcome", "timed_out", c({"answered": False, "timedOut": True}))
    write("client_outcome", "bad", c({"answered": True, "answers": [{"question": "Name?", "answer": ""},
                                                                      {"question": "Name?", "answer": 1}]}))

    # pending: the pending-questions file, as askhost writes it and as people edit it.
    write("pending", "written", c({"version": 1, "sessionId": "s1", "timestamp": "2026-11-21T10:00:00Z",
                                   "agent": "demo-agent", "howToAnswer": "...", "questions": [
        {"question": DB["question"], "header": "Database", "options": ["PostgreSQL (Recommended)", "SQLite"],
         "descriptions": {"SQLite": "file"}, "multiSelect": False, "answer": None, "used": False},
        {"question": FEAT["question"], "options": ["Auth", "REST API"], "multiSelect": True,
         "answer": ["Auth", 2], "used": False},
        {"question": NAME["question"], "answer": "svc", "used": True, "sessionId": "s0"}],
        "metadata": {"source": "x"}}))
    write("pending", "hand_edited", '{\n  // answered by hand\n  "questions": [\n    {"question": "Name?", '
          '"answer": "svc",},\n    {"question": "DB?", "options": [{"label": "A"}, "B"], "answer": 1},\n  ],\n}\n')
    write("pending", "spec_shape", c({"questions": [{"question": "Q?", "answer": {"other": "typed"}},
                                                    {"question": "R?", "answer": {"option": "x", "notes": "n"}}]}))

    # mcp: askhost mcp's stdio, one JSON-RPC message per line.
    call = {"name": "ask_user_question", "arguments": {"questions": [DB, FEAT]}}
    preset = {"name": "AskUserQuestion", "arguments": {"questions": [DB], "answers": {DB["question"]: "SQLite"},
                                                       "annotations": {DB["question"]: {"notes": "n"}}}}
    write("mcp", "session", "\n".join([
        rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz"}}),
        rpc(None, "notifications/initialized"), rpc(2, "tools/list"), rpc(3, "tools/call", call),
        rpc(4, "tools/call", call), rpc(5, "tools/call", preset), rpc(None, "notifications/cancelled", {"requestId": 4}),
        rpc(6, "tools/call", {"name": "nope"}), rpc(7, "tools/call", {"name": "ask_user_question", "arguments":
                                                                    {"questions": [{"question": "q"}]}}),
        rpc(8, "ping"), rpc(9, "resources/list"), rpc(3, "tools/call", call), "not json", "[]"]) + "\n")

    # json: any text; numbers whose literal askhost keeps as written (issue 20).
    write("json", "object", c({"a": [1, -2, 3.5, True, None, "x\u0000y"], "b": {}}))
    write("json", "numbers", "[4633e49,123456789012345678901234567890,-0,-0.0,5e-324,1.7976931348623157e308,"
          "9223372036854775807,-9223372036854775808,18446744073709551615,18446744073709551616,1E+2,1.50,0.1,1e-7]")
    write("json", "strings", '["\\ud83d\\ude80 \\"q\\"", "\\u00e9", "tab\\t", {"k\\u0000": "v"}]')
    write("json", "nested", '[[[[{"k":[1e-7,0.1,100.0,{"n":4633e49}]}]]]]')
    write("pending", "numbers", '{"questions":[{"question":"Q?","answer":"a"}],"metadata":{"n":4633e49,'
          '"big":123456789012345678901234567890,"z":-0,"e":1E+2}}')

    # hook: Claude Code's hook input on askhost hook's stdin.
    base = {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "/srv/shop", "permission_mode": "default"}
    ask_input = {"questions": [DB, FEAT], "metadata": {"source": "x"}}
    write("hook", "pre_ask", c(dict(base, hook_event_name="PreToolUse", tool_name="AskUserQuestion",
                                    tool_input=ask_input, tool_use_id="toolu_1")))
    write("hook", "pre_ask_numbers", c(dict(base, hook_event_name="PreToolUse", tool_name="AskUserQuestion",
                                            tool_input={"questions": [DB], "n": "@"})).replace(
        '"@"', "[4633e49,123456789012345678901234567890,-0,1E+2]"))
    write("hook", "permission_ask", c(dict(base, hook_event_name="PermissionRequest", tool_name="AskUserQuestion",
                                           tool_input={"questions": [DB]})))
    write("hook", "permission_bash", c(dict(base, hook_event_name="PermissionRequest", tool_name="Bash",
                                            tool_input={"command": "rm -rf build", "description": "List files"})))
    write("hook", "permission_write", c(dict(base, hook_event_name="PermissionRequest", tool_name="Write",
                                             tool_input={"file_path": "/srv/shop/a\u001b[2J.txt", "content": "x"})))
    write("hook", "subagent", c(dict(base, hook_event_name="PreToolUse", tool_name="mcp__askhost__ask_user_question",
                                     tool_input=ask_input, agent_id="a3a6", agent_type="general-purpose")))
    write("hook", "other_tool", c(dict(base, hook_event_name="PreToolUse", tool_name="Bash", tool_input={"command": "ls"})))
    write("hook", "preset", c(dict(base, hook_event_name="PreToolUse", tool_name="AskUserQuestion",
                                   tool_input={"questions": [DB], "answers": {DB["question"]: "SQLite"}})))

    # opencode: what askhost's OpenCode plugin writes on askhost opencode ask's stdin.
    oc_db = {"question": "Which database should we use?", "header": "Database", "options": [
        {"label": "PostgreSQL", "description": "Battle-tested"}, {"label": "SQLite", "description": "File-based"}]}
    oc_feat = {"question": "Which features?", "header": "Features", "multiple": True, "custom": False,
               "options": [{"label": "Auth", "description": "OAuth2"}, {"label": "REST API", "description": "OpenAPI"}]}
    write("opencode", "two", c({"id": "que_1", "sessionID": "ses_1", "directory": "/srv/shop",
                                "questions": [oc_db, oc_feat]}))
    write("opencode", "three", c({"id": "que_2", "sessionID": "ses_1", "directory": "/srv/shop",
                                  "questions": [oc_db, oc_feat, {"question": "Name?", "header": "", "options": []}]}))
    write("opencode", "escapes", c({"id": "que_3", "sessionID": "s", "questions": [
        {"question": "Q \u001b[2J \"x\" \U0001F680?", "header": "H", "options": [{"label": "a\nb", "description": ""}]}]}))
    write("opencode", "repeated", c({"id": "que_4", "questions": [oc_db, oc_db]}))

    # elicitation: byte 0 picks the ask (0 one choice, 1 multi-select, 2 free text, 3 all three).
    write("elicitation", "choice", "\x00" + c({"action": "accept", "content": {"q1": "SQLite"}}))
    write("elicitation", "multi", "\x01" + c({"action": "accept", "content": {"q1": ["Auth", "REST API"],
                                                                            "q1_other": "Billing"}}))
    write("elicitation", "typed", "\x02" + c({"action": "accept", "content": {"q1_other": "billing \"api\" \U0001F680"}}))
    write("elicitation", "all", "\x03" + c({"action": "accept", "content": {"q1": "PostgreSQL", "q2": ["Admin"],
                                                                          "q3_other": "svc"}}))
    write("elicitation", "unanswered", "\x03" + c({"action": "accept", "content": {"q1": "Nope", "q2": "Auth"}}))
    write("elicitation", "decline", "\x00" + c({"action": "decline"}))
    write("elicitation", "cancel", "\x01" + c({"action": "cancel", "content": None}))

    # status: registry records separated by a line "--".
    rec = {"version": 1, "pid": 42, "socket": "/run/user/1/askhost/host-42.sock", "workspaceFolders": [
        {"uri": "file:///srv/shop", "name": "shop", "path": "/srv/shop"}], "client": {"name": "Neovim", "version": "0.7.2"},
        "kind": "editor", "startMs": 1795521835253, "processStart": 475105, "waiting": 1, "waitingSince": 1795521835300}
    hostile = dict(rec, pid=43, kind="mcp\u001b]0;owned\u0007", waiting=2147483647, waitingSince=-9223372036854775808,
                   workspaceFolders=[{"path": "/srv/\u001b[2J\u009b31m"}], tmux={"server": "/tmp/t", "pane": "%1"})
    write("status", "two", c(rec) + "\n--\n" + c(dict(rec, pid=44, kind="hook", waiting=3, workspaceFolders=[])))
    write("status", "hostile", c(hostile) + "\n--\n" + c(hostile) + "\n--\n{\"version\":1,\"pid\":3,")

    # sanitize: byte 0 odd keeps newlines.
    write("sanitize", "escapes", "\x01" + "a\x1b[2J\x1b]52;c;aGk=\x07b\r\n\tc\x7f")
    write("sanitize", "c1_bidi", "\x00" + "x\u009by\u202ez\u2066w")
    write("sanitize", "invalid_utf8", b"\x00" + b"\xff\xfe\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82")
    write("sanitize", "wide", "\x01" + "数据库 🎉 e\u0301")


if __name__ == "__main__":
    main()
