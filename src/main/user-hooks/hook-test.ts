/**
 * Runs one user hook once with a sample or edited payload, recorded like any run, and says how its
 * answer was read. Behind both `workbench hooks test` and the hooks panel's "Test".
 */
import type { HookTestResult } from '../../shared/ipc/contract.ts';
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import { readClaudeResult } from './claude-output.ts';
import { claudeExec, claudeRef, claudeSpec, type HandlerRunner } from './claude-hooks.ts';
import type { ClaudeHandler } from './claude-config.ts';
import { buildHookEnv } from '../env/child-env.ts';
import { runAndRecord } from './record.ts';
import { hookSandbox } from './runner.ts';
import { isClaudeEvent, sampleClaudeInput } from './claude-events.ts';
import type { ExecutableHookEntry } from './executable-discovery.ts';
import { readExecutableResult, executableRef } from './executable-hooks.ts';
import { executableDecision, isExecutableEvent, sampleExecutablePayload } from './executable-events.ts';
import { WorkbenchError } from '../errors.ts';
import type { HookRunStore } from '../store/types.ts';

export type TestTarget =
  { dialect: 'executable'; entry: ExecutableHookEntry } | { dialect: 'claude'; handler: ClaudeHandler };

const TEST_SESSION = 'hooks-test';

/** The event a test runs by default: the hook's own. */
export function defaultEvent(t: TestTarget): string | undefined {
  return t.dialect === 'executable' ? t.entry.event : t.handler.event;
}

/** A sample payload for `event`, pretty-printed for editing. */
export function samplePayload(t: TestTarget, event: string, workspace: string): string {
  let sample: Record<string, unknown>;
  if (t.dialect === 'executable' && isExecutableEvent(event)) sample = sampleExecutablePayload(event, TEST_SESSION, workspace);
  else if (t.dialect === 'claude' && isClaudeEvent(event)) sample = sampleClaudeInput(event, TEST_SESSION, workspace);
  else throw new WorkbenchError('invalid_args', `${event} is not an event of ${t.dialect} hooks`);
  return JSON.stringify(sample, null, 2);
}

/**
 * Runs the hook with `payload` on stdin and reads its answer for `event`.
 * Contract: never rejects for a failing hook (the failure is in the result and the run is recorded).
 */
export async function runHookTest(
  t: TestTarget,
  o: {
    event: string;
    payload: string;
    workspace: string;
    settings: WorkbenchSettings;
    /** $WORKBENCH_HOME, hidden from a hook that runs sandboxed. */
    home: string;
    hookRuns?: HookRunStore;
    /** What http and prompt handlers need (the variables headers name, the model). */
    runner?: HandlerRunner;
  },
): Promise<HookTestResult> {
  const stdin = JSON.stringify(JSON.parse(o.payload));
  const sandbox = { settings: o.settings.sandbox, workbenchHome: o.home };
  const recorded =
    t.dialect === 'executable'
      ? await runAndRecord(
          { hookRuns: o.hookRuns },
          { ...executableRef(t.entry, o.settings), event: o.event },
          stdin,
          {
            command: t.entry.path,
            args: ['run'],
            cwd: o.workspace,
            env: buildHookEnv(o.workspace),
            stdin,
            timeoutMs: executableRef(t.entry, o.settings).timeoutMs,
            ...hookSandbox(executableRef(t.entry, o.settings).sandbox, sandbox, o.workspace, [t.entry.path]),
          },
          (res) =>
            readExecutableResult(res, (v) => {
              if (!isExecutableEvent(o.event)) throw new Error(`unknown event ${o.event}`);
              return executableDecision(o.event, v);
            }).reading,
        )
      : await runAndRecord(
          { hookRuns: o.hookRuns },
          { ...claudeRef(t.handler, o.settings), event: o.event },
          stdin,
          claudeSpec(t.handler, o.workspace, stdin, sandbox),
          (res) => readClaudeResult(o.event, res).reading,
          claudeExec(t.handler, o.runner),
        );
  const { result: r, reading } = recorded;
  return {
    id: t.dialect === 'executable' ? t.entry.id : t.handler.id,
    event: o.event,
    payload: stdin,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    stdout: r.stdout,
    stderr: r.stderr,
    stdoutBytes: r.stdoutBytes,
    stderrBytes: r.stderrBytes,
    stdoutTruncated: r.stdoutTruncated,
    stderrTruncated: r.stderrTruncated,
    ...(r.error ? { error: r.error } : {}),
    decision: reading.decision,
    ...(reading.reason ? { reason: reading.reason } : {}),
    ...(reading.error ? { readError: reading.error } : {}),
    readAs: `${reading.decision}${reading.reason ? ` — ${reading.reason}` : ''}${reading.error ? ` — ${reading.error}` : ''}`,
  };
}
