"""Load: many questions at once, answered by a scripted client. None lost, none delivered to the
wrong requester: every answer names its question, and the agent checks it got its own."""
import json
import os
import sys
import threading

from harness import Editor, Workdir, case, check, equal, main

LOAD_AGENT = r'''
import json, sys
total, window, agent = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sent = got = 0
open_ids = set()
bad = []
def ask(i):
    q = {"question": "%s question %d?" % (agent, i), "header": "Q%d" % i,
         "options": [{"label": "yes %d" % i}, {"label": "no %d" % i}]}
    print(json.dumps({"type": "ask_user_request", "requestId": "%s-%d" % (agent, i), "questions": [q]}), flush=True)
    open_ids.add("%s-%d" % (agent, i))
while sent < min(window, total):
    ask(sent); sent += 1
for line in sys.stdin:
    r = json.loads(line)
    rid = r["requestId"]
    i = int(rid.rsplit("-", 1)[1])
    if rid not in open_ids or not r.get("answered") or r["answers"][0]["answer"] != "yes %d" % i \
            or r["answers"][0]["question"] != "%s question %d?" % (agent, i):
        bad.append(r)
    open_ids.discard(rid)
    got += 1
    if sent < total:
        ask(sent); sent += 1
    if got == total:
        break
print(json.dumps({"summary": True, "got": got, "bad": bad[:3], "nbad": len(bad), "open": sorted(open_ids)[:3]}), flush=True)
'''


def load_agent(wd, total, window, name):
    path = wd.file("load_agent.py")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(LOAD_AGENT)
    return [sys.executable, path, str(total), str(window), name]


class Answerer(threading.Thread):
    """The one reader of an editor's messages: answers each ask/show with the first option, as a
    person would, and keeps the agent's closing summary. (The harness's Editor.wait keeps every
    message it skips, which costs quadratic time at this volume.)"""

    def __init__(self, ed):
        super().__init__(daemon=True)
        self.ed = ed
        self.answered = []
        self.summary = None
        self.exited = threading.Event()

    def run(self):
        while True:
            m = self.ed.messages.get()
            if m is None:
                self.exited.set()
                return
            method = m.get("method")
            if method == "ask/show":
                q = m["params"]["questions"][0]
                try:
                    self.ed.reply(m["id"], {"answered": True, "answers": [
                        {"question": q["question"], "answer": q["options"][0]["label"],
                         "selectedOption": q["options"][0]["label"], "wasCustom": False}]})
                except OSError:
                    return
                self.answered.append(q["question"])
            elif method == "agent/output" and '"summary"' in m["params"]["text"]:
                self.summary = json.loads(m["params"]["text"])
            elif method == "agent/exit":
                self.exited.set()

    def result(self, timeout):
        check(self.exited.wait(timeout), "the agent did not finish in time")
        check(self.summary is not None, "no summary from the agent")
        return self.summary


def shutdown(ed):
    ed.send({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})
    ed.notify("exit")
    return ed.exit_code()


@case
def one_agent_twenty_concurrent_requests_1000_questions():
    wd = Workdir()
    ed = Editor(wd, ["--"] + load_agent(wd, 1000, 20, "solo"))
    a = Answerer(ed)
    a.start()
    ed.send({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {"capabilities": {"ask": {}}}})
    ed.notify("initialized", {})
    s = a.result(timeout=240)
    equal((s["got"], s["nbad"], s["open"]), (1000, 0, []), f"agent's summary (bad: {s['bad']})")
    equal(len(a.answered), 1000, "asks shown and answered")
    equal(len(set(a.answered)), 1000, "no ask shown twice")
    equal(shutdown(ed), 0, "exit code")


@case
def twenty_agents_fifty_questions_each():
    wd = Workdir()
    editors, answerers = [], []
    for k in range(20):
        ed = Editor(wd, ["--"] + load_agent(wd, 50, 5, f"agent{k}"))
        a = Answerer(ed)
        a.start()
        ed.send({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {"capabilities": {"ask": {}}}})
        ed.notify("initialized", {})
        editors.append(ed)
        answerers.append(a)
    for k, a in enumerate(answerers):
        s = a.result(timeout=240)
        equal((s["got"], s["nbad"], s["open"]), (50, 0, []), f"agent{k}'s summary (bad: {s['bad']})")
        equal(len(a.answered), 50, f"asks answered through agent{k}'s host")
        check(all(q.startswith(f"agent{k} ") for q in a.answered), f"agent{k}'s host showed another agent's question")
    for ed in editors:
        equal(shutdown(ed), 0, "exit code")


if __name__ == "__main__":
    raise SystemExit(main())
