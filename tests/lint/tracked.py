"""The project's own files, for the lint checks: what git tracks (and new files it does not ignore),
or, in an export without .git, a walk of the tree that skips builds and installed packages."""
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SKIP_DIRS = {'.git', 'node_modules', 'subprojects', 'dist', 'out'}


def files():
    out = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard'],
                         cwd=ROOT, capture_output=True, text=True)
    if out.returncode == 0:
        return sorted(p for p in out.stdout.split('\n') if p and os.path.isfile(os.path.join(ROOT, p)))
    found = []
    for d, dirs, names in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith('build')]
        found += [os.path.relpath(os.path.join(d, f), ROOT) for f in names]
    return sorted(found)


def first_line(path):
    try:
        with open(os.path.join(ROOT, path), 'rb') as f:
            return f.readline(200).decode('utf-8', 'replace')
    except OSError:
        return ''


def scripts(language):
    """Files in `language` ('sh' or 'python'): by extension, or by their #! line."""
    ext = {'sh': ('.sh', '.bash'), 'python': ('.py',)}[language]
    picked = []
    for p in files():
        line = first_line(p)
        by_shebang = line.startswith('#!') and (
            ('python' in line) if language == 'python' else any(s in line for s in ('/sh', 'bash')))
        if p.endswith(ext) or by_shebang:
            picked.append(p)
    return picked
