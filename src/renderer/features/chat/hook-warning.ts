/** The text of a hook-failure warning in the chat. Pure. */
import type { Notice } from '../../stores/chat-types.ts';

/** What a failure of a hook on `event` let happen, by the way it failed. */
export function failureConsequence(event: string, failed: 'open' | 'closed'): string {
  const what = /tool|Tool/.test(event)
    ? 'the call'
    : /user_message|UserPrompt/.test(event)
      ? 'the message'
      : /Compact/.test(event)
        ? 'the compaction'
        : 'the run';
  if (failed === 'closed') return `failed closed — ${what} was blocked`;
  return what === 'the run' ? 'failed open — the run went on' : `failed open — ${what} went ahead`;
}

/** "Hook guard (before_tool_call) timed out — failed open — the call went ahead." */
export function hookWarningText(notice: Notice): string {
  const f = notice.hookFailure ?? { event: '', timedOut: false, failed: 'open' as const };
  const how = f.timedOut ? 'timed out' : `failed: ${notice.text}`;
  const on = f.event ? ` (${f.event})` : '';
  return `Hook ${notice.by ?? '?'}${on} ${how} — ${failureConsequence(f.event, f.failed)}.`;
}
