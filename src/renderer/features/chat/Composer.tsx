import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ApprovalMode } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import { errorMessage } from '../../../shared/error-message.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { NEW_THREAD_KEY } from '../../stores/slices/chat-slice.ts';
import { CompletionMenu, type CompletionItem } from '../composer/CompletionMenu.tsx';
import { ComposerPickers } from '../composer/ComposerPickers.tsx';
import { ContextMeter } from '../composer/ContextMeter.tsx';
import { useRecipeCommands } from '../composer/recipe-commands.ts';
import { AgentPicker, useThreadAgent } from '../agents/AgentPicker.tsx';
import { SendFailure } from '../composer/SendFailure.tsx';
import { findCommand, matchCommands, parseCommand } from '../composer/composer-commands.ts';
import { loadDraft, loadFailure, saveDraft, saveFailure } from '../composer/composer-storage.ts';
import { completeMention, mentionAt, type MentionQuery } from '../composer/mention.ts';
import { RESOURCE_MENTION } from '../../../shared/constants.ts';
import './desk.css';

/** The completions for the text and caret: `/` commands at the start, `@` mentions anywhere. */
function useCompletions(text: string, caret: number, threadId: string | null) {
  const [files, setFiles] = useState<string[]>([]);
  const mention = useMemo(() => mentionAt(text, caret), [text, caret]);
  const command = /^\/[a-z0-9-]*$/.test(text) ? text.slice(1) : undefined;
  useEffect(() => {
    if (!mention) return setFiles([]);
    let live = true;
    const t = setTimeout(() => {
      call('workspace.files', { query: mention.query })
        .then((f) => live && setFiles(f))
        .catch(() => live && setFiles([]));
    }, 80);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [mention?.query, mention]);
  const items: CompletionItem[] =
    command !== undefined
      ? matchCommands(command, threadId).map((c) => ({
          value: c.name,
          label: `/${c.name}`,
          hint: c.description,
        }))
      : mention
        ? files.slice(0, 12).map((f) => ({
            value: f,
            label: f,
            ...(RESOURCE_MENTION.test(f) ? { hint: 'MCP resource' } : {}),
          }))
        : [];
  return {
    items,
    kind: command !== undefined ? ('command' as const) : ('mention' as const),
    mention,
  };
}

/**
 * The message box: Enter sends, Shift+Enter new line; while a run goes, messages queue. Keeps the
 * draft and a failed send across reloads, completes `@file` and `/` commands, picks the model and
 * approval mode, and shows how full the context is.
 */
export function Composer({ running, queued }: { running: boolean; queued: number }) {
  const activeThreadId = useWorkbenchStore((s) => s.activeThreadId);
  const key = activeThreadId ?? NEW_THREAD_KEY;
  const failedSend = useWorkbenchStore((s) => s.chat.threads[key]?.failedSend);
  const messageCount = useWorkbenchStore((s) => s.chat.threads[key]?.messages.length ?? 0);
  const send = useWorkbenchStore((s) => s.send);
  const retry = useWorkbenchStore((s) => s.retry);
  const cancel = useWorkbenchStore((s) => s.cancel);
  const clearFailure = useWorkbenchStore((s) => s.clearFailure);
  const openThread = useWorkbenchStore((s) => s.openThread);
  const setDockTab = useWorkbenchStore((s) => s.setDockTab);
  const setBanner = useWorkbenchStore((s) => s.setBanner);
  const settings = useWorkbenchStore((s) => s.settings?.settings);
  const envModel = useWorkbenchStore((s) => s.settings?.envOverrides?.model);
  const [text, setTextState] = useState(() => loadDraft(key));
  const keyRef = useRef(key);
  keyRef.current = key;
  // Every change of the text is saved at once, under the thread it was typed for.
  const setText = (next: string) => {
    setTextState(next);
    saveDraft(keyRef.current, next);
  };
  const [caret, setCaret] = useState(0);
  const workspacePath = useWorkbenchStore((s) => s.workspace.path);
  useRecipeCommands(workspacePath, text.startsWith('/'));
  const [active, setActive] = useState(0);
  const [storedFailure, setStoredFailure] = useState(() => loadFailure(key));
  const [model, setModel] = useState('');
  const [mode, setMode] = useState<ApprovalMode | undefined>(undefined);
  const ref = useRef<HTMLTextAreaElement>(null);
  const threadAgent = useThreadAgent();
  const [agent, setAgent] = useState(threadAgent);
  const failure = failedSend ?? storedFailure;
  const { items, kind, mention } = useCompletions(text, caret, activeThreadId);
  const defaultModel = envModel ?? settings?.provider.model ?? '';

  useEffect(() => {
    setTextState(loadDraft(key));
    setStoredFailure(loadFailure(key));
    ref.current?.focus();
  }, [key]);
  useEffect(() => setAgent(threadAgent), [key, threadAgent]);
  // A send that got no answer gives its text back and is kept until retried or dismissed.
  useEffect(() => {
    if (!failedSend) return;
    saveFailure(key, failedSend);
    setStoredFailure(failedSend);
    if (failedSend.text && !loadDraft(key).trim()) {
      setTextState(failedSend.text);
      saveDraft(key, failedSend.text);
    }
  }, [failedSend, key]);
  useEffect(() => setActive(0), [items.length, kind]);

  const dismiss = () => {
    clearFailure(key);
    saveFailure(key, undefined);
    setStoredFailure(undefined);
  };
  const options = () => ({
    ...(model.trim() && model.trim() !== defaultModel ? { model: model.trim() } : {}),
    ...(mode && mode !== settings?.approval_mode ? { approvalMode: mode } : {}),
    ...(agent !== threadAgent ? { agent } : {}),
  });
  const compact = async () => {
    if (!activeThreadId) return;
    try {
      const r = await call('threads.compact', { threadId: activeThreadId });
      setBanner(
        r.compacted
          ? `Compacted: ${r.before_tokens} → ${r.after_tokens} tokens`
          : 'Nothing to compact yet',
      );
    } catch (err) {
      setBanner(`Could not compact: ${errorMessage(err)}`);
    }
  };
  const runCommand = async (name: string, args: string): Promise<boolean> => {
    const command = findCommand(name);
    if (!command) return false;
    await command.run({
      threadId: activeThreadId,
      args,
      newThread: () => void openThread(null),
      compact,
      clearComposer: () => setText(''),
      send: (t) => send(t, options()),
    });
    return true;
  };
  const submit = async (value = text) => {
    const trimmed = value.trim();
    if (!trimmed) return;
    const cmd = parseCommand(trimmed);
    if (cmd && (await runCommand(cmd.name, cmd.args))) {
      setText('');
      return;
    }
    await deliver(trimmed, send);
  };
  // A send, or a retry (which answers the message when it was stored before the failure); the text
  // comes back into the box when it was refused.
  const deliver = async (value: string, how: typeof send) => {
    dismiss();
    setText('');
    const ok = await how(value, options());
    if (!ok && !loadDraft(keyRef.current).trim()) setText(value);
  };
  const pick = (item: CompletionItem) => {
    if (kind === 'command') {
      if (findCommand(item.value)?.takesArgs) {
        setText(`/${item.value} `);
        requestAnimationFrame(() => ref.current?.focus());
        return;
      }
      setText('');
      void runCommand(item.value, '');
      return;
    }
    const done = completeMention(text, caret, mention as MentionQuery, item.value);
    setText(done.text);
    setCaret(done.caret);
    requestAnimationFrame(() => ref.current?.setSelectionRange(done.caret, done.caret));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (items.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive((a) => (a + step + items.length) % items.length);
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        e.preventDefault();
        pick(items[active]!);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setCaret(-1);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };
  return (
    <div className="composer">
      {queued > 0 && (
        <div className="queued" data-testid="queued">
          {queued} message{queued > 1 ? 's' : ''} queued — sent when this run ends
        </div>
      )}
      {failure && !running && (
        <SendFailure
          failure={failure}
          onRetry={() => void deliver((text.trim() ? text : failure.text).trim(), retry)}
          onSettings={() => setDockTab('settings')}
          onDismiss={dismiss}
        />
      )}
      <div className="composer-input-wrap">
        <CompletionMenu
          id="composer-completions"
          label={kind === 'command' ? 'Commands' : 'Files'}
          items={caret < 0 ? [] : items}
          active={active}
          onPick={pick}
        />
        <div className="composer-row">
          <textarea
            ref={ref}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setCaret(e.target.selectionStart);
            }}
            onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
            onKeyDown={onKeyDown}
            placeholder={
              running
                ? 'The agent is working — type to queue a message'
                : 'Ask the agent… (Enter to send, Shift+Enter for a new line, @ for a file, / for commands)'
            }
            aria-label="Message"
            aria-autocomplete="list"
            aria-controls={items.length ? 'composer-completions' : undefined}
            aria-activedescendant={
              items.length && caret >= 0 ? `composer-completions-${active}` : undefined
            }
            data-testid="composer-input"
            rows={Math.min(8, Math.max(2, text.split('\n').length))}
          />
          {running ? (
            <button
              type="button"
              className="danger"
              onClick={() => void cancel()}
              data-testid="cancel-button"
              aria-label="Cancel run (Esc)"
              title="Cancel (Esc)"
            >
              Stop
            </button>
          ) : null}
          <button
            type="button"
            className="primary"
            onClick={() => void submit()}
            disabled={!text.trim()}
            data-testid="send-button"
            aria-label="Send message"
          >
            {running ? 'Queue' : 'Send'}
          </button>
        </div>
      </div>
      <div className="composer-footer">
        <AgentPicker value={agent} onChange={setAgent} />
        <ComposerPickers
          model={model || defaultModel}
          models={defaultModel ? [defaultModel] : []}
          mode={mode ?? settings?.approval_mode ?? 'ask'}
          onModel={setModel}
          onMode={setMode}
        />
        {activeThreadId && (
          <ContextMeter
            threadId={activeThreadId}
            revision={`${messageCount}-${running}`}
            onCompact={compact}
          />
        )}
      </div>
    </div>
  );
}
