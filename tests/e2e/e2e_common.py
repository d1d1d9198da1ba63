"""What the end-to-end tests with real agent CLIs share: where `./dev agents` put the CLIs, the
mock model API (mock_llm.py) on 127.0.0.1, the agents' offline environment, and the loopback-only
network namespace each case runs in when the machine allows it."""
import fcntl
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import (ASKHOST, ROOT, Editor, Failure, Skip, Tmux, at_end, case, check, end_processes,  # noqa: E402
                     equal, kill_tmux_server, main, read_records, wait_for)

AGENTS_DIR = os.environ.get("ASKHOST_AGENTS_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "askhost-agents")
TIMEOUT = 90


def _dev_agents():
    """({package folder prefix: pinned version}, {prefix: [newer versions]}) from ./dev's AGENTS and
    AGENTS_NEWER: what `./dev agents` installs, one folder per version (@scope/name@1.2 in
    scope-name-1.2; the newer ones under newer/)."""
    pins, newer = {}, {}
    with open(os.path.join(os.path.dirname(os.path.dirname(HERE)), "dev")) as f:
        for line in f:
            m = re.match(r"AGENTS(_NEWER)?\+?=\(", line)
            for package, version in re.findall(r'"@?([^"@]+)@([^"@]+)"', line.split("#")[0]) if m else ():
                prefix = package.replace("/", "-")
                if m.group(1):
                    newer.setdefault(prefix, []).append(version)
                else:
                    pins[prefix] = version
    return pins, newer


AGENT_PINS, AGENT_NEWER = _dev_agents()


def pinned(package_dir_prefix):
    """The version ./dev pins for a package: the one every case runs unless it names another."""
    return AGENT_PINS[package_dir_prefix]


def newer_versions(package_dir_prefix):
    """The versions ./dev installs beside the pin (AGENTS_NEWER), for the cases that name them."""
    return AGENT_NEWER.get(package_dir_prefix, [])


CLAUDE = "anthropic-ai-claude-code"


def _cases_on(fn, versions):
    for version in versions:
        def run(version=version):
            fn(version)
        run.__name__ = fn.__name__ + ("@" + version if version else "")
        run.__doc__ = fn.__doc__
        case(run)
    return fn


def on_each(package_dir_prefix):
    """A case run on the agent's pinned version (named as the function) and again on each newer
    version ./dev installs (AGENTS_NEWER), named with the version after an @: fn(version), None for
    the pin. With no newer version listed (the pin is the newest), the pin alone."""
    return lambda fn: _cases_on(fn, [None] + newer_versions(package_dir_prefix))


def on_each_claude(fn):
    """on_each for Claude Code."""
    return on_each(CLAUDE)(fn)


CODEX = "openai-codex"
GEMINI = "google-gemini-cli"
OPENCODE = "opencode-ai"


def on_newer_claude(fn):
    """A case for what only the versions after the pin do, run on each (CASE@VERSION): fn(version)."""
    return _cases_on(fn, newer_versions(CLAUDE))


def agent_bin(package_dir_prefix, name, version=None):
    """The program `name` of the package's pinned version, or of `version` when a case names one;
    a version that is not installed skips the case, saying so."""
    version = version or pinned(package_dir_prefix)
    parent = AGENTS_DIR if version == pinned(package_dir_prefix) else os.path.join(AGENTS_DIR, "newer")
    d = os.path.join(parent, f"{package_dir_prefix}-{version}")
    if not os.path.exists(os.path.join(d, ".installed")):
        raise Skip(f"{name} {version} is not installed in {AGENTS_DIR} (./dev agents installs it)")
    path = os.path.join(d, "node_modules", ".bin", name)
    if not os.path.exists(path):
        raise Skip(f"{path} is missing")
    return path


class Mock:
    def __init__(self, wd, tools, input, final="All set.", subagent=None, wait_for_subagent=False, ask_once=False,
                 calls=None):
        """subagent: {"prompt", "tools", "input"}, what a sub-agent started with that prompt does;
        wait_for_subagent: the main turn ends only after the sub-agent's tool result; ask_once: the
        tool is called once in the mock's life, never again after a compaction; calls: [{"tool",
        "input"}] made one after another, each once the last has its result (Anthropic; mock_llm.py)."""
        self.wd = wd
        self.record = wd.file("model-api.jsonl")
        script = wd.file("model-script.json")
        with open(script, "w") as f:
            json.dump({"tools": tools, "input": {"questions": input} if isinstance(input, list) else input,
                       "final": final, "wait_for_subagent": wait_for_subagent, "ask_once": ask_once,
                       **({"subagent": subagent} if subagent else {}), **({"calls": calls} if calls else {})}, f)
        portfile = wd.file("model-port")
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "mock_llm.py"), script, self.record,
                                      portfile], stderr=open(wd.file("mock-stderr.txt"), "wb"))
        at_end(self.stop)  # also when the case fails
        # TIMEOUT, not wait_for's 10 s: a Python starting at nice 19 beside a build took longer.
        self.port = int(wait_for(lambda: os.path.exists(portfile) and open(portfile).read(), timeout=TIMEOUT,
                                 what="the mock"))

    def requests(self):
        return read_records(self.record)

    def tool_result(self, timeout=TIMEOUT, nth=0):
        """The tool result the model API received `nth` (0: the first), once it has."""
        found = wait_for(lambda: [r for r in self.requests() if "tool_result" in r][nth:], timeout=timeout,
                         what="the tool result at the model API" + (" (number %d)" % (nth + 1) if nth else ""))
        return found[0]["tool_result"]

    def check_offline(self):
        bad = [r["path"] for r in self.requests() if r.get("api") is None and r.get("method") == "POST"]
        check(not bad, f"the agent tried other endpoints: {bad}")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def agent_env(wd, mock, **extra):
    home = wd.file("home")
    os.makedirs(home, exist_ok=True)
    # The agents' own temporary files in the case's folder, not /tmp's: OpenCode's Bun unpacks
    # 19 MB of libraries there at each start, Claude Code and Codex keep folders there.
    tmp = wd.file("tmp")
    os.makedirs(tmp, exist_ok=True)
    env = wd.env()
    env.update(HOME=home, TMPDIR=tmp, NO_PROXY="*", no_proxy="*",
               # Claude Code
               ANTHROPIC_BASE_URL=f"http://127.0.0.1:{mock.port}", ANTHROPIC_API_KEY="dummy",
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_TELEMETRY="1", DISABLE_ERROR_REPORTING="1",
               DISABLE_AUTOUPDATER="1", ENABLE_TOOL_SEARCH="false",
               # Codex
               CODEX_HOME=wd.file("codex_home"), MOCK_API_KEY="dummy",
               # pi
               PI_CODING_AGENT_DIR=wd.file("pi_agent"), PI_OFFLINE="1", PI_TELEMETRY="0", ASKHOST_BIN=ASKHOST)
    for k in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
        env.pop(k, None)
    env.update(extra)
    return env


