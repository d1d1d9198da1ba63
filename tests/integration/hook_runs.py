"""What the integration tests of the agents' hooks and plugin share (test_hook.py: askhost hook;
test_own_questions.py: gemini-hook and codex-hook; test_opencode.py: askhost opencode ask): the
project folder, an editor whose standing host has it open, askhost started as an agent starts its
hook (the request as JSON on stdin), and what it printed once it ended."""
import json
import os
import subprocess

from harness import ASKHOST, Editor, equal, wait_for


def project(wd):
    """The project folder (by its real path: the hosts compare real paths)."""
    path = os.path.realpath(wd.file("proj"))
    os.makedirs(path, exist_ok=True)
    return path


def standing(wd):
    """An editor (as Neovim) whose standing host has the project open. Its record is written when
    initialize is handled; a hook started after this finds it."""
    ed = Editor(wd)
    ed.initialize(name="Neovim", folders=[project(wd)])
    wait_for(lambda: any(n.endswith(".json") for n in os.listdir(wd.file("run/askhost"))), what="the record")
    return ed


def start(wd, args, msg=None, raw=None, env=None, cwd=None):
    """`askhost ARGS` with the request on stdin (msg as JSON, or raw bytes) and pipes for its
    output, in a session of its own (no terminal: the one the suite runs in is nobody's face here),
    in cwd (the Workdir's folder unless named)."""
    p = subprocess.Popen([ASKHOST, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env or wd.env(), cwd=cwd or wd.path, start_new_session=True)
    p.stdin.write(raw if raw is not None else json.dumps(msg).encode())
    p.stdin.close()
    return p


def finish(p, timeout=15):
    """(what it printed, as JSON, or None when nothing; its stderr) once it ended with status 0."""
    out, err = p.stdout.read().decode(), p.stderr.read().decode()
    equal(p.wait(timeout=timeout), 0, "exit status (stderr: %s)" % err)
    return (json.loads(out) if out.strip() else None), err


def start_under_an_agent(wd, args, msg, cwd=None):
    """`askhost ARGS` as start() runs it, but as the child of a stand-in agent (a shell) that the
    case may kill: the request comes from a file, its output is dropped. Returns the shell."""
    request = wd.file("request-%d.json" % len(os.listdir(wd.path)))
    with open(request, "w") as f:
        json.dump(msg, f)
    return subprocess.Popen(["sh", "-c", '"$@" < "$0" > /dev/null 2>&1 & wait', request, ASKHOST, *args],
                            env=wd.env(), cwd=cwd or wd.path, start_new_session=True)
