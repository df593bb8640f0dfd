import type { HookDialect } from '../../../shared/types/index.ts';
import { useWorkbenchStore } from '../../stores/store.ts';

/**
 * Runs one hook with a sample or edited payload and shows stdout, stderr, exit code and how it was read.
 * An executable hook can be tried under another event (a hook whose `hook` answer is broken has none).
 */
export function HookTestPane({ dialect }: { dialect: HookDialect }) {
  const t = useWorkbenchStore((s) => s.hookTest);
  const setPayload = useWorkbenchStore((s) => s.setHookTestPayload);
  const run = useWorkbenchStore((s) => s.runHookTest);
  const close = useWorkbenchStore((s) => s.openHookTest);
  const events = useWorkbenchStore((s) => s.hookListing?.events.executable ?? []);
  if (!t) return null;
  const r = t.result;
  return (
    <div className="hook-test" data-testid="hook-test">
      <div className="panel-toolbar">
        <strong>Test</strong>
        {dialect === 'executable' ? (
          <select
            className="event-select"
            value={t.event}
            onChange={(e) => void close(t.id, e.target.value)}
            aria-label="Event"
            data-testid="hook-test-event"
          >
            {!t.event && <option value="">choose the event…</option>}
            {events.map((ev) => (
              <option key={ev} value={ev}>
                {ev}
              </option>
            ))}
          </select>
        ) : (
          <span className="badge">{t.event || '…'}</span>
        )}
        <span className="spacer" />
        <button
          type="button"
          className="primary"
          onClick={() => void run()}
          disabled={t.running || !t.payload}
          data-testid="hook-test-run"
        >
          {t.running ? 'Running…' : 'Run'}
        </button>
        <button type="button" onClick={() => void close(null)}>
          Close
        </button>
      </div>
      <label className="field-label" htmlFor="hook-test-payload">
        Payload (stdin)
      </label>
      <textarea
        id="hook-test-payload"
        className="mono payload"
        rows={8}
        value={t.payload}
        onChange={(e) => setPayload(e.target.value)}
        spellCheck={false}
        data-testid="hook-test-payload"
      />
      {t.error && (
        <p className="error-text" role="alert" data-testid="hook-test-error">
          {t.error}
        </p>
      )}
      {r && (
        <dl className="test-result" data-testid="hook-test-result">
          <dt>read as</dt>
          <dd
            className={
              r.readError
                ? 'error-text'
                : r.decision === 'block' || r.decision === 'deny'
                  ? 'warn-text'
                  : 'ok-text'
            }
            data-testid="hook-test-read-as"
          >
            {r.readAs}
          </dd>
          <dt>exit code</dt>
          <dd data-testid="hook-test-exit">
            {r.exitCode ?? '-'}
            {r.signal ? ` (${r.signal})` : ''}
            {r.timedOut ? ' (timed out)' : ''} · {r.durationMs} ms
          </dd>
          {r.error && (
            <>
              <dt>error</dt>
              <dd className="error-text">{r.error}</dd>
            </>
          )}
          <dt>stdout</dt>
          <dd>
            <pre data-testid="hook-test-stdout">{r.stdout || '(empty)'}</pre>
          </dd>
          <dt>stderr</dt>
          <dd>
            <pre data-testid="hook-test-stderr">{r.stderr || '(empty)'}</pre>
          </dd>
        </dl>
      )}
    </div>
  );
}
