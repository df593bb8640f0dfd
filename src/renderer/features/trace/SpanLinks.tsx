/** "Requested by" / "requested" links in the span drawer (chat span ↔ its tool calls, joined on tool_call_id). */
import type { SpanRecord } from '../../../shared/types/index.ts';
import type { RunLayout } from './trace-layout.ts';
import { linkedSpans } from './span-links.ts';

interface Props {
  span: SpanRecord;
  run: RunLayout | undefined;
  onSelect(spanId: string): void;
}

/** Links to related spans; renders nothing when there are none. */
export function SpanLinks({ span, run, onSelect }: Props) {
  const { requestedBy, requested } = linkedSpans(span, run);
  if (!requestedBy && requested.length === 0) return null;
  const link = (s: SpanRecord) => (
    <button
      key={s.span_id}
      type="button"
      className="link-button trace-link"
      onClick={() => onSelect(s.span_id)}
      data-testid="trace-link"
    >
      {s.name}
    </button>
  );
  return (
    <dl className="trace-facts">
      {requestedBy && (
        <>
          <dt>requested by</dt>
          <dd>{link(requestedBy)}</dd>
        </>
      )}
      {requested.length > 0 && (
        <>
          <dt>tool calls</dt>
          <dd>{requested.map(link)}</dd>
        </>
      )}
    </dl>
  );
}
