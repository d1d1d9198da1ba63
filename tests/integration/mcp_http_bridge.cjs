// A test-only bridge from MCP's Streamable HTTP transport to `askhost mcp` on stdio, for the MCP
// conformance suite, which tests servers over HTTP only. Each `initialize` starts a new askhost mcp
// ($ASKHOST, in $PROJ); a request's reply line goes back unchanged as the HTTP response body
// (application/json), a notification gets 202. It listens on 127.0.0.1 and prints its port.
const http = require("http");
const { spawn } = require("child_process");
const readline = require("readline");

let server = null;  // { child, waiting: Map<id JSON, response> }

function start() {
  if (server) server.child.stdin.end();
  const child = spawn(process.env.ASKHOST, ["mcp"], { cwd: process.env.PROJ, stdio: ["pipe", "pipe", "inherit"] });
  const s = { child, waiting: new Map() };
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    let msg;
    try { msg = JSON.parse(line); } catch { return; }
    const key = JSON.stringify(msg.id);
    const res = s.waiting.get(key);
    if (!res || msg.method !== undefined) return;  // no server-to-client requests in the scenarios run here
    s.waiting.delete(key);
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(line);
  });
  server = s;
}

const http_server = http.createServer((req, res) => {
  if (req.method === "DELETE") { if (server) server.child.stdin.end(); server = null; res.writeHead(200); return res.end(); }
  if (req.method !== "POST") { res.writeHead(405); return res.end(); }  // no server-initiated stream
  let body = "";
  req.on("data", (d) => { body += d; });
  req.on("end", () => {
    let msg;
    try { msg = JSON.parse(body); } catch { res.writeHead(400); return res.end(); }
    if (msg.method === "initialize") start();
    if (!server) { res.writeHead(404); return res.end(); }
    if (msg.method !== undefined && msg.id !== undefined) server.waiting.set(JSON.stringify(msg.id), res);
    else { res.writeHead(202); res.end(); }
    server.child.stdin.write(JSON.stringify(msg) + "\n");
  });
});

http_server.listen(0, "127.0.0.1", () => process.stdout.write(http_server.address().port + "\n"));
process.stdin.on("end", () => { if (server) server.child.stdin.end(); http_server.close(); process.exit(0); });
process.stdin.resume();
