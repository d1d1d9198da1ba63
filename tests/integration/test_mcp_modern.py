"""`askhost mcp` and a client of MCP 2026-07-28, on the wire: no handshake, the version and the
client's capabilities in every request's _meta, server/discover, a question asked through
input_required and answered by the retry, and the tasks extension's tasks (docs/mcp.md)."""
import json
import os
import re
import shutil
import signal
import subprocess
import time

from harness import (ASKHOST, DATABASE_Q, FEATURES_Q, Editor, McpClient, Skip, Workdir, answer_of, case, check, equal,
                     host_socket, main, strict, wait_for)

MODERN = "2026-07-28"
TASKS_EXT = "io.modelcontextprotocol/tasks"
TASKS = {"extensions": {TASKS_EXT: {}}}


def meta(caps=None, version=MODERN):
    return {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientInfo": {"name": "modern-client", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": caps or {}}


def served(res, result_type="complete"):
    """A 2026-07-28 result: its resultType, and the server named in its _meta, as the spec asks."""
    equal(res["resultType"], result_type, f"resultType of {res}")
    info = res["_meta"]["io.modelcontextprotocol/serverInfo"]
    equal((info["name"], info["title"]), ("askhost", "askhost"), "serverInfo")
    check(info["version"], "serverInfo.version")
    return res


def proj(wd):
    """A directory no host's workspace holds."""
    path = os.path.join(wd.path, "ws", "proj")
    os.makedirs(path, exist_ok=True)
    return os.path.realpath(path)


def asked_in_form(caps=None, args=()):
    """A modern client that offers its form, and its first call's input_required result."""
    wd = Workdir()
    mcp = McpClient(wd, cwd=proj(wd), args=args)
    rid = mcp.call({"questions": [strict(DATABASE_Q), strict(FEATURES_Q)]},
                   meta=meta(caps if caps is not None else {"elicitation": {}}))
    return wd, mcp, mcp.reply_to(rid)["result"]


def retry(mcp, state, responses):
    params = {"name": "ask_user_question", "arguments": {"questions": [strict(DATABASE_Q), strict(FEATURES_Q)]},
              "_meta": meta({"elicitation": {}}), "requestState": state}
    if responses is not None:
        params["inputResponses"] = responses
    return mcp.reply_to(mcp.request("tools/call", params))


