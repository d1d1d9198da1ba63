#!/usr/bin/env python3
"""pyflakes over every Python file of the project (tests/, bench/, the scripts in host/ and
plugins/, the demo agent): fails on any finding: unused imports and variables, undefined names,
redefinitions. It checks what is wrong, not layout, so it costs no churn.

Exits 77 (meson's skip) when pyflakes is not installed (`apt-get install pyflakes3`, or ./dev test).
"""
import shutil
import subprocess
import sys

import tracked


def main():
    tool = shutil.which('pyflakes3') or shutil.which('pyflakes')
    if not tool:
        print('pyflakes is not installed (apt-get install pyflakes3): skipped')
        return 77
    files = tracked.scripts('python')
    p = subprocess.run([tool] + files, cwd=tracked.ROOT, capture_output=True, text=True)
    out = (p.stdout + p.stderr).strip()
    if out:
        print(out)
    print(f'pyflakes: {len(files)} files, {len(out.splitlines()) if out else 0} findings')
    return 0 if p.returncode == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
