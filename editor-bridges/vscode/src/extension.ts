// The extension's entry point: commands, settings, the status bar item and the output channel,
// wired to one `askhost --stdio` process (started on the first Start Agent) and the question panel.
import { execFile } from 'child_process';
import * as vscode from 'vscode';
import { AskState, AskhostClient, AskhostError } from './client';
import { locateAskhost, splitCommandLine } from './cmdline';
import { QuestionPanel } from './panel';
import { questionsWaitingText } from './status';

/** `askhost web --url`: the page's address with its token, or an error saying why there is none. */
export function webUrl(askhostPath: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(askhostPath, ['web', '--url'], { env, timeout: 30000 }, (err, stdout, stderr) => {
      const url = stdout.trim().split('\n')[0] ?? '';
      if (!err && url) return resolve(url);
      const why = stderr.trim().replace(/^askhost web: /, '') || (err ? err.message : 'askhost web --url printed nothing');
      reject(new AskhostError(`${why}. Start it with \`askhost web\` (docs/web.md).`));
    });
  });
}

const RECENT_KEY = 'askhost.recentCommands';
const MAX_RECENT = 10;

export interface AskhostApi {
  readonly panel: QuestionPanel;
  readonly client: AskhostClient | undefined;
  readonly status: vscode.StatusBarItem;
  readonly output: vscode.OutputChannel;
  /** Stop the agent and askhost (what deactivation does). */
  shutdown(): Promise<void>;
}

