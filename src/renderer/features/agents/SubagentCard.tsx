import { memo, useEffect, useState } from 'react';
import type { Message, ToolCall } from '../../../shared/types/index.ts';
import type { ToolRun } from '../../stores/chat-types.ts';
import { streamText } from '../../stores/stream-text.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { FAILED_STATUSES, TOOL_STATUS_LABEL } from '../chat/tool-status.ts';
import './agents.css';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** One line of the child thread's transcript. */
function TranscriptLine({ message }: { message: Message }) {
  if (message.role === 'tool') {
    return (
      <li
        className={`subagent-line tool${message.status && message.status !== 'ok' ? ' failed' : ''}`}
      >
        <span className="muted">{message.name} →</span> {message.content.slice(0, 400)}
      </li>
    );
  }
  const calls = message.tool_calls?.map((c) => c.name).join(', ');
  return (
    <li className={`subagent-line ${message.role}`}>
      <span className="muted">{message.role}:</span> {message.content}
      {calls && <span className="muted"> [calls {calls}]</span>}
    </li>
  );
}

/**
 * A `task` call as a subagent card (docs/agents.md): its agent, task, status, live activity and the
 * child thread's transcript on demand, with a link to open that thread.
 */
export const SubagentCard = memo(function SubagentCard({
  call,
  run,
}: {
  call: ToolCall;
  run: ToolRun | undefined;
}) {
  const sub = useWorkbenchStore((s) =>
    s.activeThreadId ? s.chat.threads[s.activeThreadId]?.subagents?.[call.id] : undefined,
  );
  const child = useWorkbenchStore((s) => (sub ? s.chat.threads[sub.threadId] : undefined));
  const reloadThread = useWorkbenchStore((s) => s.reloadThread);
  const openThread = useWorkbenchStore((s) => s.openThread);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open && sub && !child?.loaded) void reloadThread(sub.threadId);
  }, [open, sub, child?.loaded, reloadThread]);
  const status = run?.status ?? 'pending';
  const label =
    sub?.status === 'running' && status !== 'awaiting_approval'
      ? 'Running'
      : TOOL_STATUS_LABEL[status];
  const agent = str(call.args.subagent_type) || sub?.agent || 'subagent';
  return (
    <div
      className={`tool-card subagent-card status-${status}`}
      data-testid="subagent-card"
      data-agent={agent}
      data-status={status}
      aria-label={`Subagent ${agent}: ${label}`}
    >
      <div className="tool-head">
        <span className={`tool-dot dot-${status}`} aria-hidden />
        <span className="tool-name">⤷ {agent}</span>
        <span className="tool-headline" title={str(call.args.description)}>
          {str(call.args.description)}
        </span>
        <span className="tool-status" data-testid="subagent-status">
          {label}
        </span>
        {sub && (
          <button
            type="button"
            className="link-button"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            data-testid="subagent-toggle"
          >
            {open ? 'Hide' : 'Transcript'}
          </button>
        )}
      </div>
      {sub?.activity && status === 'running' && (
        <div className="subagent-activity muted" data-testid="subagent-activity">
          {sub.activity}
        </div>
      )}
      {FAILED_STATUSES.has(status) && run?.error && (
        <div className="tool-error" role="alert">
          {run.error}
        </div>
      )}
      {open && sub && (
        <div className="tool-body">
          <ol className="subagent-transcript" data-testid="subagent-transcript">
            {(child?.messages ?? []).map((m, i) => (
              <TranscriptLine key={i} message={m} />
            ))}
            {child && child.streaming.length > 0 && (
              <li className="subagent-line assistant">{streamText(child.streaming)}</li>
            )}
          </ol>
          <button
            type="button"
            className="link-button"
            onClick={() => void openThread(sub.threadId)}
            data-testid="subagent-open"
          >
            Open thread
          </button>
        </div>
      )}
      {!open && status === 'done' && run?.output && (
        <div className="subagent-answer">{run.output.slice(0, 300)}</div>
      )}
    </div>
  );
});
