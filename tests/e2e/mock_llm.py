#!/usr/bin/env python3
"""A scripted mock of four model APIs on 127.0.0.1, for real agent CLIs run offline.

    mock_llm.py SCRIPT RECORD PORTFILE

Serves what the agents in the end-to-end tests use, streamed (SSE):
  POST /v1/messages            Anthropic Messages (Claude Code)
  POST /v1/responses           OpenAI Responses (Codex)
  POST /v1/chat/completions    OpenAI Chat Completions (pi)
  POST /v1beta/models/M:streamGenerateContent   Google Gemini (Gemini CLI; :generateContent too)

SCRIPT (JSON): {"tools": ["mcp__ask__ask_user_question", ...], "input": {...}, "final": "Done."}
A main request is one that offers one of `tools`. Its first reply calls that tool with `input`;
once a request carries the result of that call, the reply is `final` text and the turn ends.
Other requests (titles, summaries, side queries) get a short text reply.
With "subagent": {"prompt": P, "tools": [...], "input": {...}}, a request whose user messages hold
P, a sub-agent the agent started with prompt P, follows that script instead, and its entry in
RECORD says "subagent": true (Anthropic, Responses, Chat Completions). With "wait_for_subagent":
true the main conversation's final reply waits (60 s at most) until the sub-agent's tool result
has come, so an agent that ends with its main turn does not cut the sub-agent short. With
"ask_once": true (Anthropic, Responses, Gemini) the tool is called once: a later main request without its result (the
history was compacted, the result is gone from it) gets `final`, as a model that was told.
With "calls": [{"tool", "input"}, ...] (Anthropic) a main request is answered with the first call
whose result the conversation does not hold yet, in order (a Read before the Edit it allows), and
`final` once every call has its result; `tools` still names what makes a request a main one.
RECORD: one JSON line per request: {"api", "path", "main", "tool", "tool_result"?, "body"}, where
tool_result is {"text": all text of the result, "is_error": bool, "raw": as received}.
PORTFILE: the port, written (atomically) once the server listens.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SCRIPT = json.load(open(sys.argv[1]))
RECORD = sys.argv[2]
PORTFILE = sys.argv[3]
LOCK = threading.Lock()
CALLS = {"n": 0}
ASKED = threading.Event()  # the scripted tool was called (ask_once)
SUBAGENT_RESULT = threading.Event()


def record(entry):
    with LOCK, open(RECORD, "a") as f:
        f.write(json.dumps(entry) + "\n")


def next_call_id(prefix):
    with LOCK:
        CALLS["n"] += 1
        return "%s_mock_%02d" % (prefix, CALLS["n"])


def text_of(content):
    """All text in a tool result's content, however it is shaped."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(text_of(c) for c in content)
    if isinstance(content, dict):
        if "text" in content and isinstance(content["text"], str):
            return content["text"]
        if "content" in content:
            return text_of(content["content"])
        if "output" in content:
            return text_of(content["output"])
    return ""


def sse(event, data):
    head = f"event: {event}\n" if event else ""
    return (head + "data: " + (data if isinstance(data, str) else json.dumps(data)) + "\n\n").encode()


# --- Anthropic Messages -----------------------------------------------------------------------

USAGE = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


def script_for(messages):
    """The script a request follows: the sub-agent's when one of its user messages holds the
    sub-agent's prompt (the main conversation has it only in its own tool call), else the main one."""
    sub = SCRIPT.get("subagent")
    for m in messages if sub and isinstance(messages, list) else []:
        if isinstance(m, dict) and m.get("role") == "user" and sub["prompt"] in json.dumps(m.get("content")):
            return sub
    return SCRIPT


def final_text(script, entry):
    """The final reply's text, once a sub-agent is done when the script says to wait for it."""
    if script is not SCRIPT:
        SUBAGENT_RESULT.set()
    elif SCRIPT.get("wait_for_subagent"):
        SUBAGENT_RESULT.wait(60)
    return script.get("final", "Done.")