def in_network_namespace():
    """Re-runs this case in a loopback-only network namespace when unshare allows it."""
    if os.environ.get("ASKHOST_E2E_NETNS") or not shutil.which("unshare") or not shutil.which("ip"):
        return None
    probe = subprocess.run(["unshare", "-rn", "ip", "link", "set", "lo", "up"], capture_output=True)
    if probe.returncode != 0:
        return None
    env = dict(os.environ, ASKHOST_E2E_NETNS="1")
    return subprocess.run(["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", sys.executable]
                          + sys.argv, env=env).returncode


# The end of a case: the editor's askhost shut down as an editor does, the mock model API
# stopped, and the agent asked it nothing it does not serve.
def finish(ed, mock):
    rid = ed.request("shutdown")
    ed.result_of(rid, timeout=30)
    ed.notify("exit")
    try:
        ed.exit_code(timeout=30)
    finally:
        ed.kill()
        mock.stop()
    mock.check_offline()


# pi's flags for a run against the mock model API with nothing of the person's own loaded.
PI_FLAGS = ["--offline", "--no-session", "--provider", "mock", "--model", "mock-model", "--no-extensions",
            "--no-skills", "--no-prompt-templates", "--no-context-files", "--no-themes"]


def pi_setup(wd, mock):
    """The real pi with its agent folder (PI_CODING_AGENT_DIR in agent_env) naming the mock model
    API, and a project folder to run it in: (pi's program, the project folder)."""
    pi = agent_bin("mariozechner-pi-coding-agent", "pi")
    agent_dir = wd.file("pi_agent")
    os.makedirs(agent_dir, exist_ok=True)
    with open(os.path.join(agent_dir, "models.json"), "w") as f:
        json.dump({"providers": {"mock": {
            "baseUrl": f"http://127.0.0.1:{mock.port}/v1", "api": "openai-completions", "apiKey": "dummy",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "mock-model", "input": ["text"], "contextWindow": 32000, "maxTokens": 1000}]}}}, f)
    project = wd.file("project")
    os.makedirs(project, exist_ok=True)
    return pi, project


