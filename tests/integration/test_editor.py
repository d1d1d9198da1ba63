"""The editor protocol through the real binary: askhost --stdio with a scripted editor and agent."""
import json
import os
import signal
import stat
import subprocess
import time

from harness import (host_socket, strict, DATABASE_Q, FEATURES_Q, NAME_Q, Editor, Workdir, answer_of, ask_request, case,
                     check, encode_frame, equal, main, wait_for)


def responses(wd):
    return [r for r in wd.records() if r != "EOF"]


def start(wd, steps, args=None, caps=None):
    ed = Editor(wd, (args or []) + ["--"] + wd.agent(steps))
    init = ed.initialize(caps)
    return ed, init


def shutdown(ed):
    rid = ed.request("shutdown")
    equal(ed.result_of(rid).get("result", "missing"), None, "shutdown result")
    ed.notify("exit")
    return ed.exit_code()


@case
def handshake_and_idle_state():
    wd = Workdir()
    ed = Editor(wd)
    rid = ed.request("initialize", {"clientInfo": {"name": "t"}, "capabilities": {}})
    res = ed.result_of(rid)["result"]
    equal(res["serverInfo"]["name"], "askhost", "serverInfo.name")
    check(res["serverInfo"]["version"], "a version")
    check(res["capabilities"]["ask"]["multiSelect"] is True, "capabilities")
    ed.notify("initialized", {})
    st = ed.method("ask/state")
    equal(st["params"], {"state": "idle", "pending": []}, "ask/state")
    equal(shutdown(ed), 0, "exit code after shutdown + exit")


@case
def exit_without_shutdown_is_1():
    wd = Workdir()
    ed = Editor(wd)
    ed.initialize()
    ed.notify("exit")
    equal(ed.exit_code(), 1, "exit code")


@case
def requests_before_initialize_are_refused():
    wd = Workdir()
    ed = Editor(wd)
    rid = ed.request("agent/stop")
    equal(ed.result_of(rid)["error"]["code"], -32002, "error code")
    ed.initialize()
    equal(shutdown(ed), 0, "exit code")


@case
def answered_round_trip():
    wd = Workdir()
    ed, _ = start(wd, [{"out": "thinking"}, {"send": ask_request("req-1", [DATABASE_Q, NAME_Q])},
                       {"recv": 1}, {"out": "thanks"}])
    show = ed.method("ask/show")
    p = show["params"]
    equal(p["id"], "ask-1", "ask id")
    equal([q["question"] for q in p["questions"]], [DATABASE_Q["question"], NAME_Q["question"]], "questions")
    equal(p["questions"][0]["options"][0], {"label": "PostgreSQL (Recommended)",
                                            "description": "Battle-tested relational DB"}, "option")
    equal(p["agent"], "scripted-agent", "agent name")
    waiting = ed.method("ask/state", where=lambda m: m["params"]["state"] == "waiting")
    equal(waiting["params"]["pending"][0]["id"], "ask-1", "pending ask")
    ed.reply(show["id"], {"answered": True, "answers": [
        answer_of(DATABASE_Q["question"], "PostgreSQL (Recommended)", "PostgreSQL (Recommended)"),
        answer_of(NAME_Q["question"], "order-processor", custom=True)]})
    ed.method("ask/state", where=lambda m: m["params"]["state"] == "idle")
    out = ed.method("agent/output", where=lambda m: "thanks" in m["params"]["text"])
    equal(out["params"]["stream"], "stdout", "stream")
    ex = ed.method("agent/exit")
    equal(ex["params"], {"exitCode": 0, "signal": None}, "agent/exit")
    (r,) = responses(wd)
    equal(r["requestId"], "req-1", "requestId")
    equal(r["answered"], True, "answered")
    equal(r["answers"], [
        {"question": DATABASE_Q["question"], "answer": "PostgreSQL (Recommended)",
         "selectedOption": "PostgreSQL (Recommended)", "wasCustom": False},
        {"question": NAME_Q["question"], "answer": "order-processor", "wasCustom": True}], "answers")
    equal(r["text"], 'User has answered your questions: "Which database should we use?"="PostgreSQL '
          '(Recommended)", "What should we name this service?"="order-processor". You can now '
          "continue with the user's answers in mind.", "model text")
    # Under --stdio the host outlives its agent until the editor says exit.
    equal(shutdown(ed), 0, "exit code")


