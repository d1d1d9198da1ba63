// The status bar item's text for askhost's waiting state (ask/state).
import type { AskState } from './client';

export function questionsWaitingText(state: AskState | undefined): string | undefined {
  if (!state || state.state !== 'waiting' || state.pending.length === 0) return undefined;
  const n = state.pending.reduce((sum, a) => sum + Math.max(1, a.questions?.length ?? 1), 0);
  return `$(question) ${n} question${n === 1 ? '' : 's'} waiting`;
}