class PiRpc:
    """pi --mode rpc driven directly (no askhost): JSON lines on its stdin and stdout."""

    def __init__(self, wd, mock, extensions=()):
        pi, project = pi_setup(wd, mock)
        env = agent_env(wd, mock)
        env.pop("ASKHOST_SOCKET", None)
        more = [arg for e in extensions for arg in ("-e", e)]
        self.proc = subprocess.Popen(
            [pi, "--mode", "rpc", *PI_FLAGS, "-e", os.path.join(ROOT, "plugins", "pi", "extension", "ask_user.ts"), *more],
            cwd=project, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=open(wd.file("pi-stderr.txt"), "wb"), start_new_session=True)
        at_end(self.stop)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            if line.strip():
                self.lines.put(json.loads(line))

    def send(self, obj):
        self.proc.stdin.write((json.dumps(obj) + "\n").encode())
        self.proc.stdin.flush()

    def until(self, pred, what, timeout=TIMEOUT):
        while True:
            try:
                msg = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"pi sent no {what}")
            if pred(msg):
                return msg

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def doc_snippet(name):
    """The set-up snippet docs/mcp.md gives for a client, as written there (between its
    `<!-- snippet: NAME -->` markers, without the code fence)."""
    with open(os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "mcp.md")) as f:
        text = f.read()
    start = text.index("<!-- snippet: %s -->" % name)
    block = text[start:text.index("<!-- /snippet -->", start)]
    lines = block.splitlines()[1:]
    return "\n".join(line for line in lines if not line.startswith("```")).strip() + "\n"


def with_askhost_on_path(env):
    """The documented snippets run `askhost` by name: the askhost under test first on PATH."""
    env["PATH"] = os.path.dirname(os.path.abspath(ASKHOST)) + os.pathsep + env.get("PATH", "")
    return env


def write_codex_config(wd, mock, mcp_extra="", extra="", features="", ask_server=None, approval="never"):
    """CODEX_HOME/config.toml for Codex offline against the mock, with `askhost mcp` as its MCP
    server `ask` (`mcp_extra`: more lines for that server's table; `ask_server`: the whole table
    instead, e.g. the documented snippet; `extra`: more tables; `features`: more lines for
    [features]; `approval`: its approval_policy, "on-request" for a case that wants its approvals)."""
    home = wd.file("codex_home")
    os.makedirs(home, exist_ok=True)
    if ask_server is None:
        ask_server = '[mcp_servers.ask]\ncommand = "%s"\nargs = ["mcp"]\ndefault_tools_approval_mode = "approve"\n%s' % (
            ASKHOST, mcp_extra)
    with open(os.path.join(home, "config.toml"), "w") as f:
        f.write(f'''model = "mock-model"
model_provider = "mock"
approval_policy = "{approval}"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:{mock.port}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

{ask_server}
{extra}
[analytics]
enabled = false

[features]
plugins = false
apps = false
remote_plugin = false
plugin_sharing = false
{features}
''')


SHARED_RUNTIME = "/tmp/askhost-%d" % os.geteuid()


