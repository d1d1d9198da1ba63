#!/usr/bin/env python3
"""clang-tidy over askhost's program (host/ and plugins/) with the checks in .clang-tidy, every
warning an error.

Usage: clang_tidy.py BUILD_DIR [--root ROOT] [--all] [--record] [--no-cache]
       clang_tidy.py --self-test

BUILD_DIR's compile_commands.json says how each file is compiled. Runs one clang-tidy per core. In
a unity build (meson's -Dunity=on: ./dev test's build/ in CI) the database names the unity files;
each is taken apart into the units it includes, each with the command, and the dependencies, a
build of one file per unit would have had (the key below is then the same in both builds).

A unit's result depends on nothing but clang-tidy's version (what `clang-tidy --version` prints, less
its "Host CPU" line, which names the machine's processor and not the tool), .clang-tidy, the compile command (less a
compiler launcher such as ccache, and less the optimisation, debug-information and colour flags), the file and every project header it includes (their contents,
from ninja's dependency log), and the system headers it includes (their names, sizes and times, which
dpkg sets from the package: the same on every machine with the same packages). A hash of all that is
the unit's key, and a unit whose key was found clean before is clean now. Keys found clean come from
two places:
  - tests/lint/clang-tidy-clean.txt, committed: the keys of every unit of the tree as `./dev lint`
    last found it. A fresh clone on a new machine therefore checks only the units a change touched
    since then (the file, or a header it includes); a change to .clang-tidy, to a header every unit
    includes, to the compile flags or to the compiler's or Boost's package checks every unit again.
  - $ASKHOST_TIDY_CACHE (default ~/.cache/askhost-clang-tidy): what this machine found clean.
A unit with a finding is never remembered, so it is checked every time.

--all      check every unit, whatever it remembers (`./dev lint --all`)
--record   write ROOT/tests/lint/clang-tidy-clean.txt: the keys of all units, when all are clean
--no-cache neither read nor write the machine's cache (the committed list is still read unless --all)
--root     the source tree (default: the one this file is in); the self-test's small tree uses it

Exits 77 (meson's skip) when clang-tidy is not installed (`apt-get install clang-tidy`, or
./dev test).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
RECORD = os.path.join('tests', 'lint', 'clang-tidy-clean.txt')
LAUNCHERS = {'ccache', 'sccache'}
VERSION_HEADER = 'askhost_version.h'  # made by meson in the build folder from `git describe`


def ninja_deps(build):
    """{object file (relative to the build): [the files it was compiled from]}, from ninja's log."""
    p = subprocess.run(['ninja', '-C', build, '-t', 'deps'], capture_output=True, text=True)
    deps, current = {}, None
    for line in p.stdout.splitlines() if p.returncode == 0 else []:
        if line and not line.startswith(' '):
            current = line.split(':', 1)[0] if '(VALID)' in line else None
            if current:
                deps[current] = []
        elif current and line.strip():
            deps[current].append(line.strip())
    return deps


UNITY = re.compile(r'(.*)-unity[0-9]+\.(cpp|cc|cxx)$')


def unity_parts(command):
    """The sources a unity file of meson's includes, as paths relative to the build folder."""
    path = os.path.join(command['directory'], command['file'])
    parts = []
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*#include\s*[<"](.*)[>"]', line)
            if m:
                parts.append(os.path.relpath(os.path.normpath(os.path.join(command['directory'], m.group(1))),
                                             command['directory']))
    return parts


def split_unity(root, command):
    """The commands of the units a unity file includes: the unity file's flags with the source and
    the object a build of one file per unit names (meson's TARGET.p/SUBDIR_NAME.cpp.o)."""
    words = command_words(command)
    obj = command['output']
    private = os.path.dirname(obj)  # host/core/libaskhost_core.a.p
    subdir = os.path.dirname(private)  # host/core
    out = []
    for src in unity_parts(command):
        rel = os.path.relpath(os.path.join(command['directory'], src), os.path.join(root, subdir))
        unit_obj = f'{private}/{rel.replace(os.sep, "_")}.o'
        new = []
        for w in words:
            if w == obj:
                new.append(unit_obj)
            elif w == obj + '.d':
                new.append(unit_obj + '.d')
            elif w == command['file']:
                new.append(src)
            else:
                new.append(w)
        out.append({'directory': command['directory'], 'file': src, 'output': unit_obj,
                    'command': shlex.join(new), 'unity': True})
    return out


