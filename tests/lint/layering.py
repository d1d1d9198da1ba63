#!/usr/bin/env python3
"""The host's folders depend on each other in one direction (README.md, Layout): this checks every
`#include "..."` in host/ and plugins/ against the table below and fails on one against it.

    layering.py [ROOT]          check (the exit status says whether it holds)
    layering.py --graph [ROOT]  print the folder-level graph the includes make
    layering.py --self-test     show on a small made-up tree that it catches an include against it

Each folder is its own Meson static library, linked only in the same direction, so an include
against it that the table let through would still fail to link in a test that links less.
"""
import os
import re
import sys

# folder -> the folders it may include (its own always). The one table of the direction; the
# meson.build files link the same way. A plugin folder with no row is an adapter's (ADAPTER); one
# that needs more has its row.
ADAPTER = {'plugins/common', 'transport', 'core', 'json'}
ALLOWED = {
    'json': set(),
    'core': {'json'},
    'transport': {'json'},
    'agent': {'core', 'json'},
    'store': {'core', 'json'},
    'frontends': {'store', 'transport', 'core', 'json'},
    # Asking through the workspace's host, or as a host of one's own (service/ask_service.hpp).
    'service': {'frontends', 'store', 'transport', 'core', 'json'},
    'plugins/common': {'core', 'json'},
    # askhost mcp and askhost hook ask through the workspace's host, or as one: the ask service.
    # store: askhost codex-hook reads the session's answers as askhost history says them and
    # `askhost codex-hook install` rewrites Codex's hooks.json in place (atomic_write).
    # plugins/claude: Claude Code's transcript, read in one place (claude_transcript, with
    # claude_tools a library of its own: plugins/meson.build) tells whose tool_use a call is.
    'plugins/mcp': ADAPTER | {'service', 'store', 'plugins/claude'},
    # store: `askhost hook install` rewrites Claude Code's settings file in place (atomic_write).
    'plugins/claude': ADAPTER | {'service', 'store'},
    # askhost codex-hook and gemini-hook: built into plugins/mcp's library, whose command table and
    # own-question hook they share (the ask service); store as plugins/mcp's.
    'plugins/codex': ADAPTER | {'service', 'store', 'plugins/mcp'},
    'plugins/gemini': ADAPTER | {'service', 'store', 'plugins/mcp', 'plugins/codex'},
    # askhost opencode: the ask service, and `install` writes the plugin's file (atomic_write).
    'plugins/opencode': ADAPTER | {'service', 'store'},
    # askhost web: a client of the hosts (frontends/editor), and its own server.
    'web': {'frontends', 'store', 'transport', 'core', 'json'},
    'app': {'web', 'service', 'frontends', 'agent', 'store', 'transport', 'core', 'json'},
}
# Headers any folder may include, json too: they include nothing of ours and hold no code to link.
# UTF-8's one decoder is core's, and json repairs and checks text by it (tests/text/utf8_repair.json).
# A step's failure (Result, with a peer's error code) and an owner's Lifetime are one shape from
# the transport up.
BELOW_ALL = {'host/core/text/utf8.hpp', 'host/core/error.hpp', 'host/core/lifetime.hpp'}
# Made by meson in the build directory: who may include them.
GENERATED = {'askhost_config.h': None, 'askhost_version.h': {'app'}}
SOURCE = ('.cpp', '.hpp', '.h', '.in')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def allowed_for(folder):
    """What `folder` may include, or None when it is no library folder."""
    if folder in ALLOWED:
        return ALLOWED[folder]
    return ADAPTER if folder and folder.startswith('plugins/') else None


def folder_of(rel):
    """The library folder of a path relative to the root, or None when it is in none."""
    parts = rel.split('/')
    if parts[0] == 'host' and len(parts) > 2 and parts[1] in ALLOWED:
        return parts[1]
    if parts[0] == 'plugins' and len(parts) > 2:
        return 'plugins/' + parts[1]
    return None


def resolve(root, including, name):
    """The file an include names (next to the including file, then under host/ and plugins/)."""
    for base in (os.path.dirname(including), 'host', 'plugins'):
        rel = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, rel)):
            return rel
    return None