def leave_the_shared_folder_as_found():
    """Without XDG_RUNTIME_DIR askhost uses /tmp/askhost-UID, the user's own (on a machine with
    no /run/user/UID). Its sockets go when their hosts do; what a case's tmux popups leave there
    (tmux-popups/KEY/lock, kept on purpose: a lock file is never unlinked under a waiting
    process) is removed at the case's end when nobody holds it, and so is the folder when the
    case made it."""
    existed = os.path.isdir(SHARED_RUNTIME)
    popups = os.path.join(SHARED_RUNTIME, "tmux-popups")
    before = set(os.listdir(popups)) if os.path.isdir(popups) else set()

    def tidy():
        for key in (set(os.listdir(popups)) if os.path.isdir(popups) else set()) - before:
            folder = os.path.join(popups, key)
            try:
                with open(os.path.join(folder, "lock"), "a") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held: another run's, leave it
                    shutil.rmtree(folder, ignore_errors=True)
            except OSError:
                pass
        # The folder itself goes when the case made it, or when nothing but an empty tmux-popups
        # is left in it (two cases at once: the one that ends last finds it so). A host at work
        # there has its socket in it.
        try:
            left = os.listdir(SHARED_RUNTIME)
            idle = left == [] or (left == ["tmux-popups"] and not os.listdir(popups))
        except OSError:
            idle = False
        if not existed or idle:
            for leaf in (popups, SHARED_RUNTIME):
                try:
                    os.rmdir(leaf)
                except OSError:
                    pass
    at_end(tidy, after_processes=True)


def shared_registry_env(wd, **extra):
    """Codex passes its MCP servers no XDG_RUNTIME_DIR: the editor's host and askhost mcp meet in
    the registry askhost picks without it (/run/user/UID when it is the user's, else
    /tmp/askhost-UID); the project folder, unique to the test, keeps tests apart there."""
    env = wd.env(**extra)
    env.pop("XDG_RUNTIME_DIR", None)
    leave_the_shared_folder_as_found()
    return env


def cleanup_codex(wd):
    """The Codex TUI starts an app-server daemon (`codex app-server --listen unix://
    --managed-daemon`, with its `daemon pid-update-loop`) that outlives the TUI with init as
    parent: stopped as Codex says (`codex app-server daemon stop` in the same CODEX_HOME); what
    that leaves (the pid-update-loop) the harness ends at the end of the case, as it ends every
    process whose command line or folders lie in the case's folder."""
    home = wd.file("codex_home")
    codex = agent_bin("openai-codex", "codex")
    try:
        subprocess.run([codex, "app-server", "daemon", "stop"], env=dict(os.environ, CODEX_HOME=home, HOME=wd.file("home")),
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        pass
    end_processes([home])
    # The Codex TUI copies its app-server (~300 MB) into CODEX_HOME/packages.
    shutil.rmtree(home, ignore_errors=True)


# ---------------------------------------------------------------- agents in their own terminal UIs

# The agents' own question tools asked two questions (tests/e2e/test_own_tools.py,
# test_opencode.py, and the page's scenes, tests/web/agent_scene.py).
DB_Q = "Which database should we use?"
FEAT_Q = "Which features should we include?"
NAME_Q = "What should we name the service?"
GEMINI_QUESTIONS = [
    {"question": DB_Q, "header": "Database", "type": "choice", "multiSelect": False, "options": [
        {"label": "PostgreSQL", "description": "Battle-tested relational DB"},
        {"label": "SQLite", "description": "Lightweight, file-based"}]},
    {"question": FEAT_Q, "header": "Features", "type": "choice", "multiSelect": True, "options": [
        {"label": "Auth", "description": "Sign-in and sessions"},
        {"label": "Search", "description": "Full-text search"},
        {"label": "Export", "description": "CSV export"}]}]
# Codex's request_user_input has no multi-select of its own: its `id`s key the answers.
CODEX_QUESTIONS = [
    {"id": "database", "header": "Database", "question": DB_Q, "options": [
        {"label": "PostgreSQL (Recommended)", "description": "Battle-tested"},
        {"label": "SQLite", "description": "Lightweight, file-based"}]},
    {"id": "service_name", "header": "Name", "question": NAME_Q, "options": [
        {"label": "orders", "description": "After the domain"}, {"label": "api", "description": "Short"}]}]
OPENCODE_QUESTIONS = [
    {"question": DB_Q, "header": "Database", "options": [
        {"label": "PostgreSQL", "description": "Battle-tested relational DB"},
        {"label": "SQLite", "description": "Lightweight, file-based"}]},
    {"question": FEAT_Q, "header": "Features", "multiple": True, "options": [
        {"label": "Authentication", "description": "OAuth2 + JWT"},
        {"label": "REST API", "description": "OpenAPI spec included"},
        {"label": "Admin Dashboard", "description": "A web UI"}]}]
# What Codex 0.169.0 draws of its own dialog for CODEX_QUESTIONS: an option's description.
CODEX_DIALOG = ("Lightweight, file-based",)
# What the model reads after OpenCode's own result, in its words.
OPENCODE_TAIL = " You can now continue with the user's answers in mind."


def project_of(wd):
    """The project folder the agent runs in, made, by its real path (hosts compare real paths)."""
    project = os.path.realpath(wd.file("project"))
    os.makedirs(project, exist_ok=True)
    return project


def standing_editor(wd, project, env=None):
    """An editor's standing host with the project open; the case answers as its editor."""
    ed = Editor(wd, env=env)
    # Its end closes its pipes, as an editor that quits does: the host goes by itself, and the
    # case's end finds nothing of it to end.
    at_end(ed.close)
    ed.initialize(name="e2e-editor", folders=[project])
    return ed


class AgentTui:
    """An agent's own terminal UI in a tmux pane (a tmux server of its own), started in `project`
    with only the variables of `env` that `keep` names (the wrapper's own aside) and those of
    `unset` taken away, talking to `mock`. `with` ends the terminal, the mock and what `ends`
    holds (what the agent leaves running), passed or not."""

    def __init__(self, wd, mock, project, argv, env, keep, unset=(), width=120, height=40):
        self.wd, self.mock, self.project, self.ends = wd, mock, project, []
        run = 'cd "$0" && exec env %s"$@"' % "".join("-u %s " % name for name in unset)
        keep = tuple(keep) + ("TMPDIR",)  # agent_env's: the agent's temporary files in the case's folder
        self.t = Tmux(wd, ["sh", "-c", run, project] + ["%s=%s" % (k, env[k]) for k in keep if k in env] + argv,
                      width=width, height=height)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.end()

    def end(self):
        self.t.kill()
        self.mock.stop()
        while self.ends:
            self.ends.pop()()

    def screen(self):
        return self.t.screen()


class TmuxLook:
    """A terminal that looks at an agent's session: a client of the agent's tmux server, itself in
    a second tmux server. tmux opens a popup for a client, so askhost's popup over the agent's pane
    needs one."""

    def __init__(self, tui, width=130, height=45):
        self.name = "askhost-look-%d-%d" % (os.getpid(), int(time.monotonic() * 1000) % 100000)
        at_end(self.kill)
        # The case's environment (its HOME): the case's end finds this server by it, as it finds
        # the agent's, when the case is ended by a signal before kill() runs.
        subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", "new-session", "-d", "-s", "look", "-x", str(width),
                        "-y", str(height), "env", "-u", "TMUX", "tmux", "-L", tui.t.name, "attach"], check=True,
                       env=tui.wd.env())

    def screen(self):
        return subprocess.run(["tmux", "-L", self.name, "capture-pane", "-p", "-t", "look"], capture_output=True,
                              text=True).stdout

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", "look", *keys], check=True)

    def kill(self):
        kill_tmux_server(self.name)


