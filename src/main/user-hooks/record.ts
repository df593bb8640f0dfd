/**
 * One recorded hook invocation: a `hook {event} {name}` span (kind 'hook'), a hook_runs row and an
 * `on_hook_end` event around one process run, whatever its outcome.
 */
import type { RunEvent } from '../../shared/types/index.ts';
import type { HookRunStore } from '../store/types.ts';
import type { TraceRecorder } from '../tracing/types.ts';
import { runHookProcess, type HookProcessResult, type HookProcessSpec } from './runner.ts';
import type { HookReading, UserHookRef } from './types.ts';
import { errorMessage } from '../errors.ts';

/** What a recorded run may report to; every part is optional (the CLI `hooks test` has no run). */
export interface RecordTarget {
  threadId?: string;
  runId?: string;
  trace?: TraceRecorder;
  emit?: (event: RunEvent) => void;
  hookRuns?: HookRunStore;
  /**
   * Batch the hook_runs row with others (written within a moment, before any read of the store, and
   * at the workbench's close) instead of a commit of its own per hook: what a run does.
   */
  deferRow?: boolean;
  /** Cancels the hook process with the run. */
  signal?: AbortSignal;
}

export interface RecordedRun {
  result: HookProcessResult;
  reading: HookReading;
  recordId?: number;
}

/**
 * Events whose hooks guard something (a tool call, a prompt, a compaction): only there does a
 * fail-closed hook's failure block; everywhere else a failure lets the run go on.
 */
const GUARD_EVENTS = new Set(['before_tool_call', 'user_message_send', 'PreToolUse', 'UserPromptSubmit', 'UserPromptExpansion', 'PreCompact', 'TaskCreated', 'TaskCompleted']);

/** Which way a failure of `hook` went. Contract: 'closed' only for a fail-closed guard. */
export function failedWay(hook: Pick<UserHookRef, 'event' | 'failMode'>): 'open' | 'closed' {
  return hook.failMode === 'closed' && GUARD_EVENTS.has(hook.event) ? 'closed' : 'open';
}

/** The failure a process result is, before its output is even looked at; undefined if none. */
export function processFailure(res: HookProcessResult): string | undefined {
  if (res.error) return res.error;
  if (res.timedOut) return 'hook timed out';
  if (res.stdoutTruncated) return 'output too large';
  return undefined;
}

function errorType(reading: HookReading, res: HookProcessResult): string {
  if (res.timedOut) return 'timeout';
  if (res.stdoutTruncated) return 'output_too_large';
  if (res.error === 'cancelled') return 'cancelled';
  if (res.error) return res.errorType ?? 'spawn_error';
  return reading.jsonValid === false ? 'invalid_output' : 'hook_error';
}

/**
 * Runs the hook process, reads the result with `read`, and records it everywhere.
 * Contract: never rejects (a failing store or trace is swallowed after the run is read).
 */
export async function runAndRecord(
  target: RecordTarget,
  hook: UserHookRef,
  payload: string,
  spec: HookProcessSpec,
  read: (res: HookProcessResult) => HookReading,
  exec: (spec: HookProcessSpec) => Promise<HookProcessResult> = runHookProcess,
): Promise<RecordedRun> {
  const startedAt = Date.now();
  const running = target.emit ? announceRunning(target.emit, hook) : undefined;
  const span = target.trace?.startSpan(`hook ${hook.event} ${hook.name}`, 'hook', {
    'workbench.hook.name': hook.name,
    'workbench.hook.event': hook.event,
    'workbench.hook.kind': 'external',
    'workbench.hook.fail_mode': hook.failMode,
    ...(hook.persistent ? { 'workbench.hook.persistent': true } : {}),
  });
  const result = await exec(target.signal ? { ...spec, signal: target.signal } : spec);
  running?.stop();
  let reading: HookReading;
  try {
    reading = read(result);
  } catch (err) {
    reading = { decision: 'error', error: errorMessage(err) };
  }
  if (span) {
    span.setAll({
      'workbench.hook.decision': reading.decision,
      'workbench.hook.exit_code': result.exitCode ?? undefined,
      'workbench.hook.signal': result.signal ?? undefined,
      'workbench.hook.timed_out': result.timedOut,
      'workbench.hook.stdout_bytes': result.stdoutBytes,
      'workbench.hook.stderr_bytes': result.stderrBytes,
      'workbench.hook.json_valid': reading.jsonValid,
    });
    if (reading.error) span.fail(errorType(reading, result), reading.error);
    span.end();
  }
  let recordId: number | undefined;
  try {
    const row = {
      hook_id: hook.id,
      hook_name: hook.name,
      event: hook.event,
      thread_id: target.threadId,
      run_id: target.runId,
      span_id: span?.record.span_id,
      started_at: startedAt,
      duration_ms: result.durationMs,
      payload,
      stdout: result.stdout,
      stderr: result.stderr,
      exit_code: result.exitCode,
      signal: result.signal,
      timed_out: result.timedOut,
      decision: reading.decision,
      reason: reading.reason,
      error: reading.error,
    };
    recordId = target.hookRuns?.insert(row, { defer: target.deferRow });
  } catch (err) {
    target.trace?.recordEvent('hook_run_store_failed', { message: errorMessage(err) });
  }
  target.emit?.({
    event: 'on_hook_end',
    name: hook.name,
    data: {
      hook: hook.name,
      event: hook.event,
      decision: reading.decision,
      reason: reading.reason ?? reading.error,
      duration_ms: result.durationMs,
      ok: !reading.error,
      run_id: recordId,
      ...(running?.call() ? { call: running.call() } : {}),
      ...(reading.error ? { failed: failedWay(hook), timed_out: result.timedOut } : {}),
    },
  });
  return { result, reading, recordId };
}

/** How long a hook without a status message runs before the user is told it is running. */
const SLOW_HOOK_NOTICE_MS = 1_000;
let hookCalls = 0;

/**
 * Tells the user a hook is running (`on_hook_start`): at once when it has a status message, else
 * once it has run SLOW_HOOK_NOTICE_MS (a quick hook makes no event). `call()` names the notice
 * given, for the `on_hook_end` that clears it.
 */
function announceRunning(emit: (e: RunEvent) => void, hook: UserHookRef): { stop(): void; call(): string | undefined } {
  let call: string | undefined;
  const announce = () => {
    call = `hook_call_${++hookCalls}`;
    emit({ event: 'on_hook_start', name: hook.name, data: { hook: hook.name, event: hook.event, call, ...(hook.statusMessage ? { message: hook.statusMessage } : {}) } });
  };
  if (hook.statusMessage) {
    announce();
    return { stop() {}, call: () => call };
  }
  const timer = setTimeout(announce, SLOW_HOOK_NOTICE_MS);
  return { stop: () => clearTimeout(timer), call: () => call };
}

/** A RecordTarget for a run context. */
export function targetOf(ctx: { threadId: string; runId: string; trace?: TraceRecorder; signal: AbortSignal; emit(e: RunEvent): void }, hookRuns?: HookRunStore): RecordTarget {
  return { threadId: ctx.threadId, runId: ctx.runId, trace: ctx.trace, emit: (e) => ctx.emit(e), hookRuns, deferRow: true, signal: ctx.signal };
}