@case
def cancelled():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [NAME_Q])}, {"recv": 1}])
    show = ed.method("ask/show")
    ed.reply(show["id"], {"answered": False, "cancelled": True})
    ed.method("agent/exit")
    (r,) = responses(wd)
    equal({k: r[k] for k in ("answered", "answers", "cancelled")},
          {"answered": False, "answers": [], "cancelled": True}, "response")
    shutdown(ed)


@case
def multi_select_answer_is_an_array():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [FEATURES_Q])}, {"recv": 1}])
    show = ed.method("ask/show")
    equal(show["params"]["questions"][0]["multiSelect"], True, "multiSelect")
    ed.reply(show["id"], {"answered": True, "answers": [
        answer_of(FEATURES_Q["question"], ["Authentication", "Admin Dashboard"])]})
    ed.method("agent/exit")
    (r,) = responses(wd)
    equal(r["answers"][0]["answer"], ["Authentication", "Admin Dashboard"], "answer")
    check(r["text"].endswith('"Which features should we include?"="Authentication, Admin Dashboard". '
                             "You can now continue with the user's answers in mind."), r["text"])
    shutdown(ed)


@case
def client_without_multiselect_gets_a_plain_list():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [FEATURES_Q])}, {"recv": 1}],
                  caps={"ask": {"multiSelect": False, "previews": False}})
    show = ed.method("ask/show")
    equal(show["params"]["questions"][0]["multiSelect"], False, "multiSelect downgraded")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(FEATURES_Q["question"], "REST API")]})
    ed.method("agent/exit")
    (r,) = responses(wd)
    equal(r["answers"][0]["answer"], ["REST API"], "still an array for the agent")
    shutdown(ed)


@case
def invalid_client_answer_is_a_cancel_with_reason_not_a_half_answer():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [DATABASE_Q, NAME_Q])}, {"recv": 1}])
    show = ed.method("ask/show")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "x", custom=True)]})
    ed.method("agent/exit")
    (r,) = responses(wd)
    equal(r["answered"], False, "answered")
    equal(r["cancelled"], True, "cancelled")
    check("has no answer" in r["reason"], f"reason: {r.get('reason')}")
    shutdown(ed)


@case
def timeout_is_typed_and_withdraws_the_dialog():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [NAME_Q])}, {"recv": 1}], args=["--timeout", "0.5"])
    show = ed.method("ask/show")
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"], {"id": show["id"], "askId": "ask-1"}, "$/cancelRequest")
    ed.method("agent/exit")
    (r,) = responses(wd)
    equal({k: r[k] for k in ("answered", "answers", "timedOut")},
          {"answered": False, "answers": [], "timedOut": True}, "response")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "late", custom=True)]})
    shutdown(ed)
    equal(len(responses(wd)), 1, "a late answer is not delivered")


