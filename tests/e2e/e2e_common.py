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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ASKHOST, ROOT, Skip, at_end, case, check, end_processes, main, wait_for  # noqa: E402

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


def on_each_claude(fn):
    """A case run on the pinned Claude Code (named as the function) and again on each newer version
    ./dev installs (AGENTS_NEWER), named with the version after an @: fn(version), None for the pin."""
    return _cases_on(fn, [None] + newer_versions(CLAUDE))


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
    def __init__(self, wd, tools, input, final="All set.", subagent=None, wait_for_subagent=False, ask_once=False):
        """subagent: {"prompt", "tools", "input"}, what a sub-agent started with that prompt does;
        wait_for_subagent: the main turn ends only after the sub-agent's tool result; ask_once: the
        tool is called once in the mock's life, never again after a compaction (mock_llm.py)."""
        self.wd = wd
        self.record = wd.file("model-api.jsonl")
        script = wd.file("model-script.json")
        with open(script, "w") as f:
            json.dump({"tools": tools, "input": {"questions": input} if isinstance(input, list) else input,
                       "final": final, "wait_for_subagent": wait_for_subagent, "ask_once": ask_once,
                       **({"subagent": subagent} if subagent else {})}, f)
        portfile = wd.file("model-port")
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "mock_llm.py"), script, self.record,
                                      portfile], stderr=open(wd.file("mock-stderr.txt"), "wb"))
        at_end(self.stop)  # also when the case fails
        self.port = int(wait_for(lambda: os.path.exists(portfile) and open(portfile).read(), what="the mock"))

    def requests(self):
        try:
            with open(self.record) as f:
                return [json.loads(l) for l in f if l.strip()]
        except FileNotFoundError:
            return []

    def tool_result(self, timeout=TIMEOUT):
        found = wait_for(lambda: [r for r in self.requests() if "tool_result" in r], timeout=timeout,
                         what="the tool result at the model API")
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
    env = wd.env()
    env.update(HOME=home, NO_PROXY="*", no_proxy="*",
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


def write_codex_config(wd, mock, mcp_extra="", extra="", features="", ask_server=None):
    """CODEX_HOME/config.toml for Codex offline against the mock, with `askhost mcp` as its MCP
    server `ask` (`mcp_extra`: more lines for that server's table; `ask_server`: the whole table
    instead, e.g. the documented snippet; `extra`: more tables; `features`: more lines for
    [features])."""
    home = wd.file("codex_home")
    os.makedirs(home, exist_ok=True)
    if ask_server is None:
        ask_server = '[mcp_servers.ask]\ncommand = "%s"\nargs = ["mcp"]\ndefault_tools_approval_mode = "approve"\n%s' % (
            ASKHOST, mcp_extra)
    with open(os.path.join(home, "config.toml"), "w") as f:
        f.write(f'''model = "mock-model"
model_provider = "mock"
approval_policy = "never"
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


def run_cases():
    """An e2e file's main: a case (not --list) runs again in the loopback-only namespace when it can."""
    if len(sys.argv) > 1 and sys.argv[1] != "--list":
        rc = in_network_namespace()
        if rc is not None:
            return rc
    return main()
