/**
 * The client gap per round as a user feels it: `workbench run` (a real CLI process) against
 * bench/lib/gap-server.ts, 20 rounds of one `read_file` call each, on threads pre-filled to 20 and
 * 2,000 messages (the long ones with the stored summary a thread of that length has). Each run's
 * figure is the median of its 20 gaps, measured at the server. When `WB_BENCH_PEER` names a peer CLI
 * command (e.g. `pi -p`; `{baseURL}` is replaced), the same scenario runs with it side by side, calling
 * the peer's file-reading tool (`WB_BENCH_PEER_TOOL`, default `read`). Beside them, the floor: a plain
 * `node:http` client in its own process posting requests of the same size with nothing in between
 * (http-floor-client.ts), what this machine charges any client for a round before it does any work.
 */
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import type { GroupContext } from './group.ts';
import { startGapServer } from './gap-server.ts';
import { prefillThreads } from './prefill.ts';
import { figure, median, type Figure } from './stats.ts';
import { READ_PATH, writeReadTarget } from './workspace-files.ts';

const ROUNDS = 20;

/** Runs a process to its end; rejects when it cannot start or exits with anything but 0. */
function runToEnd(file: string, args: string[], opts: SpawnOptions, who: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, opts);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${who} exited ${code}`)),
    );
  });
}

function runPeer(command: string, baseURL: string, cwd: string): Promise<void> {
  const line = `${command.replaceAll('{baseURL}', baseURL)} 'read ${READ_PATH} ${ROUNDS} times'`;
  return runToEnd('/bin/sh', ['-c', line], { cwd, stdio: 'ignore' }, 'peer');
}

/** Rounds of one floor run: more than a workbench run's, as each costs a fraction of a millisecond. */
const FLOOR_ROUNDS = 100;

function runFloor(baseURL: string, bytes: number): Promise<void> {
  const script = path.join(import.meta.dirname, 'http-floor-client.ts');
  const args = [script, baseURL, String(FLOOR_ROUNDS), String(bytes)];
  return runToEnd(
    process.execPath,
    args,
    { stdio: ['ignore', 'ignore', 'inherit'] },
    'the floor client',
  );
}

/** Figures `gap_short` / `gap_long` and `gap_floor` (and `gap_peer` with a peer). */
export async function measureClientGap(
  ctx: GroupContext,
  o: { home: string; workspace: string; run: (args: string[]) => Promise<number> },
): Promise<Record<string, Figure>> {
  writeReadTarget(o.workspace);
  const server = await startGapServer();
  const runs = ctx.quick ? 3 : 7;
  const figures: Record<string, Figure> = {};
  try {
    for (const [key, size] of [
      ['short', 20],
      ['long', ctx.size(2000, 200)],
    ] as const) {
      const threads = prefillThreads(o.home, o.workspace, size, runs + 1);
      const medians: number[] = [];
      for (const [i, thread] of threads.entries()) {
        server.reset(ROUNDS);
        await o.run([
          ...['run', '--base-url', server.baseURL, '--model', 'fake-model', '--auto'],
          ...['--thread', thread, '--max-iterations', String(ROUNDS + 2), 'read the router'],
        ]);
        if (server.gaps().length !== ROUNDS)
          throw new Error(
            `expected ${ROUNDS} rounds, the server saw ${server.requests()} requests`,
          );
        if (i > 0) medians.push(median(server.gaps())); // the first run warms the OS caches
      }
      figures[`gap_${key}`] = figure(
        `client gap per round at the model server, workbench run, ${size}-message thread`,
        'ms',
        medians,
      );
      ctx.log(`client gap at ${size} messages: ${median(medians).toFixed(2)} ms`);
    }
    // The floor, with requests as large as the long thread's last one.
    const bytes = server.lastRequestBytes();
    const floors: number[] = [];
    for (let i = 0; i <= runs; i++) {
      server.reset(FLOOR_ROUNDS);
      await runFloor(server.baseURL, bytes);
      if (i > 0) floors.push(median(server.gaps()));
    }
    figures.gap_floor = figure(
      `floor: a plain node:http client in its own process, nothing between rounds (${Math.round(bytes / 1024)} KB requests)`,
      'ms',
      floors,
    );
    ctx.log(`floor: ${median(floors).toFixed(2)} ms`);
    const peer = process.env.WB_BENCH_PEER;
    if (!peer && spawnSync('sh', ['-c', 'command -v pi'], { stdio: 'ignore' }).status === 0)
      ctx.log('pi is on PATH: set WB_BENCH_PEER to its command line to measure it side by side');
    if (peer) {
      const medians: number[] = [];
      try {
        for (let i = 0; i <= runs; i++) {
          server.reset(ROUNDS, process.env.WB_BENCH_PEER_TOOL || 'read');
          await runPeer(peer, server.baseURL, o.workspace);
          if (server.gaps().length !== ROUNDS)
            throw new Error(`the peer made ${server.requests()} requests, not ${ROUNDS + 1}`);
          if (i > 0) medians.push(median(server.gaps()));
        }
        figures.gap_peer = figure(
          `client gap per round, peer CLI (${peer}), new thread`,
          'ms',
          medians,
        );
      } catch (err) {
        // A peer is optional: its failure is reported, ours are still measured.
        ctx.log(`peer CLI failed, no side-by-side gap: ${(err as Error).message}`);
      }
    }
  } finally {
    await server.close();
  }
  return figures;
}
