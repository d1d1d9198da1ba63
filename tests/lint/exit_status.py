#!/usr/bin/env python3
"""Every Python script's `if __name__ == '__main__':` block hands its status to the process:

    exit_status.py              check every Python file of the project
    exit_status.py --self-test  show on made-up scripts that it catches a dropped status

A test file whose block ends with a bare `main()` exits 0 whatever its cases did, so meson and
./dev test count its failures as passes (test_mcp_modern.py and test_gemini_hook.py did, until
2026-11-29). A finding is a bare call in that block to a function of the module's own that has a
`return <value>`, or to one imported by name (what that returns is not known here).
"""
import ast
import os
import sys

import tracked


def is_main_guard(node):
    t = node.test if isinstance(node, ast.If) else None
    return (isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == '__name__'
            and len(t.comparators) == 1 and isinstance(t.comparators[0], ast.Constant)
            and t.comparators[0].value == '__main__')


def is_exit(stmt):
    """`sys.exit(x)`, `exit(x)` or `raise SystemExit(x)`, with an argument."""
    if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call):
        f = stmt.exc.func
        return isinstance(f, ast.Name) and f.id == 'SystemExit' and len(stmt.exc.args) == 1
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        f = stmt.value.func
        named = (isinstance(f, ast.Attribute) and f.attr == 'exit' and isinstance(f.value, ast.Name)
                 and f.value.id == 'sys') or (isinstance(f, ast.Name) and f.id == 'exit')
        return named and len(stmt.value.args) == 1
    return False


def returns_value(fn):
    """Whether a function has a `return <value>` of its own (not in a function nested in it)."""
    todo = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Return) and n.value is not None:
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo += list(ast.iter_child_nodes(n))
    return False


def check_source(path, text):
    """A bare call in the __main__ block drops what it returns: a finding when the function is the
    module's own and returns a value, or is imported (what it returns is not known here)."""
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as e:
        return [f'{path}:{e.lineno}: does not parse: {e.msg}']
    imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    own = {n.name: returns_value(n) for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    problems = []
    for node in tree.body:
        if not is_main_guard(node):
            continue
        for stmt in ast.walk(node):
            if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)) or is_exit(stmt):
                continue
            f = stmt.value.func
            if isinstance(f, ast.Name) and (own.get(f.id) or f.id in imported):
                problems.append(f'{path}:{stmt.lineno}: {f.id}() returns a status that the __main__ block drops')
    return problems


def check(root, files):
    problems = []
    for rel in files:
        with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
            problems += check_source(rel, f.read())
    return problems


def self_test():
    samples = {
        'good_sys.py': 'import sys\ndef main(): return 1\nif __name__ == "__main__":\n    sys.exit(main())\n',
        'good_raise.py': 'def main(): return 1\nif __name__ == "__main__":\n    raise SystemExit(main())\n',
        'no_status.py': 'def main(): print(1)\nif __name__ == "__main__":\n    main()\n',
        'no_guard.py': 'def main(): return 1\nmain()\n',
        'bare.py': 'def main(): return 1\nif __name__ == "__main__":\n    main()\n',
        'nested.py': ('def main():\n    def f(): return 1\n    return None if f() else 2\n'
                      'if __name__ == "__main__":\n    print("x")\n    main()\n'),
        'imported.py': 'from harness import main\nif __name__ == "__main__":\n    main()\n',
    }
    got = []
    for name, text in samples.items():
        got += check_source(name, text)
    want = ['bare.py:3: main() returns a status that the __main__ block drops',
            'nested.py:6: main() returns a status that the __main__ block drops',
            'imported.py:3: main() returns a status that the __main__ block drops']
    for m in want:
        if m not in got:
            print('self-test: not caught:', m)
    for e in got:
        if e not in want:
            print('self-test: caught wrongly:', e)
    ok = sorted(got) == sorted(want)
    print('self-test:', 'ok' if ok else 'FAILED')
    return 0 if ok else 1


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    files = tracked.scripts('python')
    problems = check(tracked.ROOT, files)
    for p in problems:
        print(p)
    print(f'exit status: {len(files)} files, {len(problems)} findings')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
