#!/usr/bin/env python3
"""The shell completions (askhost.bash, _askhost, askhost.fish here) and the man page's option
lists (docs/askhost.1, between its `.\\" BEGIN options` and `.\\" END options` lines) made from the
one command table, as `askhost --dump-options` prints it (host/core/command_line.hpp; the
adapters' subcommands and the adapter names from the registry). `./dev completions` runs it.

    make_completions.py ASKHOST ROOT           write the files
    make_completions.py --check ASKHOST ROOT   exit 1 naming each file that differs (stale)

How a value completes comes from its name in the table: a value written `strict|lenient` is one
of those words (`--adapter`: the registry's names), PATH, FILE, F and SOCKET are files, DIR a
folder, anything else free text. A description is the option's help up to its first parenthesis,
colon or semicolon, a subcommand's its summary up to its first parenthesis.
"""
import json
import os
import re
import subprocess
import sys

FILE_VALUES = {"PATH", "FILE", "F", "SOCKET"}
HEAD = ("# Made by `./dev completions` from the command table (askhost --dump-options): change the\n"
        "# table, not this file; `lint cli generated` fails while it is stale.")


def table(askhost):
    out = subprocess.run([askhost, "--dump-options"], capture_output=True, text=True, check=True).stdout
    commands = json.loads(out)["commands"]
    for c in commands:
        c["options"] = [o for o in c["options"] if not o["hidden"]]
    return commands[0], sorted(commands[1:], key=lambda c: c["name"])  # as a shell lists them


def kind(o):
    """How a shell completes the option's value: None (a flag), 'words', 'file', 'dir' or 'text'."""
    if not o["value"]:
        return None
    if o["choices"]:
        return "words"
    if o["value"] in FILE_VALUES:
        return "file"
    return "dir" if o["value"] == "DIR" else "text"


def describe(text):
    """A help text up to its first parenthesis, colon or semicolon: a completion's description
    ("as JSON" for one that shows the JSON's shape)."""
    text = re.split(r" \(|: |; ", one_line(text))[0].strip().rstrip(":;,")
    return "as JSON" if text.startswith("{") else text


def summary_of(command):
    """A command's summary up to its first parenthesis: its description among the subcommands."""
    return one_line(command["summary"]).split(" (")[0]


def one_line(text):
    return " ".join(text.split())


# ------------------------------------------------------------------------------------------ bash

def longs(command):
    return ["--" + o["name"] for o in command["options"]] + ["--help"]


def bash(run, subs):
    every = [run] + subs
    words, files, dirs = {}, [], []
    for c in every:
        for o in c["options"]:
            name = "--" + o["name"]
            k = kind(o)
            if k == "words" and name not in words:
                words[name] = " ".join(o["choices"])
            elif k == "file" and name not in files:
                files.append(name)
            elif k == "dir" and name not in dirs:
                dirs.append(name)
    out = ["# bash completion for askhost.", HEAD,
           "_askhost() {",
           "    local cur prev",
           '    cur="${COMP_WORDS[COMP_CWORD]}"',
           '    prev="${COMP_WORDS[COMP_CWORD-1]}"',
           f'    local subcommands="{" ".join(c["name"] for c in subs)}"',
           f'    local options="{" ".join(longs(run))}"',
           "    # After --, the agent's own command line: complete commands and files.",
           "    local i",
           "    for ((i = 1; i < COMP_CWORD; i++)); do",
           '        if [[ "${COMP_WORDS[i]}" == "--" ]]; then',
           '            if ((i + 1 == COMP_CWORD)); then mapfile -t COMPREPLY < <(compgen -c -- "$cur"); '
           'else mapfile -t COMPREPLY < <(compgen -f -- "$cur"); fi',
           "            return",
           "        fi",
           "    done",
           '    case "$prev" in']
    for name, w in words.items():
        out.append(f'        {name}) mapfile -t COMPREPLY < <(compgen -W "{w}" -- "$cur"); return ;;')
    if files:
        out.append(f'        {" | ".join(files)}) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;')
    if dirs:
        out.append(f'        {" | ".join(dirs)}) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;')
    out += ["    esac",
            "    if ((COMP_CWORD == 1)); then",
            '        mapfile -t COMPREPLY < <(compgen -W "$subcommands $options" -- "$cur")',
            "        return",
            "    fi",
            '    case "${COMP_WORDS[1]}" in']
    for c in subs:
        out.append(f'        {c["name"]}) mapfile -t COMPREPLY < <(compgen -W "{" ".join(c["words"] + longs(c))}" -- "$cur") ;;')
    out += ['        *) mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur") ;;',
            "    esac",
            "}",
            "complete -F _askhost askhost"]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------- zsh