@case
def discover_names_both_eras():
    wd = Workdir()
    mcp = McpClient(wd)
    for params in (None, {"_meta": meta()}, {"_meta": meta(version="1900-01-01")}):
        res = mcp.reply_to(mcp.request("server/discover", params))["result"]
        equal(res["resultType"], "complete", "resultType")
        equal(res["supportedVersions"], [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
              "supported versions, newest first")
        check("tools" in res["capabilities"], "tools capability")
        equal(res["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "askhost", "serverInfo")
        equal(res["capabilities"]["extensions"], {TASKS_EXT: {}}, "the tasks extension")
    equal(mcp.close(), 0, "exit code")


@case
def modern_requests_are_served_without_a_handshake():
    wd = Workdir()
    mcp = McpClient(wd)
    res = served(mcp.reply_to(mcp.request("tools/list", {"_meta": meta()}))["result"])
    check(res["ttlMs"] > 0 and res["cacheScope"] == "public", f"cacheable list: {res}")
    equal([t["name"] for t in res["tools"]], ["ask_user_question"], "tools")
    # Pre-answered: the answers come back at once.
    rid = mcp.call({"questions": [strict(DATABASE_Q)], "answers": {DATABASE_Q["question"]: "SQLite"}}, meta=meta())
    res = served(mcp.reply_to(rid)["result"])
    equal(res["structuredContent"]["answers"], {DATABASE_Q["question"]: "SQLite"}, "answers")
    equal(res["isError"], False, "isError")
    # A 2026-07-28 request must carry the client's capabilities too (an empty object declares none).
    bare = {"io.modelcontextprotocol/protocolVersion": MODERN}
    err = mcp.reply_to(mcp.request("tools/list", {"_meta": bare}))["error"]
    equal(err["code"], -32602, "no clientCapabilities: malformed")
    check("io.modelcontextprotocol/clientCapabilities" in err["message"], err["message"])
    equal(mcp.reply_to(mcp.request("server/discover", {"_meta": bare}))["result"]["resultType"], "complete",
          "server/discover answers whatever the request says")
    for gone in ("ping", "logging/setLevel"):
        err = mcp.reply_to(mcp.request(gone, {"_meta": meta()}))["error"]
        equal(err["code"], -32601, f"{gone} is gone in {MODERN}")
    # The 2025 era on the same connection is unchanged.
    equal(mcp.reply_to(mcp.request("ping"))["result"], {}, "ping without _meta")
    legacy = mcp.reply_to(mcp.request("tools/list"))["result"]
    check("resultType" not in legacy and "_meta" not in legacy, "nothing of 2026-07-28 without its _meta")
    equal(mcp.close(), 0, "exit code")


@case
def an_unknown_version_is_refused_naming_the_known():
    wd = Workdir()
    mcp = McpClient(wd)
    err = mcp.reply_to(mcp.request("tools/list", {"_meta": meta(version="1900-01-01")}))["error"]
    equal(err["code"], -32022, "UnsupportedProtocolVersion")
    equal(err["data"], {"supported": [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
                        "requested": "1900-01-01"}, "data")
    check(MODERN in err["message"] and "2025-11-25" in err["message"], err["message"])
    equal(mcp.close(), 0, "exit code")


@case
def a_question_goes_by_input_required_and_the_retry_answers():
    wd, mcp, res = asked_in_form()
    served(res, "input_required")
    req = res["inputRequests"]["questions"]
    equal(req["method"], "elicitation/create", "the request inside")
    schema = req["params"]["requestedSchema"]["properties"]
    equal([o["const"] for o in schema["q1"]["oneOf"]],
          ["PostgreSQL (Recommended)", "SQLite", "MongoDB", "Other (type below)"], "the form askhost sends today")
    state = res["requestState"]
    check(isinstance(state, str) and len(state) >= 32, f"an opaque state: {state!r}")
    # Without the answers, the same question again under the same state.
    again = retry(mcp, state, None)["result"]
    equal((again["resultType"], again["requestState"]), ("input_required", state), "asked again")
    time.sleep(1.5)  # as long as a person looks at the form: a reply sooner is no person's
    res = retry(mcp, state, {"questions": {"action": "accept", "content": {
        "q1": "Other (type below)", "q1_other": "DuckDB", "q2": ["Authentication", "REST API"]}}})["result"]
    served(res)
    equal(res["structuredContent"]["answers"], {DATABASE_Q["question"]: "DuckDB",
                                                FEATURES_Q["question"]: "Authentication, REST API"}, "answers")
    # The state is spent.
    err = retry(mcp, state, {"questions": {"action": "accept", "content": {"q1": "SQLite"}}})["error"]
    equal(err["code"], -32602, "a state used already")
    equal(mcp.close(), 0, "exit code")


@case
def a_declined_form_is_todays_decline():
    wd, mcp, res = asked_in_form()
    time.sleep(1.5)  # as long as a person looks at the form: a reply sooner is no person's
    res = retry(mcp, res["requestState"], {"questions": {"action": "decline"}})["result"]
    equal(res["resultType"], "complete", "resultType")
    check(res["isError"] is True, "a declined form is no answer")
    check(res["content"][0]["text"].startswith("User declined to answer questions"), res["content"][0]["text"])
    equal(mcp.close(), 0, "exit code")


@case
def a_tampered_state_is_refused():
    wd, mcp, res = asked_in_form()
    state = res["requestState"]
    forged = ("0" if state[0] != "0" else "1") + state[1:]
    for bad in (forged, state + "0", "x"):
        err = retry(mcp, bad, {"questions": {"action": "accept", "content": {"q1": "SQLite"}}})["error"]
        equal(err["code"], -32602, f"state {bad!r} refused")
        check("requestState" in err["message"], err["message"])
    # The real one still answers.
    time.sleep(1.5)  # as long as a person looks at the form
    res = retry(mcp, state, {"questions": {"action": "accept", "content": {"q1": "SQLite", "q2": ["REST API"]}}})
    equal(res["result"]["structuredContent"]["answers"][DATABASE_Q["question"]], "SQLite", "answered")
    equal(mcp.close(), 0, "exit code")


@case
def a_question_never_retried_expires():
    wd, mcp, res = asked_in_form(args=["--expire-after", "1"])
    state = res["requestState"]
    # Asked again without answers until the expiry withdraws it; then the state is refused.
    err = wait_for(lambda: retry(mcp, state, None).get("error"), interval=0.2, what="the state expired")
    equal(err["code"], -32602, "an expired state")
    check("expired" in err["message"], err["message"])
    equal(mcp.close(), 0, "exit code")
    log = open(wd.file("mcp-stderr.txt")).read()
    check("past --expire-after: withdrawn" in log, f"askhost mcp says why: {log[-500:]}")


@case
def a_task_unanswered_expires_as_a_timeout():
    wd = Workdir()
    ed, env = editor_host(wd)
    mcp = McpClient(wd, env=env, args=["--expire-after", "1"])
    tid = new_task(wd, mcp, TASKS)
    equal(task_status(mcp, tid)["ttlMs"], 1000 + 3600 * 1000, "kept an hour past its expiry")
    show = ed.method("ask/show")
    ed.wait(lambda m: m.get("method") == "$/cancelRequest" and m["params"]["id"] == show["id"],
            what="the question withdrawn at its expiry")
    task = until_status(mcp, tid, "completed")
    equal(task["result"]["isError"], True, "no answer")
    equal(task["result"]["content"][0]["text"],
          "User declined to answer questions (no answer within the time limit)", "the timeout's text")
    equal(mcp.close(), 0, "exit code")
    shutdown(ed)


@case
def a_cancelled_call_gets_no_reply():
    wd = Workdir()
    mcp = McpClient(wd, cwd=proj(wd))
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, meta=meta())  # no form: it waits as a host of its own
    mcp.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": rid}})
    lid = mcp.request("tools/list", {"_meta": meta()})
    equal(mcp.reply_to(lid)["result"]["resultType"], "complete", "the next line is the list's, not the call's")
    equal(mcp.close(), 0, "exit code")
    check(mcp.lines.get(timeout=10) is None, "nothing more after the list")


def editor_host(wd):
    """askhost --stdio with no agent and a scripted editor: (editor, the env that asks through it)."""
    ed = Editor(wd)
    ed.initialize()
    return ed, wd.env(ASKHOST_SOCKET=host_socket(wd))


def shutdown(ed):
    ed.result_of(ed.request("shutdown"))
    ed.notify("exit")
    equal(ed.exit_code(), 0, "host exit code")


def task_request(mcp, method, tid, caps=TASKS, **params):
    return mcp.reply_to(mcp.request(method, dict(params, taskId=tid, _meta=meta(caps))))


def task_status(mcp, tid):
    return served(task_request(mcp, "tasks/get", tid)["result"])


def until_status(mcp, tid, status):
    return wait_for(lambda: (lambda t: t if t["status"] == status else None)(task_status(mcp, tid)),
                    interval=0.2, what=f"task {tid} {status}")


def new_task(wd, mcp, caps):
    res = served(mcp.reply_to(mcp.call({"questions": [strict(DATABASE_Q)]}, meta=meta(caps)))["result"], "task")
    check(re.fullmatch(r"[0-9a-f]{32}", res["taskId"]), f"an unguessable task id: {res['taskId']}")
    check(res["status"] in ("working", "input_required"), f"status {res['status']}")
    check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", res["createdAt"]), res["createdAt"])
    check(res["ttlMs"] > 0 and res["pollIntervalMs"] > 0, f"ttl and poll interval: {res}")
    check(os.path.isfile(wd.file(f"state/askhost/mcp-tasks/{res['taskId']}.json")), "its record, before the result")
    return res["taskId"]


def sqlite_answered(task):
    equal(task["result"]["resultType"], "complete", "the call's own result inside")
    equal(task["result"]["structuredContent"]["answers"], {DATABASE_Q["question"]: "SQLite"}, "answers")
    equal(task["result"]["isError"], False, "isError")


@case
def task_methods_need_the_extension():
    wd = Workdir()
    mcp = McpClient(wd)
    err = mcp.reply_to(mcp.request("tasks/get", {"taskId": "0" * 32}))["error"]
    equal(err["code"], -32601, "no tasks in the 2025 era")
    for method in ("tasks/get", "tasks/update", "tasks/cancel"):
        err = task_request(mcp, method, "0" * 32, caps={})["error"]
        equal(err["code"], -32021, f"{method}: MissingRequiredClientCapability")
        equal(err["data"], {"requiredCapabilities": TASKS}, "the capability named")
    for tid in ("0" * 32, "../../etc/passwd", ""):
        err = task_request(mcp, "tasks/get", tid)["error"]
        equal((err["code"], err["message"]), (-32602, "Failed to retrieve task: Task not found"), f"task {tid!r}")
    # Without the extension a question waits as a call, as before.
    wd2 = Workdir()
    ed, env = editor_host(wd2)
    mcp2 = McpClient(wd2, env=env)
    rid = mcp2.call({"questions": [strict(DATABASE_Q)]}, meta=meta())
    show = ed.method("ask/show")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(DATABASE_Q["question"], "SQLite", "SQLite")]})
    equal(mcp2.reply_to(rid)["result"]["resultType"], "complete", "the call's own answer")
    equal(mcp.close(), 0, "exit code")
    equal(mcp2.close(), 0, "exit code")
    shutdown(ed)


