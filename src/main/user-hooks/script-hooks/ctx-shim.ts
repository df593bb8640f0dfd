/**
 * The `ctx` a script's Create and Next receive (docs/agents.md#script-hooks-create--next), built in the
 * child from the call line: read-only run facts, `memory.context` (every `set` is sent back so the
 * workbench can hand it to the next call of the run), `trace.*` span events and `send` / `sendStream`
 * chat output. Yao's capitalised names are accepted beside the lower-case ones.
 */
import type { ScriptCallContext, ScriptNote } from './protocol.ts';

/** The text of a message given to `send`: a string, Yao's `{ props: { content } }`, else its JSON. */
function textOf(message: unknown): string {
  if (typeof message === 'string') return message;
  const content = (message as { props?: { content?: unknown } } | null)?.props?.content;
  return typeof content === 'string' ? content : JSON.stringify(message);
}

/** Creates the script's ctx. Contract: every effect leaves through `post`, in call order. */
export function createScriptContext(base: ScriptCallContext, post: (note: ScriptNote) => void) {
  const memory = new Map<string, unknown>(Object.entries(base.memory));
  const context = {
    get: (key: string): unknown => memory.get(key),
    set: (key: string, value: unknown): void => {
      memory.set(key, value);
      post({ t: 'memory', key, value: value ?? null });
    },
  };
  const trace = (level: 'info' | 'warn' | 'error') => (message: unknown) =>
    post({ t: 'trace', level, message: textOf(message) });
  let streams = 0;
  let current: string | undefined;
  const sendStream = (text?: unknown): string => {
    const id = `stream-${++streams}`;
    current = id;
    post({ t: 'stream', op: 'start', id });
    if (text !== undefined) post({ t: 'stream', op: 'append', id, text: textOf(text) });
    return id;
  };
  // `append(text)` writes to the stream opened last; `append(id, text)` names it.
  const append = (idOrText: unknown, text?: unknown): void => {
    const id = text === undefined ? current : String(idOrText);
    if (id)
      post({ t: 'stream', op: 'append', id, text: textOf(text === undefined ? idOrText : text) });
  };
  const end = (id?: string): void => {
    const which = id ?? current;
    if (which) post({ t: 'stream', op: 'end', id: which });
  };
  const send = (message: unknown): void => post({ t: 'send', text: textOf(message) });
  const tracer = { info: trace('info'), warn: trace('warn'), error: trace('error') };
  return Object.freeze({
    thread_id: base.thread_id,
    run_id: base.run_id,
    workspace: base.workspace,
    profile: base.profile,
    model: base.model,
    metadata: Object.freeze({ ...base.metadata }),
    memory: Object.freeze({
      context: Object.freeze({ ...context, Get: context.get, Set: context.set }),
    }),
    trace: Object.freeze({
      ...tracer,
      Info: tracer.info,
      Warn: tracer.warn,
      Error: tracer.error,
    }),
    send,
    sendStream,
    append,
    end,
    Send: send,
    SendStream: sendStream,
    Append: append,
    End: end,
  });
}
