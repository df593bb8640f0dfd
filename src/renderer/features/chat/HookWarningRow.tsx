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

/** A chat row for a hook that errored, timed out or answered unreadably on this run. */
export function HookWarningRow({ notice }: { notice: Notice }) {
  const f = notice.hookFailure ?? { event: '', timedOut: false, failed: 'open' as const };
  const how = f.timedOut ? 'timed out' : `failed: ${notice.text}`;
  return (
    <div
      className={`notice notice-hook_failed ${f.failed}`}
      role="alert"
      data-testid="notice-hook_failed"
      data-failed={f.failed}
    >
      Hook {notice.by ?? '?'}
      {f.event ? ` (${f.event})` : ''} {how} — {failureConsequence(f.event, f.failed)}.
    </div>
  );
}
