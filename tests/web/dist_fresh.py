#!/usr/bin/env python3
"""Fails when the page's committed build (host/web/page/dist/) is stale, on every machine.

Everywhere: host/web/page/dist-hashes.json (build.mjs writes it with dist/) must name the sources
as they are now (each file the compiler read, each file copied, build.mjs, tsconfig.json), the
TypeScript the VS Code bridge's lockfile pins, and dist/'s files as they are. Where the bridge's
TypeScript is installed (./dev vscode-setup), build.mjs --check then builds the page again and
compares it byte for byte. Where it is not, the output says that this second check did not run.

usage: dist_fresh.py              the check (the meson test `web dist_fresh`, in `./dev check` and
                                  `./dev test`)
       dist_fresh.py --self-test  shows on a copy of the tree that a changed source, a changed,
                                  missing or extra file of dist/ and another TypeScript fail it
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PAGE = os.path.join(ROOT, "host", "web", "page")
TSC = os.path.join(ROOT, "editor-bridges", "vscode", "node_modules", "typescript", "bin", "tsc")
REBUILD = "run node host/web/page/build.mjs (after ./dev vscode-setup) and commit dist/ and dist-hashes.json"


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def pinned_typescript(root):
    with open(os.path.join(root, "editor-bridges", "vscode", "package-lock.json")) as f:
        lock = json.load(f)
    return lock.get("packages", {}).get("node_modules/typescript", {}).get("version", "unknown")


def stale_by_hashes(root):
    """What differs between the tree at `root` and its dist-hashes.json, one line each."""
    page = os.path.join(root, "host", "web", "page")
    try:
        with open(os.path.join(page, "dist-hashes.json")) as f:
            recorded = json.load(f)
    except (OSError, ValueError) as e:
        return [f"dist-hashes.json: cannot be read ({e})"]
    stale = []
    for rel, digest in sorted(recorded.get("sources", {}).items()):
        path = os.path.join(root, *rel.split("/"))
        if not os.path.isfile(path):
            stale.append(f"{rel}: gone since dist/ was built")
        elif sha256(path) != digest:
            stale.append(f"{rel}: changed since dist/ was built")
    pinned = pinned_typescript(root)
    if recorded.get("typescript") != pinned:
        stale.append(f"dist/ was built with TypeScript {recorded.get('typescript')}, the lockfile pins {pinned}")
    built = recorded.get("dist", {})
    dist = os.path.join(page, "dist")
    have = sorted(os.listdir(dist)) if os.path.isdir(dist) else []
    for name in sorted(set(built) | set(have)):
        if name not in have:
            stale.append(f"dist/{name}: missing")
        elif name not in built:
            stale.append(f"dist/{name}: built from nothing")
        elif sha256(os.path.join(dist, name)) != built[name]:
            stale.append(f"dist/{name}: not what build.mjs wrote")
    return stale


def self_test():
    """The check on a copy of what it reads: clean, then each way of being stale."""
    with open(os.path.join(PAGE, "dist-hashes.json")) as f:
        recorded = json.load(f)
    with tempfile.TemporaryDirectory(prefix="askhost-dist-fresh-") as tmp:
        copied = list(recorded["sources"]) + ["host/web/page/dist-hashes.json", "editor-bridges/vscode/package-lock.json"]
        copied += ["host/web/page/dist/" + n for n in recorded["dist"]]
        for rel in copied:
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, rel), os.path.join(tmp, rel))

        def edit(rel, text):
            with open(os.path.join(tmp, rel), "a") as f:
                f.write(text)

        source = next(r for r in recorded["sources"] if r.endswith(".ts"))
        cases = [
            ("the tree as it is", lambda: None, []),
            ("a source changed", lambda: edit(source, "// x\n"), [f"{source}: changed since dist/ was built"]),
            ("dist/app.js changed", lambda: edit("host/web/page/dist/app.js", "x"), ["dist/app.js: not what build.mjs wrote"]),
            ("dist/model.js gone", lambda: os.remove(os.path.join(tmp, "host/web/page/dist/model.js")),
             ["dist/model.js: missing"]),
            ("a file added to dist/", lambda: edit("host/web/page/dist/extra.js", ""), ["dist/extra.js: built from nothing"]),
        ]
        failed = 0
        expected = []
        for name, change, want in cases:
            change()
            expected = sorted(expected + want)  # each case adds its line to those before it
            got = sorted(stale_by_hashes(tmp))
            if got != expected:
                print(f"self-test failed: {name}: got {got}, want {expected}")
                failed = 1
        lock = os.path.join(tmp, "editor-bridges", "vscode", "package-lock.json")
        with open(lock) as f:
            text = f.read().replace('"node_modules/typescript": {\n      "version": "', '"node_modules/typescript": {\n      "version": "0.')
        with open(lock, "w") as f:
            f.write(text)
        if not any("the lockfile pins 0." in s for s in stale_by_hashes(tmp)):
            print("self-test failed: another TypeScript in the lockfile went unnoticed")
            failed = 1
    if not failed:
        print(f"self-test: {len(cases) + 1} cases: a stale dist/ is found by its hashes alone")
    return failed


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    stale = stale_by_hashes(ROOT)
    if stale:
        print(f"host/web/page/dist/ is stale: {REBUILD}")
        for s in stale:
            print("  " + s)
        return 1
    print("host/web/page/dist/ matches the sources it was built from (dist-hashes.json)")
    node = shutil.which("node")
    if node and os.path.isfile(TSC):
        return subprocess.run([node, os.path.join(PAGE, "build.mjs"), "--check"]).returncode
    missing = "Node" if not node else "the VS Code bridge's TypeScript (editor-bridges/vscode/node_modules)"
    print(f"NOT rebuilt to compare byte for byte: {missing} is not installed here (./dev vscode-setup "
          "installs it); the hashes above are all this machine checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
