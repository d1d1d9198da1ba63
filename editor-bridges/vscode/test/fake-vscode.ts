// A small stand-in for the `vscode` module: just what the extension uses, recording what it is
// asked to show and answering dialogs from a script. Installing it hooks require('vscode').
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Module._load is not in the ES module typings
import Module = require('module');
import * as path from 'path';

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(readonly fsPath: string) {}
  get path(): string {
    return this.fsPath;
  }
  get scheme(): string {
    return 'file';
  }
  static file(p: string): Uri {
    return new Uri(p);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(path.join(base.fsPath, ...parts));
  }
  toString(): string {
    return 'file://' + this.fsPath;
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}
export class ThemeIcon {
  constructor(readonly id: string) {}
}

export const ViewColumn = { Active: -1, Beside: -2, One: 1, Two: 2 };
export const StatusBarAlignment = { Left: 1, Right: 2 };

export class FakeOutput {
  text = '';
  shown = 0;
  constructor(readonly name: string) {}
  append(s: string): void {
    this.text += s;
  }
  appendLine(s: string): void {
    this.text += s + '\n';
  }
  show(): void {
    this.shown++;
  }
  dispose(): void {}
}

export class FakeStatusItem {
  text = '';
  tooltip: string | undefined;
  command: string | undefined;
  name: string | undefined;
  backgroundColor: ThemeColor | undefined;
  visible = false;
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.visible = false;
  }
}

export class FakeWebviewPanel {
  title: string;
  visible = true;
  /** Whether it has the focus: taken when opened or revealed without preserveFocus. */
  active: boolean;
  disposed = false;
  reveals: { preserveFocus?: boolean }[] = [];
  readonly posted: any[] = [];
  private readonly disposeEmitter = new EventEmitter<void>();
  private readonly messageEmitter = new EventEmitter<any>();
  readonly onDidDispose = this.disposeEmitter.event;
  readonly webview = {
    html: '',
    cspSource: 'https://fake.vscode-cdn.net',
    options: {} as any,
    asWebviewUri: (u: Uri) => u,
    postMessage: async (m: any) => {
      this.posted.push(m);
      return true;
    },
    onDidReceiveMessage: this.messageEmitter.event,
  };
  constructor(
    readonly viewType: string,
    title: string,
    readonly showOptions: any,
    options: any,
  ) {
    this.title = title;
    this.webview.options = options;
    // VS Code's extension host counts a new panel as active until the workbench says otherwise.
    this.active = true;
    if (showOptions?.preserveFocus !== true) fake.focusTaken.push(this);
    else setTimeout(() => (this.active = false), 0);
  }
  reveal(_column?: number, preserveFocus?: boolean): void {
    this.visible = true;
    this.reveals.push({ preserveFocus });
    if (!preserveFocus) {
      this.active = true;
      fake.focusTaken.push(this);
    }
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.visible = false;
    this.disposeEmitter.fire();
  }
  // ---- test helpers
  /** A message from the page, as webview/panel.ts would send it: for the ask in view unless it
   *  names another. */
  send(m: any): void {
    const plain = m !== null && typeof m === 'object' && !Array.isArray(m) && m.type !== 'ready' && !('askKey' in m);
    this.messageEmitter.fire(plain ? { ...m, askKey: this.view?.askKey } : m);
  }
  key(...keys: string[]): void {
    for (const k of keys) this.send({ type: 'key', key: k });
  }
  /** The last view the extension sent the page. */
  get view(): any {
    for (let i = this.posted.length - 1; i >= 0; i--) if (this.posted[i].type === 'render') return this.posted[i].view;
    return undefined;
  }
}

export interface Shown {
  kind: 'info' | 'warning' | 'error';
  message: string;
  items: string[];
  modal: boolean;
}

type Responder = (shown: Shown) => string | undefined | Promise<string | undefined>;

/** Everything the fake records; reset between tests. */
export const fake = {
  settings: {} as Record<string, unknown>,
  folders: [] as string[],
  folderChanges: new EventEmitter<any>(),
  messages: [] as Shown[],
  panels: [] as FakeWebviewPanel[],
  outputs: [] as FakeOutput[],
  statusItems: [] as FakeStatusItem[],
  commands: new Map<string, (...args: any[]) => any>(),
  /** Answers for showQuickPick (a label, or a function of the items) and showInputBox, in order. */
  quickPicks: [] as (string | undefined | ((items: any[]) => any))[],
  inputBoxes: [] as (string | undefined)[],
  inputBoxOptions: [] as any[],
  quickPickItems: [] as any[][],
  respond: undefined as Responder | undefined,
  messageWaiters: [] as { match: (s: Shown) => boolean; resolve: (s: Shown) => void }[],
  /** Every time a panel took the keyboard focus (opened or revealed without preserveFocus). */
  focusTaken: [] as FakeWebviewPanel[],
  /** What env.clipboard holds. */
  clipboard: '',
  reset(): void {
    this.focusTaken = [];
    this.clipboard = '';
    window.activeTextEditor = undefined;
    window.activeNotebookEditor = undefined;
    window.activeTerminal = undefined;
    this.settings = {};
    this.folders = [];
    this.messages = [];
    this.panels = [];
    this.outputs = [];
    this.statusItems = [];
    this.commands.clear();
    this.quickPicks = [];
    this.inputBoxes = [];
    this.inputBoxOptions = [];
    this.quickPickItems = [];
    this.respond = undefined;
    this.messageWaiters = [];
  },
};

