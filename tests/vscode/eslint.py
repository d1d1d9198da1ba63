#!/usr/bin/env python3
"""ESLint over the VS Code extension (editor-bridges/vscode/eslint.config.mjs) and the TypeScript it
shares with the page of askhost web (editor-bridges/shared/eslint.config.mjs), warnings counted as
errors. Exit 77 (meson's skip) when `./dev vscode-setup` has not installed its npm packages."""
import os
import shutil
import subprocess
import sys

EXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "editor-bridges", "vscode")
SHARED = os.path.join(EXT, "..", "shared")


def main():
    eslint = os.path.join(EXT, "node_modules", ".bin", "eslint")
    if not os.path.exists(eslint) or not shutil.which("node"):
        print("eslint is not installed in editor-bridges/vscode/node_modules (./dev vscode-setup): skipped")
        return 77
    failed = 0
    for where in (EXT, SHARED):
        failed |= subprocess.run([eslint, "--max-warnings=0", "."], cwd=where).returncode
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
