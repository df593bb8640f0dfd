import type { Notice } from '../../stores/chat-types.ts';
import { hookWarningText } from './hook-warning.ts';

/** A chat row for a hook that errored, timed out or answered unreadably on this run. */
export function HookWarningRow({ notice }: { notice: Notice }) {
  const failed = notice.hookFailure?.failed ?? 'open';
  return (
    <div
      className={`notice notice-hook_failed ${failed}`}
      role="alert"
      data-testid="notice-hook_failed"
      data-failed={failed}
    >
      {hookWarningText(notice)}
    </div>
  );
}