class Controller implements vscode.Disposable {
  readonly output = vscode.window.createOutputChannel('askhost');
  readonly status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 100);
  readonly panel: QuestionPanel;
  client: AskhostClient | undefined;
  private clientArgs = '';
  private starting: Promise<AskhostClient> | undefined;
  private state: AskState | undefined;
  private agentRunning = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly context: vscode.ExtensionContext) {
    this.panel = new QuestionPanel({
      extensionUri: context.extensionUri,
      focus: () => this.config().get<boolean>('focusPanel', true),
    });
    this.status.command = 'askhost.showQuestions';
    this.status.name = 'askhost';
    const reg = (id: string, fn: () => unknown) =>
      this.disposables.push(vscode.commands.registerCommand(id, () => this.guard(fn)));
    reg('askhost.startAgent', () => this.startAgent());
    reg('askhost.sendPrompt', () => this.sendPrompt());
    reg('askhost.stopAgent', () => this.stopAgent());
    reg('askhost.showOutput', () => this.output.show(true));
    reg('askhost.showQuestions', () => this.showQuestions());
    reg('askhost.showWebUrl', () => this.showWebUrl());
    this.disposables.push(this.panel.onDidChange(() => this.updateStatus()));
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) =>
        this.client?.changeWorkspaceFolders(e.added.map(toFolder), e.removed.map(toFolder)),
      ),
    );
  }

  /** The standing host: askhost for this window's folders, so that agents started in their own
   * terminals inside them (Codex, Gemini CLI through askhost mcp; Claude Code through askhost
   * hook) ask here. Said once if askhost cannot be found. */
  async startStanding(): Promise<void> {
    if (!this.config().get<boolean>('standingHost', true)) return;
    if ((vscode.workspace.workspaceFolders ?? []).length === 0) return;
    try {
      const client = await this.ensureClient();
      this.output.appendLine(`[askhost] standing host for this workspace (socket ${client.socket ?? 'none'})`);
      this.updateStatus();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.output.appendLine(`[askhost] no standing host: ${message}`);
      void vscode.window.showWarningMessage(`askhost: no standing host for this workspace: ${message}`);
    }
  }

  private config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('askhost');
  }

  private async guard(fn: () => unknown): Promise<void> {
    try {
      await fn();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.output.appendLine(`[askhost] ${message}`);
      void vscode.window.showErrorMessage(`askhost: ${message}`);
    }
  }

  private folder(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  // ---------------------------------------------------------------- askhost

  /** The askhost program to run, or an error that says how to give one. */
  private askhostPath(): string {
    const found = locateAskhost({
      setting: this.config().get<string>('path', ''),
      pathEnv: process.env.PATH,
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      extensionPath: this.context.extensionUri.fsPath,
    });
    if (!found) {
      throw new AskhostError(
        "cannot find the askhost program: set 'askhost.path', put askhost on PATH, or install the askhost .vsix for your platform (it carries the program)",
      );
    }
    return found;
  }

  private async ensureClient(): Promise<AskhostClient> {
    const timeout = Math.max(0, Math.floor(this.config().get<number>('timeout', 0) ?? 0));
    const args = timeout > 0 ? ['--timeout', String(timeout)] : [];
    const key = JSON.stringify(args);
    if (this.client?.running && this.clientArgs !== key && !this.agentRunning) {
      // The settings changed since askhost started: start it again with the new ones.
      await this.client.dispose();
      this.client = undefined;
    }
    if (this.client?.running) return this.client;
    if (this.starting) return this.starting;
    const askhostPath = this.askhostPath();
    const client: AskhostClient = new AskhostClient(
      {
        askhostPath,
        args,
        cwd: this.folder(),
        clientVersion: this.context.extension?.packageJSON?.version,
        workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map(toFolder),
      },
      {
        onAsk: (params, token) => this.panel.show(params, token),
        onState: (s) => {
          this.state = s;
          this.updateStatus();
        },
        onOutput: (_stream, text) => this.output.append(text),
        onAgentExit: (e) => {
          this.agentRunning = false;
          const how = e.signal !== null && e.signal !== undefined ? `signal ${e.signal}` : `exit code ${e.exitCode}`;
          this.output.appendLine(`[askhost] the agent exited (${how})`);
          this.updateStatus();
        },
        onLog: (text) => this.output.append(`[askhost] ${text}`),
        onClose: (code, signal) => {
          if (this.client === client) {
            this.client = undefined;
            this.agentRunning = false;
            this.state = undefined;
          }
          this.panel.clear('askhost exited');
          this.updateStatus();
          if (!client.disposing) {
            const how = signal ? `signal ${signal}` : `code ${code}`;
            this.output.appendLine(`[askhost] askhost exited (${how})`);
            void vscode.window.showWarningMessage(`askhost exited (${how}); see "AskHost: Show Agent Output".`);
          }
        },
      },
    );
    this.starting = client.start().then(
      () => {
        this.client = client;
        this.clientArgs = key;
        this.output.appendLine(`[askhost] started ${askhostPath} ${['--stdio', ...args].join(' ')}`);
        return client;
      },
      (e) => {
        throw e;
      },
    );
    try {
      return await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  // ---------------------------------------------------------------- commands

  private recent(): string[] {
    return this.context.globalState.get<string[]>(RECENT_KEY, []) ?? [];
  }

  private async remember(line: string): Promise<void> {
    const list = [line, ...this.recent().filter((l) => l !== line)].slice(0, MAX_RECENT);
    await this.context.globalState.update(RECENT_KEY, list);
  }

  /** The command line to run: picked from the setting and the recent ones, or typed. */
  private async pickCommandLine(): Promise<string | undefined> {
    const configured = (this.config().get<string>('agentCommand', '') ?? '').trim();
    const recent = this.recent();
    type Item = vscode.QuickPickItem & { line?: string };
    const items: Item[] = [];
    if (configured) items.push({ label: configured, description: 'askhost.agentCommand', line: configured });
    for (const r of recent) if (r !== configured) items.push({ label: r, description: 'recent', line: r });
    let line: string | undefined;
    if (items.length > 0) {
      items.push({ label: '$(edit) Type a command line…', alwaysShow: true });
      const picked = await vscode.window.showQuickPick(items, {
        title: 'AskHost: Start Agent',
        placeHolder: 'The agent to run (argv, no shell)',
      });
      if (!picked) return undefined;
      line = picked.line;
    }
    if (line === undefined) {
      line = await vscode.window.showInputBox({
        title: 'AskHost: Start Agent',
        prompt: 'The agent command line, e.g. claude, or pi --mode rpc (split like a shell, never run by one)',
        value: configured || recent[0] || '',
        validateInput: (v) => {
          try {
            return splitCommandLine(v).length === 0 ? 'Type a command' : undefined;
          } catch (e) {
            return (e as Error).message;
          }
        },
      });
    }
    return line?.trim() || undefined;
  }

  private async startAgent(): Promise<void> {
    if (this.agentRunning && this.client?.running) {
      const choice = await vscode.window.showWarningMessage(
        'An agent is running. Stop it and start another?',
        { modal: true },
        'Stop and start',
      );
      if (choice !== 'Stop and start') return;
      await this.client.stopAgent().catch(() => undefined);
      this.agentRunning = false;
    }
    const line = await this.pickCommandLine();
    if (!line) return;
    const argv = splitCommandLine(line);
    if (argv.length === 0) return;
    const client = await this.ensureClient();
    const { pid } = await client.startAgent(argv, {
      cwd: this.folder(),
      adapter: this.config().get<string>('adapter', 'auto'),
    });
    this.agentRunning = true;
    await this.remember(line);
    this.output.appendLine(`[askhost] started the agent: ${line} (pid ${pid})`);
    this.updateStatus();
  }

  private async sendPrompt(): Promise<void> {
    const client = this.client;
    if (!client?.running || !this.agentRunning) {
      void vscode.window.showWarningMessage('No agent is running: start one with "AskHost: Start Agent".');
      return;
    }
    const text = await vscode.window.showInputBox({ title: 'AskHost: Send Prompt', prompt: 'A message for the agent' });
    if (!text) return;
    await client.prompt(text);
  }

  private async stopAgent(): Promise<void> {
    const client = this.client;
    if (!client?.running || !this.agentRunning) {
      void vscode.window.showInformationMessage('No agent is running.');
      return;
    }
    const e = await client.stopAgent();
    this.agentRunning = false;
    this.updateStatus();
    const how = e.signal !== null && e.signal !== undefined ? `signal ${e.signal}` : `exit code ${e.exitCode}`;
    void vscode.window.showInformationMessage(`The agent stopped (${how}).`);
  }

  /** The address of the askhost web that runs (`askhost web --url`, the token included), with a
   * Copy action: to open the page on a phone. */
  private async showWebUrl(): Promise<void> {
    const url = await webUrl(this.askhostPath());
    const choice = await vscode.window.showInformationMessage(
      `askhost web: ${url} (it carries the token: whoever holds it can answer your agents)`,
      'Copy',
    );
    if (choice !== 'Copy') return;
    await vscode.env.clipboard.writeText(url);
    void vscode.window.showInformationMessage('The askhost web address is on the clipboard.');
  }

  private showQuestions(): void {
    if (this.panel.reveal()) return;
    void vscode.window.showInformationMessage('No questions are waiting.');
  }

  private updateStatus(): void {
    const waiting = questionsWaitingText(this.state);
    if (waiting) {
      this.status.text = waiting;
      this.status.tooltip = 'An agent is waiting for your answer: click (or AskHost: Show Pending Questions) to answer in the panel';
      this.status.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      this.status.show();
    } else if (this.client?.running && this.agentRunning) {
      this.status.text = '$(comment-discussion) askhost';
      this.status.tooltip = 'askhost: the agent is running; no questions are waiting';
      this.status.backgroundColor = undefined;
      this.status.show();
    } else if (this.client?.running && this.config().get<boolean>('standingHost', true)) {
      this.status.text = '$(comment-discussion) askhost';
      this.status.tooltip = 'askhost: agents working in this workspace ask here; no questions are waiting';
      this.status.backgroundColor = undefined;
      this.status.show();
    } else {
      this.status.hide();
    }
  }

  async shutdown(): Promise<void> {
    this.panel.clear('the editor is closing');
    // An askhost still starting (the standing host, at activation) is stopped too, not left behind.
    const client = this.client ?? (await this.starting?.catch(() => undefined));
    this.client = undefined;
    await client?.dispose();
  }

  dispose(): void {
    void this.shutdown();
    this.panel.dispose();
    for (const d of this.disposables) d.dispose();
    this.status.dispose();
    this.output.dispose();
  }
}

function toFolder(f: vscode.WorkspaceFolder): { uri: string; name: string } {
  return { uri: f.uri.toString(), name: f.name };
}

let current: Controller | undefined;

export function activate(context: vscode.ExtensionContext): AskhostApi {
  const c = new Controller(context);
  current = c;
  context.subscriptions.push(c);
  void c.startStanding();
  return {
    get panel() {
      return c.panel;
    },
    get client() {
      return c.client;
    },
    status: c.status,
    output: c.output,
    shutdown: () => c.shutdown(),
  };
}

export async function deactivate(): Promise<void> {
  const c = current;
  current = undefined;
  await c?.shutdown();
}
