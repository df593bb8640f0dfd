/** A hook span's stored run (fetched by span id): payload, stdout, stderr, exit code and decision. */
import { useEffect, useState } from 'react';
import type { HookRunRecord, SpanRecord } from '../../../shared/types/index.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { prettyJson } from './trace-view.ts';

/** The hook run section of the drawer. */
export function HookRunDetails({ span }: { span: SpanRecord }) {
  const hookRunFor = useWorkbenchStore((s) => s.hookRunFor);
  const [run, setRun] = useState<HookRunRecord | null | undefined>(undefined);
  const ended = span.end_ms !== undefined;
  useEffect(() => {
    let live = true;
    setRun(undefined);
    if (ended) void hookRunFor(span.thread_id, span.span_id).then((r) => live && setRun(r));
    return () => {
      live = false;
    };
  }, [span.thread_id, span.span_id, ended, hookRunFor]);
  const a = span.attributes;
  return (
    <section className="trace-block" data-testid="trace-hook-run">
      <h4>Hook run</h4>
      <dl className="trace-facts">
        <dt>decision</dt>
        <dd>
          {String(run?.decision ?? a['workbench.hook.decision'] ?? '—')}
          {run?.reason ? ` — ${run.reason}` : ''}
        </dd>
        <dt>exit code</dt>
        <dd>
          {String(run?.exit_code ?? a['workbench.hook.exit_code'] ?? '—')}
          {run?.signal ? ` (${run.signal})` : ''}
        </dd>
        {(run?.timed_out || a['workbench.hook.timed_out'] === true) && (
          <>
            <dt>timed out</dt>
            <dd className="err">yes — killed after the deadline</dd>
          </>
        )}
        {run?.error && (
          <>
            <dt>error</dt>
            <dd className="err">{run.error}</dd>
          </>
        )}
      </dl>
      {run === undefined && ended && <p className="muted">Loading the stored run…</p>}
      {run === null && (
        <p className="muted">
          No stored run for this span (in-process hook, or an imported trace).
        </p>
      )}
      {run && (
        <>
          <h5>Payload (stdin)</h5>
          <pre data-testid="trace-hook-payload">{prettyJson(run.payload)}</pre>
          <h5>stdout</h5>
          <pre data-testid="trace-hook-stdout">{run.stdout || '(empty)'}</pre>
          <h5>stderr</h5>
          <pre>{run.stderr || '(empty)'}</pre>
        </>
      )}
    </section>
  );
}
