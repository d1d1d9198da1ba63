#!/usr/bin/env python3
"""`meson install` into a temporary root, then used with only that root's bin on PATH: the demo
answered in tmux, the man page, the bash, fish and zsh completions, Neovim finding the plugin with
no runtimepath setting and asking through the installed askhost, and the README's lazy.nvim spec."""
import http.client
import os
import shutil
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))

from harness import ROOT, Skip, Tmux, Workdir, case, check, equal, main  # noqa: E402

BUILD = os.environ.get("ASKHOST_BUILD_ROOT", "")


def installed(wd):
    """The install tree (DESTDIR + prefix) of this build."""
    if not BUILD or not os.path.exists(os.path.join(BUILD, "build.ninja")):
        raise Skip("no build folder to install from (ASKHOST_BUILD_ROOT)")
    dest = wd.file("root")
    out = subprocess.run(["meson", "install", "-C", BUILD, "--no-rebuild", "--quiet", "--destdir", dest],
                         capture_output=True, text=True)
    equal(out.returncode, 0, "meson install: " + out.stdout + out.stderr)
    prefix = subprocess.run(["meson", "introspect", "--buildoptions", BUILD], capture_output=True, text=True)
    import json
    opts = {o["name"]: o["value"] for o in json.loads(prefix.stdout)}
    root = dest + opts["prefix"]
    check(os.path.exists(os.path.join(root, "bin", "askhost")), "bin/askhost installed")
    return root, opts


def user_env(wd, root, opts=None):
    """Only the install tree's bin on PATH; with opts, its share/ where tools look for data
    (XDG_DATA_DIRS: Neovim's packpath, fish's vendor completions) and no user configuration."""
    env = wd.env(PATH=os.path.join(root, "bin") + ":/usr/bin:/bin")
    env.pop("ASKHOST", None)
    if opts:
        env["XDG_DATA_DIRS"] = os.path.join(root, opts["datadir"]) + ":/usr/share"
        env["XDG_CONFIG_HOME"] = wd.file("config")
    return env


@case
def the_installed_askhost_answers_the_demo_in_a_terminal():
    wd = Workdir()
    root, opts = installed(wd)
    env = user_env(wd, root)
    demo = os.path.join(root, opts["datadir"], "askhost", "demo-agent")
    check(os.access(demo, os.X_OK), "the demo agent is installed, executable")
    out = subprocess.run(["askhost", "--version"], env=env, capture_output=True, text=True)
    check(out.stdout.startswith("askhost 0."), "askhost --version: " + out.stdout)
    t = Tmux(wd, ["askhost", "--tui", "--", demo], height=30, env=env)
    try:
        t.wait_screen("> 1. PostgreSQL (Recommended)")
        t.keys("Enter")
        t.wait_screen("What should we name this service?")
        t.text("billing")
        t.keys("Enter")
        t.wait_screen("Which features should we include?")
        t.keys("Space", "Enter")
        t.wait_screen("Enter to submit")
        t.keys("Enter")
        s = t.wait_screen("the model reads")
        check("What should we name this service? -> billing (typed)" in s, s)
        equal(t.exit_status(), 0, "exit status")
    finally:
        t.kill()


@case
def askhost_web_runs_from_the_installed_tree():
    """askhost finds askhost-web in the install tree's libexec/askhost: its usage, and a server that
    prints its URL and answers the token with the cookie."""
    wd = Workdir()
    root, opts = installed(wd)
    check(os.access(os.path.join(root, opts["libexecdir"], "askhost", "askhost-web"), os.X_OK),
          "askhost-web installed in libexec/askhost")
    env = user_env(wd, root)
    out = subprocess.run(["askhost", "web", "--help"], env=env, capture_output=True, text=True, timeout=30)
    equal(out.returncode, 0, "askhost web --help: " + out.stderr)
    check(out.stdout.startswith("usage: askhost web"), "its usage: " + out.stdout[:200])
    web = subprocess.Popen(["askhost", "web", "--listen", "127.0.0.1:0"], env=env, stdout=subprocess.PIPE,
                           stderr=open(wd.file("web-stderr.txt"), "wb"), stdin=subprocess.DEVNULL)
    try:
        url = web.stdout.readline().decode().strip()
        parts = urllib.parse.urlsplit(url)
        check(parts.scheme == "http" and parts.hostname == "127.0.0.1" and "token=" in parts.query,
              "the URL with its token first: %r" % url)
        conn = http.client.HTTPConnection("127.0.0.1", parts.port, timeout=20)
        conn.request("GET", "/?" + parts.query)
        r = conn.getresponse()
        equal((r.status, r.getheader("Location")), (303, "/"), "the token answered with a redirect")
        check("askhost_web=" in (r.getheader("Set-Cookie") or ""), "and the cookie")
        conn.close()
    finally:
        web.terminate()
        web.wait(timeout=15)
        web.stdout.close()


