#!/usr/bin/env python3
"""A question from an agent in a tmux pane with nobody to show it to: the dialog in a tmux popup
over that pane. The agent is a stand-in for a TUI (the terminal raw, askhost mcp its child on
pipes, no TMUX in the server's environment); a second tmux server holds the client that looks at
the agent's session, so the popup is really drawn and its screen can be read."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

from harness import (ASKHOST, DATABASE_Q, Skip, Tmux, Workdir, ask_request, case, check, equal, main,
                     read_records, shlex_quote, strict, wait_for)

FAKE_TUI = r'''
import json, os, subprocess, sys, termios, time, tty
fd = sys.stdin.fileno()
old = termios.tcgetattr(fd)
tty.setraw(fd)
p = subprocess.Popen([os.environ["ASKHOST"], "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=open("mcp-stderr.txt", "ab"))
with open("mcp.pid", "w") as f:
    f.write(str(p.pid))
def send(o):
    p.stdin.write((json.dumps(o) + "\n").encode()); p.stdin.flush()
sys.stdout.write("FAKE AGENT TUI\r\n"); sys.stdout.flush()
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
      "capabilities": json.loads(os.environ.get("CAPS", "{}")), "clientInfo": {"name": "codex-mcp-client", "version": "1"}}})
p.stdout.readline()
while os.environ.get("GO") and not os.path.exists(os.environ["GO"]):
    time.sleep(0.01)  # the test says when this agent asks
for i, q in enumerate(json.loads(os.environ["QUESTIONS"])):
    send({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call", "params": {"name": "ask_user_question",
          "arguments": {"questions": [q]}}})
done = 0
while done < len(json.loads(os.environ["QUESTIONS"])):
    line = p.stdout.readline()
    if not line:
        break
    with open("mcp-out.jsonl", "ab") as f:
        f.write(line)
    if b'"method"' in line:
        continue  # progress, or a request of askhost's (the client's form): not a result
    done += 1
    with open("results.jsonl", "ab") as f:
        f.write(line)
termios.tcsetattr(fd, termios.TCSADRAIN, old)
sys.stdout.write("FAKE AGENT DONE\n"); sys.stdout.flush()
p.stdin.close(); p.wait()
'''


class Scene:
    """tmux server `inner`: the agent's session; server `outer`: a terminal whose client looks at it."""

    def __init__(self, wd, questions, agent_window_hidden=False, caps=None, unset=()):
        if not subprocess.run(["sh", "-c", "command -v tmux"], capture_output=True).returncode == 0:
            raise Skip("tmux is not installed")
        wd.popups = True  # what these tests are about
        self.wd = wd
        self.inner = "askhost-in-%d-%d" % (os.getpid(), int(time.monotonic() * 1000) % 100000)
        self.outer = self.inner.replace("-in-", "-out-")
        self.project = wd.file("proj")
        os.makedirs(self.project, exist_ok=True)
        script = wd.file("fake_tui.py")
        with open(script, "w") as f:
            f.write(FAKE_TUI)
        env = wd.env()
        go = os.path.join(self.project, "go")
        # The case's own runtime and state folders and HOME (its config), whatever the tmux server has.
        run = ("cd %s && env -u TMUX -u TMUX_PANE %sXDG_RUNTIME_DIR=%s XDG_STATE_HOME=%s HOME=%s ASKHOST=%s QUESTIONS=%s"
               " CAPS=%s GO=%s %s %s; sleep 60") % (
            shlex_quote(self.project), "".join("-u %s " % name for name in unset), shlex_quote(env["XDG_RUNTIME_DIR"]),
            shlex_quote(env["XDG_STATE_HOME"]), shlex_quote(env.get("HOME", "/root")),
            shlex_quote(ASKHOST), shlex_quote(json.dumps(questions)), shlex_quote(json.dumps(caps or {})),
            shlex_quote(go), shlex_quote(sys.executable), shlex_quote(script))
        tm = ["tmux", "-f", "/dev/null"]
        if agent_window_hidden:
            subprocess.run(tm + ["-L", self.inner, "new-session", "-d", "-s", "agent", "-x", "100", "-y", "30",
                                 "sh", "-c", run], check=True)
            subprocess.run(tm + ["-L", self.inner, "new-window", "-t", "agent", "sh", "-c", "echo OTHER WINDOW; sleep 120"],
                           check=True)
        else:
            subprocess.run(tm + ["-L", self.inner, "new-session", "-d", "-s", "agent", "-x", "100", "-y", "30",
                                 "sh", "-c", run], check=True)
        subprocess.run(tm + ["-L", self.outer, "new-session", "-d", "-s", "look", "-x", "110", "-y", "35",
                             "env", "-u", "TMUX", "tmux", "-L", self.inner, "attach", "-t", "agent"], check=True)
        wait_for(lambda: client_of(self.inner), what="the client to look at the agent")
        open(go, "w").close()  # the agent asks once a client looks (or, hidden, looks elsewhere)

    def screen(self):
        return subprocess.run(["tmux", "-L", self.outer, "capture-pane", "-p", "-t", "look"], capture_output=True,
                              text=True).stdout

    def wait_screen(self, text, timeout=10.0):
        return wait_for(lambda: screen_with(self.screen(), text), timeout=timeout, what=f"{text!r} on screen")

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", self.outer, "send-keys", "-t", "look"] + list(keys), check=True)

    def results(self):
        return read_records(os.path.join(self.project, "results.jsonl"))

    def status(self):
        out = subprocess.run([ASKHOST, "status", "--json"], env=self.wd.env(), capture_output=True, text=True,
                             timeout=10)
        return json.loads(out.stdout)["waiting"]

    def kill(self):
        kill_servers(self.outer, self.inner)

    def passed(self):
        """The test passed: its servers go, and its folder (a failed one's stays to be read)."""
        self.kill()
        with open(os.path.join(self.project, "mcp.pid")) as f:
            pid = int(f.read())
        wait_for(lambda: not pid_lives(pid), what="askhost mcp to end")
        shutil.rmtree(self.wd.path)