def answer_in_a_popup(tui, look, keys, own_dialog=(), under=()):
    """No editor, `look` (a TmuxLook) looking at the agent's pane: the question opens in askhost's
    popup over it (askhost's terminal dialog, with its Other row) and `keys` typed there at a
    person's pace answer it; the agent's own dialog (its marks, `own_dialog`) is not on its pane
    meanwhile, and the agent's screen shows under the popup (one of `under`). `look` is made before
    the agent is asked to do what makes it ask, as a person already looks at their agent: a client
    that comes later gets the popup too, but askhost first tells the server's clients and rings the
    pane's bell, and looks again only each second (docs/tmux.md)."""
    try:
        wait_for(lambda: "Other (type your answer)" in look.screen() and "┌" in look.screen(), timeout=TIMEOUT,
                 what="askhost's popup over the agent's pane")
    except Failure as e:  # what each terminal showed, to tell a missing popup from a missing question
        raise Failure(f"{e}\nthe looking terminal:\n{look.screen()}\nthe agent's pane:\n{tui.screen()}") from None
    screen = look.screen()
    check(not under or any(m in screen for m in under), "the agent's screen under the popup:\n" + screen)
    pane = tui.screen()  # the pane itself, without the popup over it
    check(not any(m in pane for m in own_dialog), "the agent's own dialog is not open:\n" + pane)
    for key in keys:
        time.sleep(0.5)  # the popup's key guard, then a person's pace
        look.keys(key)