@case
def two_outstanding_requests_interleaved_with_output():
    wd = Workdir()
    ed, _ = start(wd, [{"out": "a"}, {"send": ask_request("first", [NAME_Q])}, {"out": "b"},
                       {"send": ask_request("second", [DATABASE_Q])}, {"out": "c"}, {"recv": 2}])
    show1 = ed.method("ask/show")
    equal(show1["params"]["questions"][0]["question"], NAME_Q["question"], "first shown first")
    texts = []
    while "c\n" not in texts:
        texts.append(ed.method("agent/output")["params"]["text"])
    equal(texts, ["a\n", "b\n", "c\n"], "output in order")
    state = ed.method("ask/state", where=lambda m: len(m["params"]["pending"]) == 2)
    equal([p["id"] for p in state["params"]["pending"]], ["ask-1", "ask-2"], "both pending, in order")
    ed.reply(show1["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "svc", custom=True)]})
    show2 = ed.method("ask/show")
    equal(show2["params"]["id"], "ask-2", "second shown after the first")
    ed.reply(show2["id"], {"answered": True, "answers": [answer_of(DATABASE_Q["question"], "SQLite", "SQLite")]})
    ed.method("agent/exit")
    r1, r2 = responses(wd)
    equal((r1["requestId"], r1["answers"][0]["answer"]), ("first", "svc"), "first response")
    equal((r2["requestId"], r2["answers"][0]["answer"]), ("second", "SQLite"), "second response")
    shutdown(ed)


@case
def strict_answers_over_the_cap_are_kept_in_a_file_lenient_ones_whole():
    """--profile strict: a 120 000-byte answer reaches the agent cut, with where the whole is; under
    the lenient profile (no cap) it reaches the agent whole."""
    for profile in ("strict", "lenient"):
        wd = Workdir()
        q = strict(DATABASE_Q)
        ed, _ = start(wd, [{"send": ask_request("r", [q])}, {"recv": 1}], args=["--profile", profile])
        show = ed.method("ask/show")
        typed = "y" * 120000
        ed.reply(show["id"], {"answered": True, "answers": [answer_of(q["question"], typed, custom=True)]})
        ed.method("agent/exit")
        (r,) = responses(wd)
        got = r["answers"][0]["answer"]
        if profile == "lenient":
            equal(got, typed, "lenient: the whole answer")
        else:
            check(got.startswith("y" * 2000 + " [... cut: the whole answer, 120000 bytes, is in "), got[:2100])
            with open(got.split(" is in ", 1)[1].rstrip("]")) as f:
                equal(f.read(), typed, "kept whole")
        shutdown(ed)


@case
def the_state_without_the_agents_asks_comes_before_agent_exit():
    """An agent that exits with a question open: the editor hears the idle ask/state before
    agent/exit, so nothing shows a question waiting for an agent that is gone."""
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [DATABASE_Q])}, {"sleep": 0.3}, {"exit": 0}])
    ed.method("ask/show")
    ed.method("agent/exit")
    states = [m["params"]["state"] for m in ed.seen if m.get("method") == "ask/state"]
    equal(states[-1:], ["idle"], "the last ask/state before agent/exit: %r" % states)
    shutdown(ed)


@case
def agent_output_goes_on_in_whole_lines():
    """stderr written in fragments (as Codex writes `workdir: DIR`) reaches the editor as one line;
    a partial line with no line break after it (a prompt) still goes on, without waiting for exit."""
    wd = Workdir()
    ed, _ = start(wd, [{"errraw": "workdir:"}, {"sleep": 0.005}, {"errraw": " "}, {"sleep": 0.005},
                       {"errraw": "/tmp/project"}, {"sleep": 0.005}, {"errraw": "\n"}, {"errraw": "Continue? "},
                       {"sleep": 1.5}, {"err": "bye"}])
    first = ed.method("agent/output", where=lambda m: m["params"]["stream"] == "stderr")
    equal(first["params"]["text"], "workdir: /tmp/project\n", "one whole line")
    prompt = ed.method("agent/output", where=lambda m: m["params"]["stream"] == "stderr")
    equal(prompt["params"]["text"], "Continue? ", "the partial line on its own")
    check(not [m for m in ed.seen if m.get("method") == "agent/exit"], "before the agent exits")
    ed.method("agent/output", where=lambda m: m["params"]["text"] == "bye\n")
    ed.method("agent/exit")
    shutdown(ed)


