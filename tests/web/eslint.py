#!/usr/bin/env python3
"""ESLint over the page of askhost web (host/web/page/eslint.config.mjs: src/*.ts),
warnings counted as errors. Exit 77 (meson's skip) when `./dev vscode-setup` has not installed the
VS Code bridge's npm packages, whose ESLint it uses."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PAGE = os.path.join(ROOT, "host", "web", "page")
ESLINT = os.path.join(ROOT, "editor-bridges", "vscode", "node_modules", ".bin", "eslint")


def main():
    if not os.path.exists(ESLINT) or not shutil.which("node"):
        print("eslint is not installed in editor-bridges/vscode/node_modules (./dev vscode-setup): skipped")
        return 77
    return subprocess.run([ESLINT, "--max-warnings=0", "."], cwd=PAGE).returncode


if __name__ == "__main__":
    sys.exit(main())
