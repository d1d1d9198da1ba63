#!/usr/bin/env python3
"""clang-tidy over askhost's program (host/ and plugins/) with the checks in .clang-tidy, every
warning an error. Usage: clang_tidy.py BUILD_DIR (its compile_commands.json says how each file is
compiled). Runs one clang-tidy per core.

A file found clean is remembered (in $ASKHOST_TIDY_CACHE, default ~/.cache/askhost-clang-tidy), keyed
by everything its result depends on: clang-tidy's version, .clang-tidy, the compile command, the
file and every header of the project it includes (their contents, from ninja's dependency log), and
the system headers' names, sizes and times. A run where nothing it reads changed costs no
clang-tidy at all; a file with a finding is never remembered, so it is checked every time.

Exits 77 (meson's skip) when clang-tidy is not installed (`apt-get install clang-tidy`, or
./dev test).
"""
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


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


class Cache:
    """Clean results of earlier runs, by a key over all that a result depends on."""

    def __init__(self, tool, build):
        self.dir = os.environ.get('ASKHOST_TIDY_CACHE') or os.path.join(
            os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'askhost-clang-tidy')
        version = subprocess.run([tool, '--version'], capture_output=True, text=True).stdout
        with open(os.path.join(ROOT, '.clang-tidy'), 'rb') as f:
            self.base = hashlib.sha256(version.encode() + f.read()).hexdigest()
        self.build = build
        self.deps = ninja_deps(build)
        self.seen = {}

    def _file(self, path):
        if path not in self.seen:
            try:
                if os.path.commonpath([path, ROOT]) == ROOT:
                    with open(path, 'rb') as f:
                        self.seen[path] = os.path.relpath(path, ROOT) + ':' + hashlib.sha256(f.read()).hexdigest()
                else:
                    st = os.stat(path)
                    self.seen[path] = f'{path}:{st.st_size}:{st.st_mtime_ns}'
            except (OSError, ValueError):
                self.seen[path] = path + ':missing'
        return self.seen[path]

    def key(self, command):
        """None when the file's dependencies are unknown (not built yet): it is then always checked."""
        output = command.get('output')
        deps = self.deps.get(output) if output else None
        if not deps:
            return None
        directory = command['directory']
        args = command.get('command') or ' '.join(command.get('arguments', []))
        h = hashlib.sha256(self.base.encode())
        h.update(args.replace(ROOT, '@ROOT@').replace(self.build, '@BUILD@').encode())
        for d in deps:
            h.update(self._file(os.path.normpath(os.path.join(directory, d))).encode() + b'\n')
        return h.hexdigest()

    def clean(self, key):
        return key is not None and os.path.exists(os.path.join(self.dir, key[:2], key))

    def remember(self, key):
        if key is None:
            return
        try:
            os.makedirs(os.path.join(self.dir, key[:2]), exist_ok=True)
            open(os.path.join(self.dir, key[:2], key), 'w').close()
        except OSError:
            pass  # a read-only home: no memory, the same result


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    build = os.path.abspath(sys.argv[1])
    tool = shutil.which('clang-tidy') or shutil.which('clang-tidy-14')
    if not tool:
        print('clang-tidy is not installed (apt-get install clang-tidy): skipped')
        return 77
    with open(os.path.join(build, 'compile_commands.json')) as f:
        commands = json.load(f)
    files = {}
    for c in commands:
        path = os.path.normpath(os.path.join(c['directory'], c['file']))
        rel = os.path.relpath(path, ROOT)
        if rel.startswith(('host' + os.sep, 'plugins' + os.sep)) and rel.endswith('.cpp'):
            files[path] = c
    cache = Cache(tool, build)
    keys = {path: cache.key(c) for path, c in files.items()}
    todo = sorted(path for path in files if not cache.clean(keys[path]))

    def tidy(path):
        p = subprocess.run([tool, '-p', build, '--quiet', path], cwd=ROOT, capture_output=True, text=True)
        return path, p.returncode, p.stdout

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path, rc, out in pool.map(tidy, todo):
            if rc != 0 or 'warning:' in out or 'error:' in out:
                failed += 1
                print(out.strip() or f'{os.path.relpath(path, ROOT)}: clang-tidy exited {rc}')
            else:
                cache.remember(keys[path])
    print(f'clang-tidy: {len(files) - failed} of {len(files)} files clean '
          f'({len(files) - len(todo)} unchanged since a clean run, {len(todo)} checked)')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
