// The question panel: a webview beside the editor that shows one ask at a time (the others wait
// in arrival order). The dialog's state lives here in a DialogModel; the webview draws the view it
// is sent and reports keys, clicks and typed text back. Closing the panel cancels the ask, after
// "Discard N answers?" when some are answered; a withdrawn ask ($/cancelRequest) closes it.
// A question never takes the keys of someone typing: while a text editor, a notebook or a
// terminal is active the panel opens beside it without the focus, a notification says a question
// waits, and the person brings it forward (the notification's button, the status bar item, Show
// Pending Questions), as Neovim waits for InsertLeave.
import * as crypto from 'crypto';
import * as vscode from 'vscode';
import type { AskParams } from './client';
import { DialogModel, Outcome, Permission, Result, normalizePermission, normalizeQuestions } from '../../shared/model';
import { renderPreview } from './preview';
import { visibleText } from '../../shared/text';
import { askerName } from './status';

/** What the webview sends; each message but `ready` names the ask whose view it was drawn for. */
export type WebviewMessage = { askKey?: string } & (
  | { type: 'ready' }
  | { type: 'key'; key: string }
  | { type: 'text'; q: number; value: string }
  | { type: 'notes'; q: number; value: string }
  | { type: 'row'; row: number }
  | { type: 'tab'; index: number }
  | { type: 'submit' }
  | { type: 'confirm'; yes: boolean }
);

interface Entry {
  key: string;
  askId: string;
  agent: string;
  model: DialogModel;
  /** A tool permission: the webview shows its command whole above the question. */
  permission?: Permission;
  resolve(o: Outcome): void;
  done: boolean;
}

export interface PanelOptions {
  extensionUri: vscode.Uri;
  /** Take the keyboard focus when a question arrives (the askhost.focusPanel setting); never
   * while the person may be typing somewhere (typingIn). */
  focus(): boolean;
}

/** Where the person may be typing, so that a question arriving must not take the focus: the active
 * text editor, notebook or terminal (VS Code tells an extension which one is active, not which
 * part has the keyboard, so an active one counts); undefined when none is. */
export function typingIn(): 'editor' | 'notebook' | 'terminal' | undefined {
  const w = vscode.window;
  if (w.activeTextEditor) return 'editor';
  if (w.activeNotebookEditor) return 'notebook';
  if (w.activeTerminal) return 'terminal';
  return undefined;
}

export const VIEW_TYPE = 'askhost.questions';

export function pluralAnswers(n: number): string {
  return `${n} answer${n === 1 ? '' : 's'}`;
}