def screen_with(screen, text):
    """The screen if it shows text (one capture a poll: each starts a tmux client)."""
    return screen if text in screen else None


def kill_servers(*names):
    """Ends private tmux servers and removes their sockets (tmux leaves them behind)."""
    folder = os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", "tmux-%d" % os.geteuid())
    for name in names:
        subprocess.run(["tmux", "-L", name, "kill-server"], capture_output=True)
        try:
            os.unlink(os.path.join(folder, name))
        except FileNotFoundError:
            pass


def client_of(server):
    """The name of the first client of a tmux server ("" while none is attached)."""
    out = subprocess.run(["tmux", "-L", server, "list-clients", "-F", "#{client_name}"], capture_output=True,
                         text=True).stdout.split()
    return out[0] if out else ""


def read_text(path):
    """What the file holds, None while it is missing or empty."""
    try:
        with open(path) as f:
            return f.read() or None
    except FileNotFoundError:
        return None


def answers_of(result):
    return result["result"]["structuredContent"]["answers"]


@case
def popup_over_the_asking_pane_answers_and_leaves_its_screen():
    wd = Workdir()
    sc = Scene(wd, [strict(DATABASE_Q)])
    try:
        sc.wait_screen("┌─ askhost")
        screen = sc.wait_screen("Which database should we use?")
        check("FAKE AGENT TUI" in screen, "the agent's screen is under the popup:\n" + screen)
        time.sleep(0.5)  # past the popup's key guard
        sc.keys("2")
        got = wait_for(sc.results, what="the tool result")
        equal(answers_of(got[0]), {DATABASE_Q["question"]: "SQLite"}, "answers")
        screen = sc.wait_screen("FAKE AGENT DONE")
        check("askhost" not in screen.split("FAKE AGENT DONE")[0].replace("FAKE AGENT TUI", ""),
              "the popup closed and left nothing on the agent's screen:\n" + screen)
        sc.passed()
    finally:
        sc.kill()