function show(kind: Shown['kind']) {
  return async (message: string, ...rest: any[]): Promise<string | undefined> => {
    let modal = false;
    if (rest.length > 0 && typeof rest[0] === 'object' && rest[0] !== null && !('title' in rest[0])) {
      modal = rest[0].modal === true;
      rest = rest.slice(1);
    }
    const shown: Shown = { kind, message, items: rest.map(String), modal };
    fake.messages.push(shown);
    for (const w of [...fake.messageWaiters]) {
      if (w.match(shown)) {
        fake.messageWaiters.splice(fake.messageWaiters.indexOf(w), 1);
        w.resolve(shown);
      }
    }
    return fake.respond ? fake.respond(shown) : undefined;
  };
}

export const window = {
  /** Set by a test: the person has a text editor (notebook, terminal) active. */
  activeTextEditor: undefined as unknown,
  activeNotebookEditor: undefined as unknown,
  activeTerminal: undefined as unknown,
  createOutputChannel(name: string) {
    const o = new FakeOutput(name);
    fake.outputs.push(o);
    return o;
  },
  createStatusBarItem() {
    const s = new FakeStatusItem();
    fake.statusItems.push(s);
    return s;
  },
  createWebviewPanel(viewType: string, title: string, showOptions: any, options: any) {
    const p = new FakeWebviewPanel(viewType, title, showOptions, options);
    fake.panels.push(p);
    return p;
  },
  showInformationMessage: show('info'),
  showWarningMessage: show('warning'),
  showErrorMessage: show('error'),
  async showQuickPick(items: any[]) {
    fake.quickPickItems.push(items);
    const a = fake.quickPicks.shift();
    if (typeof a === 'function') return a(items);
    if (a === undefined) return undefined;
    return items.find((i) => (typeof i === 'string' ? i : i.label) === a || i.label?.includes(a));
  },
  async showInputBox(options: any) {
    fake.inputBoxOptions.push(options);
    const a = fake.inputBoxes.shift();
    if (a !== undefined && options?.validateInput) {
      const err = await options.validateInput(a);
      if (err) throw new Error(`fake input box: '${a}' refused: ${err}`);
    }
    return a;
  },
};

export const commands = {
  registerCommand(id: string, fn: (...args: any[]) => any) {
    fake.commands.set(id, fn);
    return { dispose: () => fake.commands.delete(id) };
  },
  async executeCommand(id: string, ...args: any[]) {
    const fn = fake.commands.get(id);
    if (!fn) throw new Error(`no command ${id}`);
    return fn(...args);
  },
};

export const workspace = {
  getConfiguration(section: string) {
    return {
      get<T>(key: string, def?: T): T | undefined {
        const k = `${section}.${key}`;
        return k in fake.settings ? (fake.settings[k] as T) : def;
      },
    };
  },
  get workspaceFolders() {
    return fake.folders.length ? fake.folders.map((f, index) => ({ uri: Uri.file(f), name: path.basename(f), index })) : undefined;
  },
  onDidChangeWorkspaceFolders(listener: Listener<any>) {
    return fake.folderChanges.event(listener);
  },
};

/** Change the fake's folders and fire onDidChangeWorkspaceFolders, as VS Code does. */
export function setFolders(folders: string[]): void {
  const folder = (f: string, index: number) => ({ uri: Uri.file(f), name: path.basename(f), index });
  const added = folders.filter((f) => !fake.folders.includes(f)).map(folder);
  const removed = fake.folders.filter((f) => !folders.includes(f)).map(folder);
  fake.folders = [...folders];
  fake.folderChanges.fire({ added, removed });
}

export class Memento {
  private data = new Map<string, unknown>();
  get<T>(key: string, def?: T): T | undefined {
    return this.data.has(key) ? (this.data.get(key) as T) : def;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, value);
  }
  keys(): string[] {
    return [...this.data.keys()];
  }
}

export function fakeContext(extensionPath: string) {
  return {
    subscriptions: [] as { dispose(): unknown }[],
    extensionUri: Uri.file(extensionPath),
    extensionPath,
    globalState: new Memento(),
    workspaceState: new Memento(),
    extension: { packageJSON: { version: '0.1.0-test' } },
  };
}

/** Wait for a message matching `match` (already shown, or the next one). */
export function nextMessage(match: (s: Shown) => boolean, timeoutMs = 5000): Promise<Shown> {
  const seen = fake.messages.find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no such message within ' + timeoutMs + ' ms')), timeoutMs);
    fake.messageWaiters.push({
      match,
      resolve: (s) => {
        clearTimeout(t);
        resolve(s);
      },
    });
  });
}

export const env = {
  clipboard: {
    async writeText(text: string) {
      fake.clipboard = text;
    },
    async readText() {
      return fake.clipboard;
    },
  },
};

const api = { EventEmitter, Uri, ThemeColor, ThemeIcon, ViewColumn, StatusBarAlignment, window, commands, workspace, env };

let installed = false;
export function install(): void {
  if (installed) return;
  installed = true;
  const m = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = m._load;
  m._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return api;
    return original.call(this, request, ...rest);
  };
}
