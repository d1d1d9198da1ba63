"""`askhost mcp` and a client of MCP 2026-07-28, on the wire: no handshake, the version and the
client's capabilities in every request's _meta, server/discover, and a question asked through
input_required and answered by the retry (docs/mcp.md)."""
import json
import os
import shutil
import subprocess
import time

from harness import ASKHOST, DATABASE_Q, FEATURES_Q, McpClient, Skip, Workdir, case, check, equal, main, strict

MODERN = "2026-07-28"


def meta(caps=None, version=MODERN):
    return {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientInfo": {"name": "modern-client", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": caps or {}}


def proj(wd):
    """A directory no host's workspace holds."""
    path = os.path.join(wd.path, "ws", "proj")
    os.makedirs(path, exist_ok=True)
    return os.path.realpath(path)


def asked_in_form(caps=None):
    """A modern client that offers its form, and its first call's input_required result."""
    wd = Workdir()
    mcp = McpClient(wd, cwd=proj(wd))
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
    equal(mcp.close(), 0, "exit code")


@case
def modern_requests_are_served_without_a_handshake():
    wd = Workdir()
    mcp = McpClient(wd)
    res = mcp.reply_to(mcp.request("tools/list", {"_meta": meta()}))["result"]
    equal(res["resultType"], "complete", "resultType on the list")
    check(res["ttlMs"] > 0 and res["cacheScope"] == "public", f"cacheable list: {res}")
    equal([t["name"] for t in res["tools"]], ["ask_user_question"], "tools")
    # Pre-answered: the answers come back at once.
    rid = mcp.call({"questions": [strict(DATABASE_Q)], "answers": {DATABASE_Q["question"]: "SQLite"}}, meta=meta())
    res = mcp.reply_to(rid)["result"]
    equal(res["resultType"], "complete", "resultType on the call")
    equal(res["structuredContent"]["answers"], {DATABASE_Q["question"]: "SQLite"}, "answers")
    equal(res["isError"], False, "isError")
    for gone in ("ping", "logging/setLevel"):
        err = mcp.reply_to(mcp.request(gone, {"_meta": meta()}))["error"]
        equal(err["code"], -32601, f"{gone} is gone in {MODERN}")
    # The 2025 era on the same connection is unchanged.
    equal(mcp.reply_to(mcp.request("ping"))["result"], {}, "ping without _meta")
    check("resultType" not in mcp.reply_to(mcp.request("tools/list"))["result"], "no resultType without _meta")
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
    equal(res["resultType"], "input_required", "resultType")
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
    equal(res["resultType"], "complete", "resultType")
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
def a_cancelled_call_gets_no_reply():
    wd = Workdir()
    mcp = McpClient(wd, cwd=proj(wd))
    rid = mcp.call({"questions": [strict(DATABASE_Q)]}, meta=meta())  # no form: it waits as a host of its own
    mcp.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": rid}})
    lid = mcp.request("tools/list", {"_meta": meta()})
    equal(mcp.reply_to(lid)["result"]["resultType"], "complete", "the next line is the list's, not the call's")
    equal(mcp.close(), 0, "exit code")
    check(mcp.lines.get(timeout=10) is None, "nothing more after the list")


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
    main()
