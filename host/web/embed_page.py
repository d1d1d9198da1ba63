#!/usr/bin/env python3
"""Writes the C++ table of the page's built files (host/web/page/dist/) for `askhost web` to serve.

    embed_page.py OUTPUT.cpp DIST_DIR DEPFILE

Every regular file under DIST_DIR goes in, by its path relative to it, with the Content-Type its
extension names. DEPFILE lists the files and their folders, so that ninja writes the table again
when a file changes or a file is added or removed.
"""
import os
import sys

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
}


def cpp_string(data):
    """A C++ string literal of the bytes, in lines of at most 100 characters, every byte escaped
    that is not plain printable ASCII (octal, so that no following digit is taken into it)."""
    lines, line = [], []
    width = 0
    for b in data:
        if 32 <= b < 127 and b not in (34, 92, 63):  # '"', '\\', '?' (no trigraphs)
            piece = chr(b)
        else:
            piece = "\\%03o" % b
        line.append(piece)
        width += len(piece)
        if width >= 96 or b == 10:
            lines.append('"%s"' % "".join(line))
            line, width = [], 0
    if line or not lines:
        lines.append('"%s"' % "".join(line))
    return "\n        ".join(lines)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    out, dist, depfile = sys.argv[1:]
    files, folders = [], [dist]
    for root, dirs, names in os.walk(dist):
        dirs.sort()
        folders += [os.path.join(root, d) for d in dirs]
        for n in sorted(names):
            path = os.path.join(root, n)
            if os.path.isfile(path):
                files.append(path)
    entries = []
    for path in files:
        rel = os.path.relpath(path, dist).replace(os.sep, "/")
        ext = os.path.splitext(rel)[1].lower()
        with open(path, "rb") as f:
            data = f.read()
        entries.append((rel, TYPES.get(ext, "application/octet-stream"), data))
    parts = [
        "// Written by host/web/embed_page.py from host/web/page/dist/: do not edit.",
        '#include "web/web_assets.hpp"',
        "",
        "#include <array>",
        "",
        "namespace askhost::web {",
        "",
        "namespace {",
        "",
        "using namespace std::string_view_literals;",
        "",
        "const std::array<WebAsset, %d> assets = {{" % len(entries),
    ]
    for rel, ctype, data in entries:
        parts.append('    {"%s"sv, "%s"sv,\n        %ssv},' % (rel, ctype, cpp_string(data)))
    parts += [
        "}};",
        "",
        "}  // namespace",
        "",
        "const WebAsset* find_asset(std::string_view path) {",
        "    for (const auto& a : assets)",
        "        if (a.path == path) return &a;",
        "    return nullptr;",
        "}",
        "",
        "}  // namespace askhost::web",
        "",
    ]
    text = "\n".join(parts)
    with open(out, "w") as f:
        f.write(text)
    with open(depfile, "w") as f:
        deps = " ".join(p.replace(" ", "\\ ") for p in files + folders)
        f.write("%s: %s\n" % (out.replace(" ", "\\ "), deps))


if __name__ == "__main__":
    main()
