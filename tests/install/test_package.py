#!/usr/bin/env python3
"""./dev package from this build, run once in a fresh tree: the .deb holds what `meson install`
installs, its Depends name the package of every library askhost links against, the tarball runs from
wherever it is unpacked, and the .vsix carries askhost-web beside askhost."""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import Skip, Workdir, case, check, equal, main  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(HERE), "web"))
from web_client import Web  # noqa: E402

BUILD = os.environ.get("ASKHOST_BUILD_ROOT", "")


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


def as_debian(files):
    """meson install's tree as the .deb holds it: man pages gzipped, zsh's completion in
    vendor-completions, a copyright file and a changelog beside the docs."""
    out = {}
    for path, mode in files.items():
        if path.startswith("share/man/") and not path.endswith(".gz"):
            path += ".gz"
        elif path.startswith("share/zsh/site-functions/"):
            path = "share/zsh/vendor-completions/" + os.path.basename(path)
        out[path] = mode
    out["share/doc/askhost/copyright"] = 0o644
    out["share/doc/askhost/changelog.gz"] = 0o644
    return out


def the_deb_holds_the_install_and_declares_what_askhost_links_against(wd, deb):
    fields = subprocess.run(["dpkg-deb", "-f", deb, "Package", "Version", "Architecture", "Depends"],
                            capture_output=True, text=True).stdout
    info = dict(line.split(": ", 1) for line in fields.strip().splitlines())
    equal(info["Package"], "askhost", "package name")
    check(info["Version"].startswith("0."), "version: " + info["Version"])
    equal(info["Architecture"], subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                                               text=True).stdout.strip(), "architecture")
    root = wd.file("deb-root")
    subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    equal(sorted(tree(os.path.join(root, "usr"))), sorted(as_debian(installed_tree(wd))),
          "the same files as meson install, placed as Debian's policy asks")
    check(not [p for p in os.listdir(root) if p != "usr"], "everything under /usr")
    # Every library askhost and askhost-web link against (their NEEDED entries) comes from a
    # declared package: askhost-web's OpenSSL and libqrencode too.
    needed = {}
    for program in ("bin/askhost", "libexec/askhost/askhost-web"):
        check(os.access(os.path.join(root, "usr", program), os.X_OK), program + " in the .deb, executable")
        dynamic = subprocess.run(["objdump", "-p", os.path.join(root, "usr", program)], capture_output=True,
                                 text=True).stdout
        libs = [line.split()[1] for line in dynamic.splitlines() if line.strip().startswith("NEEDED")]
        check("libc.so.6" in libs and len(libs) >= 2, f"{program}'s NEEDED: {libs}")
        needed.update((lib, program) for lib in libs)
    web_libs = [lib for lib, program in needed.items() if program.endswith("askhost-web")]
    check(any(lib.startswith("libssl") for lib in needed) and any(lib.startswith("libqrencode") for lib in needed),
          f"askhost-web links OpenSSL and libqrencode: {sorted(needed)} ({web_libs})")
    depends = [d.split()[0] for d in info["Depends"].split(", ")]
    for lib in sorted(needed):
        path = subprocess.run(["sh", "-c", 'ldconfig -p | grep -m1 "^\\s*$0 " | sed "s/.*=> //"', lib],
                              capture_output=True, text=True).stdout.strip()
        # dpkg knows a library by the path it installed (/lib/... or /usr/lib/..., merged /usr or not).
        owner = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True).stdout or \
            subprocess.run(["dpkg", "-S", os.path.realpath(path)], capture_output=True, text=True).stdout
        package = owner.split(":")[0]
        check(package in depends, f"{lib} ({path}) comes from {package!r}, declared in Depends: {depends}")
    # The terminal dialog's ncurses is loaded when a dialog opens (dlopen), not NEEDED: declared all the same.
    with open(os.path.join(root, "usr", "bin", "askhost"), "rb") as f:
        if b"libncursesw.so.6" in f.read():
            check("libncursesw6" in depends, f"the dialog's ncurses is declared in Depends: {depends}")