@case
def a_task_waits_for_the_editor_across_a_reconnect():
    wd = Workdir()
    ed, env = editor_host(wd)
    mcp = McpClient(wd, env=env)
    tid = new_task(wd, mcp, TASKS)
    show = ed.method("ask/show")
    equal(show["params"]["questions"][0]["question"], DATABASE_Q["question"], "asked in the editor")
    equal(task_status(mcp, tid)["status"], "working", "working while the editor shows it")
    # The client reconnects: its askhost mcp loses its stdin, a new one serves the task.
    mcp.proc.stdin.close()
    mcp2 = McpClient(wd, env=env)
    got = task_status(mcp2, tid)
    equal((got["status"], got["taskId"]), ("working", tid), "the new askhost mcp knows the task")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(DATABASE_Q["question"], "SQLite", "SQLite")]})
    sqlite_answered(until_status(mcp2, tid, "completed"))
    equal(mcp.proc.wait(timeout=10), 0, "the first askhost mcp ends once its task is answered")
    equal(mcp2.close(), 0, "exit code")
    shutdown(ed)


@case
def a_task_with_no_host_waits_in_askhost_while_its_client_is_away():
    wd = Workdir()
    mcp = McpClient(wd, cwd=proj(wd))
    tid = new_task(wd, mcp, TASKS)  # no host and no form: askhost mcp waits as a host of its own
    mcp.proc.stdin.close()  # the client goes away; its question waits on

    def waiting():
        out = subprocess.run([ASKHOST, "status", "--json"], env=wd.env(), capture_output=True, text=True, timeout=10)
        return json.loads(out.stdout)["waiting"] if out.returncode == 0 else None
    wait_for(lambda: waiting() == 1, what="askhost status counting the task's question")
    ed = Editor(wd, sock_path=host_socket(wd))  # as askhost attach or the page would
    ed.initialize()
    show = ed.method("ask/show")
    ed.reply(show["id"], {"answered": True, "answers": [answer_of(DATABASE_Q["question"], "SQLite", "SQLite")]})
    mcp2 = McpClient(wd, cwd=proj(wd))  # the client back, through a new askhost mcp
    sqlite_answered(until_status(mcp2, tid, "completed"))
    equal(mcp.proc.wait(timeout=10), 0, "the first askhost mcp ends once its task is answered")
    equal(mcp2.close(), 0, "exit code")


