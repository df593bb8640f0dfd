import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../../../src/main/store/index.ts';
import { fakeClock, useTempDir } from './helpers.ts';

const tempDir = useTempDir();
const open: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});
/** Each connection stands for one workbench process (its own lease nonce). */
const connect = (file: string, now?: () => number) => {
  const db = openDatabase(file, { now, leaseHeartbeatMs: 60_000, leaseStaleMs: 30_000 });
  open.push(db);
  return db;
};

describe('thread leases', () => {
  it('lets one process hold a thread, refuses another, and hands it over on release', () => {
    const file = join(tempDir(), 'workbench.db');
    const a = connect(file);
    const b = connect(file);
    expect(a.leases.acquire('th_x')).toBeUndefined();
    expect(a.leases.acquire('th_x')).toBeUndefined();
    expect(b.leases.acquire('th_x')).toEqual({ pid: process.pid, host: expect.any(String) });
    expect(b.leases.heldElsewhere('th_x')?.pid).toBe(process.pid);
    a.leases.release('th_x');
    expect(b.leases.acquire('th_x')).toBeUndefined();
    expect(a.leases.acquire('th_x')).toBeDefined();
  });

  it('takes over a lease whose heartbeat is stale or whose owner is dead', () => {
    const file = join(tempDir(), 'workbench.db');
    const clock = fakeClock();
    const a = connect(file, clock.now);
    const b = connect(file, clock.now);
    a.leases.acquire('th_x');
    clock.advance(29_000);
    expect(b.leases.acquire('th_x')).toBeDefined();
    clock.advance(2_000);
    expect(b.leases.acquire('th_x')).toBeUndefined();
  });

  it('takes over a lease left by a process that died on this host', () => {
    const file = join(tempDir(), 'workbench.db');
    const b = connect(file);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const raw = new DatabaseSync(file);
    raw
      .prepare('INSERT INTO thread_leases VALUES (?, ?, ?, ?, ?)')
      .run('th_y', Number(dead.stdout.toString()), hostname(), 'gone', Date.now());
    raw.close();
    expect(b.leases.acquire('th_y')).toBeUndefined();
  });

  it('does not answer the tool calls of a run that is live in another process', () => {
    const file = join(tempDir(), 'workbench.db');
    const runner = connect(file);
    const id = runner.threads.loadOrCreate(undefined, '/ws').thread_id;
    runner.leases.acquire(id);
    runner.threads.appendMessages(id, [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', name: 'execute', args: { command: 'npm test' } }],
      },
    ]);
    expect(
      connect(file)
        .threads.get(id)
        ?.messages.map((m) => m.role),
    ).toEqual(['user', 'assistant']);
    runner.leases.release(id);
    expect(
      connect(file)
        .threads.get(id)
        ?.messages.map((m) => m.role),
    ).toEqual(['user', 'assistant', 'tool']);
  });
});