@case
def man_page_and_bash_completion():
    wd = Workdir()
    root, opts = installed(wd)
    page = os.path.join(root, opts["mandir"], "man1", "askhost.1")
    if shutil.which("man"):
        out = subprocess.run(["man", "-l", page], capture_output=True, text=True, env=dict(os.environ, MANPAGER="cat"))
        text = " ".join(out.stdout.replace("\u2010", "-").split())
        check("askhost - show an LLM coding agent" in text, "man renders: " + out.stdout[:300])
    completion = os.path.join(root, opts["datadir"], "bash-completion", "completions", "askhost")
    script = ('source "$1"; COMP_WORDS=(askhost ho); COMP_CWORD=1; _askhost; echo "${COMPREPLY[@]}"; '
              'COMP_WORDS=(askhost status --); COMP_CWORD=2; _askhost; echo "${COMPREPLY[@]}"')
    out = subprocess.run(["bash", "-c", script, "bash", completion], capture_output=True, text=True)
    lines = out.stdout.splitlines()
    equal(lines[0].split(), ["hook", "hosts"], "subcommands completed")
    equal(sorted(lines[1].split()), ["--help", "--json", "--tmux"], "a subcommand's options completed")
    docs = os.path.join(root, opts["datadir"], "doc", "askhost")
    for f in ("README.md", "LICENSE", "protocol.md", "mcp.md", "tmux.md"):
        check(os.path.exists(os.path.join(docs, f)), f + " installed with the docs")


@case
def fish_completion():
    if not shutil.which("fish"):
        raise Skip("fish is not installed")
    wd = Workdir()
    root, opts = installed(wd)
    env = user_env(wd, root, opts)  # where a fish beside askhost (same prefix) finds completions
    script = ('complete -C "askhost an"; echo ---; complete -C "askhost --profile "; echo ---; '
              'complete -C "askhost status --"; echo ---; complete -C "askhost -- printf"')
    out = subprocess.run(["fish", "-c", script], capture_output=True, text=True, env=env)
    parts = [[line.split("\t")[0] for line in p.strip().splitlines()] for p in out.stdout.split("---")]
    equal(parts[0], ["answer"], "a subcommand (stderr: %s)" % out.stderr)
    equal(sorted(parts[1]), ["lenient", "strict"], "an option's values")
    equal(sorted(parts[2]), ["--help", "--json", "--tmux"], "a subcommand's options")
    check("printf" in parts[3], "the agent's command after --: %r" % parts[3])


@case
def zsh_completion_in_a_terminal():
    """zsh's completion system, really: an interactive zsh in tmux, Tab pressed."""
    if not shutil.which("zsh"):
        raise Skip("zsh is not installed")
    wd = Workdir()
    root, opts = installed(wd)
    # Only the directories zsh itself looks in for this prefix (its built-in fpath), moved into
    # the install root: the completion must be where a zsh with no configuration finds it.
    prefix = opts["prefix"].rstrip("/")
    builtin = subprocess.run(["zsh", "-fc", "print -l $fpath"], capture_output=True, text=True).stdout.split()
    looked_in = [root + d[len(prefix):] for d in builtin if d.startswith(prefix + "/")]
    check(any(os.path.exists(os.path.join(d, "_askhost")) for d in looked_in),
          "_askhost is installed where zsh looks under %s (%s)" % (prefix, ", ".join(
              d[len(root):] for d in looked_in) or "nowhere"))
    zdot = wd.file("zdot")
    os.makedirs(zdot)
    with open(os.path.join(zdot, ".zshrc"), "w") as f:
        f.write("fpath=(%s $fpath)\nautoload -U compinit && compinit -u\nPS1='zsh> '\n" % " ".join(looked_in))
    env = user_env(wd, root)
    env["ZDOTDIR"] = zdot
    t = Tmux(wd, ["env"] + ["%s=%s" % kv for kv in env.items() if kv[0] in ("PATH", "ZDOTDIR", "HOME")] + ["zsh"],
             height=12)
    try:
        t.wait_screen("zsh>")
        for typed, completed in (("askhost an", "zsh> askhost answer"),
                                 ("askhost status --tm", "zsh> askhost status --tmux"),
                                 ("askhost --profile st", "zsh> askhost --profile strict")):
            t.keys("C-u")
            t.text(typed)
            t.keys("Tab")
            t.wait_screen(completed)
    finally:
        t.kill()