@case
def a_task_whose_askhost_mcp_died_is_asked_again():
    wd = Workdir()
    ed, env = editor_host(wd)
    mcp = McpClient(wd, env=env)
    tid = new_task(wd, mcp, TASKS)
    first = ed.method("ask/show")
    os.kill(mcp.proc.pid, signal.SIGKILL)
    mcp.proc.wait(timeout=10)
    ed.wait(lambda m: m.get("method") == "$/cancelRequest" and m["params"]["id"] == first["id"],
            what="the dead process's question withdrawn")
    mcp2 = McpClient(wd, env=env)
    equal(task_status(mcp2, tid)["status"], "working", "asked again")
    again = ed.method("ask/show")
    ed.reply(again["id"], {"answered": True, "answers": [answer_of(DATABASE_Q["question"], "SQLite", "SQLite")]})
    sqlite_answered(until_status(mcp2, tid, "completed"))
    equal(mcp2.close(), 0, "exit code")
    shutdown(ed)


@case
def a_task_in_the_clients_form():
    wd = Workdir()
    mcp = McpClient(wd, cwd=proj(wd))
    tid = new_task(wd, mcp, {"elicitation": {}, **TASKS})
    got = until_status(mcp, tid, "input_required")
    req = got["inputRequests"]["questions"]
    equal(req["method"], "elicitation/create", "the form as the task's input request")
    check("q1" in req["params"]["requestedSchema"]["properties"], "the form askhost sends today")
    time.sleep(1.5)  # as long as a person looks at the form: a reply sooner is no person's
    # A key not outstanding is ignored; the outstanding one answers.
    ack = served(task_request(mcp, "tasks/update", tid, inputResponses={"other": {"action": "decline"}})["result"])
    equal(sorted(ack), ["_meta", "resultType"], "an empty acknowledgement")
    equal(task_status(mcp, tid)["status"], "input_required", "still waiting")
    task_request(mcp, "tasks/update", tid, inputResponses={"questions": {"action": "accept", "content": {"q1": "SQLite"}}})
    sqlite_answered(until_status(mcp, tid, "completed"))
    served(task_request(mcp, "tasks/update", tid, inputResponses={"questions": {"action": "decline"}})["result"])
    sqlite_answered(task_status(mcp, tid))
    equal(mcp.close(), 0, "exit code")


