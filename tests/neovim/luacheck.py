#!/usr/bin/env python3
"""luacheck over the Neovim bridge and the Lua tests, with the repository's .luacheckrc.

Exits 77 (meson's skip) when luacheck is not installed: `apt-get install lua-check`, or ./dev test.
Runs from any working directory.
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
PATHS = ['editor-bridges/neovim', 'tests/neovim', 'tests/dialog', 'tests/text', 'tests/vectors_report.lua']


def main():
    luacheck = shutil.which('luacheck')
    if not luacheck:
        print('luacheck is not installed (apt-get install lua-check): skipped')
        return 77
    cmd = [luacheck, '--config', os.path.join(ROOT, '.luacheckrc'), '--codes', '--no-color'] + PATHS
    return subprocess.run(cmd, cwd=ROOT).returncode


if __name__ == '__main__':
    sys.exit(main())
