/** The detail drawer of the selected span: timing, status, usage, previews, tool arguments, hook run, attributes. */
import { X } from 'lucide-react';
import type { AttributeValue, SpanRecord } from '../../../shared/types/index.ts';
import type { RunLayout } from './trace-layout.ts';
import { formatDuration, prettyJson } from './trace-view.ts';
import { TraceBlock as Block } from './TraceBlock.tsx';
import { selfTime } from './trace-accounting.ts';
import { HookRunDetails } from './HookRunDetails.tsx';
import { SpanLinks } from './SpanLinks.tsx';
import { ModelRequest } from './ModelRequest.tsx';
import { callIdOfSpan, useReveal } from './span-reveal.ts';
import { useLayout } from '../layout/layout-store.ts';
import { SpanRevert } from '../changes/SpanRevert.tsx';

interface Props {
  span: SpanRecord;
  run: RunLayout | undefined;
  onClose(): void;
  onSelect(spanId: string): void;
}

function show(v: AttributeValue | undefined): string {
  if (v === undefined) return '';
  return Array.isArray(v) ? v.join(', ') : String(v);
}

/** The drawer. */
export function SpanDrawer({ span, run, onClose, onSelect }: Props) {
  const a = span.attributes;
  const dur = span.end_ms !== undefined ? formatDuration(span.end_ms - span.start_ms) : 'running…';
  const offset = run ? `+${formatDuration(span.start_ms - run.start)}` : '';
  const args = a['tool_args'] ?? a['gen_ai.tool.call.arguments'];
  const output =
    a['output_preview'] ?? a['workbench.output.preview'] ?? a['gen_ai.tool.call.result'];
  const inTok = a['gen_ai.usage.input_tokens'];
  const outTok = a['gen_ai.usage.output_tokens'];
  const ttft = span.events.find((e) => e.name === 'first_chunk');
  const callId = callIdOfSpan(span);
  const showInChat = (id: string) => {
    useLayout.getState().setTraceFull(false);
    useReveal.getState().revealCall(id);
  };
  const children = run
    ? run.rows.filter((r) => r.span.parent_span_id === span.span_id).map((r) => r.span)
    : [];
  const self =
    span.end_ms !== undefined && children.length > 0
      ? selfTime(span, children, span.end_ms)
      : undefined;
  return (
    <aside className="trace-drawer" aria-label="Span details" data-testid="trace-drawer">
      <header>
        <strong className={`kind-text-${span.kind}`}>{span.name}</strong>
        <button type="button" className="link-button" onClick={onClose} aria-label="Close details">
          <X size={14} aria-hidden />
        </button>
      </header>
      <dl className="trace-facts">
        <dt>kind</dt>
        <dd>{span.kind}</dd>
        <dt>duration</dt>
        <dd>{`${dur} ${offset ? `(starts ${offset})` : ''}`}</dd>
        {self !== undefined && (
          <>
            <dt>self time</dt>
            <dd data-testid="trace-drawer-self">{`${formatDuration(self)} (outside its ${children.length} child span${children.length === 1 ? '' : 's'})`}</dd>
          </>
        )}
        <dt>status</dt>
        <dd className={span.status.code === 'ERROR' ? 'err' : ''} data-testid="trace-drawer-status">
          {`${span.status.code}${span.status.message ? ` — ${span.status.message}` : ''}${span.incomplete ? ' (incomplete: closed after a crash)' : ''}`}
        </dd>
        {a['error.type'] !== undefined && (
          <>
            <dt>error</dt>
            <dd className="err">{show(a['error.type'])}</dd>
          </>
        )}
        {(inTok !== undefined || outTok !== undefined) && (
          <>
            <dt>tokens</dt>
            <dd data-testid="trace-drawer-tokens">{`${show(inTok) || '?'} in · ${show(outTok) || '?'} out`}</dd>
          </>
        )}
        {ttft && (
          <>
            <dt>first chunk</dt>
            <dd>{`after ${formatDuration(ttft.time_ms - span.start_ms)}`}</dd>
          </>
        )}
        {a['workbench.permission.decision'] !== undefined && (
          <>
            <dt>approval</dt>
            <dd>{`${show(a['workbench.permission.decision'])} by ${show(a['workbench.permission.decided_by']) || '?'}`}</dd>
          </>
        )}
      </dl>
      <SpanLinks span={span} run={run} onSelect={onSelect} />
      {callId && (
        <button
          type="button"
          className="link-button"
          onClick={() => showInChat(callId)}
          data-testid="trace-drawer-show-in-chat"
        >
          Show in chat
        </button>
      )}
      {span.kind === 'llm' && <ModelRequest span={span} />}
      <SpanRevert span={span} />
      {typeof args === 'string' && (
        <Block title="Arguments" text={prettyJson(args)} testId="trace-drawer-args" />
      )}
      {typeof output === 'string' && (
        <Block
          title={span.kind === 'llm' ? 'Answer (preview)' : 'Result (preview)'}
          text={output}
          testId="trace-drawer-output"
        />
      )}
      {span.kind === 'hook' && <HookRunDetails span={span} />}
      {span.events.length > 0 && (
        <section className="trace-block">
          <h4>Events</h4>
          <ul className="trace-events">
            {span.events.map((e, i) => (
              <li
                key={i}
              >{`+${formatDuration(e.time_ms - span.start_ms)} ${e.name}${e.attributes ? ` ${JSON.stringify(e.attributes)}` : ''}`}</li>
            ))}
          </ul>
        </section>
      )}
      <section className="trace-block">
        <h4>Attributes</h4>
        <table className="trace-attrs" data-testid="trace-drawer-attrs">
          <tbody>
            {Object.entries(a)
              .sort(([x], [y]) => x.localeCompare(y))
              .map(([k, v]) => (
                <tr key={k}>
                  <th>{k}</th>
                  <td>{show(v)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </section>
    </aside>
  );
}