@case
def a_cancelled_task_withdraws_its_question():
    wd = Workdir()
    ed, env = editor_host(wd)
    mcp = McpClient(wd, env=env)
    tid = new_task(wd, mcp, TASKS)
    show = ed.method("ask/show")
    served(task_request(mcp, "tasks/cancel", tid)["result"])
    ed.wait(lambda m: m.get("method") == "$/cancelRequest" and m["params"]["id"] == show["id"],
            what="the question withdrawn in the editor")
    equal(task_status(mcp, tid)["status"], "cancelled", "cancelled")
    equal(mcp.close(), 0, "exit code")
    shutdown(ed)


# The official TypeScript SDK's v2 client, pinned in ./dev (AGENTS) and installed by `./dev agents`.
SDK_CLIENT = os.path.join(os.environ.get("ASKHOST_AGENTS_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "askhost-agents"),
    "modelcontextprotocol-client-2.4.0")


def sdk_client(mode, action="accept"):
    if not os.path.isdir(os.path.join(SDK_CLIENT, "node_modules", "@modelcontextprotocol", "client")):
        raise Skip("@modelcontextprotocol/client 2.4.0 is not installed (./dev agents)")
    if not shutil.which("node"):
        raise Skip("no node")
    wd = Workdir()
    env = wd.env(MCP_CLIENT_DIR=SDK_CLIENT, ASKHOST=ASKHOST, PROJ=proj(wd), QUESTION=json.dumps(strict(DATABASE_Q)),
                 FORM_ACTION=action)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_sdk_client.cjs")
    # The timeout only catches a hang.
    out = subprocess.run(["node", script, mode], env=env, capture_output=True, text=True, timeout=60)
    equal(out.returncode, 0, "the SDK client: " + out.stderr[-2000:])
    got = json.loads(out.stdout)
    equal(got["tools"], ["ask_user_question"], "tools")
    equal(got["pre"]["answers"], {DATABASE_Q["question"]: DATABASE_Q["options"][0]["label"]}, "pre-answered")
    if action == "decline":
        check(got["askedError"] is True and got["askedText"].startswith("User declined to answer questions"),
              f"a declined form is today's decline: {got}")
    else:
        equal(got["asked"]["answers"], {DATABASE_Q["question"]: DATABASE_Q["options"][1]["label"]},
              "answered in the client's form")
    equal(len(got["forms"]), 1, "one form shown")


# The tasks extension's client, beside the v2 client it plugs into (one folder, ./dev's AGENTS).
TASKS_CLIENT = os.path.join(os.path.dirname(SDK_CLIENT), "modelcontextprotocol-ext-tasks-0.2.2")


@case
def the_ext_tasks_client_resumes_its_task_and_gets_the_editors_answer():
    if not os.path.isdir(os.path.join(TASKS_CLIENT, "node_modules", "@modelcontextprotocol", "ext-tasks")):
        raise Skip("@modelcontextprotocol/ext-tasks 0.2.2 is not installed (./dev agents)")
    if not shutil.which("node"):
        raise Skip("no node")
    wd = Workdir()
    ed, env = editor_host(wd)
    env.update(MCP_TASKS_DIR=TASKS_CLIENT, ASKHOST=ASKHOST, PROJ=proj(wd), QUESTION=json.dumps(strict(DATABASE_Q)))
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_sdk_tasks_client.mjs")
    client = subprocess.Popen(["node", script], env=env, stdout=subprocess.PIPE,
                              stderr=open(wd.file("tasks-client-stderr.txt"), "wb"), text=True)
    try:
        def event(name):
            line = client.stdout.readline()
            check(line, "the client ended early: " + open(wd.file("tasks-client-stderr.txt")).read()[-2000:])
            got = json.loads(line)
            equal(got["event"], name, f"the client's next step: {got}")
            return got
        first = ed.method("ask/show")
        task = event("task")
        equal(task["kind"], "task", "a task, not an immediate result")
        # The client closed: the askhost mcp that held the question ended (the SDK sends SIGTERM
        # 2 s after closing its stdin), and its question left the editor.
        ed.wait(lambda m: m.get("method") == "$/cancelRequest" and m["params"]["id"] == first["id"],
                what="the first askhost mcp's question withdrawn")
        event("resumed")
        again = ed.method("ask/show")  # the new askhost mcp asks it again, from the task's record
        equal(again["params"]["questions"][0]["question"], DATABASE_Q["question"], "the same question")
        ed.reply(again["id"], {"answered": True, "answers": [answer_of(DATABASE_Q["question"], "SQLite", "SQLite")]})
        done = event("done")
        equal(done["result"]["structuredContent"]["answers"], {DATABASE_Q["question"]: "SQLite"}, "the answer")
        equal(client.wait(timeout=30), 0, "the client's exit code")
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
    shutdown(ed)


@case
def the_sdk_v2_client_pinned_to_2026_07_28():
    sdk_client("pin")


@case
def the_sdk_v2_client_pinned_declines():
    sdk_client("pin", action="decline")


@case
def the_sdk_v2_client_in_auto_mode():
    sdk_client("auto")


@case
def the_sdk_v2_client_in_legacy_mode():
    sdk_client("legacy")


if __name__ == "__main__":
    raise SystemExit(main())
