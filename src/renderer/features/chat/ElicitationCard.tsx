import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type {
  ElicitAnswer,
  ElicitField,
  ElicitationRequestView,
} from '../../../shared/types/index.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { openExternal } from '../../components/open-external.ts';
import { ElicitationField } from './ElicitationField.tsx';
import { useElicitationForm } from './use-elicitation-form.ts';

const NO_FIELDS: ElicitField[] = [];

/** The host of a link the app can open (https only, as openExternal allows), else undefined. */
function httpsHost(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const u = new URL(url);
  return u.protocol === 'https:' ? u.host : undefined;
}

/**
 * An MCP server's question while one of its tools runs (docs/tools.md#when-a-server-asks-you): a
 * form to fill in, or a page to open. The server is not trusted: its message is plain text and its
 * link opens only in the browser, after the user saw the whole address. Opening a page is the
 * answer, as MCP means it (the person agreed to go there); a page the server needs finished before
 * it runs the tool is answered with Done instead, which tries the call again. Takes focus; Esc
 * dismisses.
 */
/** The answering button: Submit a form; Open a page (Continue when it opens elsewhere); Done a required one. */
function submitLabel(request: ElicitationRequestView, host: string | undefined): string {
  if (request.mode === 'form') return 'Submit';
  if (request.required) return 'Done';
  return host ? 'Open' : 'Continue';
}

export function ElicitationCard({ request }: { request: ElicitationRequestView }) {
  const answerElicitation = useWorkbenchStore((s) => s.answerElicitation);
  const fields = request.fields ?? NO_FIELDS;
  const form = useElicitationForm(fields);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string>();
  const card = useRef<HTMLFormElement>(null);
  const uid = useId();
  const fieldId = (name: string) => `${uid}-field-${fields.findIndex((f) => f.name === name)}`;
  const host = httpsHost(request.url);

  useEffect(() => card.current?.querySelector<HTMLElement>('input, select, button')?.focus(), []);

  const answer = async (a: ElicitAnswer) => {
    setSending(true);
    setError(undefined);
    const r = await answerElicitation(request.elicitation_id, a);
    // Once taken, the card stays disabled until the run's event replaces it with the outcome.
    if (r.accepted) return;
    setSending(false);
    setError(r.error ?? 'The answer was not taken.');
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (sending) return;
    if (request.mode === 'url') {
      // Opening is agreeing to go there; a page the user refused to open here is no answer.
      if (!request.required && host && !openExternal(request.url!)) return;
      return void answer({ action: 'accept' });
    }
    const a = form.submit();
    if ('content' in a) return void answer({ action: 'accept', content: a.content });
    if (a.field) document.getElementById(fieldId(a.field))?.focus();
    else setError(a.problem);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || sending) return;
    // Dismisses the question, not the whole run (what Esc does elsewhere in the chat).
    e.preventDefault();
    e.stopPropagation();
    void answer({ action: 'cancel' });
  };

  return (
    <form
      ref={card}
      noValidate
      onSubmit={onSubmit}
      onKeyDown={onKeyDown}
      className="approval-card elicitation-card"
      aria-labelledby={`${uid}-title`}
      aria-describedby={`${uid}-message`}
      data-testid="elicitation-card"
    >
      <div className="approval-title" id={`${uid}-title`}>
        MCP server <span className="tool-name">{request.server}</span> asks
        {request.agent && <span className="muted"> (for the subagent {request.agent})</span>}
      </div>
      <p className="elicitation-message" id={`${uid}-message`} data-testid="elicitation-message">
        {request.message}
      </p>
      {request.mode === 'form' ? (
        fields.map((f) => (
          <ElicitationField
            key={f.name}
            field={f}
            input={form.inputs[f.name]}
            id={fieldId(f.name)}
            problem={form.problemShown(f.name)}
            onChange={(input) => form.change(f.name, input)}
          />
        ))
      ) : (
        <div className="elicitation-url">
          <pre className="approval-preview" data-testid="elicitation-url">
            {request.url}
          </pre>
          <div className="muted" data-testid="elicitation-url-note">
            {host ? (
              <>
                Opens a page on <strong>{host}</strong> in your browser.
              </>
            ) : (
              'Only https links open from here: open the address yourself.'
            )}{' '}
            {request.required
              ? 'The server needs it finished before it runs the tool: Done tries the call again.'
              : 'The server goes on once you are there.'}
          </div>
        </div>
      )}
      {error && (
        <div className="elicitation-error" role="alert" data-testid="elicitation-error">
          {error}
        </div>
      )}
      <div className="approval-actions">
        {request.mode === 'url' && request.required && (
          <button
            type="button"
            disabled={!host}
            onClick={() => request.url && openExternal(request.url)}
            data-testid="elicitation-open"
          >
            Open
          </button>
        )}
        <button
          type="submit"
          className="primary"
          disabled={sending}
          data-testid="elicitation-submit"
        >
          {submitLabel(request, host)}
        </button>
        <button
          type="button"
          disabled={sending}
          onClick={() => void answer({ action: 'decline' })}
          data-testid="elicitation-decline"
        >
          Decline
        </button>
        <button
          type="button"
          disabled={sending}
          aria-keyshortcuts="Escape"
          onClick={() => void answer({ action: 'cancel' })}
          data-testid="elicitation-cancel"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