def the_tarball_runs_from_wherever_it_is_unpacked(wd, tarball):
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
    # askhost web: askhost finds askhost-web in ../libexec/askhost from wherever it is unpacked.
    w = subprocess.run([askhost, "web", "--help"], capture_output=True, text=True, env=env, timeout=30)
    equal(w.returncode, 0, "askhost web --help from the tarball: " + w.stderr)
    check("--listen" in w.stdout, "askhost web's usage: " + w.stdout[:300])
    for f in ("share/man/man1/askhost.1", "share/nvim/site/pack/askhost/start/askhost.nvim/plugin/askhost.lua",
              "share/doc/askhost/LICENSE"):
        check(os.path.exists(os.path.join(base, f)), f + " in the tarball")
    zsh = os.path.join(base, "share", "zsh")
    check(any(os.path.exists(os.path.join(zsh, d, "_askhost")) for d in ("site-functions", "vendor-completions")),
          "zsh's completion in the tarball")


def the_vsix_carries_askhost_web_beside_askhost(wd, vsix):
    """The platform .vsix's askhost runs `askhost web` (AskHost: Show Web Page Address runs
    `askhost web --url`): askhost-web is in the .vsix beside it, as `askhost web` looks for it."""
    import zipfile
    with zipfile.ZipFile(vsix) as z:
        names = z.namelist()
        for program in ("askhost", "askhost-web"):
            check("extension/bin/" + program in names, f"extension/bin/{program} in the .vsix: {sorted(names)[:40]}")
        z.extractall(wd.file("installed"))
    bin_dir = os.path.join(wd.file("installed"), "extension", "bin")
    for program in ("askhost", "askhost-web"):
        os.chmod(os.path.join(bin_dir, program), 0o755)  # what the extension does where an installer dropped it
    askhost = os.path.join(bin_dir, "askhost")
    env = wd.env(PATH="/usr/bin:/bin")
    env.pop("ASKHOST", None)
    web = Web(askhost, env=env, cwd=wd.path, stderr_path=wd.file("web-stderr.txt"))
    try:
        again = subprocess.run([askhost, "web", "--url"], capture_output=True, text=True, env=env, timeout=30)
        equal((again.returncode, again.stdout.strip()), (0, web.url),
              "askhost web --url from the .vsix's askhost (stderr: %s)" % again.stderr)
    finally:
        web.stop()


def tracked_tree(dest):
    """The project's tracked files as they are in this working tree, without anything installed or
    built (no node_modules, no build folders): what a fresh clone holds."""
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
    os.makedirs(dest)
    subprocess.run(["tar", "-C", ROOT, "--null", "-T", "-", "-cf", "-"], input=files, check=True,
                   stdout=open(os.path.join(dest, "tree.tar"), "wb"))
    subprocess.run(["tar", "-C", dest, "-xf", os.path.join(dest, "tree.tar")], check=True)
    os.remove(os.path.join(dest, "tree.tar"))
    return dest