def sources(root):
    for top in ('host', 'plugins'):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if n.endswith(SOURCE):
                    yield os.path.relpath(os.path.join(dirpath, n), root)


def check(root):
    problems, graph = [], {}
    for rel in sources(root):
        src = folder_of(rel)
        if allowed_for(src) is None:
            problems.append(f'{rel}: in no library folder of tests/lint/layering.py (ALLOWED)')
            continue
        with open(os.path.join(root, rel), encoding='utf-8') as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            if name in GENERATED:
                who = GENERATED[name]
                if who is not None and src not in who:
                    problems.append(f'{rel}:{line}: includes {name}, which only {", ".join(sorted(who))} may')
                continue
            target = resolve(root, rel, name)
            if target is None:
                problems.append(f'{rel}:{line}: includes "{name}", which is no file of the project')
                continue
            if target in BELOW_ALL:
                continue
            dst = folder_of(target)
            if allowed_for(dst) is None:
                problems.append(f'{rel}:{line}: includes {target}, which is in no library folder')
                continue
            if dst != src:
                graph.setdefault(src, set()).add(dst)
                if dst not in allowed_for(src):
                    allowed = ', '.join(sorted(allowed_for(src))) or 'nothing of ours'
                    problems.append(f'{rel}:{line}: includes {target}: {src} may not depend on {dst} '
                                    f'({src} depends on {allowed})')
    return problems, graph


def self_test():
    import tempfile
    tree = {
        'host/json/json_access.hpp': '#include "core/text/utf8.hpp"\n',
        'host/core/text/utf8.hpp': '',
        'host/core/broker.hpp': '#include "json/json_access.hpp"\n',
        'host/core/broker.cpp': '#include "core/broker.hpp"\n#include "app/host.hpp"\n',
        'host/app/host.hpp': '#include "core/broker.hpp"\n',
        'plugins/pi/pi_adapter.cpp': '#include "core/broker.hpp"\n#include "../mcp/mcp_server.hpp"\n',
        'plugins/mcp/mcp_command.cpp': '#include "app/host.hpp"\n',
        'plugins/mcp/mcp_server.hpp': '#include "missing.hpp"\n',
        'host/loose.cpp': '',
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in tree.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), 'w', encoding='utf-8') as f:
                f.write(text)
        problems, graph = check(root)
    want = ['host/core/broker.cpp:2: includes host/app/host.hpp: core may not depend on app',
            'plugins/pi/pi_adapter.cpp:2: includes plugins/mcp/mcp_server.hpp: plugins/pi may not depend on plugins/mcp',
            'plugins/mcp/mcp_command.cpp:1: includes host/app/host.hpp: plugins/mcp may not depend on app',
            'plugins/mcp/mcp_server.hpp:1: includes "missing.hpp", which is no file of the project',
            'host/loose.cpp: in no library folder']
    missed = [w for w in want if not any(p.startswith(w) for p in problems)]
    extra = [p for p in problems if not any(p.startswith(w) for w in want)]
    for m in missed:
        print('self-test: not caught:', m)
    for e in extra:
        print('self-test: caught wrongly:', e)
    if graph != {'core': {'app', 'json'}, 'app': {'core'}, 'plugins/pi': {'core', 'plugins/mcp'},
                 'plugins/mcp': {'app'}}:
        print('self-test: graph', graph)
        return 1
    if missed or extra:
        return 1
    print(f'layering self-test: the {len(want)} made-up problems caught, nothing else')
    return 0


def main(argv):
    if '--self-test' in argv:
        return self_test()
    args = [a for a in argv if not a.startswith('--')]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), '..', '..'))
    problems, graph = check(root)
    if '--graph' in argv:
        for src in sorted(graph):
            print(f'{src} -> {", ".join(sorted(graph[src]))}')
        return 0
    for p in problems:
        print(p)
    if problems:
        print(f'layering: {len(problems)} include(s) against the direction (tests/lint/layering.py, ALLOWED)')
        return 1
    print(f'layering: every include follows the direction ({sum(1 for _ in sources(root))} files)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
