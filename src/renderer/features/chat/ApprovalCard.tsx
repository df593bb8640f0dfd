import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { ApprovalView } from '../../stores/chat-types.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { approvalForKey } from './approval-keys.ts';
import { ApprovalDiff } from '../changes/ApprovalDiff.tsx';

/** Asks the user about one write or command, showing exactly what will run or be written; takes focus and answers with keys. */
export function ApprovalCard({ approval }: { approval: ApprovalView }) {
  const approve = useWorkbenchStore((s) => s.approve);
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => card.current?.focus(), []);
  const threadId = useWorkbenchStore((s) => s.activeThreadId);
  const what = approval.kind === 'execute' ? 'run this command' : 'write this change';
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const decision = approvalForKey(e.key);
    if (!decision) return;
    e.preventDefault();
    e.stopPropagation();
    void approve(approval.approvalId, decision);
  };
  return (
    <div ref={card} tabIndex={-1} onKeyDown={onKeyDown} className="approval-card" role="dialog" aria-label={`Approve ${approval.toolCall.name}`} aria-describedby={`approval-keys-${approval.approvalId}`} data-testid="approval-card">
      <div className="approval-title">
        {approval.agent ? `The subagent ${approval.agent}` : 'The agent'} wants to {what} <span className="tool-name">({approval.toolCall.name})</span>
      </div>
      {approval.kind === 'write' && threadId && <ApprovalDiff threadId={threadId} approvalId={approval.approvalId} />}
      <pre className="approval-preview" data-testid="approval-preview">{approval.preview}</pre>
      <div className="approval-actions">
        <button type="button" className="primary" data-testid="approve-once" aria-keyshortcuts="y" onClick={() => void approve(approval.approvalId, 'allow_once')}>
          Allow once
        </button>
        {approval.kind === 'execute' && (
          <button type="button" data-testid="approve-network" title="Allow once, and let this sandboxed command use the network" onClick={() => void approve(approval.approvalId, 'allow_network')}>
            Allow with network
          </button>
        )}
        <button type="button" data-testid="approve-thread" aria-keyshortcuts="a" onClick={() => void approve(approval.approvalId, 'allow_thread')}>
          Allow for this thread
        </button>
        <button type="button" className="danger" data-testid="approve-deny" aria-keyshortcuts="n Escape" onClick={() => void approve(approval.approvalId, 'deny')}>
          Deny
        </button>
        <span className="approval-keys muted" id={`approval-keys-${approval.approvalId}`}>
          Keys: <kbd>Y</kbd> once · <kbd>A</kbd> this thread · <kbd>N</kbd> or <kbd>Esc</kbd> deny
        </span>
      </div>
    </div>
  );
}