def anthropic_script(body):
    return script_for(body.get("messages"))


def anthropic_offered(body, script=SCRIPT):
    names = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
    return next((n for n in script["tools"] if n in names), None)


def anthropic_result(body):
    msgs = body.get("messages") or []
    if not msgs or msgs[-1].get("role") != "user" or not isinstance(msgs[-1].get("content"), list):
        return None
    for block in msgs[-1]["content"]:
        if isinstance(block, dict) and block.get("type") == "tool_result" and \
                str(block.get("tool_use_id", "")).startswith("toolu_mock_"):
            return {"text": text_of(block.get("content")), "is_error": bool(block.get("is_error")), "raw": block}
    return None


def anthropic_results(body):
    """How many results of the mock's own tool calls the conversation holds."""
    return sum(1 for m in body.get("messages") or [] if m.get("role") == "user" and isinstance(m.get("content"), list)
               for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result" and
               str(b.get("tool_use_id", "")).startswith("toolu_mock_"))


def anthropic_reply(model, blocks, stop_reason):
    out = [sse("message_start", {"type": "message_start", "message": {
        "id": next_call_id("msg"), "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": USAGE}})]
    for i, b in enumerate(blocks):
        if "tool_use" in b:
            tu = b["tool_use"]
            out.append(sse("content_block_start", {"type": "content_block_start", "index": i, "content_block": {
                "type": "tool_use", "id": tu["id"], "name": tu["name"], "input": {}}}))
            out.append(sse("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(tu["input"])}}))
        else:
            out.append(sse("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "text", "text": ""}}))
            out.append(sse("content_block_delta", {"type": "content_block_delta", "index": i,
                                                   "delta": {"type": "text_delta", "text": b["text"]}}))
        out.append(sse("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop_reason,
                                                                        "stop_sequence": None},
                                     "usage": {"output_tokens": 5}}))
    out.append(sse("message_stop", {"type": "message_stop"}))
    return b"".join(out)


def serve_anthropic(body, entry):
    script = anthropic_script(body)
    tool = anthropic_offered(body, script)
    result = anthropic_result(body) if tool else None
    model = body.get("model") or "mock-model"
    entry.update(main=bool(tool), tool=tool)
    if script is not SCRIPT:
        entry["subagent"] = True
    if result is not None:
        entry["tool_result"] = result
    if tool and script.get("calls"):
        done = anthropic_results(body)
        if done < len(script["calls"]):
            call = script["calls"][done]
            return anthropic_reply(model, [{"tool_use": {"id": next_call_id("toolu"), "name": call["tool"],
                                                         "input": call["input"]}}], "tool_use")
        return anthropic_reply(model, [{"text": final_text(script, entry)}], "end_turn")
    if result is not None:
        return anthropic_reply(model, [{"text": final_text(script, entry)}], "end_turn")
    if tool and script is SCRIPT and SCRIPT.get("ask_once") and ASKED.is_set():
        return anthropic_reply(model, [{"text": final_text(script, entry)}], "end_turn")
    if tool:
        if script is SCRIPT:
            ASKED.set()
        return anthropic_reply(model, [{"tool_use": {"id": next_call_id("toolu"), "name": tool,
                                                     "input": script["input"]}}], "tool_use")
    return anthropic_reply(model, [{"text": SCRIPT.get("side", "OK")}], "end_turn")


# --- OpenAI Responses (Codex) -------------------------------------------------------------------

def responses_offered(body, script=SCRIPT):
    """(namespace or None, name) of the first scripted tool offered."""
    offered = []
    for t in body.get("tools") or []:
        if not isinstance(t, dict):
            continue
        if t.get("type") == "namespace":
            for inner in t.get("tools") or []:
                offered.append((t.get("name"), inner.get("name")))
        else:
            offered.append((None, t.get("name")))
    for want in script["tools"]:
        for ns, name in offered:
            full = f"{ns}__{name}" if ns else name
            if want in (full, name):
                return ns, name
    return None


def responses_result(body):
    items = body.get("input") or []
    for item in reversed(items if isinstance(items, list) else []):
        if isinstance(item, dict) and item.get("type") == "function_call_output" and \
                str(item.get("call_id", "")).startswith("call_mock_"):
            out = item.get("output")
            is_error = False
            if isinstance(out, dict):
                is_error = out.get("success") is False
            return {"text": text_of(out), "is_error": is_error, "raw": item}
    return None


def responses_reply(items):
    rid = next_call_id("resp")
    out = [sse("response.created", {"type": "response.created", "response": {"id": rid, "object": "response",
                                                                            "status": "in_progress", "output": []}})]
    for i, item in enumerate(items):
        out.append(sse("response.output_item.done", {"type": "response.output_item.done", "output_index": i,
                                                     "item": item}))
    out.append(sse("response.completed", {"type": "response.completed", "response": {
        "id": rid, "object": "response", "status": "completed", "output": items,
        "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                  "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}}}))
    return b"".join(out)


def responses_text(text):
    return {"type": "message", "role": "assistant", "id": next_call_id("msg"), "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def serve_responses(body, entry):
    script = script_for(body.get("input"))
    offered = responses_offered(body, script)
    result = responses_result(body) if offered else None
    entry.update(main=bool(offered), tool=offered and (offered[0] + "__" if offered[0] else "") + offered[1])
    if script is not SCRIPT:
        entry["subagent"] = True
    if result is not None:
        entry["tool_result"] = result
        return responses_reply([responses_text(final_text(script, entry))])
    if offered and script is SCRIPT and SCRIPT.get("ask_once") and ASKED.is_set():
        return responses_reply([responses_text(final_text(script, entry))])
    if offered:
        ns, name = offered
        if script is SCRIPT:
            ASKED.set()
        call = {"type": "function_call", "id": next_call_id("fc"), "call_id": next_call_id("call"), "name": name,
                "arguments": json.dumps(script["input"]), "status": "completed"}
        if ns:
            call["namespace"] = ns
        return responses_reply([call])
    return responses_reply([responses_text(SCRIPT.get("side", "OK"))])


# --- OpenAI Chat Completions (pi) ---------------------------------------------------------------

def chat_offered(body, script=SCRIPT):
    names = [(t.get("function") or {}).get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
    return next((n for n in script["tools"] if n in names), None)


def chat_result(body):
    msgs = body.get("messages") or []
    for m in reversed(msgs):
        if m.get("role") == "tool" and str(m.get("tool_call_id", "")).startswith("call_mock_"):
            return {"text": text_of(m.get("content")), "is_error": False, "raw": m}
        if m.get("role") == "user":
            return None
    return None


def chat_chunk(delta, finish=None, usage=None):
    chunk = {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": int(time.time()),
             "model": "mock-model", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    if usage:
        chunk["usage"] = usage
    return sse(None, chunk)


def chat_reply(text=None, call=None):
    out = [chat_chunk({"role": "assistant", "content": ""})]
    if call:
        out.append(chat_chunk({"tool_calls": [{"index": 0, "id": call["id"], "type": "function", "function": {
            "name": call["name"], "arguments": json.dumps(call["input"])}}]}))
        out.append(chat_chunk({}, "tool_calls"))
    else:
        out.append(chat_chunk({"content": text}))
        out.append(chat_chunk({}, "stop"))
    out.append(sse(None, {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": int(time.time()),
                          "model": "mock-model", "choices": [],
                          "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}))
    out.append(sse(None, "[DONE]"))
    return b"".join(out)


def serve_chat(body, entry):
    script = script_for(body.get("messages"))
    tool = chat_offered(body, script)
    result = chat_result(body) if tool else None
    entry.update(main=bool(tool), tool=tool)
    if script is not SCRIPT:
        entry["subagent"] = True
    if result is not None:
        entry["tool_result"] = result
        return chat_reply(text=final_text(script, entry))
    if tool:
        return chat_reply(call={"id": next_call_id("call"), "name": tool, "input": script["input"]})
    return chat_reply(text=SCRIPT.get("side", "OK"))


# --- Google Gemini (Gemini CLI) -----------------------------------------------------------------

def gemini_offered(body):
    names = [d.get("name") for t in body.get("tools") or [] if isinstance(t, dict)
             for d in t.get("functionDeclarations") or [] if isinstance(d, dict)]
    return next((n for n in SCRIPT["tools"] if n in names), None)


def gemini_result(body):
    contents = body.get("contents") or []
    if not contents or not isinstance(contents[-1], dict):
        return None
    for part in contents[-1].get("parts") or []:
        resp = part.get("functionResponse") if isinstance(part, dict) else None
        if isinstance(resp, dict):
            out = resp.get("response") or {}
            is_error = isinstance(out, dict) and "error" in out
            text = out.get("error" if is_error else "output") if isinstance(out, dict) else out
            return {"text": text if isinstance(text, str) else json.dumps(text), "is_error": is_error, "raw": part}
    return None


def gemini_reply(parts, stream=True):
    reply = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
             "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
             "modelVersion": "mock-model"}
    return sse(None, reply) if stream else json.dumps(reply).encode()


def serve_gemini(body, entry):
    if ":streamGenerateContent" not in entry["path"]:
        # Its model router asks first (generateContent) which model should answer.
        entry.update(main=False, tool=None)
        return gemini_reply([{"text": json.dumps({"reasoning": "mock", "model_choice": "flash"})}], stream=False)
    tool = gemini_offered(body)
    result = gemini_result(body) if tool else None
    entry.update(main=bool(tool), tool=tool)
    if result is not None:
        entry["tool_result"] = result
        return gemini_reply([{"text": SCRIPT.get("final", "Done.")}])
    if tool and SCRIPT.get("ask_once") and ASKED.is_set():
        return gemini_reply([{"text": SCRIPT.get("final", "Done.")}])
    if tool:
        ASKED.set()
        return gemini_reply([{"functionCall": {"name": tool, "args": SCRIPT["input"]}}])
    return gemini_reply([{"text": SCRIPT.get("side", "OK")}])


ROUTES = {"/v1/messages": ("anthropic", serve_anthropic), "/v1/responses": ("responses", serve_responses),
          "/v1/chat/completions": ("chat", serve_chat)}
GEMINI_PREFIX = "/v1beta/models/"  # .../MODEL:streamGenerateContent or :generateContent


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # the record file says what happened
        pass

    def _send(self, code, ctype, data):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _not_found(self, method, body=None):
        record({"api": None, "method": method, "path": self.path, "body": body})
        self._send(404, "application/json", b'{"error":{"type":"not_found_error","message":"mock"}}')

    def do_GET(self):
        self._not_found("GET")

    def do_HEAD(self):
        self._not_found("HEAD")

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        path = self.path.split("?", 1)[0]
        route = ROUTES.get(path) or (("gemini", serve_gemini) if path.startswith(GEMINI_PREFIX) else None)
        if not route:
            return self._not_found("POST", body)
        entry = {"api": route[0], "method": "POST", "path": self.path}
        data = route[1](body, entry)
        entry["body"] = body
        record(entry)
        json_reply = route[0] == "gemini" and ":streamGenerateContent" not in path
        self._send(200, "application/json" if json_reply else "text/event-stream", data)


def exit_with_parent():
    """The test that started the mock may die without stopping it: then stop too."""
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


def main():
    threading.Thread(target=exit_with_parent, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(PORTFILE + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(PORTFILE + ".tmp", PORTFILE)
    server.serve_forever()


if __name__ == "__main__":
    main()