@case
def a_server_with_its_socket_in_a_folder_of_its_own_is_found_through_the_agents_parents():
    """Codex gives askhost mcp neither TMUX nor TMUX_TMPDIR: the pane of a server whose socket is not
    in /tmp/tmux-UID is found through the nearest parent process whose TMUX names that server (here
    the pane's shell, above the agent, which has no TMUX either), and the popup opens over it."""
    wd = Workdir()
    # This case's tmux servers, and every tmux command it runs, use a folder of its own.
    sockets = wd.file("sockets")
    os.makedirs(sockets)
    os.environ["TMUX_TMPDIR"] = sockets
    # askhost mcp, given no TMUX_TMPDIR, looks in the default folder, and the tmux it runs makes
    # that folder when there is none: an empty one it made is taken away again at the end.
    default = os.path.join("/tmp", "tmux-%d" % os.geteuid())
    made_default = not os.path.exists(default)
    sc = Scene(wd, [strict(DATABASE_Q)], unset=("TMUX_TMPDIR",))
    try:
        check(os.path.exists(os.path.join(sockets, "tmux-%d" % os.geteuid(), sc.inner)),
              "the agent's server listens in the case's folder")
        pid = int(wait_for(lambda: read_text(os.path.join(sc.project, "mcp.pid")), what="askhost mcp to start"))
        with open("/proc/%d/environ" % pid, "rb") as f:
            names = {v.split(b"=", 1)[0] for v in f.read().split(b"\0")}
        equal(names & {b"TMUX", b"TMUX_PANE", b"TMUX_TMPDIR"}, set(), "tmux's variables in askhost mcp's environment")
        sc.wait_screen("Which database should we use?")
        time.sleep(0.5)  # past the popup's key guard
        sc.keys("2")
        got = wait_for(sc.results, what="the tool result")
        equal(answers_of(got[0]), {DATABASE_Q["question"]: "SQLite"}, "answers")
        sc.passed()
    finally:
        sc.kill()
        if made_default:
            try:
                os.rmdir(default)  # only when empty: nothing of anyone else's
            except OSError:
                pass


@case
def the_popup_comes_before_the_clients_own_form():
    wd = Workdir()
    sc = Scene(wd, [strict(DATABASE_Q)], caps={"elicitation": {"form": {}}})
    try:
        sc.wait_screen("Which database should we use?")
        time.sleep(0.5)
        sc.keys("3")
        got = wait_for(sc.results, what="the tool result")
        equal(answers_of(got[0]), {DATABASE_Q["question"]: "MongoDB"}, "answers")
        with open(os.path.join(sc.project, "mcp-out.jsonl")) as f:
            check("elicitation/create" not in f.read(), "no form was asked for")
        sc.passed()
    finally:
        sc.kill()


@case
def two_questions_at_once_come_in_turn_never_stacked():
    wd = Workdir()
    second = {"question": "Which cache should we use?", "header": "Cache", "options": [
        {"label": "Redis", "description": "in memory"}, {"label": "None", "description": "no cache"}]}
    sc = Scene(wd, [strict(DATABASE_Q), second])
    try:
        sc.wait_screen("Which database should we use?")
        check(sc.screen().count("┌─ askhost") == 1, "one popup")
        time.sleep(0.5)
        sc.keys("2")
        sc.wait_screen("Which cache should we use?")
        check(sc.screen().count("┌─ askhost") == 1, "still one popup, not two stacked:\n" + sc.screen())
        time.sleep(0.5)
        sc.keys("1")
        got = wait_for(lambda: len(sc.results()) == 2 and sc.results(), what="both tool results")
        answers = sorted(json.dumps(answers_of(r)) for r in got)
        equal(answers, sorted([json.dumps({DATABASE_Q["question"]: "SQLite"}),
                               json.dumps({"Which cache should we use?": "Redis"})]), "both answered, none lost")
        wait_for(lambda: "askhost" not in sc.screen().replace("FAKE AGENT", ""), what="the popup to close")
        sc.passed()
    finally:
        sc.kill()


