"""The claude and pi adapters against scripted fakes of their agents: what the real CLIs rarely do
(malformed lines, withdrawn questions, an agent that exits mid-question). The scripted agent ignores
the flags the adapters add to its argv."""
import json
import os
import shlex

from harness import DATABASE_Q, Editor, Workdir, case, check, equal, main

CLAUDE_ASK = {"type": "control_request", "request_id": "r1", "request": {
    "subtype": "can_use_tool", "tool_name": "AskUserQuestion", "tool_use_id": "toolu_1",
    "input": {"questions": [dict(DATABASE_Q, options=[dict(o, description=o.get("description", ""))
                                                       for o in DATABASE_Q["options"]])]}}}


def start(wd, adapter, steps, caps=None):
    # A wrapper that drops the argv the adapter makes (its flags, and no prompt word to take out).
    wrapper = wd.file("fake-" + adapter)
    with open(wrapper, "w") as f:
        f.write("#!/bin/sh\nexec %s\n" % " ".join(shlex.quote(a) for a in wd.agent(steps)))
    os.chmod(wrapper, 0o755)
    ed = Editor(wd, ["--adapter", adapter, "--", wrapper])
    ed.initialize(caps)
    return ed


def received(wd):
    return [r if r == "EOF" else r for r in wd.records()]


def output(ed):
    return "".join(m["params"]["text"] for m in ed.seen if m.get("method") == "agent/output")


def shutdown(ed):
    rid = ed.request("shutdown")
    ed.result_of(rid)
    ed.notify("exit")
    equal(ed.exit_code(), 0, "exit code")


@case
def claude_malformed_lines_are_output_and_the_question_still_works():
    wd = Workdir()
    ed = start(wd, "claude", [{"out": "plain text"}, {"out": "{broken json"}, {"out": "[1, 2]"},
                              {"raw": '{"type":"control_request","request":{"subtype":"can_use_tool"}}\n'},
                              {"send": CLAUDE_ASK}, {"recv": 3}, {"out": "after"}])
    show = ed.method("ask/show")
    equal(show["params"]["agent"], "fake-claude", "agent")
    ed.reply(show["id"], {"answered": True, "answers": [
        {"question": DATABASE_Q["question"], "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False}]})
    ed.method("agent/exit")
    out = output(ed)
    check("plain text\n" in out and "{broken json\n" in out and "after\n" in out, f"output: {out!r}")
    init, bad, resp = received(wd)
    equal(init["request"]["subtype"], "initialize", "the handshake first")
    equal(bad["response"]["subtype"], "success", "a can_use_tool without a tool name is denied, not ignored")
    equal(resp["response"]["request_id"], "r1", "request id")
    equal(resp["response"]["response"]["updatedInput"]["answers"], {DATABASE_Q["question"]: "SQLite"}, "answers")
    shutdown(ed)


@case
def claude_updated_input_keeps_every_number_as_written():
    """Issue 20: the tool input goes back to Claude in updatedInput with the answers added; every
    other value in it, numbers included, comes back as Claude wrote it."""
    literals = "[4633e49,123456789012345678901234567890,-0,5e-324,1E+2,1.50,18446744073709551615]"
    ask = json.dumps(CLAUDE_ASK).replace(
        '"input": {', '"input": {"extra": @, ', 1).replace("@", literals)
    wd = Workdir()
    ed = start(wd, "claude", [{"raw": ask + "\n"}, {"recv": 2}])
    show = ed.method("ask/show")
    ed.reply(show["id"], {"answered": True, "answers": [
        {"question": DATABASE_Q["question"], "answer": "SQLite", "selectedOption": "SQLite", "wasCustom": False}]})
    ed.method("agent/exit")
    with open(wd.file("record.jsonl")) as f:
        lines = f.read().splitlines()
    reply = [l for l in lines if '"updatedInput"' in l]
    check(len(reply) == 1, f"one reply with updatedInput: {lines}")
    check('"extra":' + literals in reply[0], f"updatedInput keeps the literals: {reply[0]}")
    equal(json.loads(reply[0])["response"]["response"]["updatedInput"]["answers"],
          {DATABASE_Q["question"]: "SQLite"}, "answers")
    shutdown(ed)


@case
def claude_control_cancel_withdraws_the_question():
    wd = Workdir()
    ed = start(wd, "claude", [{"send": CLAUDE_ASK}, {"sleep": 0.5},
                              {"send": {"type": "control_cancel_request", "request_id": "r1"}}, {"recv": 1}])
    show = ed.method("ask/show")
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"]["id"], show["id"], "the dialog is closed")
    ed.method("agent/exit")
    equal(len(received(wd)), 1, "no answer is sent for a withdrawn question (only the handshake)")
    shutdown(ed)


@case
def claude_agent_exit_closes_the_question():
    wd = Workdir()
    ed = start(wd, "claude", [{"send": CLAUDE_ASK}, {"sleep": 0.5}, {"exit": 0}])
    show = ed.method("ask/show")
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"]["id"], show["id"], "withdrawn when Claude exits")
    shutdown(ed)


@case
def pi_malformed_requests_and_fire_and_forget():
    wd = Workdir()
    steps = [{"out": "not json"},
             {"send": {"type": "extension_ui_request", "id": "n1", "method": "notify", "message": "hi",
                       "notifyType": "warning"}},
             {"send": {"type": "extension_ui_request", "id": "s1", "method": "setStatus", "statusKey": "k"}},
             {"send": {"type": "extension_ui_request", "id": "x1", "method": "dance"}},
             {"send": {"type": "extension_ui_request", "id": "u1", "method": "select", "options": ["a", "a", "b", 3]}},
             {"recv": 1}, {"out": "done"}]
    ed = start(wd, "pi", steps)
    show = ed.method("ask/show")
    q = show["params"]["questions"][0]
    equal([o["label"] for o in q["options"]], ["a", "b"], "duplicate and non-string options dropped")
    check(q["question"], "a question text even without a title")
    ed.reply(show["id"], {"answered": True, "answers": [{"question": q["question"], "answer": "my own",
                                                         "wasCustom": True}]})
    ed.method("agent/exit")
    equal(received(wd), [{"type": "extension_ui_response", "id": "u1", "value": "my own"}], "pi received")
    out = output(ed)
    check("not json\n" in out and "pi warning: hi\n" in out and "done\n" in out, f"output: {out!r}")
    shutdown(ed)


@case
def pi_exit_mid_dialog_closes_it():
    wd = Workdir()
    ed = start(wd, "pi", [{"send": {"type": "extension_ui_request", "id": "u1", "method": "confirm", "title": "Go?"}},
                          {"sleep": 0.5}, {"exit": 3}])
    show = ed.method("ask/show")
    equal([o["label"] for o in show["params"]["questions"][0]["options"]], ["Yes", "No"], "confirm")
    cancel = ed.method("$/cancelRequest")
    equal(cancel["params"]["id"], show["id"], "withdrawn when pi exits")
    equal(ed.method("agent/exit")["params"]["exitCode"], 3, "exit code passed on")
    shutdown(ed)


if __name__ == "__main__":
    raise SystemExit(main())
