/**
 * One recorded script call (docs/agents.md#script-hooks-create--next): a `hook {fn} script:<profile>`
 * span with the script's trace lines as span events, its chat output streamed as it comes, a hook_runs
 * row holding the call and the answer, and an `on_hook_end` event — whatever the outcome. A throw, a
 * hang (the deadline) or a bad answer is a failure of this hook only: reported, and the run goes on.
 */
import type { RunEvent } from '../../../shared/types/index.ts';
import { buildHookEnv } from '../../env/child-env.ts';
import type { RunContext } from '../../pipeline/hook.ts';
import type { HookRunStore } from '../../store/types.ts';
import type { SpanHandle } from '../../tracing/types.ts';
import { errorMessage } from '../../errors.ts';
import type { ScriptFunction, ScriptNote } from './protocol.ts';
import { runScript, type ScriptRunResult } from './run-script.ts';

/** Kept in hook_runs at most (the payload of Next holds the whole run). */
const STORED_CHARS = 256 * 1024;

export interface ScriptCallTarget {
  /** `script:<profile>`: the hook's name and id. */
  id: string;
  scriptPath: string;
  profileName: string;
  timeoutMs: number;
  hookRuns?: HookRunStore;
}

/** What one run of the agent keeps between its Create and its Next. */
export interface ScriptRunMemory {
  memory: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export type CallOutcome<T> = { ok: true; value: T | null; absent?: boolean } | { ok: false };

/** Turns the script's notes into span events and chat output as they arrive. */
function noteHandler(
  ctx: RunContext,
  target: ScriptCallTarget,
  run: ScriptRunMemory,
  span?: SpanHandle,
) {
  const streams = new Map<string, string>();
  const say = (text: string) => {
    if (text) ctx.emit({ event: 'on_script_message', data: { hook: target.id, text } });
  };
  const delta = (text: string) => {
    if (text) ctx.emit({ event: 'on_chat_model_stream', data: { delta: text } });
  };
  return {
    onNote(note: ScriptNote) {
      switch (note.t) {
        case 'memory':
          run.memory[note.key] = note.value;
          return;
        case 'trace':
          if (span) span.addEvent(`script.${note.level}`, { message: note.message.slice(0, 2000) });
          else
            ctx.trace?.recordEvent(`script.${note.level}`, {
              message: note.message.slice(0, 2000),
            });
          return;
        case 'send':
          delta(note.text);
          return say(note.text);
        case 'stream':
          if (note.op === 'start') return void streams.set(note.id, '');
          if (note.op === 'append' && streams.has(note.id)) {
            streams.set(note.id, streams.get(note.id)! + (note.text ?? ''));
            return delta(note.text ?? '');
          }
          if (note.op === 'end') {
            say(streams.get(note.id) ?? '');
            streams.delete(note.id);
          }
          return;
        default:
          return;
      }
    },
    /** A stream the script never ended still reaches the chat as a whole. */
    flush() {
      for (const text of streams.values()) say(text);
      streams.clear();
    },
  };
}

function outcomeOf(res: ScriptRunResult): string {
  if (res.timedOut) return 'timeout';
  if (res.cancelled) return 'cancelled';
  return 'hook_error';
}

/**
 * Calls `fn` of the script and reads its answer with `read` (which throws on a bad answer).
 * Contract: rejects only when the run was cancelled; every other failure is recorded and `{ ok: false }`.
 */
export async function callScript<T>(
  ctx: RunContext,
  target: ScriptCallTarget,
  run: ScriptRunMemory,
  fn: ScriptFunction,
  args: unknown[],
  read: (value: unknown) => T | null,
): Promise<CallOutcome<T>> {
  const startedAt = Date.now();
  const span = ctx.trace?.startSpan(`hook ${fn} ${target.id}`, 'hook', {
    'workbench.hook.name': target.id,
    'workbench.hook.event': fn,
    'workbench.hook.kind': 'script',
    'workbench.hook.fail_mode': 'open',
    'workbench.script.path': target.scriptPath,
  });
  const notes = noteHandler(ctx, target, run, span);
  const call = {
    fn,
    script: target.scriptPath,
    ctx: {
      thread_id: ctx.threadId,
      run_id: ctx.runId,
      workspace: ctx.workspace.root,
      profile: target.profileName,
      model: ctx.model,
      metadata: run.metadata,
      memory: run.memory,
    },
    args,
  };
  const res = await runScript({
    call,
    cwd: ctx.workspace.root,
    env: buildHookEnv(ctx.workspace.root),
    timeoutMs: target.timeoutMs,
    signal: ctx.signal,
    onNote: (note) => notes.onNote(note),
  });
  notes.flush();
  if (res.absent) {
    span?.set('workbench.script.absent', true).end();
    return { ok: true, value: null, absent: true };
  }
  let value: T | null = null;
  let error = res.error;
  if (!error) {
    try {
      value = read(res.value);
    } catch (err) {
      error = errorMessage(err);
    }
  }
  const delegated = Boolean((value as { delegate?: unknown } | null)?.delegate);
  const decision = error ? 'error' : delegated ? 'delegate' : 'ok';
  if (span) {
    span.setAll({
      'workbench.hook.decision': decision,
      'workbench.hook.timed_out': res.timedOut,
      'workbench.hook.exit_code': res.exitCode ?? undefined,
    });
    if (error) span.fail(outcomeOf(res), error);
    span.end();
  }
  let recordId: number | undefined;
  try {
    recordId = target.hookRuns?.insert({
      hook_id: target.id,
      hook_name: target.id,
      event: fn,
      thread_id: ctx.threadId,
      run_id: ctx.runId,
      span_id: span?.record.span_id,
      started_at: startedAt,
      duration_ms: res.durationMs,
      payload: JSON.stringify({ ctx: call.ctx, args }).slice(0, STORED_CHARS),
      stdout: error ? '' : JSON.stringify(res.value ?? null).slice(0, STORED_CHARS),
      stderr: res.stderr,
      exit_code: res.exitCode,
      signal: null,
      timed_out: res.timedOut,
      decision,
      error,
    });
  } catch (err) {
    ctx.trace?.recordEvent('hook_run_store_failed', { message: errorMessage(err) });
  }
  if (error && !res.cancelled) {
    ctx.trace?.recordEvent('hook_error', {
      hook: target.id,
      phase: fn,
      message: error.slice(0, 500),
    });
  }
  const end: RunEvent = {
    event: 'on_hook_end',
    name: target.id,
    data: {
      hook: target.id,
      event: fn,
      decision,
      reason: error,
      duration_ms: res.durationMs,
      ok: !error,
      run_id: recordId,
      ...(error ? { failed: 'open' as const, timed_out: res.timedOut } : {}),
    },
  };
  ctx.emit(end);
  ctx.signal.throwIfAborted();
  return error ? { ok: false } : { ok: true, value };
}