def zsh_quote(s):
    return s.replace("'", "'\\''")


def zsh_value(o):
    """What follows an option that takes a value: =:message:action."""
    k = kind(o)
    message = (o["name"] if k == "words" else o["value"].lower()).replace(":", "\\:")
    action = {"words": "(" + " ".join(o["choices"]) + ")", "file": "_files", "dir": "_files -/"}.get(k, "")
    return f"=:{message}:{action}"


def zsh_spec(o, with_description):
    names = "--" + o["name"]
    description = "[" + zsh_quote(describe(o["help"])).replace("]", "\\]") + "]" if with_description else ""
    value = zsh_value(o) if o["value"] else ""
    if with_description and o["value"]:
        value = value[0] + description + value[1:]  # --opt=[description]:message:action
        description = ""
    if o["short"]:
        rest = description + value
        return "{-" + o["short"] + "," + names + "}" + ("'" + rest + "'" if rest else "")
    return "'" + names + description + value + "'"


def zsh(run, subs):
    out = ["#compdef askhost",
           "# zsh completion for askhost (installed as share/zsh/vendor-completions/_askhost).", HEAD,
           "",
           "_askhost() {",
           "  local -a run_opts",
           "  run_opts=("]
    out += ["    " + zsh_spec(o, True) for o in run["options"]]
    out += ["    '(- *)'{-h,--help}'[show the help]'",
            "  )",
            "  # After --: the agent's own command line.",
            "  local dd=${words[(i)--]}",
            "  if (( dd < CURRENT )); then",
            "    shift $dd words",
            "    (( CURRENT -= dd ))",
            "    _normal",
            "    return",
            "  fi",
            "  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then",
            "    local -a subs",
            "    subs=("]
    out += [f"      '{c['name']}:{zsh_quote(summary_of(c))}'" for c in subs]
    out += ["    )",
            "    _describe -t commands 'askhost command' subs",
            "    _arguments $run_opts",
            "    return",
            "  fi",
            "  # A subcommand's own arguments: as if it were the command.",
            "  if [[ $words[2] != -* ]]; then",
            "    shift words",
            "    (( CURRENT-- ))",
            "  fi",
            "  case $words[1] in"]
    for c in subs:
        specs = []
        if c["words"]:
            specs.append("'1:action:(" + " ".join(c["words"]) + ")'")
        elif c["operand"] in FILE_VALUES:
            specs.append(f"'1:{c['operand'].lower()}:_files'")
        specs += [zsh_spec(o, False) for o in c["options"]]
        specs.append("'(- *)--help'")
        out.append(f"    {c['name']}) _arguments {' '.join(specs)} ;;")
    out += ["    *) _arguments $run_opts '*::agent command:_normal' ;;",
            "  esac",
            "}",
            "",
            '_askhost "$@"']
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------ fish

def fish_quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish_option(condition, o):
    line = f"complete -c askhost -n {condition}"
    if o["short"]:
        line += f" -s {o['short']}"
    line += f" -l {o['name']}"
    k = kind(o)
    if k == "words":
        line += " -x -a " + fish_quote(" ".join(o["choices"]))
    elif k in ("file", "dir"):
        line += " -r -F"
    elif k == "text":
        line += " -x"
    return line + " -d " + fish_quote(describe(o["help"]))


