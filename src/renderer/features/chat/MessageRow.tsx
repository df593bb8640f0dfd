import { memo } from 'react';
import type { Usage } from '../../../shared/types/index.ts';
import type { ToolRun } from '../../stores/chat-types.ts';
import { Markdown } from './Markdown.tsx';
import { ToolGroup } from './ToolCard.tsx';
import { HookWarningRow } from './HookWarningRow.tsx';
import { ElicitationOutcomeRow } from './ElicitationOutcomeRow.tsx';
import type { Row } from './rows.ts';
import { ContinueButton, CopyButton, RegenerateButton, UserMessage } from './MessageActions.tsx';

let numberFormat: Intl.NumberFormat | undefined;
/** Formats like `toLocaleString()`, with one formatter for all usage lines. */
const formatNumber = (n: number) => (numberFormat ??= new Intl.NumberFormat()).format(n);
// The first formatter sets up the locale's number data (tens of ms on a busy machine): done in idle
// time after start, not in the frame where the first answer ends and shows its usage.
if (typeof requestIdleCallback === 'function') requestIdleCallback(() => formatNumber(0));

function UsageLine({ usage }: { usage?: Usage }) {
  if (!usage || (usage.input_tokens === undefined && usage.output_tokens === undefined))
    return null;
  const fmt = (n?: number) => (n === undefined ? '?' : formatNumber(n));
  return (
    <div className="usage" data-testid="usage">
      {fmt(usage.input_tokens)} tokens in · {fmt(usage.output_tokens)} out
    </div>
  );
}

const WAITING_TEXT = {
  approval: 'Waiting for your approval…',
  answer: 'Waiting for your answer…',
  nothing: 'Working…',
};

/** One row of the message list. */
export const MessageRow = memo(function MessageRow({
  row,
  tools,
  awaiting,
  asking,
}: {
  row: Row;
  tools: Record<string, ToolRun>;
  awaiting: ReadonlySet<string>;
  /** Calls during which an MCP server waits for the user's answer. */
  asking: ReadonlySet<string>;
}) {
  switch (row.kind) {
    case 'user':
      return <UserMessage text={row.text} index={row.index} />;
    case 'assistant':
      return (
        <div className="msg msg-assistant" data-testid="message-assistant">
          <Markdown text={row.text} />
          {row.interrupted && <div className="notice notice-warning">The answer broke off.</div>}
          <UsageLine usage={row.usage} />
          {row.text && (
            <div className="message-actions">
              <CopyButton text={row.text} />
              {row.regenerate && (
                <RegenerateButton userIndex={row.regenerate.index} userText={row.regenerate.text} />
              )}
            </div>
          )}
        </div>
      );
    case 'tools':
      return (
        <div className="msg msg-tools">
          <ToolGroup calls={row.calls} tools={tools} awaiting={awaiting} asking={asking} />
          <UsageLine usage={row.usage} />
        </div>
      );
    case 'notice':
      if (row.notice.kind === 'hook_failed') return <HookWarningRow notice={row.notice} />;
      if (row.notice.kind === 'elicitation') return <ElicitationOutcomeRow notice={row.notice} />;
      if (row.notice.kind === 'iteration_cap')
        return (
          <div
            className="notice notice-iteration_cap"
            role="status"
            data-testid="notice-iteration_cap"
          >
            <span>{row.notice.text}</span>
            <ContinueButton />
          </div>
        );
      return (
        <div
          className={`notice notice-${row.notice.kind}`}
          role={row.notice.kind === 'error' ? 'alert' : undefined}
          data-testid={`notice-${row.notice.kind}`}
        >
          {row.notice.kind === 'blocked'
            ? `Blocked${row.notice.by ? ` by ${row.notice.by}` : ''}: ${row.notice.text}`
            : row.notice.text}
        </div>
      );
    case 'streaming':
      return (
        <div className="msg msg-assistant streaming" data-testid="message-streaming">
          {row.text.length > 0 ? (
            <Markdown text={row.text} streaming />
          ) : (
            <div className="thinking">{WAITING_TEXT[row.waiting ?? 'nothing']}</div>
          )}
        </div>
      );
  }
});
