#!/usr/bin/env python3
"""Runs one VS Code test for meson: a unit test file (node:test, a fake `vscode` module, the real
askhost) or one end-to-end scenario (e2e.js: code-server and Chromium). Builds the extension first
when its sources changed. Exit 77 (meson's skip) says what is missing.

usage: run.py unit NAME        editor-bridges/vscode/test/NAME.test.ts
       run.py e2e SCENARIO     a scenario of e2e.js
       run.py --list           every test, as "unit NAME" / "e2e SCENARIO" lines

A unit file holds many cases: its last line is "N test cases out of M passed" (or "N ... failed"),
the report tests/summarize.py counts case by case.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import build_extension  # noqa: E402

EXT = build_extension.EXT
SKIP = 77


def unit_files():
    return sorted(os.path.basename(p)[: -len(".test.ts")] for p in glob.glob(os.path.join(EXT, "test", "*.test.ts")))


def e2e_scenarios():
    with open(os.path.join(HERE, "e2e.js")) as f:
        text = f.read()
    body = text[text.index("const scenarios = {"):]
    return re.findall(r"^  async (\w+)\(\) \{", body, re.M)


def node_ok():
    node = shutil.which("node")
    if not node:
        return None
    r = subprocess.run([node, "-e", "process.exit(parseInt(process.versions.node) < 20 ? 1 : 0)"])
    return node if r.returncode == 0 else None


def run_unit(name, node):
    test = os.path.join(build_extension.OUT, "vscode", "test", f"{name}.test.js")
    # The askhost processes the extension starts keep their registry, journals and settings in
    # folders of this run's own, removed after: not the user's (~/.local/state/askhost, the
    # /tmp/askhost-UID fallback a host whose end was not clean leaves its record in). A test file
    # that needs other folders sets them itself.
    with tempfile.TemporaryDirectory(prefix=f"askhost-vscode-{name}-") as home:
        env = dict(os.environ)
        for var, sub in (("XDG_RUNTIME_DIR", "run"), ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config")):
            env[var] = os.path.join(home, sub)
            os.makedirs(env[var], mode=0o700)
        r = subprocess.run([node, "--test", "--test-reporter=spec", test], cwd=EXT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(r.stdout)
    counts = dict((k, int(v)) for k, v in re.findall(r"^[ℹ#] (tests|pass|fail) (\d+)$", r.stdout, re.M))
    total, failed = counts.get("tests", 0), counts.get("fail", 0)
    if total == 0:
        print("no test ran")
        return 1
    if failed or r.returncode != 0:
        print(f"{max(failed, 1)} test cases out of {total} failed")
        return 1
    print(f"{counts.get('pass', total)} test cases out of {total} passed")
    return 0


def main():
    if sys.argv[1:] == ["--list"]:
        for u in unit_files():
            print(f"unit {u}")
        for s in e2e_scenarios():
            print(f"e2e {s}")
        return 0
    if len(sys.argv) != 3 or sys.argv[1] not in ("unit", "e2e"):
        print(__doc__)
        return 2
    kind, name = sys.argv[1:]
    node = node_ok()
    if not node:
        print("SKIP: Node 20 or newer is not installed: run ./dev vscode-setup")
        return SKIP
    built = build_extension.build()
    if built == SKIP:
        print("SKIP: the extension's npm packages are not installed: run ./dev vscode-setup")
        return SKIP
    if built != 0:
        return 1
    if kind == "unit":
        return run_unit(name, node)
    env = dict(os.environ)
    if name == "bundled_binary":
        # The platform .vsix as ./dev package makes it, carrying the askhost under test.
        askhost = os.environ.get("ASKHOST", os.path.join(build_extension.ROOT, "build", "askhost"))
        vsix = os.path.join(os.environ.get("ASKHOST_VSCODE_SHOTS", os.path.dirname(askhost)), "askhost-platform.vsix")
        os.makedirs(os.path.dirname(vsix), exist_ok=True)
        if build_extension.build_platform(askhost, vsix) != 0:
            return 1
        env["ASKHOST_VSCODE_PLATFORM_VSIX"] = vsix
    return subprocess.run([node, os.path.join(HERE, "e2e.js"), name], env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