# Codex's footer while in Plan mode. Its history also says "Model changed to ... for Plan mode"
# once, and keeps saying it after a second Shift+Tab has left Plan mode again: only the footer
# tells the mode Codex is in.
CODEX_PLAN_FOOTER = "Plan mode (shift+tab to cycle)"


def choose_plan_mode(t):
    """Codex's Plan mode (Shift+Tab), read from the footer. A key pressed while Codex still loads
    can be lost, and one taken late can land after the next press; so it is pressed again only
    when the footer has shown no Plan mode for a while, and Plan mode must hold a second."""
    def in_plan():
        return CODEX_PLAN_FOOTER in t.screen()

    def press():
        if not in_plan():
            t.keys("BTab")
            deadline = time.monotonic() + 5
            while not in_plan() and time.monotonic() < deadline:
                time.sleep(0.1)
        time.sleep(1)
        return in_plan()
    wait_for(press, timeout=TIMEOUT, interval=0, what="Codex in Plan mode (its footer: " + CODEX_PLAN_FOOTER + ")")


class CodexTui(AgentTui):
    """The Codex TUI offline against the mock, the project trusted. hooks: askhost's hooks installed
    as docs/codex.md says, no MCP server, run without /hooks trust (the flag the tests use); else
    `askhost mcp` as docs/mcp.md's snippet has it (askhost by name on PATH). shared_registry: Codex
    and what it starts get no XDG_RUNTIME_DIR (it passes its MCP servers none), so the case's
    hosts meet in the registry askhost picks without it (shared_registry_env); else the case's own."""

    def __init__(self, wd, mock, project, hooks=False, shared_registry=True, version=None, approval="never"):
        if shared_registry:
            leave_the_shared_folder_as_found()
        codex = agent_bin(CODEX, "codex", version)
        write_codex_config(wd, mock, ask_server="" if hooks else doc_snippet("codex"),
                           extra=f'[projects."{project}"]\ntrust_level = "trusted"\n', approval=approval)
        env = with_askhost_on_path(agent_env(wd, mock))
        env.setdefault("LANG", "C.UTF-8")
        if hooks:
            r = subprocess.run([ASKHOST, "codex-hook", "install"], env=env, capture_output=True, text=True)
            equal(r.returncode, 0, "askhost codex-hook install: " + r.stderr)
        keep = ("HOME", "CODEX_HOME", "MOCK_API_KEY", "NO_PROXY", "no_proxy", "PATH", "LANG") + (
            () if shared_registry else ("XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME"))
        super().__init__(wd, mock, project, [codex] + (["--dangerously-bypass-hook-trust"] if hooks else []), env, keep,
                         unset=("XDG_RUNTIME_DIR",) if shared_registry else ())
        self.ends.append(lambda: cleanup_codex(wd))

    def prompt(self, text, plan=False):
        self.t.wait_screen("Ask Codex to do anything", timeout=TIMEOUT)
        if plan:
            choose_plan_mode(self.t)
        else:
            time.sleep(0.5)
        self.t.text(text)
        self.t.wait_screen(text, timeout=30)
        self.t.keys("Enter")
        if not plan:
            self.t.wait_screen("Working", timeout=TIMEOUT)


# What Gemini CLI 0.61.0's own ask_user dialog shows (its title, its custom-value row, its keys).
GEMINI_DIALOG = ("Answer Questions", "Enter a custom value", "Enter to select")


class GeminiTui(AgentTui):
    """Gemini CLI in its TUI offline against the mock, prompted as it starts. hooks: askhost's hooks
    installed as docs/gemini.md says (no MCP server); else `askhost mcp` as docs/mcp.md's snippet
    has it (askhost by name on PATH)."""

    def __init__(self, wd, mock, project, hooks=False, prompt="Set up the project.", version=None):
        gemini = agent_bin(GEMINI, "gemini", version)
        env = with_askhost_on_path(agent_env(wd, mock, GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{mock.port}",
                                             GEMINI_API_KEY="dummy"))
        os.makedirs(os.path.join(env["HOME"], ".gemini"), exist_ok=True)
        with open(os.path.join(env["HOME"], ".gemini", "settings.json"), "w") as f:
            json.dump({"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                       "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
                       **({} if hooks else json.loads(doc_snippet("gemini")))}, f)
        if hooks:
            r = subprocess.run([ASKHOST, "gemini-hook", "install"], env=env, capture_output=True, text=True)
            equal(r.returncode, 0, "askhost gemini-hook install: " + r.stderr)
        keep = ("HOME", "GOOGLE_GEMINI_BASE_URL", "GEMINI_API_KEY", "NO_PROXY", "no_proxy", "PATH", "XDG_RUNTIME_DIR")
        env.setdefault("LANG", "C.UTF-8")
        super().__init__(wd, mock, project, [gemini, "-i", prompt], env, keep)


