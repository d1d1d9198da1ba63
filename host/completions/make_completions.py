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

What zsh offers after an option (its exclusion lists) is the one thing the table does not say: the
commands check it themselves. EXCLUSIVE, ALONE and REPEATS below hold it, by command and long name;
a name the table does not have fails the run, so a renamed option cannot drop out unseen. An option
with a short name is not offered again in either spelling unless it repeats.

The VS Code setting `askhost.adapter` (editor-bridges/vscode/package.json) takes its choices from
the same dump: --adapter's, the registry's.
"""
import json
import os
import re
import subprocess
import sys

FILE_VALUES = {"PATH", "FILE", "F", "SOCKET"}
# By command ("" is askhost itself): options of which one is given (the command refuses, or takes
# the last), options given alone, options given more than once (Args::values).
EXCLUSIVE = {"": [["stdio", "tui", "print"]], "status": [["tmux", "json"]], "history": [["json", "summary", "list"]]}
ALONE = {"": ["version"]}
REPEATS = {"": ["allow-tools", "on-question"], "web": ["public-name", "on-question"]}
PACKAGE_JSON = "editor-bridges/vscode/package.json"
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


def relations(command):
    """EXCLUSIVE, ALONE and REPEATS for this command, each name checked against its table; marks
    each option's "repeats"."""
    name = command["name"]
    known = {o["name"] for o in command["options"]}
    for group in EXCLUSIVE.get(name, []) + [ALONE.get(name, []), REPEATS.get(name, [])]:
        for n in group:
            if n not in known:
                raise SystemExit(f"make_completions.py: askhost {name or '(itself)'} has no option --{n}")
    for o in command["options"]:
        o["repeats"] = o["name"] in REPEATS.get(name, [])
    excluded = {n: set() for n in known}
    for group in EXCLUSIVE.get(name, []):
        for n in group:
            excluded[n] |= set(group) - {n}
    return excluded, set(ALONE.get(name, []))


def zsh_exclusions(command):
    """Each option's zsh exclusion list, by name: "(- *)" for one given alone, else the options it
    cannot go with and, unless it repeats, its own other spelling."""
    excluded, alone = relations(command)
    out = {}
    for o in command["options"]:
        if o["name"] in alone:
            out[o["name"]] = "(- *)"
            continue
        names = set(excluded[o["name"]])
        if o["short"] and not o["repeats"] and names:
            names.add(o["name"])
        spelled = []
        for other in command["options"]:  # in the table's order
            if other["name"] in names:
                spelled += (["-" + other["short"]] if other["short"] else []) + ["--" + other["name"]]
        if o["short"] and not o["repeats"] and not names:
            spelled = ["-" + o["short"], "--" + o["name"]]
        out[o["name"]] = "(" + " ".join(spelled) + ")" if spelled else ""
    return out


def zsh_spec(o, with_description, exclusions):
    names = "--" + o["name"]
    exclusion = exclusions.get(o["name"], "")
    star = "*" if o["repeats"] else ""
    description = "[" + zsh_quote(describe(o["help"])).replace("]", "\\]") + "]" if with_description else ""
    value = zsh_value(o) if o["value"] else ""
    if with_description and o["value"]:
        value = value[0] + description + value[1:]  # --opt=[description]:message:action
        description = ""
    if o["short"]:
        rest = description + value
        head = "'" + exclusion + star + "'" if exclusion or star else ""
        return head + "{-" + o["short"] + "," + names + "}" + ("'" + rest + "'" if rest else "")
    return "'" + exclusion + star + names + description + value + "'"


def zsh(run, subs):
    out = ["#compdef askhost",
           "# zsh completion for askhost (installed as share/zsh/vendor-completions/_askhost).", HEAD,
           "",
           "_askhost() {",
           "  local -a run_opts",
           "  run_opts=("]
    out += ["    " + zsh_spec(o, True, zsh_exclusions(run)) for o in run["options"]]
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
        specs += [zsh_spec(o, False, zsh_exclusions(c)) for o in c["options"]]
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
    text = o["help"]
    if o["choices"] and "|" not in o["value"]:  # words from elsewhere (--adapter's: the registry's)
        text = one_line(text).rstrip(".") + ". One of: " + ", ".join(o["choices"])
    return [".TP", head, roff(text)]


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


# ------------------------------------------------------------------------------ VS Code's setting

def package_json(text, run):
    """The VS Code extension's manifest with askhost.adapter's choices as --adapter's."""
    manifest = json.loads(text)
    adapter = next(o for o in run["options"] if o["name"] == "adapter")
    manifest["contributes"]["configuration"]["properties"]["askhost.adapter"]["enum"] = adapter["choices"]
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


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
    with open(os.path.join(root, PACKAGE_JSON), encoding="utf-8") as f:
        wanted[PACKAGE_JSON] = package_json(f.read(), run)
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