@case
def keys_typed_as_the_popup_opens_are_not_an_answer():
    wd = Workdir()
    sc = Scene(wd, [strict(DATABASE_Q)])
    try:
        sc.wait_screen("Which database should we use?")
        sc.keys("3", "Enter")  # typed at once, meant for the agent's prompt
        time.sleep(0.6)
        equal(sc.results(), [], "no answer from keys typed in the first moment")
        sc.keys("1")
        got = wait_for(sc.results, what="the tool result")
        equal(answers_of(got[0]), {DATABASE_Q["question"]: "PostgreSQL (Recommended)"}, "answers")
        sc.passed()
    finally:
        sc.kill()


@case
def a_closed_popup_leaves_the_question_waiting_and_never_reopens():
    wd = Workdir()
    sc = Scene(wd, [strict(DATABASE_Q)])
    try:
        sc.wait_screen("Which database should we use?")
        subprocess.run(["tmux", "-L", sc.inner, "display-popup", "-C"], check=True)  # closed without an answer
        wait_for(lambda: "Which database should we use?" not in sc.screen(), what="the popup to close")
        equal(sc.status(), 1, "still waiting")
        time.sleep(2.5)  # more than two rounds of the host's checks
        check("Which database should we use?" not in sc.screen(), "no second popup for the same question")
        t = Tmux(wd, [ASKHOST, "attach", "--next"])
        try:
            t.wait_screen("Which database should we use?")
            t.keys("3")
            got = wait_for(sc.results, what="the tool result")
            equal(answers_of(got[0]), {DATABASE_Q["question"]: "MongoDB"}, "answers")
        finally:
            kill_servers(t.name)
        sc.passed()
    finally:
        sc.kill()


@case
def a_pane_nobody_looks_at_gets_no_popup_until_a_client_comes():
    """Asked in a window nobody looks at: no popup, the clients told once; once the person goes
    there (askhost jump), the popup opens over the pane."""
    wd = Workdir()
    sc = Scene(wd, [strict(DATABASE_Q)], agent_window_hidden=True)
    try:
        sc.wait_screen("OTHER WINDOW")
        wait_for(lambda: sc.status() == 1, what="the question waiting")
        time.sleep(1.5)
        check("Which database should we use?" not in sc.screen(), "no popup over another window:\n" + sc.screen())
        with open(os.path.join(sc.project, "mcp-stderr.txt")) as f:
            check("popup" not in f.read(), "askhost mcp opened no popup")
        # The clients are told once (a tmux message), not at each of askhost's looks since.
        time.sleep(2)
        log = subprocess.run(["tmux", "-L", sc.inner, "show-messages", "-t", client_of(sc.inner)],
                             capture_output=True, text=True).stdout
        told = [line for line in log.splitlines() if " message: " in line and "asks a question" in line]
        equal(len(told), 1, "messages that the agent asks:\n" + log)
        # askhost jump takes the person to the asking pane (a key binding runs it inside tmux).
        agent_pane = subprocess.run(["tmux", "-L", sc.inner, "list-panes", "-t", "agent:0", "-F", "#{pane_id}"],
                                    capture_output=True, text=True).stdout.strip()
        out = subprocess.run([ASKHOST, "jump"], env={k: v for k, v in wd.env().items() if k != "TMUX"},
                             capture_output=True, text=True, timeout=10)
        equal(out.stdout.split(" ")[0], agent_pane, "outside tmux it names the pane")
        subprocess.run(["tmux", "-L", sc.inner, "run-shell",
                        "XDG_RUNTIME_DIR=%s %s jump" % (shlex_quote(wd.env()["XDG_RUNTIME_DIR"]), shlex_quote(ASKHOST))],
                       check=True, timeout=10)
        window = subprocess.run(["tmux", "-L", sc.inner, "list-clients", "-F", "#{window_index}"],
                                capture_output=True, text=True).stdout.strip()
        equal(window, "0", "the client now looks at the agent's window")
        # The question still waits: the popup opens for the client that came to look.
        sc.wait_screen(POPUP_TOP)
        read_and_answer(sc, "Which database should we use?", "2")
        got = wait_for(sc.results, what="the tool result")
        equal(answers_of(got[0]), {DATABASE_Q["question"]: "SQLite"}, "answers")
        sc.passed()
    finally:
        sc.kill()


