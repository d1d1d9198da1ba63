#!/usr/bin/env python3
"""Functions over 60 lines in askhost's own code (C++ in host/ and plugins/, headers too, the Lua of
the Neovim bridge, the TypeScript of the VS Code bridge (its webview too), of what it shares with
the web page (editor-bridges/shared), of the web page and of the plugins (the pi extension, the
OpenCode plugin)), longest first. `./dev check` prints this list
and never fails on it: each long function is a decision, to split or to keep.

usage: long_functions.py [--limit N]   the report (default limit: 60 lines)
       long_functions.py --self-test   checks the readers on small samples

The readers are deliberately simple: braces and indentation, with comments and string literals
blanked first. A lambda or a local function is counted inside the function that holds it.
"""
import re
import sys

import tracked

C_LIKE = re.compile(r'\)\s*(?:const\s*)?(?:&&?\s*)?(?:noexcept\s*)?(?:override\s*)?(?:final\s*)?(?:mutable\s*)?'
                    r'(?:->\s*[\w:<>,&*\s]+?)?\s*$')
CONTROL = re.compile(r'\b(if|for|while|switch|catch|return)\s*\($')
TS_FUNC = re.compile(r'(?:\)\s*(?::\s*[^={};]+?)?|=>)\s*$')


def blank_comments_and_strings(text):
    """The text with comments and the contents of string and character literals replaced by spaces
    (newlines kept), so braces in them do not count."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i) or (c == '-' and text.startswith('--', i) and LUA):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif c in '"\'`':
            j = i + 1
            while j < n and text[j] != c and not (text[j] == '\n' and c != '`'):
                j += 2 if text[j] == '\\' else 1
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


LUA = False


def name_before(head):
    """The function's name: the identifier before the head's first parameter list (so a
    constructor's initialisers and a return type after it do not count)."""
    i = head.find('(')
    before = head[:i].rstrip() if i >= 0 else ''
    m = re.search(r'(\boperator\s*\S+|[\w:~]+)\s*(?:=\s*(?:async\s*)?)?$', before)
    if not m or m.group(1) in ('async', 'return'):
        return '(lambda)'
    return '(anonymous function)' if m.group(1) == 'function' else m.group(1)


def params_of(text, i):
    """The text from the parameter list's `(` to `i`, for a head whose parameters hold braces or
    semicolons (a TypeScript object type): the `(` matching the last `)` before `i`."""
    j = text.rfind(')', 0, i)
    depth = 0
    while j >= 0:
        depth += {')': 1, '(': -1}.get(text[j], 0)
        if depth == 0:
            break
        j -= 1
    line_start = text.rfind('\n', 0, max(j, 0)) + 1
    return text[line_start:i] if j >= 0 else ''


def brace_functions(text, is_function):
    """(name, first line, lines) of every outermost function body in C-like `text`."""
    found, stack, line, start = [], [], 1, 0
    for i, c in enumerate(text):
        if c == '\n':
            line += 1
        elif c in ';{}':
            if c == '{':
                head = text[start:i]
                opens = not any(stack) and is_function(head.rstrip())
                stack.append((line, name_before(head if '(' in head else params_of(text, i))) if opens else None)
            elif c == '}' and stack:
                top = stack.pop()
                if top:
                    found.append((top[1], top[0], line - top[0] + 1))
            start = i + 1
    return found


def cpp_function(head):
    return bool(C_LIKE.search(head)) and not CONTROL.search(head.split('\n')[-1].strip() + '(')  \
        and not re.search(r'\b(if|for|while|switch|catch)\s*\(.*\)$', head.split('\n')[-1].strip())


def ts_function(head):
    last = head.split('\n')[-1].strip()
    if re.match(r'^(?:\}\s*)?(if|for|while|switch|catch|else if)\b', last):
        return False
    return bool(TS_FUNC.search(head))


def lua_functions(text):
    lines = text.split('\n')
    found = []
    opener = re.compile(r'^(\s*)(?:local\s+)?(?:function\s+([\w.:]+)|([\w.:\[\]"\']+)\s*=\s*function\b)')
    i = 0
    while i < len(lines):
        m = opener.match(lines[i])
        if m:
            indent = m.group(1)
            for j in range(i + 1, len(lines)):
                if re.match('^' + indent + r'end\b', lines[j]):
                    found.append((m.group(2) or m.group(3), i + 1, j - i + 1))
                    i = j
                    break
        i += 1
    return found


def report(path, text):
    global LUA
    LUA = path.endswith('.lua')
    clean = blank_comments_and_strings(text)
    if LUA:
        return lua_functions(clean)
    return brace_functions(clean, ts_function if path.endswith('.ts') else cpp_function)


def ours(path):
    if path.endswith(('.cpp', '.hpp')) and path.startswith(('host/', 'plugins/')):
        return True
    if path.endswith('.lua') and path.startswith('editor-bridges/neovim/'):
        return True
    return path.endswith('.ts') and not path.endswith('.d.ts') and \
        path.startswith(('editor-bridges/vscode/src/', 'editor-bridges/vscode/webview/', 'editor-bridges/shared/',
                         'host/web/page/src/',
                         'plugins/'))


def self_test():
    cpp = 'namespace a {\nint f(int x) {\n  if (x) {\n    return 1;\n  }\n  auto g = [] { return "}"; };\n  return 0;\n}\n' \
          'struct S {\n  S() : v_(1) {\n  }\n  int v_;\n};\n}\n'
    lua = 'local M = {}\nfunction M.layout(a)\n  if a then\n    return 1\n  end\n  -- end\n  return 2\nend\nreturn M\n'
    ts = 'export function render(q: Q): string {\n  if (q) {\n    return `}`;\n  }\n  return "";\n}\n' \
         'const f = (a: number) => {\n  return a;\n};\n' \
         'class C {\n  view(o: {\n    a: string;\n  }): V {\n    return o;\n  }\n}\n' \
         'export default function (pi: API) {\n  pi.on();\n}\n'
    hpp = '#pragma once\ntemplate <class T>\nclass R {\npublic:\n  bool ok() const { return v_; }\n  T& get() & {\n' \
          '    return *p_;\n  }\n  int n() const;\nprivate:\n  bool v_;\n};\ninline int g(int x) {\n  return x;\n}\n'
    got = {'cpp': report('x.cpp', cpp), 'hpp': report('x.hpp', hpp), 'lua': report('x.lua', lua),
           'ts': report('x.ts', ts)}
    want = {'cpp': [('f', 2, 7), ('S', 10, 2)], 'hpp': [('ok', 5, 1), ('get', 6, 3), ('g', 13, 3)],
            'lua': [('M.layout', 2, 7)], 'ts': [('render', 1, 6), ('f', 7, 3), ('view', 13, 3),
                                                            ('(anonymous function)', 17, 3)]}
    read = ['host/core/error.hpp', 'plugins/mcp/x.cpp', 'editor-bridges/shared/dom.ts',
            'plugins/pi/extension/ask_user.ts', 'plugins/opencode/plugin/askhost.ts', 'host/web/page/src/app.ts',
            'editor-bridges/neovim/lua/askhost/text.lua']
    unread = ['editor-bridges/vscode/test/model.test.ts', 'host/web/page/dist/app.js', 'tests/unit/cases.hpp',
              'editor-bridges/vscode/src/vscode.d.ts']
    wrong = [p for p in read if not ours(p)] + [p for p in unread if ours(p)]
    if got != want or wrong:
        print(f'self-test failed:\n  got  {got}\n  want {want}\n  read or left out wrongly: {wrong}')
        return 1
    print('self-test: the C++ (headers too), Lua and TypeScript readers find each function and its length, '
          'in the files that are ours')
    return 0


def main(argv):
    if argv[:1] == ['--self-test']:
        return self_test()
    limit = 60
    if argv[:1] == ['--limit'] and len(argv) == 2 and argv[1].isdigit():
        limit = int(argv[1])
    elif argv:
        print(__doc__)
        return 2
    long_ones = []
    for path in tracked.files():
        if ours(path):
            with open(f'{tracked.ROOT}/{path}', encoding='utf-8', errors='replace') as f:
                long_ones += [(n, path, line, name) for name, line, n in report(path, f.read()) if n > limit]
    long_ones.sort(key=lambda t: (-t[0], t[1]))
    print(f'functions over {limit} lines: {len(long_ones)} (each a decision: split it, or keep it and know why)')
    for n, path, line, name in long_ones:
        print(f'  {n:4d}  {path}:{line}  {name}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
