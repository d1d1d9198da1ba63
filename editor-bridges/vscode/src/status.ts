// The texts that say who waits for what: the status bar item's (ask/state) and who asks.
import type { AskState } from './client';

export function questionsWaitingText(state: AskState | undefined): string | undefined {
  if (!state || state.state !== 'waiting' || state.pending.length === 0) return undefined;
  const n = state.pending.reduce((sum, a) => sum + Math.max(1, a.questions?.length ?? 1), 0);
  return `$(question) ${n} question${n === 1 ? '' : 's'} waiting`;
}

const ROUTE_NAMES: Record<string, string> = { mcp: 'MCP', hook: 'hook', submit: 'client' };

/** How the panel names who asks: the agent, and how its question came when it is not the agent
 * askhost runs itself ("codex · MCP", "claude · hook"). */
export function askerName(agent: string | undefined, route: string | undefined): string {
  const name = agent || 'agent';
  const via = route ? ROUTE_NAMES[route] : undefined;
  return via ? `${name} · ${via}` : name;
}