@case
def jump_finds_the_pane_of_an_agent_askhost_runs():
    """`askhost -- AGENT` in a tmux pane asks in its own dialog there; while it waits, askhost jump
    names that pane (README: prefix J goes to the pane of the agent that asks)."""
    wd = Workdir()
    agent = wd.agent([{"send": ask_request("r1", [DATABASE_Q])}, {"recv": 1}])
    t = Tmux(wd, [ASKHOST, "--"] + agent)
    try:
        t.wait_screen("Which database should we use?")
        pane = subprocess.run(["tmux", "-L", t.name, "list-panes", "-F", "#{pane_id}"], capture_output=True,
                              text=True).stdout.strip()
        wait_for(lambda: json.loads(subprocess.run([ASKHOST, "status", "--json"], env=wd.env(), capture_output=True,
                                                   text=True, timeout=10).stdout)["waiting"] == 1,
                 what="askhost status to count the question")
        out = subprocess.run([ASKHOST, "jump"], env={k: v for k, v in wd.env().items() if k != "TMUX"},
                             capture_output=True, text=True, timeout=10)
        equal(out.returncode, 0, "askhost jump: " + out.stderr)
        equal(out.stdout.split(" ")[0], pane, "outside tmux it names the agent's pane")
        time.sleep(0.5)
        t.keys("2")
        equal(t.exit_status(), 0, "askhost's exit status")
        answers = [r for r in wd.records() if r != "EOF"]
        equal([a["answer"] for a in answers[0]["answers"]], ["SQLite"], "the agent's answer")
    finally:
        t.kill()


@case
def popups_can_be_turned_off_in_the_config_file():
    wd = Workdir()
    os.makedirs(wd.file(".config/askhost"))  # HOME is the work folder (Workdir.env)
    with open(wd.file(".config/askhost/config"), "w") as f:
        f.write("# no popups for me\ntmux-popup = false\n")
    sc = Scene(wd, [strict(DATABASE_Q)])
    try:
        wait_for(lambda: sc.status() == 1, what="the question waiting")
        time.sleep(1.5)
        check("Which database should we use?" not in sc.screen(), "no popup:\n" + sc.screen())
        sc.passed()
    finally:
        sc.kill()

CACHE_Q = {"question": "Which cache should we use?", "header": "Cache", "options": [
    {"label": "Redis", "description": "in memory"}, {"label": "None", "description": "no cache"}]}
QUEUE_Q = {"question": "Which queue should we use?", "header": "Queue", "options": [
    {"label": "RabbitMQ", "description": "a broker"}, {"label": "Kafka", "description": "a log"}]}
POPUP_TOP = "┌─ askhost"