def fish(run, subs):
    names = " ".join(c["name"] for c in subs)
    out = ["# fish completion for askhost (installed as share/fish/vendor_completions.d/askhost.fish).", HEAD,
           "",
           f"set -l subs {names}",
           "",
           "function __askhost_no_sub",
           "    set -l words (commandline -opc)",
           "    for w in $words[2..-1]",
           "        switch $w",
           "            case -- '--'",
           "                return 1",
           "            case '-*'",
           "                continue",
           "            case '*'",
           "                return 1",
           "        end",
           "    end",
           "    return 0",
           "end",
           "",
           "function __askhost_after_dashdash",
           "    contains -- -- (commandline -opc)",
           "end",
           "",
           "complete -c askhost -f"]
    out += [f"complete -c askhost -n __askhost_no_sub -a {c['name']} -d {fish_quote(summary_of(c))}"
            for c in subs]
    out += ["",
            "# Running an agent: askhost [MODE] [OPTIONS] -- AGENT [ARGS...]",
            'set -l run "__askhost_no_sub; and not __askhost_after_dashdash"']
    out += [fish_option("$run", o) for o in run["options"]]
    out += ["complete -c askhost -n $run -s h -l help -d 'show the help'",
            "complete -c askhost -n __askhost_after_dashdash -F -a '(__fish_complete_subcommand --fcs-skip=1)'",
            ""]
    for c in subs:
        condition = fish_quote("__fish_seen_subcommand_from " + c["name"])
        if c["words"]:
            out.append(f"complete -c askhost -n {condition} -a {fish_quote(' '.join(c['words']))}")
        out += [fish_option(condition, o) for o in c["options"]]
    out.append("complete -c askhost -n \"__fish_seen_subcommand_from $subs\" -l help -d 'show the help'")
    return "\n".join(out) + "\n"


# -------------------------------------------------------------------------------------- man page

def roff(text):
    """Help text as the man page writes it: a sentence, backslashes and options' hyphens escaped."""
    text = one_line(text).replace("`", "").replace("\\", "\\e")
    text = re.sub(r"(?<![\w-])(--?)([a-zA-Z][\w-]*)", lambda m: m.group(1).replace("-", "\\-") +
                  m.group(2).replace("-", "\\-"), text)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def man_entry(o):
    long = "\\-\\-" + o["name"].replace("-", "\\-")
    value = o["value"].lower()
    if o["short"]:
        head = f'.BR \\-{o["short"]} ", " {long}' + (f' " \\fI{value}\\fR"' if value else "")
    elif not value:
        head = f".B {long}"
    elif o["choices"] and "|" in o["value"]:
        head = f'.BR {long} " {o["value"]}"'
    else:
        head = f'.BI {long} " {value}"'
    return [".TP", head, roff(o["help"])]


def man_blocks(run, subs):
    """The generated lines of each marked block, by the block's name."""
    groups = [[]]
    for o in run["options"]:
        if o["heading"] and groups[-1]:
            groups.append([])
        groups[-1].append(o)
    blocks = {"modes of askhost": groups[0], "options of askhost": [o for g in groups[1:] for o in g]}
    for c in subs:
        blocks["options of askhost " + c["name"]] = c["options"]
    return {name: [line for o in options for line in man_entry(o)] for name, options in blocks.items()}


def man(text, run, subs):
    blocks = man_blocks(run, subs)
    lines, out, seen = text.split("\n"), [], set()
    i = 0
    while i < len(lines):
        m = re.match(r'^\.\\" BEGIN (.*)$', lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        name = m.group(1)
        end = lines.index(f'.\\" END {name}', i)
        if name not in blocks:
            raise SystemExit(f"docs/askhost.1:{i + 1}: no command has the block {name!r}")
        out += [lines[i]] + blocks[name] + [lines[end]]
        seen.add(name)
        i = end + 1
    missing = sorted(set(blocks) - seen)
    if missing:
        raise SystemExit("docs/askhost.1 has no block for: " + ", ".join(missing) +
                         " (add its .\\\" BEGIN and .\\\" END lines where its options go)")
    return "\n".join(out)


def main(argv):
    check = argv[:1] == ["--check"]
    args = argv[1:] if check else argv
    if len(args) != 2:
        print(__doc__)
        return 2
    askhost, root = args
    run, subs = table(askhost)
    wanted = {
        "host/completions/askhost.bash": bash(run, subs),
        "host/completions/_askhost": zsh(run, subs),
        "host/completions/askhost.fish": fish(run, subs),
    }
    with open(os.path.join(root, "docs/askhost.1"), encoding="utf-8") as f:
        wanted["docs/askhost.1"] = man(f.read(), run, subs)
    stale = []
    for rel, text in wanted.items():
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            same = f.read() == text
        if same:
            continue
        if check:
            stale.append(rel)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("made " + rel)
    if stale:
        print("not as the command table makes them: " + ", ".join(stale) + " (run ./dev completions)")
        return 1
    if check:
        print(f"the completions and the man page's option lists are as the command table makes them "
              f"({len(subs)} subcommands)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
