// The connection to one `askhost --stdio` process: spawn it, speak the editor protocol
// (docs/protocol.md) over its stdin/stdout with vscode-jsonrpc, and shut it down. Knows nothing
// about VS Code, so the unit tests drive it against the real binary.
import { ChildProcess, spawn } from 'child_process';
import {
  CancellationToken,
  MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  createMessageConnection,
} from 'vscode-jsonrpc/node';
import type { Outcome } from '../../shared/model';

export interface AskParams {
  id: string;
  questions: unknown;
  metadata?: unknown;
  /** A tool permission beside its one question: the whole command, typed (docs/protocol.md). */
  permission?: unknown;
  agent?: string;
  /** How the question came: "agent" (askhost's own agent), "mcp", "hook", "submit". */
  route?: string;
  /** Who asks, as the host names it for every face: "codex · MCP". */
  who?: string;
  cwd?: string;
}

/** A workspace folder as LSP sends it. */
export interface WorkspaceFolder {
  uri: string;
  name: string;
}

export interface PendingAsk {
  id: string;
  questions: { question?: string; header?: string }[];
  agent?: string;
}

export interface AskState {
  state: 'waiting' | 'idle';
  pending: PendingAsk[];
}

export interface AgentExit {
  exitCode: number | null;
  signal: number | null;
}

export interface ClientHandlers {
  /** A question to show; resolve with the outcome. `token` fires when the ask is withdrawn. */
  onAsk(params: AskParams, token: CancellationToken): Promise<Outcome>;
  onState?(state: AskState): void;
  onOutput?(stream: 'stdout' | 'stderr', text: string): void;
  onAgentExit?(exit: AgentExit): void;
  /** askhost's own diagnostics (its stderr). */
  onLog?(text: string): void;
  /** The askhost process ended (after shutdown, or unexpectedly). */
  onClose?(code: number | null, signal: NodeJS.Signals | null): void;
}

export interface ClientOptions {
  askhostPath: string;
  /** Extra arguments after --stdio (e.g. --timeout 30). */
  args?: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  clientVersion?: string;
  /** The editor's workspace: agents started anywhere in it find this askhost and ask here. */
  workspaceFolders?: WorkspaceFolder[];
}

/**
 * Error code -32001: the agent is not running, cannot start, or has no conversation (a copy of
 * rpc_error::agent_error in the normative host/transport/rpc_errors.hpp).
 */
export const AGENT_ERROR = -32001;

export class AskhostError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

function asError(e: unknown): AskhostError {
  if (e instanceof ResponseError) return new AskhostError(e.message, e.code);
  if (e instanceof Error) return new AskhostError(e.message);
  return new AskhostError(String(e));
}

export class AskhostClient {
  private proc: ChildProcess | undefined;
  private conn: MessageConnection | undefined;
  private exited: Promise<void> | undefined;
  private closed = false;
  private shuttingDown = false;
  serverInfo: { name?: string; version?: string } | undefined;
  /** The host's socket (what `askhost attach`, askhost mcp and askhost hook connect to). */
  socket: string | undefined;

  constructor(
    private readonly options: ClientOptions,
    private readonly handlers: ClientHandlers,
  ) {}

  get running(): boolean {
    return this.proc !== undefined && !this.closed;
  }