class Agents:
    """Several agents side by side in the panes of one window, each with its own askhost mcp (its
    own host, no editor); a client of a second server looks at that window. Each asks when the test
    creates its go-file."""

    def __init__(self, wd, agents):
        if not subprocess.run(["sh", "-c", "command -v tmux"], capture_output=True).returncode == 0:
            raise Skip("tmux is not installed")
        wd.popups = True
        self.wd = wd
        self.inner = "askhost-qin-%d-%d" % (os.getpid(), int(time.monotonic() * 1000) % 100000)
        self.outer = self.inner.replace("-qin-", "-qout-")
        script = wd.file("fake_tui.py")
        with open(script, "w") as f:
            f.write(FAKE_TUI)
        env = wd.env()
        tm = ["tmux", "-f", "/dev/null", "-L", self.inner]
        self.projects = {}
        for i, (name, questions) in enumerate(agents):
            project = wd.file("proj-" + name)
            os.makedirs(project)
            self.projects[name] = project
            run = ("cd %s && env -u TMUX -u TMUX_PANE XDG_RUNTIME_DIR=%s XDG_STATE_HOME=%s HOME=%s ASKHOST=%s"
                   " QUESTIONS=%s GO=%s %s %s; sleep 60") % (
                shlex_quote(project), shlex_quote(env["XDG_RUNTIME_DIR"]), shlex_quote(env["XDG_STATE_HOME"]),
                shlex_quote(env["HOME"]),
                shlex_quote(ASKHOST), shlex_quote(json.dumps([strict(q) for q in questions])),
                shlex_quote(os.path.join(project, "go")), shlex_quote(sys.executable), shlex_quote(script))
            if i == 0:
                subprocess.run(tm + ["new-session", "-d", "-s", "agents", "-x", "130", "-y", "40", "sh", "-c", run],
                               check=True)
            else:
                subprocess.run(tm + ["split-window", "-t", "agents:0", "sh", "-c", run], check=True)
                subprocess.run(tm + ["select-layout", "-t", "agents:0", "even-horizontal"], check=True)
        subprocess.run(["tmux", "-f", "/dev/null", "-L", self.outer, "new-session", "-d", "-s", "look", "-x", "130",
                        "-y", "40", "env", "-u", "TMUX", "tmux", "-L", self.inner, "attach", "-t", "agents"],
                       check=True)
        wait_for(lambda: client_of(self.inner), what="the client to look at the agents")
        for name in self.projects:  # each agent has started its askhost mcp and waits for its go
            wait_for(lambda: os.path.exists(self.file(name, "mcp.pid")), what=f"agent {name} started")

    def file(self, name, leaf):
        return os.path.join(self.projects[name], leaf)

    def ask(self, *names):
        for name in names:
            open(self.file(name, "go"), "w").close()

    def screen(self):
        return subprocess.run(["tmux", "-L", self.outer, "capture-pane", "-p", "-t", "look"], capture_output=True,
                              text=True).stdout

    def wait_screen(self, text, timeout=10.0):
        return wait_for(lambda: screen_with(self.screen(), text), timeout=timeout, what=f"{text!r} on screen")

    def popups(self):
        return self.screen().count(POPUP_TOP)

    def keys(self, *keys):
        for k in keys:
            subprocess.run(["tmux", "-L", self.outer, "send-keys", "-t", "look", k], check=True)
            time.sleep(0.3)  # a person's pace

    def results(self, name):
        return read_records(self.file(name, "results.jsonl"))

    def log(self, name):
        try:
            with open(self.file(name, "mcp-stderr.txt")) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def waiting(self):
        out = subprocess.run([ASKHOST, "status", "--json"], env=self.wd.env(), capture_output=True, text=True,
                             timeout=10)
        return json.loads(out.stdout)["waiting"]

    def mcp_pid(self, name):
        with open(self.file(name, "mcp.pid")) as f:
            return int(f.read())

    def kill(self):
        kill_servers(self.outer, self.inner)

    def passed(self):
        """The test passed: its servers go, and its folder (a failed one's stays to be read)."""
        self.kill()
        wait_for(lambda: not any(os.path.exists(self.file(n, "mcp.pid")) and pid_lives(self.mcp_pid(n))
                                 for n in self.projects), what="every askhost mcp to end")
        shutil.rmtree(self.wd.path)