def make_deps(command):
    """The files a unit reads, in the order a depfile lists them (the compiler asked with -M)."""
    words, skip = [], False
    for w in command_words(command):
        if skip:
            skip = False
        elif w in ('-MQ', '-MF', '-MT', '-o'):
            skip = True
        elif w not in ('-MD', '-MMD', '-c'):
            words.append(w)
    p = subprocess.run(words + ['-M', '-MQ', 'unit'], cwd=command['directory'], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    text = p.stdout.replace('\\\n', ' ')
    # Once each, in the order first read, as ninja keeps a depfile's list.
    return list(dict.fromkeys(text.split(':', 1)[1].split())) if ':' in text else None


def command_words(command):
    """The compile command as words, without a compiler launcher in front."""
    words = command.get('arguments') or shlex.split(command.get('command', ''))
    while words and os.path.basename(words[0]) in LAUNCHERS:
        words = words[1:]
    return words


# Flags that change the code a compiler makes, not what clang-tidy reads: the optimisation level,
# debug information, diagnostics' colours. Left out of the key, so build/'s -O1 -g1 and a -O2 -g
# tree share their results.
NOT_READ = re.compile(r'-O[0-9sgz]?|-g[0-9]?|-ggdb[0-9]?|-fdiagnostics-color(=.*)?')


def tool_version(tool):
    """clang-tidy's version as its --version says it, less the "Host CPU: znver3" line LLVM adds for
    the processor it runs on: that line is "(unknown)" on another machine of the same packages, and
    with it in the key a new machine checked every unit again (half an hour of a cold run)."""
    text = subprocess.run([tool, '--version'], capture_output=True, text=True).stdout
    return ''.join(line for line in text.splitlines(True) if not line.strip().startswith('Host CPU'))


class Keys:
    """Each unit's key: a hash over all that its clang-tidy result depends on."""

    def __init__(self, tool, root, build):
        version = tool_version(tool)
        with open(os.path.join(root, '.clang-tidy'), 'rb') as f:
            self.base = hashlib.sha256(version.encode() + f.read()).hexdigest()
        self.root = root
        self.build = build
        self.deps = ninja_deps(build)
        self.seen = {}

    def _file(self, path):
        if path not in self.seen:
            try:
                if os.path.basename(path) == VERSION_HEADER and os.path.dirname(path) == self.build:
                    # Strings that name the commit: a new commit changes no finding (main.cpp was
                    # checked again at every commit for it).
                    self.seen[path] = VERSION_HEADER
                elif os.path.commonpath([path, self.root]) == self.root:
                    with open(path, 'rb') as f:
                        self.seen[path] = os.path.relpath(path, self.root) + ':' + hashlib.sha256(f.read()).hexdigest()
                else:
                    st = os.stat(path)
                    self.seen[path] = f'{path}:{st.st_size}:{int(st.st_mtime)}'
            except (OSError, ValueError):
                self.seen[path] = path + ':missing'
        return self.seen[path]

    def key(self, command):
        """None when the file's dependencies are unknown (not built yet): it is then always checked."""
        output = command.get('output')
        deps = make_deps(command) if command.get('unity') else self.deps.get(output) if output else None
        if not deps:
            return None
        directory = command['directory']
        args = ' '.join(w for w in command_words(command) if not NOT_READ.fullmatch(w))
        h = hashlib.sha256(self.base.encode())
        h.update(args.replace(self.build, '@BUILD@').replace(self.root, '@ROOT@').encode())
        for d in deps:
            h.update(self._file(os.path.normpath(os.path.join(directory, d))).encode() + b'\n')
        return h.hexdigest()


class Cache:
    """A folder of files named by the keys found clean on this machine."""

    def __init__(self, directory):
        self.dir = directory

    def has(self, key):
        return self.dir is not None and os.path.exists(os.path.join(self.dir, key[:2], key))

    def remember(self, key):
        if self.dir is None:
            return
        try:
            os.makedirs(os.path.join(self.dir, key[:2]), exist_ok=True)
            open(os.path.join(self.dir, key[:2], key), 'w').close()
        except OSError:
            pass  # a read-only home: no memory, the same result


def read_record(root):
    keys = set()
    try:
        with open(os.path.join(root, RECORD)) as f:
            for line in f:
                if line.strip() and not line.startswith('#'):
                    keys.add(line.split()[0])
    except OSError:
        pass
    return keys


def write_record(root, keys_by_path):
    lines = [f'{key} {os.path.relpath(path, root)}\n' for path, key in sorted(keys_by_path.items())]
    with open(os.path.join(root, RECORD), 'w') as f:
        f.write('# The clang-tidy key of every unit of host/ and plugins/ that `./dev lint` found clean\n'
                '# (tests/lint/clang_tidy.py says what a key covers). `./dev lint` writes it; commit it\n'
                '# with the change, so that a new machine checks only what changed since.\n')
        f.writelines(lines)


def units(root, build):
    """{path of a unit of host/ or plugins/: its compile command}, unity files taken apart."""
    with open(os.path.join(build, 'compile_commands.json')) as f:
        commands = json.load(f)
    expanded = []
    for c in commands:
        expanded += split_unity(root, c) if UNITY.match(c['file']) else [c]
    files = {}
    for c in expanded:
        path = os.path.normpath(os.path.join(c['directory'], c['file']))
        rel = os.path.relpath(path, root)
        if rel.startswith(('host' + os.sep, 'plugins' + os.sep)) and rel.endswith('.cpp'):
            files[path] = c
    return files


def tidy_database(build, files):
    """The folder of a compile_commands.json clang-tidy reads: the build's own, or, when the build
    is a unity build, one of the units taken apart (BUILD/clang-tidy)."""
    if not any(c.get('unity') for c in files.values()):
        return build
    folder = os.path.join(build, 'clang-tidy')
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, 'compile_commands.json'), 'w') as f:
        json.dump([{k: c[k] for k in ('directory', 'file', 'output', 'command')} for c in files.values()], f, indent=1)
    return folder


