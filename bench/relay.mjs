// What a TypeScript developer would write instead of askhost: a relay on vscode-jsonrpc that runs
// the agent, turns its ask_user_request lines into ask/show requests to the editor and the
// results back into ask_user_response lines. Same editor protocol, same native protocol; no
// validation, no journal. usage: node relay.mjs -- AGENT ARGV...
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';

const argv = process.argv.slice(process.argv.indexOf('--') + 1);
const conn = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
let nextAsk = 1;

conn.onRequest('initialize', () => ({
  serverInfo: { name: 'node-relay', version: '0.0.0' },
  capabilities: { ask: { multiSelect: true, previews: true, notes: true } },
}));
conn.onRequest('shutdown', () => null);
conn.onNotification('exit', () => process.exit(0));
conn.onNotification('initialized', () => {
  const agent = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  readline.createInterface({ input: agent.stdout }).on('line', async (line) => {
    let msg = null;
    try { msg = JSON.parse(line); } catch { /* output, not protocol */ }
    if (msg && msg.type === 'ask_user_request') {
      const id = `ask-${nextAsk++}`;
      const result = await conn.sendRequest('ask/show', { id, questions: msg.questions, metadata: msg.metadata, agent: argv[0] });
      agent.stdin.write(JSON.stringify({ type: 'ask_user_response', requestId: msg.requestId, ...result }) + '\n');
    } else {
      conn.sendNotification('agent/output', { stream: 'stdout', text: line + '\n' });
    }
  });
  agent.on('close', (code, signal) => conn.sendNotification('agent/exit', { exitCode: code, signal }));
});
conn.listen();
