import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { rescueRuns } from '../../../src/main/events/run-rescue.ts';
import { openDatabase, type SqliteDatabase } from '../../../src/main/store/database.ts';

let dir: string | undefined;
let db: SqliteDatabase | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A thread with a run marked running by another process (`pid`), holding the lease when `leased`. */
function runOf(pid: number, leased: boolean): { threadId: string; runId: string } {
  const threadId = db!.threads.loadOrCreate(undefined, '/ws').thread_id;
  const runId = `run_${pid}_${threadId}`;
  const raw = new DatabaseSync(db!.file);
  raw
    .prepare(
      `INSERT INTO runs (id, thread_id, state, metadata, owner_pid, owner_host, created_at) VALUES (?, ?, 'running', '{}', ?, ?, ?)`,
    )
    .run(runId, threadId, pid, hostname(), Date.now());
  if (leased)
    raw
      .prepare(
        'INSERT INTO thread_leases (thread_id, owner_pid, owner_host, owner_nonce, heartbeat_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(threadId, pid, hostname(), 'other', Date.now());
  raw.close();
  return { threadId, runId };
}

describe('run rescue', () => {
  it('marks a dead process run interrupted and leaves a live process run alone', () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-rescue-'));
    db = openDatabase(join(dir, 'workbench.db'));
    // A pid that is surely not running: past the kernel's default pid_max.
    const dead = runOf(4_194_305, true);
    const live = runOf(process.ppid, true);
    const events = rescueRuns(db);
    expect(db.runs.get(dead.runId)).toMatchObject({
      state: 'interrupted',
      stop_reason: 'interrupted',
    });
    expect(db.runs.get(live.runId)!.state).toBe('running');
    expect(events.map((e) => [e.type, e.run_id, e.data.state])).toEqual([
      ['run_state_changed', dead.runId, 'interrupted'],
      ['run_finalized', dead.runId, 'interrupted'],
    ]);
    expect(db.threads.summary(dead.threadId)!.last_run_state).toBe('interrupted');
    // Rescue happens once: a second start finds nothing left.
    expect(rescueRuns(db)).toEqual([]);
  });
});
