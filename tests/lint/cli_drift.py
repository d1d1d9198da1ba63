#!/usr/bin/env python3
"""The shell completions and the man page list the options the command line reads: this checks
host/completions/{askhost.bash,_askhost,askhost.fish} and docs/askhost.1 against the one table the
binary reads them with (`askhost --dump-options`, host/core/command_line.hpp), and fails naming
each option or subcommand one of them misses or has that the table does not.

    cli_drift.py ROOT    (ASKHOST names the binary)

A new option or subcommand is declared once in C++; this test then says which of the four files
to add it to.
"""
import json
import os
import re
import subprocess
import sys


def table(askhost):
    out = subprocess.run([askhost, "--dump-options"], capture_output=True, text=True, check=True).stdout
    commands = json.loads(out)["commands"]
    run = commands[0]
    subs = {c["name"]: c for c in commands[1:]}
    return run, subs


def longs(command):
    """The long options a completion offers for a command: the declared ones and --help."""
    return {"--" + o["name"] for o in command["options"] if not o["hidden"]} | {"--help"}


def shorts(command):
    return {"-" + o["short"] for o in command["options"] if o["short"] and not o["hidden"]}


class Drift:
    def __init__(self):
        self.problems = []

    def same(self, where, want, got):
        for x in sorted(want - got):
            self.problems.append(f"{where}: misses {x}")
        for x in sorted(got - want):
            self.problems.append(f"{where}: has {x}, which askhost does not read")


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def check_bash(d, text, run, subs):
    where = "host/completions/askhost.bash"
    m = re.search(r'local subcommands="([^"]*)"', text)
    d.same(where + " (subcommands)", set(subs), set(m.group(1).split()) if m else set())
    m = re.search(r'local options="([^"]*)"', text)
    d.same(where + " (options)", longs(run), set(m.group(1).split()) if m else set())
    for name, c in subs.items():
        m = re.search(r"^\s*" + re.escape(name) + r'\) mapfile -t COMPREPLY < <\(compgen -W "([^"]*)"', text, re.M)
        d.same(f"{where} ({name})", longs(c) | set(c["words"]), set(m.group(1).split()) if m else set())


def option_words(text):
    return set(re.findall(r"(?<![\w-])--?[a-zA-Z][\w-]*", text))


def check_zsh(d, text, run, subs):
    where = "host/completions/_askhost"
    m = re.search(r"run_opts=\((.*?)\n\s*\)", text, re.S)
    # The options themselves, not the words of their [descriptions].
    got = option_words(re.sub(r"\[[^\]]*\]", "", m.group(1))) if m else set()
    d.same(where + " (run_opts)", longs(run) | shorts(run) | {"-h"}, got)
    m = re.search(r"subs=\((.*?)\n\s*\)", text, re.S)
    d.same(where + " (subs)", set(subs), set(re.findall(r"'([a-z][a-z-]*):", m.group(1))) if m else set())
    for name, c in subs.items():
        # The case arm, with its continuation lines.
        m = re.search(r"^\s*" + re.escape(name) + r"\) (_arguments(?:[^\n]*\\\n)*[^\n]*)", text, re.M)
        arm = m.group(1) if m else ""
        d.same(f"{where} ({name})", longs(c) | shorts(c), option_words(arm))
        for w in c["words"]:
            if not re.search(r"[(\s]" + re.escape(w) + r"[)\s]", arm):
                d.problems.append(f"{where} ({name}): misses the word {w}")


def check_fish(d, text, run, subs):
    where = "host/completions/askhost.fish"
    m = re.search(r"^set -l subs (.*)$", text, re.M)
    d.same(where + " (subs)", set(subs), set(m.group(1).split()) if m else set())
    d.same(where + " (__askhost_no_sub -a)", set(subs),
           set(re.findall(r"^complete -c askhost -n __askhost_no_sub -a (\S+)", text, re.M)))

    def fish_options(lines):
        got = set()
        for line in lines:
            got |= {"--" + x for x in re.findall(r"\s-l (\S+)", line)}
            got |= {"-" + x for x in re.findall(r"\s-s (\S+)", line)}
        return got

    lines = text.splitlines()
    d.same(where + " ($run)", longs(run) | shorts(run) | {"-h"},
           fish_options(l for l in lines if l.startswith("complete -c askhost -n $run ")))
    for name, c in subs.items():
        own = []
        for line in lines:
            m = re.match(r"complete -c askhost -n '__fish_seen_subcommand_from ([^']*)'", line)
            if m and name in m.group(1).split():
                own.append(line)
        # --help is offered to every subcommand by one line ("... from $subs").
        d.same(f"{where} ({name})", longs(c) | shorts(c), fish_options(own) | {"--help"})
        words = set()
        for line in own:
            m = re.search(r"\s-a '?([^'-][^']*?)'?(?:\s-d|$)", line)
            if m:
                words |= set(m.group(1).split())
        d.same(f"{where} ({name} words)", set(c["words"]), words)


def man_options(text):
    return set(re.findall(r"(?<![\w-])\\-\\-([a-z](?:[a-z]|\\-)*)", text))


def check_man(d, text, run, subs):
    where = "docs/askhost.1"

    def section(title):
        m = re.search(r"^\.SH " + title + r"\n(.*?)(?=^\.SH )", text, re.S | re.M)
        return m.group(1) if m else ""

    def names(s):
        return {"--" + x.replace("\\-", "-") for x in man_options(s)}

    d.same(where + " (MODES and OPTIONS)", longs(run), names(section("MODES") + section("OPTIONS")))
    commands = section("COMMANDS")
    # A name with a hyphen (codex-hook) is written with groff's \- in the page.
    blocks = {k.replace("\\-", "-"): v for k, v in re.findall(
        r'^\.SS "?askhost ([a-z](?:[a-z]|\\-)*)"?\n(.*?)(?=^\.SS |\Z)', commands, re.S | re.M)}
    d.same(where + " (COMMANDS)", set(subs), set(blocks))
    synopsis = section("SYNOPSIS")
    for name, c in subs.items():
        if name in blocks:
            d.same(f"{where} (askhost {name})", longs(c) - {"--help"}, names(blocks[name]) - {"--help"})
        if not re.search(r"^\.B askhost " + re.escape(name.replace("-", "\\-")) + r"$", synopsis, re.M):
            d.problems.append(f"{where} (SYNOPSIS): misses askhost {name}")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    run, subs = table(os.environ.get("ASKHOST", "askhost"))
    d = Drift()
    check_bash(d, read(root, "host/completions/askhost.bash"), run, subs)
    check_zsh(d, read(root, "host/completions/_askhost"), run, subs)
    check_fish(d, read(root, "host/completions/askhost.fish"), run, subs)
    check_man(d, read(root, "docs/askhost.1"), run, subs)
    for p in d.problems:
        print(p)
    if d.problems:
        print(f"{len(d.problems)} differences from `askhost --dump-options`: add the option where it is "
              "missing, or declare it in its command (host/core/command_line.hpp)")
        return 1
    print(f"the completions and the man page list the {len(subs)} subcommands and their options")
    return 0


if __name__ == "__main__":
    sys.exit(main())
