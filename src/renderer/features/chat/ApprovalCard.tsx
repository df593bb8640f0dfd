import type { ApprovalView } from '../../stores/chat-types.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { ApprovalDiff } from '../changes/ApprovalDiff.tsx';

/** Asks the user about one write or command, showing exactly what will run or be written. */
export function ApprovalCard({ approval }: { approval: ApprovalView }) {
  const approve = useWorkbenchStore((s) => s.approve);
  const threadId = useWorkbenchStore((s) => s.activeThreadId);
  const what = approval.kind === 'execute' ? 'run this command' : 'write this change';
  return (
    <div className="approval-card" role="dialog" aria-label={`Approve ${approval.toolCall.name}`} data-testid="approval-card">
      <div className="approval-title">
        The agent wants to {what} <span className="tool-name">({approval.toolCall.name})</span>
      </div>
      {approval.kind === 'write' && threadId && <ApprovalDiff threadId={threadId} approvalId={approval.approvalId} />}
      <pre className="approval-preview" data-testid="approval-preview">{approval.preview}</pre>
      <div className="approval-actions">
        <button type="button" className="primary" data-testid="approve-once" onClick={() => void approve(approval.approvalId, 'allow_once')}>
          Allow once
        </button>
        {approval.kind === 'execute' && (
          <button type="button" data-testid="approve-network" title="Allow once, and let this sandboxed command use the network" onClick={() => void approve(approval.approvalId, 'allow_network')}>
            Allow with network
          </button>
        )}
        <button type="button" data-testid="approve-thread" onClick={() => void approve(approval.approvalId, 'allow_thread')}>
          Allow for this thread
        </button>
        <button type="button" className="danger" data-testid="approve-deny" onClick={() => void approve(approval.approvalId, 'deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}