@case
def neovim_finds_the_installed_plugin_with_no_configuration():
    if not shutil.which("nvim"):
        raise Skip("nvim is not installed")
    wd = Workdir()
    root, opts = installed(wd)
    env = user_env(wd, root, opts)
    lua = ("local ok, m = pcall(require, 'askhost'); "
           "io.stdout:write(ok and ('FOUND ' .. tostring(m.binary())) or 'MISSING'); "
           "io.stdout:write(vim.fn.exists(':AskHost') == 2 and ' COMMAND' or ' NOCOMMAND')")
    out = subprocess.run(["nvim", "--headless", "-i", "NONE", "-n", "-c", "lua " + lua, "-c", "qa!"],
                         env=env, capture_output=True, text=True, timeout=30, cwd=wd.path)
    text = out.stdout + out.stderr
    check("FOUND " + os.path.join(root, "bin", "askhost") in text, "the plugin, and askhost on PATH: " + text)
    check("COMMAND" in text and "NOCOMMAND" not in text, ":AskHost is defined: " + text)


@case
def neovim_asks_through_the_installed_askhost():
    """Real Neovim in tmux with only the install tree: no runtimepath setting, no repository. The
    plugin loads from the packpath, runs the installed askhost, and the demo agent's question shows
    in the float; Esc cancels it and the agent hears so."""
    if not shutil.which("nvim"):
        raise Skip("nvim is not installed")
    wd = Workdir()
    root, opts = installed(wd)
    env = user_env(wd, root, opts)  # no init.lua: Neovim's own defaults
    demo = os.path.join(root, opts["datadir"], "askhost", "demo-agent")
    keep = ("PATH", "HOME", "XDG_DATA_DIRS", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR")
    t = Tmux(wd, ["env"] + ["%s=%s" % (k, env[k]) for k in keep] + ["nvim", "-i", "NONE", "-n"], height=40, width=100)
    try:
        t.wait_screen("~")
        t.keys(":AskHost start " + demo, "Enter")
        t.wait_screen("Which database should we use?", timeout=20)
        running = subprocess.run(["pgrep", "-a", "-f", "askhost --stdio"], capture_output=True, text=True).stdout
        check(os.path.join(root, "bin", "askhost") in running, "the installed askhost runs: " + running)
        time.sleep(1)  # past the key guard of a dialog that opened while the person typed
        t.keys("Escape")
        t.keys(":AskHost log", "Enter")
        t.wait_screen("you cancelled", timeout=20)
    finally:
        t.kill()


@case
def the_readmes_lazy_nvim_spec():
    """The lazy.nvim spec in README.md, as lazy.nvim would use it: its config run in headless Neovim
    with the plugin table of a checkout that has a build, askhost not on PATH: the plugin loads
    and finds build/askhost there; its build line is a shell line that configures once and builds."""
    if not shutil.which("nvim"):
        raise Skip("nvim is not installed")
    import re
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    block = re.search(r"<!-- lazy\.nvim spec[^>]*-->\n```lua\n(.*?)```", readme, re.S)
    check(block, "the spec in README.md")
    wd = Workdir()
    checkout = wd.file("askhost checkout")  # a checkout elsewhere, with a space in its path
    os.makedirs(os.path.join(checkout, "build"))
    shutil.copytree(os.path.join(ROOT, "editor-bridges", "neovim"), os.path.join(checkout, "editor-bridges", "neovim"))
    askhost = os.environ.get("ASKHOST", os.path.join(BUILD, "askhost"))
    os.symlink(askhost, os.path.join(checkout, "build", "askhost"))
    spec_file = wd.file("spec.lua")
    with open(spec_file, "w") as f:
        f.write("return " + block.group(1))
    lua = ("local spec = dofile(%r); spec.config({ dir = %r }); "
           "io.stdout:write('BINARY ' .. tostring(require('askhost').binary()) .. '\\n'); "
           "io.stdout:write('BUILD ' .. spec.build .. '\\n')") % (spec_file, checkout)
    env = wd.env(PATH="/usr/bin:/bin")
    env.pop("ASKHOST", None)
    out = subprocess.run(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "lua " + lua, "-c", "qa!"],
                         env=env, capture_output=True, text=True, timeout=30, cwd=wd.path)
    text = out.stdout + out.stderr
    check("BINARY " + os.path.join(checkout, "build", "askhost") in text, "the plugin finds build/askhost: " + text)
    build = re.search(r"BUILD (.*)", text).group(1)
    fake = wd.file("fakebin")
    os.makedirs(fake)
    for tool in ("meson", "ninja"):  # record what the build line runs, not a whole build
        with open(os.path.join(fake, tool), "w") as f:
            f.write('#!/bin/sh\necho "%s $*" >> "%s"\n' % (tool, wd.file("ran")))
        os.chmod(os.path.join(fake, tool), 0o755)
    for _ in range(2):
        subprocess.run(["sh", "-c", build], cwd=checkout, env=dict(env, PATH=fake + ":/usr/bin:/bin"), check=True)
        open(os.path.join(checkout, "build", "build.ninja"), "a").close()  # configured after the first
    with open(wd.file("ran")) as f:
        equal(f.read().splitlines(), ["meson setup build", "ninja -C build", "ninja -C build"],
              "configured once, built each time")


if __name__ == "__main__":
    sys.exit(main())
