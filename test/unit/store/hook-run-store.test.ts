import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookRunRecord } from '../../../src/shared/types/index.ts';
import {
  HOOK_OUTPUT_CAP,
  openDatabase,
  type SqliteDatabase,
} from '../../../src/main/store/index.ts';
import { useTempDir } from './helpers.ts';

const tempDir = useTempDir();
const opened: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function run(extra: Partial<HookRunRecord> = {}): Omit<HookRunRecord, 'id'> {
  return {
    hook_id: 'executable:user:guard',
    hook_name: 'guard',
    event: 'before_tool_call',
    started_at: 100,
    duration_ms: 12.5,
    payload: '{"tool":"execute"}',
    stdout: '{"blocked":true}',
    stderr: '',
    exit_code: 0,
    signal: null,
    timed_out: false,
    decision: 'block',
    ...extra,
  };
}

describe('HookRunStore', () => {
  it('inserts, gets and filters recent runs newest first', () => {
    const db = openDatabase(join(tempDir(), 'workbench.db'));
    opened.push(db);
    const id1 = db.hookRuns.insert(run({ thread_id: 'th_1', reason: 'no rm' }));
    const id2 = db.hookRuns.insert(
      run({
        hook_id: 'claude:x#Stop/0/0',
        started_at: 200,
        exit_code: null,
        signal: 'SIGKILL',
        timed_out: true,
      }),
    );
    const id3 = db.hookRuns.insert(run({ started_at: 300, thread_id: 'th_2', error: 'bad json' }));
    expect(db.hookRuns.get(id1)).toEqual({
      id: id1,
      ...run({ thread_id: 'th_1', reason: 'no rm' }),
    });
    expect(db.hookRuns.get(id2)).toMatchObject({
      exit_code: null,
      signal: 'SIGKILL',
      timed_out: true,
    });
    expect(db.hookRuns.get(999)).toBeUndefined();
    expect(db.hookRuns.recent().map((r) => r.id)).toEqual([id3, id2, id1]);
    expect(db.hookRuns.recent({ hookId: 'executable:user:guard' }).map((r) => r.id)).toEqual([
      id3,
      id1,
    ]);
    expect(db.hookRuns.recent({ threadId: 'th_1' }).map((r) => r.id)).toEqual([id1]);
    expect(db.hookRuns.recent({ limit: 1 }).map((r) => r.id)).toEqual([id3]);
  });

  it('caps payload, stdout and stderr at 64 KB each, noting the truncation', () => {
    const db = openDatabase(join(tempDir(), 'workbench.db'));
    opened.push(db);
    const big = 'x'.repeat(HOOK_OUTPUT_CAP + 5000);
    const id = db.hookRuns.insert(run({ payload: big, stdout: big, stderr: big }));
    const rec = db.hookRuns.get(id)!;
    for (const field of [rec.payload, rec.stdout, rec.stderr]) {
      expect(field.startsWith('x'.repeat(HOOK_OUTPUT_CAP))).toBe(true);
      expect(field).toMatch(/\[truncated 5000 chars\]$/);
      expect(field.length).toBeLessThan(HOOK_OUTPUT_CAP + 100);
    }
  });

  it('a deferred row has its id at once and is read back, by this and another connection', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openDatabase(file);
    const other = openDatabase(file);
    opened.push(db, other);
    const before = db.hookRuns.insert(run());
    const deferred = [1, 2, 3].map((i) =>
      db.hookRuns.insert(run({ started_at: 100 + i }), { defer: true }),
    );
    expect(new Set([before, ...deferred]).size).toBe(4);
    expect(other.hookRuns.get(deferred[0]!)).toBeUndefined();
    expect(db.hookRuns.get(deferred[2]!)).toMatchObject({ id: deferred[2], started_at: 103 });
    expect(other.hookRuns.recent().map((r) => r.id)).toEqual(
      [...deferred].reverse().concat(before),
    );
  });

  it('ids reserved for deferred rows are never given to another writer of the database', () => {
    const file = join(tempDir(), 'workbench.db');
    const a = openDatabase(file);
    const b = openDatabase(file);
    opened.push(a, b);
    const fromA = a.hookRuns.insert(run({ hook_id: 'a' }), { defer: true });
    const fromB = [
      b.hookRuns.insert(run({ hook_id: 'b' })),
      b.hookRuns.insert(run({ hook_id: 'b' }), { defer: true }),
    ];
    const laterA = a.hookRuns.insert(run({ hook_id: 'a' }), { defer: true });
    a.hookRuns.flush?.();
    b.hookRuns.flush?.();
    expect(new Set([fromA, laterA, ...fromB]).size).toBe(4);
    const stored = a.hookRuns.recent();
    expect(stored).toHaveLength(4);
    expect(a.hookRuns.get(fromA)?.hook_id).toBe('a');
    expect(a.hookRuns.get(laterA)?.hook_id).toBe('a');
    for (const id of fromB) expect(a.hookRuns.get(id)?.hook_id).toBe('b');
  });

  it('deferred rows whose transaction rolls back are written by the next flush, once', () => {
    const db = openDatabase(join(tempDir(), 'workbench.db'));
    opened.push(db);
    const id = db.hookRuns.insert(run(), { defer: true });
    expect(() =>
      db.transaction(() => {
        db.hookRuns.flush?.();
        throw new Error('outer failure');
      }),
    ).toThrow('outer failure');
    expect(db.hookRuns.get(id)).toMatchObject({ id, hook_id: 'executable:user:guard' });
    db.hookRuns.flush?.();
    expect(db.hookRuns.recent()).toHaveLength(1);
  });

  it('a deferred row is written within a moment without any read', async () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openDatabase(file);
    const other = openDatabase(file);
    opened.push(db, other);
    const id = db.hookRuns.insert(run(), { defer: true });
    await expect.poll(() => other.hookRuns.get(id)?.id, { timeout: 5000 }).toBe(id);
  });
});
