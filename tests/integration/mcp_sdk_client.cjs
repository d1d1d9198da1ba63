// The official TypeScript SDK's v2 client (@modelcontextprotocol/client) against `askhost mcp`, as a
// new user would write it: argv[2] is its negotiation mode (pin: 2026-07-28 only; auto; legacy).
// It lists the tools, makes a pre-answered call and a call whose question its elicitation handler
// answers (or declines, with FORM_ACTION=decline), and prints what came back as one JSON line.
const { createRequire } = require("module");
const sdk = createRequire(process.env.MCP_CLIENT_DIR + "/package.json");
const { Client } = sdk("@modelcontextprotocol/client");
const { StdioClientTransport } = sdk("@modelcontextprotocol/client/stdio");

const question = JSON.parse(process.env.QUESTION);

async function main() {
  const mode = process.argv[2] === "pin" ? { pin: "2026-07-28" } : process.argv[2];
  const client = new Client({ name: "sdk-v2-client", version: "1.0.0" },
                            { capabilities: { elicitation: {} }, versionNegotiation: { mode } });
  const forms = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    forms.push(Object.keys(request.params.requestedSchema.properties));
    await new Promise((resolve) => setTimeout(resolve, 1500));  // a person reads the form
    if (process.env.FORM_ACTION === "decline") return { action: "decline" };
    return { action: "accept", content: { q1: question.options[1].label } };
  });
  const transport = new StdioClientTransport({ command: process.env.ASKHOST, args: ["mcp"], cwd: process.env.PROJ,
                                               env: process.env, stderr: "inherit" });
  await client.connect(transport);
  const tools = await client.listTools();
  const pre = await client.callTool({ name: "ask_user_question",
                                      arguments: { questions: [question],
                                                   answers: { [question.question]: question.options[0].label } } });
  const asked = await client.callTool({ name: "ask_user_question", arguments: { questions: [question] } });
  process.stdout.write(JSON.stringify({ tools: tools.tools.map((t) => t.name), pre: pre.structuredContent,
                                        asked: asked.structuredContent, askedError: asked.isError,
                                        askedText: asked.content[0].text, forms }) + "\n");
  await client.close();
}

main().catch((e) => {
  process.stderr.write("sdk client: " + (e && e.stack ? e.stack : String(e)) + "\n");
  process.exit(1);
});