def pid_lives(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def read_and_answer(sc, question, key):
    """The person reads the popup's question, then picks with a key: the popup goes once answered."""
    screen = sc.wait_screen(question)
    equal(screen.count(POPUP_TOP), 1, "popups on the client, never two stacked:\n" + screen)
    time.sleep(1.0)  # reading
    sc.keys(key)


@case
def two_agents_asking_at_once_get_their_popups_in_turn():
    wd = Workdir()
    questions = {"db": DATABASE_Q, "cache": CACHE_Q}
    sc = Agents(wd, [("db", [DATABASE_Q]), ("cache", [CACHE_Q])])
    try:
        sc.ask("db", "cache")
        screen = wait_for(lambda: (lambda s: s if any(q["question"] in s for q in questions.values()) else None)(
            sc.screen()), what="the first popup")
        first = "db" if DATABASE_Q["question"] in screen else "cache"
        second = "cache" if first == "db" else "db"
        check(questions[second]["question"] not in screen, "one question on screen at a time:\n" + screen)
        read_and_answer(sc, questions[first]["question"], "1")
        got = wait_for(lambda: sc.results(first), what=f"agent {first}'s answer")
        equal(answers_of(got[0]), {questions[first]["question"]: questions[first]["options"][0]["label"]},
              "the first agent's answer")
        # The first popup closed: the second agent's question comes up in its own popup.
        read_and_answer(sc, questions[second]["question"], "2")
        got = wait_for(lambda: sc.results(second), what=f"agent {second}'s answer")
        equal(answers_of(got[0]), {questions[second]["question"]: questions[second]["options"][1]["label"]},
              "the second agent's answer")
        wait_for(lambda: sc.popups() == 0, what="the last popup to close")
        equal(len(sc.results(first)), 1, "the first agent got one answer")
        sc.passed()
    finally:
        sc.kill()


@case
def a_queued_question_answered_elsewhere_never_pops_up():
    wd = Workdir()
    sc = Agents(wd, [("db", [DATABASE_Q]), ("cache", [CACHE_Q]), ("queue", [QUEUE_Q])])
    try:
        sc.ask("db")
        sc.wait_screen(DATABASE_Q["question"])
        sc.ask("cache")
        wait_for(lambda: sc.waiting() == 2, what="the cache question waiting")
        sc.ask("queue")
        wait_for(lambda: sc.waiting() == 3, what="the queue question waiting")
        # The person answers the cache question from another terminal, in that agent's folder.
        t = Tmux(wd, ["sh", "-c", "cd %s && exec %s attach" % (shlex_quote(sc.projects["cache"]),
                                                               shlex_quote(ASKHOST))])
        try:
            t.wait_screen(CACHE_Q["question"])
            time.sleep(1.0)
            t.keys("1")
            got = wait_for(lambda: sc.results("cache"), what="the cache agent's answer")
            equal(answers_of(got[0]), {CACHE_Q["question"]: "Redis"}, "answered from the other terminal")
        finally:
            kill_servers(t.name)
        check(CACHE_Q["question"] not in sc.screen(), "the database popup is still the one on screen")
        read_and_answer(sc, DATABASE_Q["question"], "2")
        wait_for(lambda: sc.results("db"), what="the database agent's answer")
        # Next in line is the queue question, never the cache question answered meanwhile.
        read_and_answer(sc, QUEUE_Q["question"], "1")
        got = wait_for(lambda: sc.results("queue"), what="the queue agent's answer")
        equal(answers_of(got[0]), {QUEUE_Q["question"]: "RabbitMQ"}, "the queue agent's answer")
        wait_for(lambda: sc.popups() == 0, what="the popup to close")
        time.sleep(1.5)  # several turns of every host's checks
        check(sc.popups() == 0 and CACHE_Q["question"] not in sc.screen(),
              "no popup for the question answered elsewhere:\n" + sc.screen())
        check("opened in a tmux popup" not in sc.log("cache"), "the cache agent opened no popup")
        sc.passed()
    finally:
        sc.kill()


@case
def a_killed_askhost_does_not_hold_up_the_popups_after_it():
    wd = Workdir()
    sc = Agents(wd, [("db", [DATABASE_Q]), ("cache", [CACHE_Q]), ("queue", [QUEUE_Q])])
    try:
        sc.ask("db")
        sc.wait_screen(DATABASE_Q["question"])
        sc.ask("cache")
        wait_for(lambda: sc.waiting() == 2, what="the cache question waiting")
        sc.ask("queue")
        wait_for(lambda: sc.waiting() == 3, what="the queue question waiting")
        os.kill(sc.mcp_pid("cache"), signal.SIGKILL)  # waiting in line
        time.sleep(0.5)
        os.kill(sc.mcp_pid("db"), signal.SIGKILL)  # its popup on the screen
        # The database popup goes with its host; the queue question comes next, past the dead one.
        read_and_answer(sc, QUEUE_Q["question"], "2")
        got = wait_for(lambda: sc.results("queue"), what="the queue agent's answer")
        equal(answers_of(got[0]), {QUEUE_Q["question"]: "Kafka"}, "the queue agent's answer")
        wait_for(lambda: sc.popups() == 0, what="the popup to close")
        equal(sc.results("db") + sc.results("cache"), [], "the killed ones answered nothing")
        sc.passed()
    finally:
        sc.kill()


@case
def the_persons_own_popup_goes_first_and_a_closed_one_lets_the_next_in():
    wd = Workdir()
    sc = Agents(wd, [("db", [DATABASE_Q]), ("cache", [CACHE_Q])])
    try:
        # The person has a popup of their own open (prefix A, a menu): askhost's waits for it.
        client = client_of(sc.inner)
        mine = subprocess.Popen(["tmux", "-L", sc.inner, "display-popup", "-c", client, "-E", "-T", " mine ",
                                 "echo MY OWN POPUP; sleep 30"])
        try:
            sc.wait_screen("MY OWN POPUP")
            sc.ask("db")
            wait_for(lambda: sc.waiting() == 1, what="the database question waiting")
            time.sleep(2.5)  # more than two tries of askhost's
            screen = sc.screen()
            check(DATABASE_Q["question"] not in screen and "MY OWN POPUP" in screen,
                  "askhost's popup does not replace or stack on the person's own:\n" + screen)
            sc.keys("C-c")  # the person ends their own popup
            mine.wait(timeout=10)
        finally:
            if mine.poll() is None:  # failed before: the servers go, and the popup with them
                sc.kill()
                mine.wait(timeout=10)
        sc.wait_screen(DATABASE_Q["question"])
        sc.ask("cache")
        wait_for(lambda: sc.waiting() == 2, what="the cache question waiting")
        # Closed without an answer: the database question goes on waiting, the next one comes up.
        time.sleep(1.0)
        subprocess.run(["tmux", "-L", sc.inner, "display-popup", "-C", "-c", client], check=True)
        read_and_answer(sc, CACHE_Q["question"], "1")
        got = wait_for(lambda: sc.results("cache"), what="the cache agent's answer")
        equal(answers_of(got[0]), {CACHE_Q["question"]: "Redis"}, "the cache agent's answer")
        wait_for(lambda: sc.popups() == 0, what="the popup to close")
        time.sleep(1.5)
        check(DATABASE_Q["question"] not in sc.screen(), "no second popup for the question closed unanswered")
        equal(sc.waiting(), 1, "the database question still waits")
        equal(sc.results("db"), [], "closing it was no answer")
        sc.passed()
    finally:
        sc.kill()


if __name__ == "__main__":
    sys.exit(main())
