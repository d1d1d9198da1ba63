#!/usr/bin/env python3
"""clang-tidy over askhost's program (host/ and plugins/) with the checks in .clang-tidy, every
warning an error. Usage: clang_tidy.py BUILD_DIR (its compile_commands.json says how each file is
compiled). Runs one clang-tidy per core.

Exits 77 (meson's skip) when clang-tidy is not installed (`apt-get install clang-tidy`, or
./dev test).
"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


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
    files = set()
    for c in commands:
        path = os.path.normpath(os.path.join(c['directory'], c['file']))
        rel = os.path.relpath(path, ROOT)
        if rel.startswith(('host' + os.sep, 'plugins' + os.sep)) and rel.endswith('.cpp'):
            files.add(path)

    def tidy(path):
        p = subprocess.run([tool, '-p', build, '--quiet', path], cwd=ROOT, capture_output=True, text=True)
        return path, p.returncode, p.stdout

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path, rc, out in pool.map(tidy, sorted(files)):
            if rc != 0 or 'warning:' in out or 'error:' in out:
                failed += 1
                print(out.strip() or f'{os.path.relpath(path, ROOT)}: clang-tidy exited {rc}')
    print(f'clang-tidy: {len(files) - failed} of {len(files)} files clean')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
