/**
 * `store`: SQLite persistence (node:sqlite, WAL, synchronous=FULL): messages appended per second (one
 * message per transaction, as the loop appends them), time to open a 10,000-message thread in a fresh
 * thread cache (new openDatabase + threads.get), and database size per 1,000 messages.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../src/main/store/index.ts';
import { syntheticThread } from '../lib/messages.ts';
import { runGroup } from '../lib/group.ts';
import { tempDir } from '../lib/tmp.ts';
import { derived, figure, goal, sample } from '../lib/stats.ts';

await runGroup('store', async (ctx) => {
  const dir = tempDir('store');
  const notes: string[] = [];

  // 1. Appends: each appendMessages call is its own transaction, so each pays one WAL fsync.
  const appendDb = openDatabase(path.join(dir, 'append.db'));
  const ws = dir;
  const appendThread = appendDb.threads.loadOrCreate(undefined, ws).thread_id;
  const perBatch = ctx.size(200, 20);
  const source = syntheticThread(perBatch * 12);
  let cursor = 0;
  const appendRates = await sample(ctx.quick ? 3 : 7, 1, () => {
    const t0 = performance.now();
    for (let i = 0; i < perBatch; i++)
      appendDb.threads.appendMessages(appendThread, [source[cursor++]!]);
    return (perBatch / (performance.now() - t0)) * 1000;
  });
  appendDb.close();
  ctx.log(`appends: ${Math.round(appendRates[0]!)} msg/s`);

  // 2. Open a big thread from a cold thread cache.
  const size = ctx.size(10_000, 1_000);
  const file = path.join(dir, 'big.db');
  const fill = openDatabase(file);
  const bigId = fill.threads.loadOrCreate(undefined, ws).thread_id;
  const msgs = syntheticThread(size);
  for (let i = 0; i < msgs.length; i += 500)
    fill.threads.appendMessages(bigId, msgs.slice(i, i + 500));
  fill.close(); // last connection: checkpoints and removes the WAL, so the file size below is the whole database
  const bytes = statSync(file).size;
  const openTimes = await sample(ctx.quick ? 5 : 15, 2, () => {
    const t0 = performance.now();
    const db = openDatabase(file);
    const state = db.threads.get(bigId);
    const ms = performance.now() - t0;
    if (state?.messages.length !== size)
      throw new Error(`expected ${size} messages, got ${state?.messages.length}`);
    db.close();
    return ms;
  });
  ctx.log(`open ${size}: ${openTimes[0]!.toFixed(1)} ms`);
  const jsonBytes = Buffer.byteLength(JSON.stringify(msgs));
  notes.push(
    `synthetic messages average ${Math.round(jsonBytes / size)} bytes of JSON (user / read_file call / ~1.2 KB tool result mix)`,
  );

  // 4. The trace data the trace panel will draw: 20,000 spans of one thread, written then listed.
  const spanCount = ctx.size(20_000, 2_000);
  const spanDb = openDatabase(path.join(dir, 'spans.db'));
  const spanThread = spanDb.threads.loadOrCreate(undefined, ws).thread_id;
  const traceId = 'a'.repeat(32);
  const spanWrite0 = performance.now();
  spanDb.transaction(() => {
    for (let i = 0; i < spanCount; i++) {
      const kind = i % 3 === 0 ? 'llm' : i % 3 === 1 ? 'tool' : 'hook';
      spanDb.spans.upsert({
        trace_id: traceId,
        span_id: (i + 1).toString(16).padStart(16, '0'),
        ...(i === 0 ? {} : { parent_span_id: '0000000000000001' }),
        name:
          kind === 'llm'
            ? 'chat fake-model'
            : kind === 'tool'
              ? 'execute_tool read_file'
              : 'hook before_tool_call guard',
        kind,
        thread_id: spanThread,
        run_id: `run_${Math.floor(i / 60)}`,
        start_ms: 1_700_000_000_000 + i * 10,
        end_ms: 1_700_000_000_000 + i * 10 + 8,
        status: { code: 'OK' },
        attributes: {
          'gen_ai.operation.name': kind,
          tool_args: '{"path":"src/router.ts"}',
          output_length: 1200,
        },
        events: [],
      });
    }
  });
  const spanWriteMs = performance.now() - spanWrite0;
  const listTimes = await sample(ctx.quick ? 3 : 7, 1, () => {
    const n = spanDb.spans.listByThread(spanThread).length;
    if (n !== spanCount) throw new Error(`listed ${n} spans, expected ${spanCount}`);
  });
  spanDb.close();
  ctx.log(`spans: list ${spanCount} in ${listTimes[0]!.toFixed(0)} ms`);

  const figures = {
    append_per_s: figure(
      'messages appended per second (1 per transaction, synchronous=FULL)',
      'msg/s',
      appendRates,
    ),
    open_ms: figure(
      `open a ${size.toLocaleString('en-US')}-message thread (openDatabase + threads.get)`,
      'ms',
      openTimes,
    ),
    size_per_1000: derived('database size per 1,000 messages', 'KiB', bytes / 1024 / (size / 1000)),
    spans_write: derived(
      `write ${spanCount.toLocaleString('en-US')} spans (one transaction)`,
      'ms',
      spanWriteMs,
    ),
    spans_list: figure(
      `list a thread's ${spanCount.toLocaleString('en-US')} spans (spans.listByThread)`,
      'ms',
      listTimes,
    ),
  };
  return {
    figures,
    goals: [
      goal(
        `${size.toLocaleString('en-US')}-message thread opens in ≤ 200 ms`,
        figures.open_ms.median,
        'ms',
        200,
        { figure: 'open_ms' },
      ),
    ],
    notes,
  };
});
