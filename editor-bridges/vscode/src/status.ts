// The texts that say who waits for what: the status bar item's (ask/state) and who asks.
import type { AskState } from './client';

export function questionsWaitingText(state: AskState | undefined): string | undefined {
  if (!state || state.state !== 'waiting' || state.pending.length === 0) return undefined;
  const n = state.pending.reduce((sum, a) => sum + Math.max(1, a.questions?.length ?? 1), 0);
  return `$(question) ${n} question${n === 1 ? '' : 's'} waiting`;
}

/** How the panel names who asks: as the host names it for every face, ask/show's `who` ("codex ·
 * MCP", "claude · hook"; core/text/who_asks.cpp); the agent alone from a host that does not say. */
export function askerName(params: { who?: string; agent?: string }): string {
  return params.who || params.agent || 'agent';
}
