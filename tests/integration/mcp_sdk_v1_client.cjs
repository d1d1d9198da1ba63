// The official TypeScript SDK's v1 client (@modelcontextprotocol/sdk), which knows only the 2025
// handshake, against `askhost mcp`, as a new user would write it. askhost mcp runs under `tee`, so
// that the test can compare the bytes it wrote ($WIRE). It lists the tools, makes a pre-answered
// call and a call whose question its elicitation handler answers, and prints what came back as
// one JSON line.
const { createRequire } = require("module");
const sdk = createRequire(process.env.MCP_SDK_DIR + "/package.json");
const { Client } = sdk("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = sdk("@modelcontextprotocol/sdk/client/stdio.js");
const { ElicitRequestSchema } = sdk("@modelcontextprotocol/sdk/types.js");

const question = JSON.parse(process.env.QUESTION);

async function main() {
  const client = new Client({ name: "sdk-v1-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const forms = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    forms.push(Object.keys(request.params.requestedSchema.properties));
    await new Promise((resolve) => setTimeout(resolve, 1500));  // a person reads the form
    return { action: "accept", content: { q1: question.options[1].label } };
  });
  const transport = new StdioClientTransport({ command: "/bin/sh",
                                               args: ["-c", '"$ASKHOST" mcp | tee "$WIRE"'],
                                               cwd: process.env.PROJ, env: process.env, stderr: "inherit" });
  await client.connect(transport);
  const tools = await client.listTools();
  const pre = await client.callTool({ name: "ask_user_question",
                                      arguments: { questions: [question],
                                                   answers: { [question.question]: question.options[0].label } } });
  const asked = await client.callTool({ name: "ask_user_question", arguments: { questions: [question] } });
  process.stdout.write(JSON.stringify({ version: client.getServerVersion(), tools: tools.tools.map((t) => t.name),
                                        pre: pre.structuredContent, asked: asked.structuredContent, forms }) + "\n");
  await client.close();
}

main().catch((e) => {
  process.stderr.write("sdk v1 client: " + (e && e.stack ? e.stack : String(e)) + "\n");
  process.exit(1);
});