@case
def agent_crash_mid_question_withdraws_and_a_new_agent_can_start():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [NAME_Q])}, {"sleep": 0.3}, {"signal": "SEGV"}])
    show = ed.method("ask/show")
    ed.method("$/cancelRequest", where=lambda m: m["params"]["id"] == show["id"])
    ex = ed.method("agent/exit")
    equal(ex["params"], {"exitCode": None, "signal": signal.SIGSEGV}, "agent/exit")
    ed.method("ask/state", where=lambda m: m["params"]["state"] == "idle")
    rid = ed.request("agent/start", {"command": wd.agent([{"out": "second life"}], record="r2.jsonl")})
    check(ed.result_of(rid)["result"]["pid"] > 0, "pid")
    ed.method("agent/output", where=lambda m: m["params"]["text"] == "second life\n")
    ed.method("agent/exit")
    equal(shutdown(ed), 0, "exit code")


@case
def agent_start_errors_and_prompt_without_conversation():
    wd = Workdir()
    ed = Editor(wd)
    ed.initialize()
    rid = ed.request("agent/start", {"command": ["no-such-agent-xyz"]})
    err = ed.result_of(rid)["error"]
    equal(err["code"], -32001, "code")
    check("no-such-agent-xyz" in err["message"], err["message"])
    rid = ed.request("agent/start", {"command": "not-a-list"})
    equal(ed.result_of(rid)["error"]["code"], -32602, "invalid params")
    rid = ed.request("agent/prompt", {"text": "hi"})
    equal(ed.result_of(rid)["error"]["message"], "no agent is running", "prompt without agent")
    rid = ed.request("agent/start", {"command": wd.agent([{"sleep": 30}]), "adapter": "native"})
    ed.result_of(rid)
    rid = ed.request("agent/prompt", {"text": "hi"})
    check("no conversation" in ed.result_of(rid)["error"]["message"], "native has no conversation")
    rid = ed.request("agent/stop")
    res = ed.result_of(rid, timeout=15)["result"]
    equal(res, {"exitCode": None, "signal": signal.SIGTERM}, "agent/stop result")
    rid = ed.request("agent/stop")
    equal(ed.result_of(rid)["error"]["message"], "no agent is running", "second stop")
    equal(shutdown(ed), 0, "exit code")


@case
def editor_vanishing_mid_question_gives_connection_lost_and_no_orphan():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [NAME_Q])}, {"recv": 1}, {"sleep": 30}])
    ed.method("ask/show")
    pid_line = subprocess.run(["pgrep", "-f", f"{wd.path}/script1.json"], capture_output=True,
                              text=True).stdout.split()
    check(pid_line, "agent running")
    ed.close()  # stdin closes: the editor is gone
    equal(ed.exit_code(), 1, "askhost exit code")
    (r,) = responses(wd)
    equal(r, {"type": "ask_user_response", "requestId": "r", "answered": False, "connectionLost": True},
          "response")
    for pid in pid_line:
        check(not os.path.exists(f"/proc/{pid}"), f"agent {pid} still running")


@case
def agent_cancels_its_own_request():
    wd = Workdir()
    ed, _ = start(wd, [{"send": ask_request("r", [NAME_Q])}, {"sleep": 0.3},
                       {"send": {"type": "ask_user_cancel", "requestId": "r"}}, {"sleep": 0.3},
                       {"out": "moved on"}])
    show = ed.method("ask/show")
    ed.method("$/cancelRequest", where=lambda m: m["params"]["id"] == show["id"])
    ed.method("agent/exit")
    equal(responses(wd), [], "no response for a cancelled request")
    shutdown(ed)


@case
def malformed_input_keeps_the_connection():
    wd = Workdir()
    ed = Editor(wd)
    ed.initialize()
    ed.send_raw(b"Content-Length: 9\r\n\r\n{not json")
    err = ed.wait(lambda m: m.get("error", {}).get("code") == -32700, what="parse error")
    equal(err["id"], None, "id")
    ed.send_raw(b"Content-Length: 99999999\r\n\r\n" + b"x" * 1000)  # over the limit: skipped
    # The rest of the oversized frame never comes; the stream is resynchronised by a fresh host.
    err = ed.wait(lambda m: m.get("error", {}).get("code") == -32600, what="oversized frame error")
    check("over the limit" in err["error"]["message"], err["error"]["message"])
    ed.kill()
    ed = Editor(wd)
    ed.initialize()
    bad = b'"\xff\xfe bad"'
    ed.send_raw(b"Content-Length: %d\r\n\r\n" % len(bad) + bad + encode_frame(
        {"jsonrpc": "2.0", "id": 77, "method": "bogus/method"}))
    ed.wait(lambda m: m.get("error", {}).get("code") == -32700, what="invalid UTF-8 refused")
    equal(ed.result_of(77)["error"]["code"], -32601, "unknown method after bad input")
    equal(shutdown(ed), 0, "exit code")


