#!/usr/bin/env python3
"""shellcheck over every shell script of the project (`dev`, .ci/run, the bash completion, any
*.sh): fails, printing shellcheck's findings, when one has any. A finding that is meant is silenced
where it is, with `# shellcheck disable=SCnnnn` and the reason beside it.

Exits 77 (meson's skip) when shellcheck is not installed (`apt-get install shellcheck`, or ./dev test).
"""
import shutil
import subprocess
import sys

import tracked


def main():
    tool = shutil.which('shellcheck')
    if not tool:
        print('shellcheck is not installed (apt-get install shellcheck): skipped')
        return 77
    files = tracked.scripts('sh')
    if not files:
        print('no shell script found')
        return 1
    # The completion is sourced by bash, never run: tell shellcheck which shell reads it.
    p = subprocess.run([tool, '--shell=bash', '--format=gcc'] + files, cwd=tracked.ROOT,
                       capture_output=True, text=True)
    if p.stdout.strip():
        print(p.stdout.strip())
    print(f'shellcheck: {len(files)} scripts, {len(p.stdout.splitlines())} findings')
    return 0 if p.returncode == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