def run(tool, root, build, check_all=False, record=False, cache_dir=None, out=print):
    """Returns (exit code, the units checked)."""
    files = units(root, build)
    database = tidy_database(build, files)
    keys = Keys(tool, root, build)
    key_of = {path: keys.key(c) for path, c in files.items()}
    known = set() if check_all else read_record(root)
    cache = Cache(None if check_all else cache_dir)
    writer = Cache(cache_dir)
    todo = sorted(p for p in files if key_of[p] is None or not (key_of[p] in known or cache.has(key_of[p])))

    def tidy(path):
        p = subprocess.run([tool, '-p', database, '--quiet', path], cwd=root, capture_output=True, text=True)
        return path, p.returncode, p.stdout

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path, rc, text in pool.map(tidy, todo):
            if rc != 0 or 'warning:' in text or 'error:' in text:
                failed.append(path)
                out(text.strip() or f'{os.path.relpath(path, root)}: clang-tidy exited {rc}')
            elif key_of[path] is not None:
                writer.remember(key_of[path])
    out(f'clang-tidy: {len(files) - len(failed)} of {len(files)} units clean '
        f'({len(files) - len(todo)} unchanged since a clean run, {len(todo)} checked)')
    if record:
        if failed or any(k is None for k in key_of.values()):
            out(f'{RECORD} not written: not every unit is clean and built')
        else:
            write_record(root, key_of)
            out(f'wrote {RECORD}: {len(key_of)} units')
    return (1 if failed else 0), todo


def default_cache():
    return os.environ.get('ASKHOST_TIDY_CACHE') or os.path.join(
        os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'askhost-clang-tidy')


def find_tool():
    return shutil.which('clang-tidy') or shutil.which('clang-tidy-14')


# ------------------------------------------------------------------ self-test

SELF_TEST_MESON = """project('tidy-self-test', 'cpp', default_options: ['cpp_std=c++20'])
static_library('t', 'host/a.cpp', 'host/b.cpp', 'plugins/c.cpp')
"""
SELF_TEST_FILES = {
    'host/h.hpp': '#pragma once\ninline int twice(int x) { return 2 * x; }\n',
    'host/a.cpp': '#include "h.hpp"\nint a(int x) { return twice(x); }\n',
    'host/b.cpp': 'int b(int x) { return x + 1; }\n',
    'plugins/c.cpp': 'int c(int x) { return x - 1; }\n',
}
# A finding of modernize-use-nullptr, one of the checks .clang-tidy enables.
PLANT = '\ninline int* none() { return 0; }\n'


