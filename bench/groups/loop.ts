/**
 * `loop`: agent-host overhead per model round with every built-in hook, SQLite persistence and tracing
 * on. The model is an in-process client answering at once with one read_file call, so a run of N
 * rounds is N × (hooks + model-call plumbing + tool dispatch + read_file + appends + spans).
 * Overhead per round = run wall time / N − the model's own time − read_file's own time (measured alone).
 * Threads are pre-filled to 20 and 2,000 messages and loaded into the thread cache before the timed run.
 */
import type { Workbench } from '../../src/main/api/types.ts';
import { bodyRoundTimes } from '../lib/body-rounds.ts';
import { commits } from '../lib/commit-timer.ts';
import { createInstantLlm } from '../lib/instant-llm.ts';
import { prefillThreads } from '../lib/prefill.ts';
import { runGroup } from '../lib/group.ts';
import { tempDir } from '../lib/tmp.ts';
import { READ_PATH, writeReadTarget } from '../lib/workspace-files.ts';
import { figure, goal, median, sample, type Figure } from '../lib/stats.ts';

await runGroup('loop', async (ctx) => {
  const { createWorkbench } = await import('../../src/main/api/workbench.ts');
  const { createReadFileTool, createWorkspace } = await import('../../src/main/tools/index.ts');
  const home = tempDir('loop-home');
  const workspace = tempDir('loop-ws');
  writeReadTarget(workspace);
  const rounds = ctx.quick ? 5 : 20;
  const runs = ctx.quick ? 3 : 15;
  // Each run loads a fresh pre-filled thread into the thread cache, so the heap grows over the first
  // ~15 runs and V8 resizes its young generation with it: the rounds of those runs write to pages
  // never touched before, a page fault apiece (12–15 µs on a VM whose host takes freed memory back,
  // ~0.3 µs elsewhere). The figures are the settled process's, as in a live session; the page faults
  // per round are reported beside them (docs/performance.md, "The `loop` figure in a settled process").
  const warmup = ctx.quick ? 2 : 16;
  const sizes = [20, ctx.size(2000, 200)];

  // read_file alone on the same file, through the same workspace guard.
  const ws = await createWorkspace(workspace);
  const readFile = createReadFileTool();
  const signal = new AbortController().signal;
  const toolCtx = {
    callId: 'c',
    workspace: ws,
    signal,
    state: { thread_id: 't', messages: [], todos: [], files: {} },
  };
  const readTimes = await sample(ctx.quick ? 50 : 300, 30, async () => {
    const t0 = performance.now();
    await readFile.execute({ path: READ_PATH }, toolCtx);
    return performance.now() - t0;
  });
  const readMs = median(readTimes);

  // Pre-fill one thread per run (and warm-up) for each size, through a separate connection.
  const threads = new Map(
    sizes.map((size) => [size, prefillThreads(home, workspace, size, runs + warmup)]),
  );

  const llm = createInstantLlm(READ_PATH);
  const wb: Workbench = await createWorkbench({ home, workspace, llm, interactive: false });
  let events = 0;
  const unsubscribe = wb.subscribe(() => void events++);
  const figures: Record<string, Figure> = {};
  const perRound = new Map<number, number>();
  interface RunFigures {
    overhead: number;
    wall: number;
    interval: number;
    setup: number;
    commit: number;
    faults: number;
  }
  const measured = new Map<number, RunFigures[]>(sizes.map((size) => [size, []]));
  const runOne = async (size: number): Promise<RunFigures> => {
    const threadId = threads.get(size)!.shift()!;
    wb.threads.get({ threadId }); // load into the thread cache: a hot thread, as in a live session
    llm.callTimes.length = 0;
    llm.ownMs = 0;
    const c0 = { ...commits };
    const f0 = process.resourceUsage().minorPageFault;
    const t0 = performance.now();
    const handle = await wb.chat.send({
      threadId,
      text: 'Read the router again.',
      approvalMode: 'auto',
      maxIterations: rounds,
    });
    const result = await handle.finished;
    const wall = (performance.now() - t0) / rounds;
    const faults = (process.resourceUsage().minorPageFault - f0) / rounds;
    if (result.stop_reason !== 'max_iterations')
      throw new Error(`run ended with ${result.stop_reason}: ${result.error ?? ''}`);
    const after = wb.threads.get({ threadId })!.messages.length;
    if (after !== size + 1 + 2 * rounds)
      throw new Error(`thread has ${after} messages, expected ${size + 1 + 2 * rounds}`);
    const gaps = llm.callTimes.slice(1).map((t, i) => t - llm.callTimes[i]!);
    return {
      overhead: wall - llm.ownMs / rounds - readMs,
      wall,
      interval: median(gaps),
      setup: llm.callTimes[0]! - t0,
      commit: (commits.ms - c0.ms) / rounds,
      faults,
    };
  };
  try {
    // The sizes alternate (small, big, big, small, …) so load from other work hits both alike.
    for (let i = 0; i < warmup + runs; i++) {
      for (const size of i % 2 === 0 ? sizes : [...sizes].reverse()) {
        const r = await runOne(size);
        if (i >= warmup) measured.get(size)!.push(r);
      }
    }
    for (const size of sizes) {
      const rs = measured.get(size)!;
      const pick = (f: (r: RunFigures) => number) => rs.map(f);
      figures[`overhead_${size}`] = figure(
        `overhead per round, ${size}-message thread`,
        'ms',
        pick((r) => r.overhead),
      );
      figures[`wall_${size}`] = figure(
        `wall time per round (incl. read_file), ${size}-message thread`,
        'ms',
        pick((r) => r.wall),
      );
      figures[`interval_${size}`] = figure(
        `steady-state model-call interval, ${size}-message thread`,
        'ms',
        pick((r) => r.interval),
      );
      figures[`setup_${size}`] = figure(
        `run start (send → first model call), ${size}-message thread`,
        'ms',
        pick((r) => r.setup),
      );
      figures[`commit_${size}`] = figure(
        `of the overhead: SQLite COMMIT (fsync), ${size}-message thread`,
        'ms',
        pick((r) => r.commit),
      );
      figures[`cpu_${size}`] = figure(
        `of the overhead: everything but COMMIT, ${size}-message thread`,
        'ms',
        pick((r) => r.overhead - r.commit),
      );
      figures[`faults_${size}`] = figure(
        `page faults per round (the whole process; near 0 once it has settled), ${size}-message thread`,
        'count',
        pick((r) => r.faults),
      );
      perRound.set(size, median(pick((r) => r.overhead)));
      ctx.log(`${size} messages: ${perRound.get(size)!.toFixed(3)} ms/round overhead`);
    }
  } finally {
    unsubscribe();
    await wb.close();
  }
  figures.read_file = figure('read_file alone (4 KB file, subtracted above)', 'ms', readTimes);
  const [small, big] = sizes as [number, number];
  // Each big run is paired with the small run next to it (they alternate), so the ratio is taken per pair.
  const pairs = measured.get(big)!.map((r, i) => r.overhead / measured.get(small)![i]!.overhead);
  const ratio = median(pairs);
  figures.ratio = figure(`overhead ratio ${big}/${small} messages (per adjacent pair)`, '×', pairs);
  const cpuPairs = measured
    .get(big)!
    .map(
      (r, i) =>
        (r.overhead - r.commit) /
        (measured.get(small)![i]!.overhead - measured.get(small)![i]!.commit),
    );
  figures.cpu_ratio = figure(`ratio without COMMIT time ${big}/${small} messages`, '×', cpuPairs);
  // A long thread without a stored summary: the body of each round, as the thread grows and as
  // compaction prunes one more old output a round (the first 20 rounds warm up).
  const bodyRounds = ctx.quick ? 40 : 220;
  for (const prune of [false, true]) {
    const times = bodyRoundTimes(big, bodyRounds, prune).slice(20);
    figures[prune ? 'body_pruned' : 'body_growing'] = figure(
      `request body per round, ${big}-message thread without a summary, ${prune ? 'one more old output pruned each round' : 'growing'}`,
      'ms',
      times,
    );
  }
  return {
    figures,
    goals: [
      goal(
        `overhead ≤ 1 ms per round at ${big.toLocaleString('en-US')} messages`,
        perRound.get(big)!,
        'ms',
        1,
        { figure: `overhead_${big}` },
      ),
      goal(`${big}/${small} overhead ratio ≤ 1.5`, ratio, '×', 1.5, { figure: 'ratio' }),
    ],
    notes: [
      `${rounds} rounds per run, ${runs} runs after ${warmup} warm-up runs; ${events} events delivered to one subscriber; built-in hooks, SQLite (WAL; a round's fsync on the thread pool) and tracing on, no user hooks`,
    ],
  };
});