class OpencodeTui(AgentTui):
    """OpenCode's terminal UI in the project folder, its model the mock's (an OpenAI-compatible
    provider), askhost's plugin installed user-wide by `askhost opencode install`."""

    def __init__(self, wd, mock, project, permission=None, version=None):
        """permission: OpenCode's `permission` config ({"bash": "ask"}); version: a newer OpenCode
        than the pin (./dev's AGENTS_NEWER)."""
        opencode = agent_bin(OPENCODE, "opencode", version)
        # OpenCode's models catalogue, empty: with no models.json in its cache and no fetch, OpenCode
        # builds every provider and model of its built-in models.dev snapshot (a 4.4 MB object) and
        # hands them to its TUI, the most of its start. 1.18.33 to "Ask anything" and 10 s idle: 14-16
        # CPU-s with it, 5.6-5.9 without (10-16 s to the prompt, not 31-95, on 2 loaded cores); a
        # whole case (opencode_tui_questions_answered_in_the_editor, ..._asks_in_a_popup_...):
        # 28.2 and 28.8 CPU-s with it, 16.2 and 15.8 without. The mock's provider and model are all
        # in opencode.json: the catalogue holds nothing a case uses.
        models = wd.file("opencode-models.json")
        with open(models, "w") as f:
            f.write("{}")
        env = agent_env(wd, mock, OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1",
                        OPENCODE_DISABLE_LSP_DOWNLOAD="1", OPENCODE_DISABLE_SHARE="1", OPENCODE_MODELS_PATH=models)
        config = os.path.join(env["XDG_CONFIG_HOME"], "opencode")
        os.makedirs(config, exist_ok=True)
        with open(os.path.join(config, "opencode.json"), "w") as f:
            json.dump({"$schema": "https://opencode.ai/config.json", "autoupdate": False, "share": "disabled",
                       "model": "mock/mock-model",
                       "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
                                             "options": {"baseURL": f"http://127.0.0.1:{mock.port}/v1",
                                                         "apiKey": "dummy"},
                                             "models": {"mock-model": {"name": "Mock Model"}}}},
                       **({"permission": permission} if permission else {})}, f)
        # OpenCode adds its plugin package to every config folder at start unless the lockfile has
        # it; offline that install would wait minutes. askhost's plugin needs none of it.
        os.makedirs(os.path.join(config, "node_modules"), exist_ok=True)
        with open(os.path.join(config, "package-lock.json"), "w") as f:
            json.dump({"packages": {"": {"dependencies": {"@opencode-ai/plugin": version or pinned(OPENCODE)}}}}, f)
        out = subprocess.run([ASKHOST, "opencode", "install"], env=env, capture_output=True, text=True)
        equal(out.returncode, 0, "askhost opencode install: " + out.stderr)
        keep = ("HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "NO_PROXY", "no_proxy",
                "OPENCODE_DISABLE_AUTOUPDATE", "OPENCODE_DISABLE_MODELS_FETCH", "OPENCODE_DISABLE_LSP_DOWNLOAD",
                "OPENCODE_DISABLE_SHARE", "OPENCODE_MODELS_PATH")
        super().__init__(wd, mock, project, [opencode], env, keep, width=110)

    def prompt(self, text, after=None):
        """`text` typed into OpenCode's prompt: a new session's (its placeholder, "Ask anything"), or
        once the screen shows `after` (a turn's last words: the placeholder is then gone)."""
        self.t.wait_screen(after or "Ask anything", timeout=TIMEOUT)
        if after:
            time.sleep(0.5)  # at a person's pace
        self.t.text(text)
        self.t.keys("Enter")

    def answer_in_own_dialog(self):
        """OpenCode's own dialog for OPENCODE_QUESTIONS, by keys at a person's pace: Enter takes
        PostgreSQL, Enter ticks Authentication, Tab to its review, Enter sends."""
        t = self.t
        t.wait_screen("1. PostgreSQL", timeout=TIMEOUT)
        time.sleep(0.5)
        t.keys("Enter")
        t.wait_screen("[ ] Authentication", timeout=TIMEOUT)
        t.keys("Enter")
        t.wait_screen("[✓] Authentication", timeout=TIMEOUT)
        t.keys("Tab")
        t.wait_screen("Review", timeout=TIMEOUT)
        t.keys("Enter")


