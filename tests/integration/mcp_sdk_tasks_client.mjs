// The tasks extension's official client (@modelcontextprotocol/ext-tasks) on the SDK's v2 client
// pinned to 2026-07-28, against `askhost mcp`, as its README says to set it up: it calls
// ask_user_question, gets a task, hands the task's reference off and closes its client (the
// client goes away), then connects again, resumes the task and waits for its outcome. Each step is
// one JSON line on stdout: {"event":"task",...}, {"event":"resumed"}, {"event":"done",...}.
import { createRequire } from "module";
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const pkg = createRequire(process.env.MCP_TASKS_DIR + "/package.json");
const { Client } = pkg("@modelcontextprotocol/client");
const { StdioClientTransport } = pkg("@modelcontextprotocol/client/stdio");
// The extension exports ./client for `import` only, which createRequire's resolve cannot see: its
// file is read from the package's own exports map.
const tasksDir = path.join(process.env.MCP_TASKS_DIR, "node_modules", "@modelcontextprotocol", "ext-tasks");
const tasksExports = JSON.parse(fs.readFileSync(path.join(tasksDir, "package.json"), "utf8")).exports;
const { createTaskSessionFromClient, resultFromTaskOutcome } = await import(
  pathToFileURL(path.join(tasksDir, tasksExports["./client"].import)).href);

const question = JSON.parse(process.env.QUESTION);
const info = { name: "sdk-v2-tasks-client", version: "1.0.0" };
const say = (o) => process.stdout.write(JSON.stringify(o) + "\n");

// The client, and the raw request path the extension's session needs for its V2 wire shapes: a
// request sent on the client's own transport, its reply taken before the SDK's handler sees it.
async function connect() {
  const client = new Client(info, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  const transport = new StdioClientTransport({ command: process.env.ASKHOST, args: ["mcp"], cwd: process.env.PROJ,
                                               env: process.env, stderr: "inherit" });
  await client.connect(transport);
  const pending = new Map();
  let next = 0;
  const inner = transport.onmessage;
  transport.onmessage = (msg, extra) => {
    const done = msg && msg.method === undefined ? pending.get(msg.id) : undefined;
    if (!done) return inner.call(transport, msg, extra);
    pending.delete(msg.id);
    done(msg.error ? { kind: "error", error: msg.error } : { kind: "result", result: msg.result });
  };
  const rawDispatch = (request) => new Promise((resolve, reject) => {
    const id = "tasks-" + ++next;
    pending.set(id, resolve);
    transport.send({ jsonrpc: "2.0", id, method: request.method,
                     ...(request.params === undefined ? {} : { params: request.params }) }).catch(reject);
  });
  const session = createTaskSessionFromClient(client, {
    endpointId: "askhost-mcp", rawDispatch,
    v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo: info, clientCapabilities: {} } });
  return { client, session };
}

const first = await connect();
const execution = await first.session.callTool("ask_user_question", { questions: [question] });
let reference;
if (execution.kind === "task") {
  await execution.handoff((r) => { reference = r; });
  // The hand-off released the execution, but the session still counts it as its own until its
  // local driving has wound down, and a session that closes before then cancels it (ext-tasks
  // 0.2.2, whose detach() says it does not): wait for that, as its settled local result.
  await execution.result().catch(() => {});
}
say({ event: "task", kind: execution.kind, taskId: reference && reference.taskId });
await first.session.close();
await first.client.close();

const second = await connect();
const resumed = await second.session.resumeTask(reference);
say({ event: "resumed" });
const { outcome } = await resumed.settle();
say({ event: "done", result: resultFromTaskOutcome(outcome) });
await second.session.close();
await second.client.close();
