#!/usr/bin/env python3
"""clang-format over askhost's C++ (host/, plugins/, tests/, bench/) with the repository's
.clang-format: fails, naming the files, when one is not formatted. `./dev format` formats them.

Exits 77 (meson's skip) when clang-format is not installed (`apt-get install clang-format`, or
./dev test). Runs from any working directory.
"""
import os
import shutil
import subprocess
import sys

import tracked

ROOT = tracked.ROOT


def sources():
    return [p for p in tracked.files() if p.endswith(('.cpp', '.hpp', '.h'))]


def main():
    tool = shutil.which('clang-format') or shutil.which('clang-format-14')
    if not tool:
        print('clang-format is not installed (apt-get install clang-format): skipped')
        return 77
    files = sorted(sources())
    bad = []
    for i in range(0, len(files), 50):
        chunk = files[i:i + 50]
        p = subprocess.run([tool, '--dry-run', '--Werror', '--style=file'] + chunk, cwd=ROOT,
                           capture_output=True, text=True)
        if p.returncode != 0:
            bad += sorted({line.split(':', 1)[0] for line in p.stderr.splitlines() if ': error:' in line})
    if bad:
        print(f'{len(bad)} of {len(files)} files are not formatted as .clang-format says (./dev format fixes them):')
        for f in bad:
            print('  ' + os.path.relpath(f, ROOT) if os.path.isabs(f) else '  ' + f)
        return 1
    print(f'{len(files)} files formatted as .clang-format says')
    return 0


if __name__ == '__main__':
    sys.exit(main())