@case
def a_fresh_tree_makes_all_three_packages_and_each_holds_what_it_should():
    """./dev package in a tree with no node_modules installs the extension's npm packages itself and
    makes the .deb, the tarball and the .vsix, built once and each then checked: the .deb holds the
    install and declares its libraries, the tarball runs from wherever it is unpacked, the .vsix
    carries askhost-web; lintian reports no error on the .deb."""
    if not BUILD or not os.path.exists(os.path.join(BUILD, "build.ninja")):
        raise Skip("no build folder to package (ASKHOST_BUILD_ROOT)")
    for tool in ("dpkg-deb", "dpkg-shlibdeps"):
        if not shutil.which(tool):
            raise Skip(tool + " is not installed (dpkg-dev)")
    if not shutil.which("npm"):
        raise Skip("npm is not installed")
    wd = Workdir()
    fresh = tracked_tree(wd.file("fresh"))
    check(not os.path.exists(os.path.join(fresh, "editor-bridges", "vscode", "node_modules")), "no npm packages yet")
    out = wd.file("dist")
    p = subprocess.run([os.path.join(fresh, "dev"), "package", "--from", BUILD, "--out", out],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    equal(p.returncode, 0, "./dev package in a fresh tree: " + p.stdout + p.stderr)
    made = sorted(os.listdir(out))
    for suffix in (".deb", ".tar.gz", ".vsix"):
        equal(len([f for f in made if f.endswith(suffix)]), 1, f"one {suffix} in {made}")
    vsix = os.path.join(out, next(f for f in made if f.endswith(".vsix")))
    listing = subprocess.run(["unzip", "-l", vsix], capture_output=True, text=True).stdout \
        if shutil.which("unzip") else subprocess.run(
            [sys.executable, "-m", "zipfile", "-l", vsix], capture_output=True, text=True).stdout
    check("extension/bin/askhost" in listing or "/askhost" in listing, "the .vsix carries askhost: " + listing[-2000:])
    deb = os.path.join(out, next(f for f in made if f.endswith(".deb")))
    contents = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True).stdout
    check("./usr/share/man/man1/askhost.1.gz" in contents, "the man page gzipped in the .deb")
    the_deb_holds_the_install_and_declares_what_askhost_links_against(wd, deb)
    the_tarball_runs_from_wherever_it_is_unpacked(wd, os.path.join(out, next(f for f in made if f.endswith(".tar.gz"))))
    the_vsix_carries_askhost_web_beside_askhost(wd, vsix)
    if not shutil.which("lintian"):
        raise Skip("lintian is not installed (the packages were checked)")
    lint = subprocess.run(["lintian", "--no-tag-display-limit", deb], capture_output=True, text=True)
    errors = [line for line in lint.stdout.splitlines() if line.startswith("E:")]
    equal(errors, [], "lintian's errors on the .deb (all of its output:\n%s%s)" % (lint.stdout, lint.stderr))


@case
def dev_package_help_prints_its_usage():
    p = subprocess.run([os.path.join(ROOT, "dev"), "package", "--help"], capture_output=True, text=True)
    equal(p.returncode, 0, "./dev package --help: " + p.stderr)
    check(p.stdout.startswith("usage: ./dev package") and "--out DIR" in p.stdout and ".vsix" in p.stdout,
          "its usage: " + p.stdout)
    bad = subprocess.run([os.path.join(ROOT, "dev"), "package", "--frm", "x"], capture_output=True, text=True)
    equal(bad.returncode, 2, "an unknown option is a usage error")
    check("unknown argument '--frm'" in bad.stderr and "usage: ./dev package" in bad.stderr, bad.stderr)


@case
def dev_help_of_each_command_prints_its_usage_and_builds_nothing():
    """`./dev CMD --help` prints CMD's usage and returns before installing or building anything:
    `./dev test --help` once ran the whole suite, `./dev bench --help` configured a release build."""
    wd = Workdir()
    build = wd.file("never-built")
    env = dict(os.environ, ASKHOST_BUILD_DIR=build)
    for cmd in ["test", "demo", "check", "sanitize", "build", "setup", "fuzz", "agents", "bench"]:
        p = subprocess.run([os.path.join(ROOT, "dev"), cmd, "--help"], capture_output=True, text=True, env=env,
                           timeout=60)
        equal(p.returncode, 0, f"./dev {cmd} --help: {p.stderr}")
        check(p.stdout.startswith(f"./dev {cmd}") or p.stdout.startswith(f"usage: ./dev {cmd}"),
              f"./dev {cmd} --help prints its usage: {p.stdout!r}")
        check("==>" not in p.stdout + p.stderr, f"./dev {cmd} --help did nothing else: {p.stdout + p.stderr!r}")
    check(not os.path.exists(build), "nothing was built")
    bad = subprocess.run([os.path.join(ROOT, "dev"), "tset", "--help"], capture_output=True, text=True)
    equal(bad.returncode, 2, "an unknown command with --help is still an unknown command")
    check("unknown command 'tset'" in bad.stderr, bad.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
