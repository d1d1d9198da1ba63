// Agent command lines as a person types them, turned into argv without a shell, by the rule the
// host and the Neovim bridge keep too (tests/text/command_line.json): words split on space, tab,
// CR and LF, '...' taken literally, "..." with \" \\ \$ \` escapes, a backslash escaping the next
// character elsewhere. Nothing is expanded ($VAR, ~, globs stay as typed).
import * as fs from 'fs';
import * as path from 'path';

export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated single quote');
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= line.length) throw new Error('unterminated double quote');
        const d = line[i];
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) {
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw new Error('backslash at the end');
      word += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) out.push(word);
  return out;
}

function executable(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The askhost program to run: the setting when given (a bare name is looked up on PATH), else
 * `askhost` on PATH, else the one the extension carries (`bin/askhost` in a platform .vsix), else
 * `build/askhost` in a workspace folder or in the repository the extension was loaded from.
 * Undefined when none is there.
 */
export function locateAskhost(opts: {
  setting?: string;
  pathEnv?: string;
  workspaceFolders?: string[];
  extensionPath?: string;
}): string | undefined {
  const onPath = (name: string) => {
    for (const dir of (opts.pathEnv ?? '').split(path.delimiter)) {
      if (!dir) continue;
      const p = path.join(dir, name);
      if (executable(p)) return p;
    }
    return undefined;
  };
  const setting = (opts.setting ?? '').trim();
  if (setting) {
    if (setting.includes('/')) {
      const p = path.resolve(opts.workspaceFolders?.[0] ?? process.cwd(), setting);
      return executable(p) ? p : undefined;
    }
    return onPath(setting);
  }
  const found = onPath('askhost');
  if (found) return found;
  if (opts.extensionPath) {
    const bundled = path.join(opts.extensionPath, 'bin', 'askhost');
    // An installer that drops the executable bit from the .vsix's entries: put it back, on
    // askhost-web too (`askhost web` runs the one beside askhost).
    for (const p of [bundled, path.join(opts.extensionPath, 'bin', 'askhost-web')]) {
      try {
        if (fs.statSync(p).isFile() && !executable(p)) fs.chmodSync(p, 0o755);
      } catch {
        // not there, or not ours to change
      }
    }
    if (executable(bundled)) return bundled;
  }
  const roots = [...(opts.workspaceFolders ?? [])];
  if (opts.extensionPath) roots.push(path.resolve(opts.extensionPath, '..', '..'));
  for (const root of roots) {
    const p = path.join(root, 'build', 'askhost');
    if (executable(p)) return p;
  }
  return undefined;
}
