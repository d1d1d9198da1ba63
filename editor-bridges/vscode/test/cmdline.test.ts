// Agent command lines split without a shell, and where askhost is found.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { locateAskhost, splitCommandLine } from '../src/cmdline';
import { questionsWaitingText } from '../src/status';
import { tempDir } from './helpers';

describe('splitCommandLine', () => {
  const cases: [string, string[]][] = [
    ['claude', ['claude']],
    ['  pi   --mode rpc ', ['pi', '--mode', 'rpc']],
    [`agent 'two words' "and \\"more\\"" plain\\ space`, ['agent', 'two words', 'and "more"', 'plain space']],
    [`a '' ""`, ['a', '', '']],
    [`x 'it'"'"'s'`, ['x', "it's"]],
    ['echo $HOME ~ *.ts', ['echo', '$HOME', '~', '*.ts']],
    [`"a\\nb" 'c\\d'`, ['a\\nb', 'c\\d']],
    ['', []],
  ];
  for (const [line, argv] of cases) {
    test(JSON.stringify(line), () => assert.deepEqual(splitCommandLine(line), argv));
  }
  test('unterminated quotes and a trailing backslash are errors', () => {
    assert.throws(() => splitCommandLine("a 'b"), /unterminated single quote/);
    assert.throws(() => splitCommandLine('a "b'), /unterminated double quote/);
    assert.throws(() => splitCommandLine('a \\'), /backslash at the end/);
  });
});

describe('locateAskhost', () => {
  function fakeBinary(dir: string, rel: string): string {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, '#!/bin/sh\n', { mode: 0o755 });
    return p;
  }

  test('the setting wins: a path (relative to the workspace) or a name on PATH', () => {
    const d = tempDir();
    const bin = fakeBinary(d, 'tools/askhost');
    const onPath = fakeBinary(d, 'bin/my-askhost');
    assert.equal(locateAskhost({ setting: bin }), bin);
    assert.equal(locateAskhost({ setting: 'tools/askhost', workspaceFolders: [d] }), bin);
    assert.equal(locateAskhost({ setting: 'my-askhost', pathEnv: path.dirname(onPath) }), onPath);
    assert.equal(locateAskhost({ setting: '/nonexistent/askhost' }), undefined);
  });

  test('then askhost on PATH, then build/askhost in a workspace folder, then beside the extension', () => {
    const d = tempDir();
    const onPath = fakeBinary(d, 'bin/askhost');
    const inWs = fakeBinary(d, 'ws/build/askhost');
    const inRepo = fakeBinary(d, 'repo/build/askhost');
    const extPath = path.join(d, 'repo', 'editor-bridges', 'vscode');
    assert.equal(locateAskhost({ pathEnv: `/nonexistent:${path.dirname(onPath)}`, workspaceFolders: [path.join(d, 'ws')], extensionPath: extPath }), onPath);
    assert.equal(locateAskhost({ pathEnv: '/nonexistent', workspaceFolders: [path.join(d, 'ws')], extensionPath: extPath }), inWs);
    assert.equal(locateAskhost({ pathEnv: '', workspaceFolders: [], extensionPath: extPath }), inRepo);
    assert.equal(locateAskhost({ pathEnv: '' }), undefined);
  });

  test('a platform .vsix carries its own: after PATH, before a workspace build', () => {
    const d = tempDir();
    const onPath = fakeBinary(d, 'bin/askhost');
    const inWs = fakeBinary(d, 'ws/build/askhost');
    const extPath = path.join(d, 'extensions', 'askhost.askhost-vscode-0.1.0-linux-x64');
    const bundled = fakeBinary(extPath, 'bin/askhost');
    const ws = [path.join(d, 'ws')];
    assert.equal(locateAskhost({ pathEnv: path.dirname(onPath), workspaceFolders: ws, extensionPath: extPath }), onPath);
    assert.equal(locateAskhost({ pathEnv: '/nonexistent', workspaceFolders: ws, extensionPath: extPath }), bundled);
    assert.equal(locateAskhost({ setting: inWs, pathEnv: '', extensionPath: extPath }), inWs);
  });

  test('an installer that dropped the executable bits: askhost and askhost-web get them back', () => {
    const d = tempDir();
    const extPath = path.join(d, 'extensions', 'askhost.askhost-vscode-0.1.0-linux-x64');
    fs.mkdirSync(path.join(extPath, 'bin'), { recursive: true });
    for (const name of ['askhost', 'askhost-web']) fs.writeFileSync(path.join(extPath, 'bin', name), '', { mode: 0o644 });
    assert.equal(locateAskhost({ pathEnv: '', extensionPath: extPath }), path.join(extPath, 'bin', 'askhost'));
    for (const name of ['askhost', 'askhost-web']) {
      assert.equal(fs.statSync(path.join(extPath, 'bin', name)).mode & 0o777, 0o755, `bin/${name} executable`);
    }
  });

  test('a file that is not executable does not count', () => {
    const d = tempDir();
    fs.mkdirSync(path.join(d, 'bin'));
    fs.writeFileSync(path.join(d, 'bin', 'askhost'), '', { mode: 0o644 });
    assert.equal(locateAskhost({ pathEnv: path.join(d, 'bin') }), undefined);
  });
});

describe('the status bar text', () => {
  test('counts the questions of every waiting ask', () => {
    assert.equal(questionsWaitingText(undefined), undefined);
    assert.equal(questionsWaitingText({ state: 'idle', pending: [] }), undefined);
    assert.equal(questionsWaitingText({ state: 'waiting', pending: [{ id: 'a', questions: [{}] }] }), '$(question) 1 question waiting');
    assert.equal(
      questionsWaitingText({ state: 'waiting', pending: [{ id: 'a', questions: [{}, {}] }, { id: 'b', questions: [{}] }] }),
      '$(question) 3 questions waiting',
    );
  });
});
