// The ask_user_question tool on the official MCP TypeScript SDK, as askhost mcp serves it: the
// strict schema, and pre-supplied answers returned as the model text. usage: node mcp-sdk-server.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const Option = z.object({ label: z.string().min(1), description: z.string().optional(), preview: z.string().optional() }).strict();
const Question = z.object({
  question: z.string().min(1),
  header: z.string().min(1).max(12),
  options: z.array(Option).min(2).max(4),
  multiSelect: z.boolean().optional(),
}).strict();

const server = new McpServer({ name: 'ask-user-question', version: '0.0.0' });
server.registerTool('ask_user_question', {
  description: 'Ask the user 1-4 multiple-choice questions.',
  inputSchema: {
    questions: z.array(Question).min(1).max(4),
    answers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
    annotations: z.record(z.string(), z.object({ preview: z.string().optional(), notes: z.string().optional() })).optional(),
    metadata: z.object({ source: z.string().optional() }).optional(),
  },
}, async ({ answers }) => {
  if (!answers) return { content: [{ type: 'text', text: 'No user to ask in this benchmark.' }], isError: true };
  const parts = Object.entries(answers).map(([q, a]) => `"${q}"="${Array.isArray(a) ? a.join(', ') : a}"`);
  const text = `User has answered your questions: ${parts.join(', ')}. You can now continue with the user's answers in mind.`;
  return { content: [{ type: 'text', text }], structuredContent: { answers } };
});
await server.connect(new StdioServerTransport());
