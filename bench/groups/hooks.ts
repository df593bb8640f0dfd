/**
 * `hooks`: user-hook cost. (1) One executable hook (a shell script that exits 0 with no output) run
 * through the dialect's invoke path (env allowlist, runner with process group + deadline + capped
 * output, JSON reading, span, hook_runs row in SQLite) and through the bare runner, each against a bare
 * `child_process.spawn` of the same script with the same payload and environment, in the same process;
 * (2) the same for a Claude-dialect handler (`/bin/sh -c`); (3) the extra time per tool call of a run with
 * 5 executable hooks on (3 before_tool_call + 2 after_tool_call) against the same run with hooks off,
 * and against 5 bare spawns timed between those runs (a spawn's cost grows with the spawning process's
 * memory, so the reference is taken from the same process at the same size); (4) where the checkout has them, one call to a persistent hook (docs/hooks.md#persistent-hooks) and
 * the same 5-hook run with the hooks persistent.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SETTINGS } from '../../src/shared/types/index.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { homePaths, openDatabase } from '../../src/main/store/index.ts';
import { createTraceRecorder } from '../../src/main/tracing/index.ts';
import { SpanWriter } from '../../src/main/tracing/span-writer.ts';
import { runGroup } from '../lib/group.ts';
import { createInstantLlm } from '../lib/instant-llm.ts';
import { samplePair } from '../lib/pair.ts';
import { tempDir } from '../lib/tmp.ts';
import { READ_PATH, writeReadTarget } from '../lib/workspace-files.ts';
import { derived, figure, goal, median, sample, type Figure, type Goal } from '../lib/stats.ts';

/** A bare spawn: write the payload, drain both pipes, resolve on close. */
function bareSpawn(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  stdin: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

function writeHook(file: string, event: string): void {
  writeFileSync(file, `#!/bin/sh\nif [ "$1" = hook ]; then echo ${event}; fi\nexit 0\n`);
  chmodSync(file, 0o755);
}

/**
 * A persistent hook (docs/hooks.md#persistent-hooks) that answers every call with "no action", in
 * Python: bash's `read` takes a byte per system call from a pipe, slow for a 5 KB after_tool_call payload.
 */
function writePersistentHook(file: string, event: string): void {
  writeFileSync(
    file,
    `#!/usr/bin/env python3
import json, sys
if sys.argv[1] == "hook":
    print(json.dumps({"event": "${event}", "persistent": True}))
elif sys.argv[1] == "serve":
    for line in sys.stdin:
        sys.stdout.write('{"id":%d,"result":null}\\n' % json.loads(line)["id"])
        sys.stdout.flush()
`,
  );
  chmodSync(file, 0o755);
}

/** Whether this checkout has persistent hooks (an older commit benchmarked side by side has not). */
const hasPersistentHooks = await import('../../src/main/user-hooks/hook-server.ts').then(
  () => true,
  () => false,
);

await runGroup('hooks', async (ctx) => {
  const { invokeExecutableHook } = await import('../../src/main/user-hooks/executable-hooks.ts');
  const { invokeClaudeHandler, claudeSpec } =
    await import('../../src/main/user-hooks/claude-hooks.ts');
  const { runHookProcess } = await import('../../src/main/user-hooks/index.ts');
  const { buildHookEnv } = await import('../../src/main/env/child-env.ts');
  const { basePayload } = await import('../../src/main/user-hooks/executable-events.ts');
  const workspace = tempDir('hooks-ws');
  const home = tempDir('hooks-home');
  writeReadTarget(workspace);
  const script = path.join(home, 'noop-hook');
  writeHook(script, 'before_tool_call');
  const runs = ctx.quick ? 20 : 100;
  const warmup = 10;
  const figures: Record<string, Figure> = {};
  const goals: Goal[] = [];

  const db = openDatabase(homePaths(home).db);
  const threadId = db.threads.loadOrCreate(undefined, workspace).thread_id;
  // Spans go through the workbench's SpanWriter (batched into the round's transaction), as in a run.
  const spans = new SpanWriter(db.spans);
  spans.flushStandalone = () => db.transaction(() => spans.flush());
  const trace = createTraceRecorder({
    threadId,
    runId: 'run_bench',
    sink: { onStart: (s) => spans.write(s), onEnd: (s) => spans.write(s) },
  });
  // As in a run (targetOf): hook_runs rows are batched.
  const target = {
    threadId,
    runId: 'run_bench',
    trace,
    emit: () => {},
    hookRuns: db.hookRuns,
    deferRow: true,
  };
  const box = { settings: DEFAULT_SETTINGS.sandbox, workbenchHome: home };

  // Executable hooks.
  const execPayload = {
    ...basePayload('before_tool_call', threadId, workspace),
    tool_name: 'read_file',
    tool_input: { path: READ_PATH },
  };
  const execStdin = JSON.stringify(execPayload);
  const execEnv = buildHookEnv(workspace);
  const ref = {
    id: 'user:noop-hook',
    name: 'noop-hook',
    event: 'before_tool_call',
    failMode: 'open' as const,
    timeoutMs: 30_000,
  };
  const bareExec = () => bareSpawn(script, ['run'], workspace, execEnv, execStdin);
  const [execRunner, bare1] = await samplePair(
    runs,
    warmup,
    () =>
      runHookProcess({
        command: script,
        args: ['run'],
        cwd: workspace,
        env: execEnv,
        stdin: execStdin,
        timeoutMs: 30_000,
      }),
    bareExec,
  );
  const [execFull, bare2] = await samplePair(
    runs,
    warmup,
    () => invokeExecutableHook(target, ref, script, workspace, execPayload, () => 'none', box),
    bareExec,
  );
  figures.bare_executable = figure('bare child_process.spawn of the script', 'ms', [
    ...bare1,
    ...bare2,
  ]);
  figures.executable_runner = figure(
    'executable hook, runner only (runHookProcess)',
    'ms',
    execRunner,
  );
  figures.executable_full = figure(
    'executable hook, whole path (invokeExecutableHook: runner + span + hook_runs row)',
    'ms',
    execFull,
  );
  figures.executable_runner_ratio = derived(
    'executable runner / bare spawn',
    '×',
    median(execRunner) / median(bare1),
  );
  figures.executable_full_ratio = derived(
    'executable hook path / bare spawn',
    '×',
    median(execFull) / median(bare2),
  );
  goals.push(
    goal(
      'executable hook: runner ≤ 1.2× bare spawn',
      figures.executable_runner_ratio.median,
      '×',
      1.2,
      {
        figure: 'executable_runner_ratio',
      },
    ),
  );
  goals.push(
    goal(
      'executable hook: whole path ≤ 1.2× bare spawn',
      figures.executable_full_ratio.median,
      '×',
      1.2,
      { figure: 'executable_full_ratio' },
    ),
  );
  ctx.log(
    `executable: bare ${median(bare2).toFixed(2)} ms, runner ${median(execRunner).toFixed(2)} ms, dialect ${median(execFull).toFixed(2)} ms`,
  );

  // Claude dialect: a PreToolUse handler, shell form.
  const handler = {
    id: 'claude:user:PreToolUse:0',
    name: 'noop-hook',
    file: path.join(home, 'settings.json'),
    scope: 'user' as const,
    event: 'PreToolUse',
    matcher: '*',
    command: script,
    timeoutMs: 60_000,
    enabled: true,
    trusted: true,
  };
  const claudeInput = {
    session_id: threadId,
    transcript_path: path.join(home, 't.jsonl'),
    cwd: workspace,
    hook_event_name: 'PreToolUse',
    tool_name: 'Read',
    tool_input: { file_path: path.join(workspace, READ_PATH) },
  };
  const claudeStdin = JSON.stringify(claudeInput);
  const claudeEnv = buildHookEnv(workspace, { claude: true });
  const bareClaude = () => bareSpawn('/bin/sh', ['-c', script], workspace, claudeEnv, claudeStdin);
  const [claudeRunner, bare4] = await samplePair(
    runs,
    warmup,
    () => runHookProcess(claudeSpec(handler, workspace, claudeStdin, box)),
    bareClaude,
  );
  const [claudeFull, bare3] = await samplePair(
    runs,
    warmup,
    () => invokeClaudeHandler(target, handler, DEFAULT_SETTINGS, workspace, claudeInput, home),
    bareClaude,
  );
  figures.bare_claude = figure('bare spawn of /bin/sh -c script', 'ms', [...bare4, ...bare3]);
  figures.claude_runner = figure(
    'Claude hook, runner only (runHookProcess of claudeSpec)',
    'ms',
    claudeRunner,
  );
  figures.claude_runner_ratio = derived(
    'Claude runner / bare spawn',
    '×',
    median(claudeRunner) / median(bare4),
  );
  figures.claude_full = figure('Claude hook, dialect path (invokeClaudeHandler)', 'ms', claudeFull);
  figures.claude_full_ratio = derived(
    'Claude dialect path / bare spawn',
    '×',
    median(claudeFull) / median(bare3),
  );
  goals.push(
    goal('Claude hook: runner ≤ 1.2× bare spawn', figures.claude_runner_ratio.median, '×', 1.2, {
      figure: 'claude_runner_ratio',
    }),
  );
  goals.push(
    goal(
      'Claude hook: whole dialect path ≤ 1.2× bare spawn',
      figures.claude_full_ratio.median,
      '×',
      1.2,
      { figure: 'claude_full_ratio' },
    ),
  );
  ctx.log(
    `claude: bare ${median(bare3).toFixed(2)} ms, dialect ${median(claudeFull).toFixed(2)} ms`,
  );
  if (hasPersistentHooks) {
    const { endHookServers } = await import('../../src/main/user-hooks/hook-server.ts');
    const served = path.join(home, 'served-hook');
    writePersistentHook(served, 'before_tool_call');
    const persistentRef = { ...ref, id: 'user:served-hook', name: 'served-hook', persistent: true };
    const persistent = await sample(runs, warmup, async () => {
      const t0 = performance.now();
      await invokeExecutableHook(
        target,
        persistentRef,
        served,
        workspace,
        execPayload,
        () => 'none',
        box,
      );
      return performance.now() - t0;
    });
    await endHookServers();
    figures.persistent_call = figure(
      'persistent hook, one call, whole path (server round trip + span + hook_runs row)',
      'ms',
      persistent,
    );
    goals.push(
      goal('one call to a persistent hook ≤ 0.3 ms', figures.persistent_call.median, 'ms', 0.3, {
        figure: 'persistent_call',
      }),
    );
    ctx.log(`persistent hook call: ${median(persistent).toFixed(3)} ms`);
  }
  db.transaction(() => spans.flush());
  db.hookRuns.flush?.();
  db.close();

  // A whole run with 5 user hooks ($WORKBENCH_HOME/hooks: user scope, no trust needed) against hooks off.
  mkdirSync(homePaths(home).hooksDir, { recursive: true });
  const installFive = (write: (file: string, event: string) => void) => {
    for (const [i, event] of [
      'before_tool_call',
      'before_tool_call',
      'before_tool_call',
      'after_tool_call',
      'after_tool_call',
    ].entries()) {
      write(path.join(homePaths(home).hooksDir, `hook-${i}`), event);
    }
  };
  installFive(writeHook);
  const { createWorkbench } = await import('../../src/main/api/workbench.ts');
  const llm = createInstantLlm(READ_PATH);
  const wb: Workbench = await createWorkbench({ home, workspace, llm, interactive: false });
  const rounds = ctx.quick ? 5 : 20;
  const runOnce = async (noHooks: boolean) => {
    llm.callTimes.length = 0;
    const t0 = performance.now();
    const handle = await wb.chat.send({
      text: 'Read the router.',
      approvalMode: 'auto',
      maxIterations: rounds,
      noHooks,
    });
    const result = await handle.finished;
    if (result.stop_reason !== 'max_iterations')
      throw new Error(`run ended with ${result.stop_reason}: ${result.error ?? ''}`);
    const gaps = llm.callTimes.slice(1).map((t, i) => t - llm.callTimes[i]!);
    return { perRound: (performance.now() - t0) / rounds, interval: median(gaps) };
  };
  const tail = <T>(a: T[]) => a.slice(-(ctx.quick ? 3 : 7));
  // Five bare spawns one after another, as the five hooks of a tool call run (median of 5 sets).
  const fiveBare = async () => {
    const sets: number[] = [];
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      for (let i = 0; i < 5; i++) await bareExec();
      sets.push(performance.now() - t0);
    }
    return median(sets);
  };
  const compare = async (bareSets?: number[]) => {
    const on: { perRound: number; interval: number }[] = [];
    const off: { perRound: number; interval: number }[] = [];
    await sample(ctx.quick ? 3 : 7, 1, async () => {
      off.push(await runOnce(true));
      on.push(await runOnce(false));
      if (bareSets) bareSets.push(await fiveBare());
    });
    return {
      diffs: tail(on).map((o, i) => o.perRound - tail(off)[i]!.perRound),
      intervalDiffs: tail(on).map((o, i) => o.interval - tail(off)[i]!.interval),
    };
  };
  const bareSets: number[] = [];
  const { diffs, intervalDiffs } = await compare(bareSets);
  if (hasPersistentHooks) {
    installFive(writePersistentHook);
    const served = await compare();
    figures.five_persistent_interval = figure(
      '5 persistent hooks on: extra steady-state time per tool call',
      'ms',
      served.intervalDiffs,
    );
    goals.push(
      goal(
        'five persistent hooks per tool call ≤ 1 ms',
        figures.five_persistent_interval.median,
        'ms',
        1,
        { figure: 'five_persistent_interval' },
      ),
    );
    ctx.log(`5 persistent hooks: +${median(served.intervalDiffs).toFixed(2)} ms per tool call`);
  }
  await wb.close();
  figures.five_hooks_per_call = figure(
    '5 hooks on: extra wall time per tool call (incl. discovery, amortised)',
    'ms',
    diffs,
  );
  figures.five_hooks_interval = figure(
    '5 hooks on: extra steady-state time per tool call',
    'ms',
    intervalDiffs,
  );
  figures.five_bare = figure(
    'reference: 5 bare spawns one after another, between the runs',
    'ms',
    tail(bareSets),
  );
  figures.five_spawned_ratio = derived(
    '5 spawned hooks per tool call / 5 bare spawns',
    '×',
    median(intervalDiffs) / median(tail(bareSets)),
  );
  goals.push(
    goal(
      'five spawned hooks per tool call ≤ 1.2× five bare spawns',
      figures.five_spawned_ratio.median,
      '×',
      1.2,
      { figure: 'five_spawned_ratio' },
    ),
  );
  ctx.log(
    `5 hooks: +${median(diffs).toFixed(2)} ms per tool call; 5 bare spawns ${median(tail(bareSets)).toFixed(2)} ms`,
  );
  return {
    figures,
    goals,
    notes: [
      `${runs} paired runs after ${warmup} warm-up pairs; the 5-hook run has ${rounds} rounds with one read_file call each, hooks run one after another per call`,
    ],
  };
});
