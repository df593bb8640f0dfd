import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { RecipeSummary } from '../../../shared/ipc/contract.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { AgentPicker, useThreadAgent } from '../agents/AgentPicker.tsx';
import { RecipeMenu } from './RecipeMenu.tsx';

/** The message box: Enter sends, Shift+Enter new line; while a run goes, messages queue. */
export function Composer({ running, queued }: { running: boolean; queued: number }) {
  const [text, setText] = useState('');
  const send = useWorkbenchStore((s) => s.send);
  const cancel = useWorkbenchStore((s) => s.cancel);
  const activeThreadId = useWorkbenchStore((s) => s.activeThreadId);
  const ref = useRef<HTMLTextAreaElement>(null);
  const threadAgent = useThreadAgent();
  const [agent, setAgent] = useState(threadAgent);
  const [recipes, setRecipes] = useState<RecipeSummary[]>([]);
  // `/name` being typed (no space yet) offers the recipes; `/name args` runs one (docs/recipes.md).
  const slash = /^\/([\w.:-]*)$/.exec(text)?.[1];

  const menuOpen = slash !== undefined;

  useEffect(() => {
    if (!menuOpen) return;
    call('recipes.list', {}).then(setRecipes, () => setRecipes([]));
  }, [menuOpen]);

  useEffect(() => {
    ref.current?.focus();
    setAgent(threadAgent);
  }, [activeThreadId, threadAgent]);

  const submit = () => {
    if (!text.trim()) return;
    void send(text, agent !== threadAgent ? agent : undefined);
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  return (
    <div className="composer">
      {queued > 0 && (
        <div className="queued" data-testid="queued">
          {queued} message{queued > 1 ? 's' : ''} queued — sent when this run ends
        </div>
      )}
      {menuOpen && (
        <RecipeMenu
          recipes={recipes}
          prefix={slash}
          onPick={(name) => {
            setText(`/${name} `);
            ref.current?.focus();
          }}
        />
      )}
      <div className="composer-row">
        <AgentPicker value={agent} onChange={setAgent} />
        <textarea
          ref={ref}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={running ? 'The agent is working — type to queue a message' : 'Ask the agent… (Enter to send, Shift+Enter for a new line)'}
          aria-label="Message"
          data-testid="composer-input"
          rows={Math.min(8, Math.max(2, text.split('\n').length))}
        />
        {running ? (
          <button type="button" className="danger" onClick={() => void cancel()} data-testid="cancel-button" aria-label="Cancel run (Esc)" title="Cancel (Esc)">
            Stop
          </button>
        ) : null}
        <button type="button" className="primary" onClick={submit} disabled={!text.trim()} data-testid="send-button" aria-label="Send message">
          {running ? 'Queue' : 'Send'}
        </button>
      </div>
    </div>
  );
}
