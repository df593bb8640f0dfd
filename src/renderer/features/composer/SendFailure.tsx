import type { FailedSend } from '../../stores/chat-types.ts';
import { CONFIG_ERROR_CODES } from '../../stores/chat-types.ts';

/** Whether the cause is something to fix in Settings (no key, bad URL, unknown model). */
export function isConfigError(f: FailedSend): boolean {
  return (
    (f.code !== undefined && CONFIG_ERROR_CODES.has(f.code)) ||
    /api key|unauthori[sz]ed|401|base url|ECONNREFUSED|not reachable|unknown model|model .*not found/i.test(
      f.error,
    )
  );
}

/** The bar above the message box after a send got no answer: why, Retry, and Settings when that is the fix. */
export function SendFailure({
  failure,
  onRetry,
  onSettings,
  onDismiss,
}: {
  failure: FailedSend;
  onRetry(): void;
  onSettings(): void;
  onDismiss(): void;
}) {
  const config = isConfigError(failure);
  return (
    <div className="send-failure" role="alert" data-testid="send-failure">
      <span className="send-failure-text">
        {failure.by
          ? `Not sent: blocked by hook ${failure.by}: ${failure.error}`
          : `Not sent: ${failure.error}`}
      </span>
      <span className="send-failure-actions">
        {!failure.by && (
          <button type="button" className="primary" onClick={onRetry} data-testid="send-retry">
            Retry
          </button>
        )}
        {config && (
          <button type="button" onClick={onSettings} data-testid="send-open-settings">
            Open Settings
          </button>
        )}
        <button
          type="button"
          className="link-button"
          onClick={onDismiss}
          data-testid="send-dismiss"
        >
          Dismiss
        </button>
      </span>
    </div>
  );
}