  /** shutdown was asked for: the process ending is expected. */
  get disposing(): boolean {
    return this.shuttingDown;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** Spawn askhost and finish the initialize handshake. */
  async start(): Promise<void> {
    const proc = spawn(this.options.askhostPath, ['--stdio', ...(this.options.args ?? [])], {
      cwd: this.options.cwd,
      env: this.options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.proc = proc;
    const spawned = new Promise<void>((resolve, reject) => {
      proc.once('spawn', () => resolve());
      proc.once('error', (e) => reject(new AskhostError(`cannot run askhost (${this.options.askhostPath}): ${e.message}`)));
    });
    this.exited = new Promise<void>((resolve) => {
      proc.once('close', (code, signal) => {
        this.closed = true;
        this.conn?.dispose();
        this.handlers.onClose?.(code, signal);
        resolve();
      });
      proc.once('error', () => {
        this.closed = true;
        resolve();
      });
    });
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (chunk: string) => this.handlers.onLog?.(chunk));
    // A write after askhost died must not crash the extension host.
    proc.stdin!.on('error', () => undefined);
    await spawned;

    const conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    this.conn = conn;
    conn.onRequest('ask/show', (params: AskParams, token: CancellationToken) => this.handlers.onAsk(params, token));
    conn.onNotification('ask/state', (p: AskState) => this.handlers.onState?.(p));
    conn.onNotification('agent/output', (p: { stream: 'stdout' | 'stderr'; text: string }) =>
      this.handlers.onOutput?.(p.stream, p.text),
    );
    conn.onNotification('agent/exit', (p: AgentExit) => this.handlers.onAgentExit?.(p));
    // askhost did not take an answer (docs/protocol.md); the question comes again with ask/show.
    conn.onNotification('ask/answerRefused', (p: { message?: string }) =>
      this.handlers.onLog?.(`askhost refused the answer: ${String(p?.message ?? '')}\n`),
    );
    conn.onError(() => undefined);
    conn.listen();
    try {
      const result = (await conn.sendRequest('initialize', {
        clientInfo: { name: 'askhost-vscode', version: this.options.clientVersion ?? '0.0.0' },
        capabilities: { ask: { multiSelect: true, previews: true, notes: true } },
        workspaceFolders: this.options.workspaceFolders ?? null,
      })) as { serverInfo?: { name?: string; version?: string }; socket?: string | null };
      this.serverInfo = result?.serverInfo;
      this.socket = result?.socket ?? undefined;
      await conn.sendNotification('initialized', {});
    } catch (e) {
      this.kill();
      throw asError(e);
    }
  }

  private request<R>(method: string, params?: object): Promise<R> {
    if (!this.conn || this.closed) return Promise.reject(new AskhostError('askhost is not running'));
    const p = params === undefined ? this.conn.sendRequest(method) : this.conn.sendRequest(method, params);
    return (p as Promise<R>).catch((e: unknown) => {
      throw asError(e);
    });
  }

  startAgent(command: string[], opts: { cwd?: string; adapter?: string; env?: Record<string, string> } = {}) {
    const params: Record<string, unknown> = { command };
    if (opts.cwd) params.cwd = opts.cwd;
    if (opts.adapter && opts.adapter !== 'auto') params.adapter = opts.adapter;
    if (opts.env) params.env = opts.env;
    return this.request<{ pid: number }>('agent/start', params);
  }

  /** The editor's folders changed (workspace/didChangeWorkspaceFolders). */
  changeWorkspaceFolders(added: WorkspaceFolder[], removed: WorkspaceFolder[]): void {
    if (!this.conn || this.closed) return;
    void this.conn.sendNotification('workspace/didChangeWorkspaceFolders', { event: { added, removed } }).catch(() => undefined);
  }

  prompt(text: string) {
    return this.request<Record<string, never>>('agent/prompt', { text });
  }

  stopAgent() {
    return this.request<AgentExit>('agent/stop');
  }

  /** shutdown + exit, then wait for askhost to end (SIGKILL after `graceMs`). */
  async dispose(graceMs = 5000): Promise<void> {
    if (!this.proc || this.shuttingDown) return this.exited;
    this.shuttingDown = true;
    if (!this.closed && this.conn) {
      try {
        await Promise.race([this.conn.sendRequest('shutdown'), delay(graceMs)]);
        await this.conn.sendNotification('exit');
      } catch {
        // askhost went away first; the close handler has run or will.
      }
    }
    const timer = setTimeout(() => this.kill(), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  private kill(): void {
    if (this.proc && !this.closed) this.proc.kill('SIGKILL');
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