export class QuestionPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly queue: Entry[] = [];
  private readonly closedByUs = new WeakSet<vscode.WebviewPanel>();
  private seq = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the queue of shown asks changes. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly options: PanelOptions) {}

  get pendingCount(): number {
    return this.queue.length;
  }

  get visible(): boolean {
    return this.panel?.visible === true;
  }

  /** The webview panel, for tests and for commands that reveal it. */
  get webviewPanel(): vscode.WebviewPanel | undefined {
    return this.panel;
  }

  /** Show an ask; resolves with its outcome. `token` fires when the ask is withdrawn. */
  show(params: AskParams, token?: vscode.CancellationToken | { onCancellationRequested: vscode.Event<unknown>; isCancellationRequested: boolean }): Promise<Outcome> {
    const questions = normalizeQuestions(params.questions);
    if (questions.length === 0) {
      return Promise.resolve({ answered: false, cancelled: true, reason: 'no questions to show' });
    }
    return new Promise<Outcome>((resolve) => {
      const entry: Entry = {
        key: `ask-${++this.seq}`,
        askId: String(params.id ?? ''),
        agent: askerName(params),
        model: new DialogModel(questions),
        permission: questions.length === 1 ? normalizePermission(params.permission) : undefined,
        resolve,
        done: false,
      };
      this.queue.push(entry);
      if (token) {
        if (token.isCancellationRequested) {
          this.withdraw(entry);
          return;
        }
        token.onCancellationRequested(() => this.withdraw(entry));
      }
      this.changed.fire();
      // The person may not be looking (the panel is behind another editor, or opened without
      // taking the focus): say so rather than take the editor away. (A panel just made counts as
      // active before VS Code says otherwise: only what open() did tells.)
      if (this.queue.length === 1) {
        if (!this.open(false)) this.notify(entry);
      } else {
        this.render();
        if (!this.panel?.visible || !this.panel.active) this.notify(entry);
      }
    });
  }

  /** Bring the panel up for the current ask (the status bar item, Show Pending Questions). */
  reveal(): boolean {
    if (this.queue.length === 0) return false;
    this.open(true);
    return true;
  }

  /** Withdraw every ask (askhost went away) without telling anyone. */
  clear(reason: string): void {
    for (const e of [...this.queue]) this.settle(e, { answered: false, cancelled: true, reason });
    this.closePanel();
  }

  dispose(): void {
    this.clear('the extension was deactivated');
    this.changed.dispose();
  }

  // ---------------------------------------------------------------- the webview

  private notify(entry: Entry): void {
    const first = entry.model.questions[0];
    const more = entry.model.questions.length > 1 ? ` (+${entry.model.questions.length - 1} more)` : '';
    void vscode.window.showInformationMessage(visibleText(`${entry.agent} asks: ${first.question}${more}`), 'Answer').then((choice) => {
      if (choice === 'Answer') this.reveal();
    });
  }

  /** Open the panel (or draw the current ask in it); returns whether it took the focus. With
   * forceFocus (the person asked for it) it always does; otherwise only when focusPanel is on and
   * nobody may be typing. */
  private open(forceFocus: boolean): boolean {
    const takeFocus = forceFocus || (this.options.focus() && typingIn() === undefined);
    const preserveFocus = !takeFocus;
    if (this.panel) {
      if (forceFocus) this.panel.reveal(undefined, preserveFocus);
      this.render();
      return forceFocus;
    }
    const media = vscode.Uri.joinPath(this.options.extensionUri, 'media');
    const script = vscode.Uri.joinPath(this.options.extensionUri, 'out', 'web');
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      'Agent question',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
      { enableScripts: true, localResourceRoots: [media, script], enableFindWidget: false },
    );
    this.panel = panel;
    panel.webview.html = this.html(panel.webview);
    panel.webview.onDidReceiveMessage((m: WebviewMessage) => this.onMessage(m));
    panel.onDidDispose(() => void this.onPanelClosed(panel));
    this.render();
    return takeFocus;
  }

  private html(webview: vscode.Webview): string {
    const nonce = crypto.randomBytes(16).toString('base64');
    const css = webview.asWebviewUri(vscode.Uri.joinPath(this.options.extensionUri, 'media', 'panel.css'));
    const js = webview.asWebviewUri(vscode.Uri.joinPath(this.options.extensionUri, 'out', 'web', 'vscode', 'webview', 'panel.js'));
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${css}">
<title>Agent question</title>
</head>
<body>
<main id="app" tabindex="-1" aria-live="polite"></main>
<script type="module" nonce="${nonce}" src="${js}"></script>
</body>
</html>`;
  }

  private render(): void {
    const entry = this.queue[0];
    if (!this.panel || !entry) return;
    const qs = entry.model.questions;
    this.panel.title = visibleText(qs.length > 1 ? `${entry.agent} asks ${qs.length} questions` : `${entry.agent} asks: ${qs[0].header ?? 'a question'}`);
    const view = entry.model.view({
      askKey: entry.key,
      agent: entry.agent,
      queue: { index: 0, count: this.queue.length },
      renderPreview,
    });
    void this.panel.webview.postMessage({ type: 'render', view, permission: entry.permission });
  }

  private onMessage(m: WebviewMessage): void {
    const entry = this.queue[0];
    if (!entry) return;
    // Drawn for another ask (the last one's view not yet redrawn, or the second click of a
    // double-click that answered it): no answer to this one, which the person has not seen.
    if (m?.type !== 'ready' && m?.askKey !== entry.key) return;
    const model = entry.model;
    let r: Result = 'ignored';
    switch (m?.type) {
      case 'ready':
        this.render();
        return;
      case 'key':
        r = typeof m.key === 'string' ? model.key(m.key) : 'ignored';
        break;
      case 'text':
        r = model.setText(m.q, String(m.value ?? ''));
        break;
      case 'notes':
        r = model.setNotes(m.q, String(m.value ?? ''));
        break;
      case 'row':
        r = model.clickRow(Number(m.row));
        break;
      case 'tab':
        r = model.clickTab(Number(m.index));
        break;
      case 'submit':
        r = model.clickSubmit();
        break;
      case 'confirm':
        r = model.clickConfirm(m.yes === true);
        break;
      default:
        return;
    }
    if (model.finished) this.finish(entry);
    // The page already shows what was typed; a note changes nothing else it draws.
    else if (m.type === 'notes') return;
    else if (r !== 'ignored' || m.type === 'key') this.render();
  }

  private async onPanelClosed(panel: vscode.WebviewPanel): Promise<void> {
    if (this.closedByUs.has(panel)) return;
    if (this.panel === panel) this.panel = undefined;
    const entry = this.queue[0];
    if (!entry) return;
    const n = entry.model.answeredCount();
    if (n > 0) {
      const choice = await vscode.window.showWarningMessage(
        `Discard ${pluralAnswers(n)}?`,
        { modal: true, detail: 'Closing the panel cancels the questions: the agent is told they were cancelled.' },
        'Discard',
      );
      if (entry.done) return;
      if (choice !== 'Discard') {
        this.open(true);
        return;
      }
    }
    entry.model.cancel();
    this.finish(entry);
  }

  private finish(entry: Entry): void {
    this.settle(entry, entry.model.outcome ?? { answered: false, cancelled: true });
    this.next();
  }

  private withdraw(entry: Entry): void {
    if (entry.done) return;
    const wasCurrent = this.queue[0] === entry;
    this.settle(entry, { answered: false, cancelled: true, reason: 'withdrawn' });
    if (wasCurrent) this.next();
    else this.render();
  }

  private settle(entry: Entry, outcome: Outcome): void {
    if (entry.done) return;
    entry.done = true;
    const i = this.queue.indexOf(entry);
    if (i >= 0) this.queue.splice(i, 1);
    entry.resolve(outcome);
    this.changed.fire();
  }

  private next(): void {
    const head = this.queue[0];
    if (!head) {
      this.closePanel();
      return;
    }
    // The panel was closed (a cancel): the next ask opens it again, and says so when it does not
    // take the focus.
    const reopened = this.panel === undefined;
    if (!this.open(false) && reopened) this.notify(head);
  }

  private closePanel(): void {
    const panel = this.panel;
    if (!panel) return;
    this.panel = undefined;
    this.closedByUs.add(panel);
    panel.dispose();
  }
}