def self_test():
    """In a small tree of three units, with the project's .clang-tidy: the committed list lets a new
    machine (an empty cache) check nothing, in a unity build too; a warning planted in a header
    reaches the one unit that includes it and fails the run naming it, in both builds, while the
    untouched units stay unchecked; --all checks every unit."""
    tool = find_tool()
    if not tool or not shutil.which('meson'):
        print('clang-tidy or meson is not installed: skipped')
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, 'tree')
        for rel, text in SELF_TEST_FILES.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), 'w') as f:
                f.write(text)
        with open(os.path.join(root, 'meson.build'), 'w') as f:
            f.write(SELF_TEST_MESON)
        os.makedirs(os.path.join(root, 'tests', 'lint'))
        shutil.copy(os.path.join(HERE, '.clang-tidy'), root)
        build = os.path.join(root, 'build')
        subprocess.run(['meson', 'setup', build], cwd=root, check=True, capture_output=True)
        subprocess.run(['ninja', '-C', build], check=True, capture_output=True)
        said = []
        names = lambda todo: sorted(os.path.relpath(p, root) for p in todo)  # noqa: E731

        def step(what, expect_rc, expect_checked, in_build=build, use=tool, **kw):
            said.clear()
            rc, todo = run(use, root, in_build, out=said.append, **kw)
            ok = rc == expect_rc and names(todo) == expect_checked
            print(f"{'ok' if ok else 'FAILED'}: {what}: exit {rc}, checked {names(todo)}")
            if not ok:
                print('\n'.join(said))
            return ok

        every = ['host/a.cpp', 'host/b.cpp', 'plugins/c.cpp']
        good = step('a full run records every unit', 0, every, check_all=True, record=True)
        good &= step('a new machine (no cache) with the record checks nothing', 0, [], cache_dir=None)
        # The same packages on another processor: LLVM's --version names the host CPU.
        other_cpu = os.path.join(tmp, 'clang-tidy-other-cpu')
        with open(other_cpu, 'w') as f:
            f.write('#!/bin/sh\n'
                    f'if [ "$1" = --version ]; then {shlex.quote(tool)} --version | '
                    "sed 's/Host CPU: .*/Host CPU: another-cpu/'; exit 0; fi\n"
                    f'exec {shlex.quote(tool)} "$@"\n')
        os.chmod(other_cpu, 0o755)
        good &= step('a new machine with another processor checks nothing', 0, [], cache_dir=None, use=other_cpu)
        # A unity build (./dev test's in CI) of the same tree: its one unity file taken apart, each
        # unit with the key it has in a build of one file per unit.
        unity = os.path.join(root, 'build-unity')
        subprocess.run(['meson', 'setup', unity, '-Dunity=on'], cwd=root, check=True, capture_output=True)
        subprocess.run(['ninja', '-C', unity], check=True, capture_output=True)
        good &= step('a unity build with the record checks nothing', 0, [], in_build=unity, cache_dir=None)
        with open(os.path.join(root, 'host/h.hpp'), 'a') as f:
            f.write(PLANT)
        subprocess.run(['ninja', '-C', build], check=True, capture_output=True)
        good &= step('a warning planted in a header fails the unit that includes it', 1, ['host/a.cpp'])
        good &= any('modernize-use-nullptr' in s and 'h.hpp' in s for s in said)
        good &= step('and in a unity build, that unit alone', 1, ['host/a.cpp'], in_build=unity, cache_dir=None)
        good &= any('modernize-use-nullptr' in s and 'h.hpp' in s for s in said)
        good &= step('--all checks every unit and finds it too', 1, every, check_all=True)
        good &= step('a record is not written while a unit has a finding', 1, every, check_all=True, record=True)
        good &= any('not written' in s for s in said)
    print('self-test passed' if good else 'self-test FAILED')
    return 0 if good else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('build', nargs='?')
    ap.add_argument('--root', default=HERE)
    ap.add_argument('--all', action='store_true')
    ap.add_argument('--record', action='store_true')
    ap.add_argument('--no-cache', action='store_true')
    ap.add_argument('--self-test', action='store_true')
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.build:
        ap.print_usage()
        return 2
    tool = find_tool()
    if not tool:
        print('clang-tidy is not installed (apt-get install clang-tidy): skipped')
        return 77
    rc, _ = run(tool, os.path.abspath(a.root), os.path.abspath(a.build), check_all=a.all, record=a.record,
                cache_dir=None if a.no_cache else default_cache())
    return rc


if __name__ == '__main__':
    sys.exit(main())
