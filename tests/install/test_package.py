#!/usr/bin/env python3
"""./dev package from this build: the .deb holds what `meson install` installs, its Depends name the
package of every library askhost links against, and the tarball runs from wherever it is unpacked."""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import Skip, Workdir, case, check, equal, main  # noqa: E402

BUILD = os.environ.get("ASKHOST_BUILD_ROOT", "")


def packaged(wd):
    if not BUILD or not os.path.exists(os.path.join(BUILD, "build.ninja")):
        raise Skip("no build folder to package (ASKHOST_BUILD_ROOT)")
    for tool in ("dpkg-deb", "dpkg-shlibdeps"):
        if not shutil.which(tool):
            raise Skip(tool + " is not installed (dpkg-dev)")
    out = wd.file("dist")
    p = subprocess.run([os.path.join(ROOT, "dev"), "package", "--from", BUILD, "--out", out],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    equal(p.returncode, 0, "./dev package: " + p.stdout + p.stderr)
    debs = [f for f in os.listdir(out) if f.endswith(".deb")]
    tars = [f for f in os.listdir(out) if f.endswith(".tar.gz")]
    equal((len(debs), len(tars)), (1, 1), f"one .deb and one tarball: {os.listdir(out)}")
    return os.path.join(out, debs[0]), os.path.join(out, tars[0])


def tree(root):
    """Every file and link under root, relative, with its mode."""
    found = {}
    for dirpath, dirs, files in os.walk(root):
        for f in files:
            path = os.path.join(dirpath, f)
            found[os.path.relpath(path, root)] = os.lstat(path).st_mode & 0o777
    return found


def installed_tree(wd):
    dest = wd.file("meson-root")
    subprocess.run(["meson", "install", "-C", BUILD, "--no-rebuild", "--quiet", "--destdir", dest], check=True,
                   capture_output=True)
    opts = {o["name"]: o["value"] for o in json.loads(subprocess.run(
        ["meson", "introspect", "--buildoptions", BUILD], capture_output=True, text=True).stdout)}
    return tree(dest + opts["prefix"])


@case
def the_deb_holds_the_install_and_declares_what_askhost_links_against():
    wd = Workdir()
    deb, _ = packaged(wd)
    fields = subprocess.run(["dpkg-deb", "-f", deb, "Package", "Version", "Architecture", "Depends"],
                            capture_output=True, text=True).stdout
    info = dict(line.split(": ", 1) for line in fields.strip().splitlines())
    equal(info["Package"], "askhost", "package name")
    check(info["Version"].startswith("0."), "version: " + info["Version"])
    equal(info["Architecture"], subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                                               text=True).stdout.strip(), "architecture")
    root = wd.file("deb-root")
    subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    equal(sorted(tree(os.path.join(root, "usr"))), sorted(installed_tree(wd)), "the same files as meson install")
    check(not [p for p in os.listdir(root) if p != "usr"], "everything under /usr")
    # Every library askhost links against (its NEEDED entries) comes from a declared package.
    dynamic = subprocess.run(["objdump", "-p", os.path.join(root, "usr", "bin", "askhost")], capture_output=True,
                             text=True).stdout
    needed = [line.split()[1] for line in dynamic.splitlines() if line.strip().startswith("NEEDED")]
    check("libc.so.6" in needed and len(needed) >= 2, f"NEEDED: {needed}")
    depends = [d.split()[0] for d in info["Depends"].split(", ")]
    for lib in needed:
        path = subprocess.run(["sh", "-c", 'ldconfig -p | grep -m1 "^\\s*$0 " | sed "s/.*=> //"', lib],
                              capture_output=True, text=True).stdout.strip()
        # dpkg knows a library by the path it installed (/lib/... or /usr/lib/..., merged /usr or not).
        owner = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True).stdout or \
            subprocess.run(["dpkg", "-S", os.path.realpath(path)], capture_output=True, text=True).stdout
        package = owner.split(":")[0]
        check(package in depends, f"{lib} ({path}) comes from {package!r}, declared in Depends: {depends}")


@case
def the_tarball_runs_from_wherever_it_is_unpacked():
    wd = Workdir()
    _, tarball = packaged(wd)
    where = wd.file("somewhere else")
    os.makedirs(where)
    subprocess.run(["tar", "-xzf", tarball, "-C", where], check=True)
    (top,) = os.listdir(where)
    check(os.path.basename(tarball) == top + ".tar.gz", f"one folder named like the tarball: {top}")
    base = os.path.join(where, top)
    env = wd.env(PATH="/usr/bin:/bin")
    env.pop("ASKHOST", None)
    askhost = os.path.join(base, "bin", "askhost")
    v = subprocess.run([askhost, "--version"], capture_output=True, text=True, env=env)
    check(v.stdout.startswith("askhost 0."), "--version: " + v.stdout + v.stderr)
    project = wd.file("project")
    os.makedirs(project)
    demo = os.path.join(base, "share", "askhost", "demo-agent")
    p = subprocess.run([askhost, "--print", "--", demo], capture_output=True, text=True, env=env, cwd=project,
                       stdin=subprocess.DEVNULL, timeout=60)
    pending_file = os.path.join(project, ".askhost", "pending-questions.json")
    check(os.path.exists(pending_file), f"the pending file: exit {p.returncode}, stderr {p.stderr!r}")
    with open(pending_file) as f:
        pending = json.load(f)
    equal(pending["questions"][0]["question"], "Which database should we use?",
          "the demo's questions in the pending file (stderr: %s)" % p.stderr)
    for f in ("share/man/man1/askhost.1", "share/zsh/vendor-completions/_askhost",
              "share/nvim/site/pack/askhost/start/askhost.nvim/plugin/askhost.lua", "share/doc/askhost/LICENSE"):
        check(os.path.exists(os.path.join(base, f)), f + " in the tarball")


if __name__ == "__main__":
    raise SystemExit(main())
