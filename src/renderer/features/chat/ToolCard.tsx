import { lazy, memo, Suspense, useEffect, useState } from 'react';
import { ShowSpanButton } from '../trace/ShowSpanButton.tsx';
import type { ToolCall } from '../../../shared/types/index.ts';
import { MENTION_CALL_PREFIX } from '../../../shared/constants.ts';
import { isEnded, type ToolRun } from '../../stores/chat-types.ts';
import { FAILED_STATUSES, TOOL_STATUS_LABEL as LABEL } from './tool-status.ts';
import { SubagentCard } from '../agents/SubagentCard.tsx';
import { TerminalOutput } from './TerminalOutput.tsx';
import { RevertButton } from '../changes/RevertButton.tsx';
import { useWorkbenchStore } from '../../stores/store.ts';

/** Tools whose calls are checkpointed (a command by snapshots) and revertable from their card. */
const WRITING_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'execute']);

const MonacoEditor = lazy(() => import('../../components/MonacoEditor.tsx'));

/** The one argument worth showing in the header (path, command, pattern…). */
export function headlineOf(call: ToolCall): string {
  const a = call.args ?? {};
  const v = a.command ?? a.path ?? a.file_path ?? a.pattern ?? a.query ?? a.url;
  return typeof v === 'string' ? v : '';
}

function useElapsed(run: ToolRun | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  const live = run?.status === 'running' && run.startedAt !== undefined;
  useEffect(() => {
    if (!live) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [live]);
  if (run?.durationMs !== undefined) return run.durationMs;
  return live ? now - run!.startedAt! : undefined;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** One tool call: name, arguments, live status, duration, collapsible output, error styling. */
export const ToolCard = memo(function ToolCard({
  call,
  run,
  asking = false,
}: {
  call: ToolCall;
  run: ToolRun | undefined;
  /** An MCP server waits for the user's answer during this call. */
  asking?: boolean;
}) {
  const status = run?.status ?? 'pending';
  const elapsed = useElapsed(run);
  const [open, setOpen] = useState(false);
  const [editor, setEditor] = useState(false);
  // A hook may have rewritten the input: the card shows what actually ran.
  const ran = run?.ranArgs ? { ...call, args: run.ranArgs } : call;
  const headline = headlineOf(ran);
  const failed = FAILED_STATUSES.has(status);
  const output = run?.output ?? '';
  const threadId = useWorkbenchStore((s) => s.activeThreadId);
  const setDockTab = useWorkbenchStore((s) => s.setDockTab);
  const revertable = status === 'done' && WRITING_TOOLS.has(call.name) && threadId;
  return (
    <div
      className={`tool-card status-${status}`}
      data-testid="tool-card"
      data-tool={call.name}
      data-status={status}
      data-call-id={call.id}
      tabIndex={-1}
      aria-label={`Tool ${call.name}: ${LABEL[status]}`}
    >
      <div className="tool-head">
        <span className={`tool-dot dot-${status}`} aria-hidden />
        <span className="tool-name">{call.name}</span>
        {headline && (
          <code className="tool-headline" title={headline}>
            {headline}
          </code>
        )}
        {run?.rewrittenBy && (
          <span className="tool-rewritten muted" data-testid="tool-rewritten">
            changed by {run.rewrittenBy}
          </span>
        )}
        {run?.attempts && run.attempts.max > 1 && (
          <span className="tool-attempts muted" data-testid="tool-attempts">
            attempt {run.attempts.n} of {run.attempts.max}
          </span>
        )}
        {asking && (
          <span className="tool-asking" data-testid="tool-asking">
            waiting for your answer
          </span>
        )}
        {run?.retrying && status === 'running' && (
          <span className="tool-retrying muted" data-testid="tool-retrying" title={run.retrying}>
            {run.retrying.split(':')[0]}
          </span>
        )}
        <span className="tool-status" data-testid="tool-status">
          {LABEL[status]}
        </span>
        {elapsed !== undefined && (
          <span className="tool-duration" data-testid="tool-duration">
            {formatMs(elapsed)}
          </span>
        )}
        <ShowSpanButton callId={call.id} />
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          data-testid="tool-toggle"
        >
          {open ? 'Hide' : 'Details'}
        </button>
      </div>
      {run?.live && run.live.length > 0 && (
        <TerminalOutput chunks={run.live} footer={liveFooter(status)} />
      )}
      {failed && (run?.reason || run?.error) && (
        <div className="tool-error" role="alert" data-testid="tool-error">
          {status === 'blocked'
            ? `Blocked by a hook: ${run?.reason ?? run?.error}`
            : (run?.error ?? run?.reason)}
        </div>
      )}
      {revertable && (
        <div className="tool-actions">
          <RevertButton threadId={threadId} target={{ toolCallId: call.id }} title="Undo this change" />
          <button type="button" className="link-button" onClick={() => setDockTab('changes')} data-testid="show-changes">
            Show changes
          </button>
        </div>
      )}
      {open && (
        <div className="tool-body">
          <div className="tool-section-label">Arguments</div>
          <pre className="tool-args">{JSON.stringify(ran.args, null, 2)}</pre>
          {run?.rewrittenBy && (
            <>
              <div className="tool-section-label">Arguments the model asked for</div>
              <pre className="tool-args">{JSON.stringify(call.args, null, 2)}</pre>
            </>
          )}
          <div className="tool-section-label">
            Output
            {output.split('\n').length > 30 && (
              <button
                type="button"
                className="link-button"
                onClick={() => setEditor(!editor)}
                data-testid="tool-open-editor"
              >
                {editor ? 'Plain view' : 'Open in editor'}
              </button>
            )}
          </div>
          {editor ? (
            <Suspense fallback={<p className="muted">Loading editor…</p>}>
              <MonacoEditor value={output} readOnly height={360} />
            </Suspense>
          ) : (
            <pre className="tool-output" data-testid="tool-output">
              {output || (status === 'running' ? '…' : '(no output)')}
            </pre>
          )}
        </div>
      )}
    </div>
  );
});

/** The terminal's last line once a command stopped early: it never looks like a plain success. */
function liveFooter(status: ToolRun['status']): string | undefined {
  if (status === 'cancelled') return '■ cancelled';
  if (status === 'timeout') return '■ timed out';
  return undefined;
}

/** Tool calls from one model turn, shown together (they run in parallel). */
export function ToolGroup({
  calls,
  tools,
  awaiting,
  asking,
}: {
  calls: ToolCall[];
  tools: Record<string, ToolRun>;
  awaiting: ReadonlySet<string>;
  asking: ReadonlySet<string>;
}) {
  const done = calls.filter((c) => isEnded(tools[c.id]?.status ?? 'pending')).length;
  // Calls made to read the person's own `@` mentions, before the model's first turn, say so.
  const head = calls.every((c) => c.id.startsWith(MENTION_CALL_PREFIX))
    ? 'Read for your @ mentions'
    : calls.length > 1
      ? `${calls.length} tools in parallel · ${done}/${calls.length} finished`
      : undefined;
  return (
    <div className="tool-group" data-testid="tool-group" data-count={calls.length}>
      {head && <div className="tool-group-head">{head}</div>}
      {calls.map((c) => {
        const run = awaiting.has(c.id) ? { ...tools[c.id], status: 'awaiting_approval' as const } : tools[c.id];
        // A `task` call is a subagent run: shown as its card (docs/agents.md).
        return c.name === 'task' ? <SubagentCard key={c.id} call={c} run={run} /> : <ToolCard key={c.id} call={c} run={run} asking={asking.has(c.id)} />;
      })}
    </div>
  );
}