@case
def oversized_frame_is_skipped_and_the_stream_continues():
    wd = Workdir()
    ed = Editor(wd)
    ed.initialize()
    big = b"x" * (9 * 1024 * 1024)
    ed.send_raw(b"Content-Length: %d\r\n\r\n" % len(big) + big)
    ed.wait(lambda m: m.get("error", {}).get("code") == -32600, what="oversized frame error")
    equal(shutdown(ed), 0, "exit code after the skipped frame")


@case
def socket_is_private_and_named_in_the_agent_environment():
    wd = Workdir()
    script = wd.file("env.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\necho \"SOCKET=$ASKHOST_SOCKET\"\nsleep 30\n")
    os.chmod(script, 0o755)
    ed = Editor(wd, ["--", script])
    ed.initialize()
    out = ed.method("agent/output", where=lambda m: m["params"]["text"].startswith("SOCKET="))
    path = out["params"]["text"].strip()[len("SOCKET="):]
    check(path.startswith(wd.file("run")), f"socket under XDG_RUNTIME_DIR: {path}")
    equal(stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode), 0o700, "directory mode")
    check(stat.S_ISSOCK(os.stat(path).st_mode), "a socket")
    equal(stat.S_IMODE(os.stat(path).st_mode) & 0o077, 0, "socket not open to others")
    equal(shutdown(ed), 0, "exit code")
    check(not os.path.exists(path), "socket removed at exit")


@case
def two_clients_first_answer_wins():
    wd = Workdir()
    script = wd.file("agent.sh")
    ed = Editor(wd, ["--"] + wd.agent([{"sleep": 0.5}, {"send": ask_request("r", [NAME_Q])}, {"recv": 1}]))
    ed.initialize()
    path = host_socket(wd)
    other = Editor(wd, sock_path=path)
    other.initialize(name="second")
    s1 = ed.method("ask/show")
    s2 = other.method("ask/show")
    equal(s1["params"]["id"], s2["params"]["id"], "same ask")
    other.reply(s2["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "from-socket", custom=True)]})
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"]["id"], s1["id"], "the other client is withdrawn")
    ed.reply(s1["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "too-late", custom=True)]})
    for client in (ed, other):
        client.method("ask/state", where=lambda m: m["params"]["state"] == "idle")
    ed.method("agent/exit")
    (r,) = responses(wd)
    equal(r["answers"][0]["answer"], "from-socket", "first answer won")
    other.close()
    equal(shutdown(ed), 0, "exit code")


@case
def socket_client_vanishing_is_no_loss_while_the_editor_shows_it():
    wd = Workdir()
    ed = Editor(wd, ["--"] + wd.agent([{"sleep": 0.5}, {"send": ask_request("r", [NAME_Q])}, {"recv": 1}]))
    ed.initialize()
    path = host_socket(wd)
    other = Editor(wd, sock_path=path)
    other.initialize(name="second")
    other.method("ask/show")
    other.close()
    s1 = ed.method("ask/show")
    time.sleep(0.3)
    ed.reply(s1["id"], {"answered": True, "answers": [answer_of(NAME_Q["question"], "kept", custom=True)]})
    ed.method("agent/exit")
    (r,) = responses(wd)
    equal(r["answers"][0]["answer"], "kept", "answer")
    shutdown(ed)


if __name__ == "__main__":
    raise SystemExit(main())
