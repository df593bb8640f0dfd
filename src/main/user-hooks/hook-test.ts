/**
 * Runs one user hook once with a sample or edited payload, recorded like any run, and says how its
 * answer was read. Behind both `workbench hooks test` and the hooks panel's "Test".
 */
import type { HookTestResult } from '../../shared/ipc/contract.ts';
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import { readClaudeResult } from './claude-output.ts';
import { claudeRef, claudeSpec } from './claude-hooks.ts';
import type { ClaudeHandler } from './claude-config.ts';
import { buildHookEnv } from '../env/child-env.ts';
import { runAndRecord } from './record.ts';
import { sampleClaudeInput } from './sample-payloads.ts';
import type { SeedHookEntry } from './executable-discovery.ts';
import { readSeedResult, seedRef } from './executable-hooks.ts';
import { sampleSeedPayload, seedDecision } from './executable-protocol.ts';
import type { HookRunStore } from '../store/types.ts';

export type TestTarget =
  { dialect: 'seed'; entry: SeedHookEntry } | { dialect: 'claude'; handler: ClaudeHandler };

const TEST_SESSION = 'hooks-test';

/** The event a test runs by default: the hook's own. */
export function defaultEvent(t: TestTarget): string | undefined {
  return t.dialect === 'seed' ? t.entry.event : t.handler.event;
}

/** A sample payload for `event`, pretty-printed for editing. */
export function samplePayload(t: TestTarget, event: string, workspace: string): string {
  const sample =
    t.dialect === 'seed'
      ? sampleSeedPayload(event, TEST_SESSION, workspace)
      : sampleClaudeInput(event, TEST_SESSION, workspace);
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
    hookRuns?: HookRunStore;
  },
): Promise<HookTestResult> {
  const stdin = JSON.stringify(JSON.parse(o.payload));
  const recorded =
    t.dialect === 'seed'
      ? await runAndRecord(
          { hookRuns: o.hookRuns },
          { ...seedRef(t.entry, o.settings), event: o.event },
          stdin,
          {
            command: t.entry.path,
            args: ['run'],
            cwd: o.workspace,
            env: buildHookEnv(o.workspace),
            stdin,
            timeoutMs: seedRef(t.entry, o.settings).timeoutMs,
          },
          (res) => readSeedResult(res, (v) => seedDecision(o.event, v)).reading,
        )
      : await runAndRecord(
          { hookRuns: o.hookRuns },
          { ...claudeRef(t.handler, o.settings), event: o.event },
          stdin,
          claudeSpec(t.handler, o.workspace, stdin),
          (res) => readClaudeResult(o.event, res).reading,
        );
  const { result: r, reading } = recorded;
  return {
    id: t.dialect === 'seed' ? t.entry.id : t.handler.id,
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
