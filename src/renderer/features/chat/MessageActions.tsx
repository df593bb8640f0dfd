import { useState } from 'react';
import { useWorkbenchStore } from '../../stores/store.ts';

/** Copies `text`; says so for a moment. */
export function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="link-button"
      data-testid="message-copy"
      onClick={() =>
        void navigator.clipboard?.writeText(text).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          },
          () => undefined,
        )
      }
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** A user message with Edit (fork the thread here and send the edited text) and Copy. */
export function UserMessage({ text, index }: { text: string; index: number }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(text);
  const resendFrom = useWorkbenchStore((s) => s.resendFrom);
  const running = useWorkbenchStore((s) =>
    s.activeThreadId ? Boolean(s.chat.threads[s.activeThreadId]?.running) : false,
  );
  if (editing)
    return (
      <div className="msg msg-user" data-testid="message-user-editing">
        <div className="bubble bubble-edit">
          <textarea
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            aria-label="Edit message"
            data-testid="edit-input"
            rows={Math.min(10, Math.max(2, draft.split('\n').length))}
          />
          <div className="message-actions">
            <button
              type="button"
              className="primary"
              disabled={!draft.trim()}
              data-testid="edit-send"
              onClick={() => {
                setEditing(false);
                void resendFrom(index, draft);
              }}
            >
              Send as a new branch
            </button>
            <button type="button" onClick={() => setEditing(false)} data-testid="edit-cancel">
              Cancel
            </button>
          </div>
        </div>
      </div>
    );
  return (
    <div className="msg msg-user" data-testid="message-user-row">
      <div className="bubble" data-testid="message-user">
        {text}
      </div>
      <div className="message-actions">
        {!running && (
          <button
            type="button"
            className="link-button"
            data-testid="message-edit"
            title="Edit and send again in a new thread forked here; this thread stays as it is"
            onClick={() => {
              setDraft(text);
              setEditing(true);
            }}
          >
            Edit
          </button>
        )}
        <CopyButton text={text} />
      </div>
    </div>
  );
}

/** Regenerate: the last user message sent again in a thread forked before it. */
export function RegenerateButton({ userIndex, userText }: { userIndex: number; userText: string }) {
  const resendFrom = useWorkbenchStore((s) => s.resendFrom);
  return (
    <button
      type="button"
      className="link-button"
      data-testid="message-regenerate"
      title="Ask again in a new thread forked before your last message; this answer stays here"
      onClick={() => void resendFrom(userIndex, userText)}
    >
      Regenerate
    </button>
  );
}

/** The iteration-cap notice's button: the agent goes on where it stopped. */
export function ContinueButton() {
  const send = useWorkbenchStore((s) => s.send);
  return (
    <button
      type="button"
      className="primary"
      data-testid="continue-run"
      onClick={() => void send('Continue where you left off.')}
    >
      Continue
    </button>
  );
}
