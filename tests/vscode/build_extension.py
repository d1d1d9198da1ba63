#!/usr/bin/env python3
"""Builds the VS Code extension (editor-bridges/vscode) when its sources changed: TypeScript for
the extension, its tests and the panel's page, then the .vsix with @vscode/vsce. Run by
`./dev vscode-setup` and before every VS Code test, so the tests never run a stale build; a lock
keeps tests started together from building at once. Needs the npm packages (`npm ci` there).

usage: build_extension.py [--force]     exit 0 built or up to date, 1 the build failed, 77 no packages
       build_extension.py --platform ASKHOST OUT.vsix
                                       a platform .vsix (linux-x64 or linux-arm64, from this machine)
                                       that carries ASKHOST, stripped, as bin/askhost, and askhost-web
                                       (found where ASKHOST finds it) beside it as bin/askhost-web; with
                                       the LICENSE and CHANGELOG the marketplaces expect (./dev package)
"""
import fcntl
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXT = os.path.join(ROOT, "editor-bridges", "vscode")
OUT = os.path.join(EXT, "out")
STAMP = os.path.join(OUT, ".build-stamp")
VSIX = os.path.join(EXT, "askhost.vsix")
INPUTS = ["package.json", "package-lock.json", "tsconfig.json", "README.md", ".vscodeignore"]
INPUT_DIRS = ["src", "webview", "test", "media", os.path.join("..", "shared")]


def newest_input():
    newest = 0.0
    paths = [os.path.join(EXT, p) for p in INPUTS]
    for d in INPUT_DIRS:
        for base, _, files in os.walk(os.path.join(EXT, d)):
            paths += [os.path.join(base, f) for f in files]
    for p in paths:
        try:
            newest = max(newest, os.stat(p).st_mtime)
        except FileNotFoundError:
            pass
    return newest


def up_to_date():
    try:
        built = os.stat(STAMP).st_mtime
    except FileNotFoundError:
        return False
    return os.path.exists(VSIX) and built >= newest_input()


def run(argv):
    r = subprocess.run(argv, cwd=EXT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        print(f"build_extension: {' '.join(argv)} failed ({r.returncode})")
    return r.returncode == 0


def build(force=False):
    """0: built or up to date; 1: failed; 77: the npm packages are not installed."""
    bin_dir = os.path.join(EXT, "node_modules", ".bin")
    if not os.path.exists(os.path.join(bin_dir, "tsc")):
        print(f"build_extension: no npm packages in {EXT}/node_modules: run ./dev vscode-setup")
        return 77
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not force and up_to_date():
            return 0
        started = newest_input()
        ok = (run([os.path.join(bin_dir, "tsc"), "-p", "."])
              and run([os.path.join(bin_dir, "tsc"), "-p", "webview"])
              and run([os.path.join(bin_dir, "vsce"), "package", "--allow-missing-repository",
                       "--skip-license", "--no-rewrite-relative-links", "--out", VSIX]))
        if not ok:
            return 1
        with open(STAMP, "w") as f:
            f.write("built\n")
        # A source saved during the build leaves the stamp older than it: built again next time.
        os.utime(STAMP, (started, started))
        return 0


def vsce_target():
    machine = os.uname().machine
    return {"x86_64": "linux-x64", "aarch64": "linux-arm64", "armv7l": "linux-armhf"}.get(machine, "linux-" + machine)


def askhost_web_of(askhost):
    """The askhost-web that `askhost web` runs for this askhost: beside it in a build, in
    ../libexec/askhost/ when installed (host/app/cli.cpp looks in the same two places)."""
    where = os.path.dirname(os.path.abspath(askhost))
    for p in (os.path.join(where, "askhost-web"), os.path.join(where, "..", "libexec", "askhost", "askhost-web")):
        if os.path.isfile(p):
            return p
    return None


def build_platform(askhost, out):
    """0 built; 1 failed; 77 no npm packages. The extension's folder is left as it was."""
    web = askhost_web_of(askhost)
    if not web:
        print(f"build_extension: no askhost-web beside {askhost} or in its ../libexec/askhost: "
              "the .vsix would carry an askhost whose `askhost web` cannot run")
        return 1
    built = build()
    if built != 0:
        return built
    import shutil
    import tempfile
    bin_dir = os.path.join(EXT, "bin")
    copied = [os.path.join(EXT, "LICENSE"), os.path.join(EXT, "CHANGELOG.md")]
    with open(os.path.join(OUT, ".lock"), "w") as lock, tempfile.TemporaryDirectory() as tmp:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            os.makedirs(bin_dir, exist_ok=True)
            # Side by side: askhost runs the askhost-web beside it (AskHost: Show Web Page Address).
            for program, name in ((askhost, "askhost"), (web, "askhost-web")):
                target = os.path.join(bin_dir, name)
                if subprocess.run(["strip", "-o", target, program]).returncode != 0:
                    shutil.copy(program, target)
                os.chmod(target, 0o755)
            shutil.copy(os.path.join(ROOT, "LICENSE"), copied[0])
            shutil.copy(os.path.join(ROOT, "CHANGELOG.md"), copied[1])
            ignore = os.path.join(tmp, "vscodeignore")
            with open(os.path.join(EXT, ".vscodeignore")) as src, open(ignore, "w") as dst:
                dst.writelines(line for line in src if not line.startswith("bin/"))
            ok = run([os.path.join(EXT, "node_modules", ".bin", "vsce"), "package", "--target", vsce_target(),
                      "--ignoreFile", ignore, "--allow-missing-repository", "--no-rewrite-relative-links",
                      "--out", os.path.abspath(out)])
        finally:
            shutil.rmtree(bin_dir, ignore_errors=True)
            for f in copied:
                if os.path.exists(f):
                    os.remove(f)
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--platform"] and len(sys.argv) == 4:
        sys.exit(build_platform(sys.argv[2], sys.argv[3]))
    sys.exit(build("--force" in sys.argv[1:]))