def version_key(version):
    return tuple(int(p) for p in version.split(".") if p.isdigit())


# What changed after 2.1.197 (the versions between it and 2.1.330 were not checked): Claude Code
# starts in "auto mode" (a command it judges low-risk runs with no permission prompt, and its first
# start offers to keep auto mode), and an answer that is no option's label (typed, or with notes)
# reaches the model in a warier sentence than "Your questions have been answered".
CLAUDE_CHANGED_AFTER = "2.1.197"


class ClaudeTui(AgentTui):
    """Claude Code's interactive terminal UI in the project folder, opening straight to its prompt
    (onboarding done, the key approved, the folder trusted), with askhost hook (hooks).
    version: the pinned Claude Code unless a case names another (./dev's AGENTS_NEWER); one that
    starts in auto mode is set to ask as the pin does (manual mode, its nudge seen), unless
    its_defaults (auto mode, as a person who changed nothing has it)."""

    def __init__(self, wd, mock, hooks=True, version=None, its_defaults=False):
        self.version = version or pinned(CLAUDE)
        claude = agent_bin(CLAUDE, "claude", self.version)
        project = project_of(wd)
        env = agent_env(wd, mock, IS_SANDBOX="1")
        home = env["HOME"]
        make_it_ask = version_key(self.version) > version_key(CLAUDE_CHANGED_AFTER) and not its_defaults
        with open(os.path.join(home, ".claude.json"), "w") as f:
            json.dump({"hasCompletedOnboarding": True, "theme": "dark", "numStartups": 1,
                       "lastReleaseNotesSeen": self.version, "customApiKeyResponses": {"approved": ["dummy"]},
                       **({"hasSeenAutoDefaultNudge": True} if make_it_ask else {}),
                       "projects": {project: {"hasTrustDialogAccepted": True,
                                              "hasCompletedProjectOnboarding": True}}}, f)
        if hooks:
            out = subprocess.run([ASKHOST, "hook", "install"], env=env, capture_output=True, text=True)
            equal(out.returncode, 0, "askhost hook install: " + out.stderr)
        if make_it_ask:  # manual mode, as 2.1.197 starts
            settings_path = os.path.join(home, ".claude", "settings.json")
            os.makedirs(os.path.dirname(settings_path), exist_ok=True)
            settings = {}
            if os.path.exists(settings_path):
                with open(settings_path) as f:
                    settings = json.load(f)
            settings.setdefault("permissions", {})["defaultMode"] = "default"
            with open(settings_path, "w") as f:
                json.dump(settings, f, indent=2)
        keep = ("HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_TELEMETRY", "DISABLE_ERROR_REPORTING",
                "DISABLE_AUTOUPDATER", "IS_SANDBOX", "NO_PROXY", "no_proxy")
        super().__init__(wd, mock, project, [claude], env, keep, width=110)

    def wait_ready(self):
        """Claude's prompt line, empty: what every version shows once it takes input (the footer
        under it differs: "? for shortcuts" on 2.1.197, "⏸ manual mode on · ? for shortcuts" later)."""
        screen = ""

        def ready():
            nonlocal screen
            screen = self.t.screen()
            return any(line.strip() == "❯" for line in screen.splitlines())
        try:
            wait_for(ready, timeout=TIMEOUT, what="Claude's prompt line")
        except Failure as e:
            raise Failure(f"{e}; the screen shows:\n{screen}") from None

    def prompt(self, text):
        self.wait_ready()
        self.t.text(text)
        self.t.keys("Enter")


def run_cases():
    """An e2e file's main: a case (not --list) runs again in the loopback-only namespace when it can."""
    if len(sys.argv) > 1 and sys.argv[1] != "--list":
        rc = in_network_namespace()
        if rc is not None:
            return rc
    return main()
