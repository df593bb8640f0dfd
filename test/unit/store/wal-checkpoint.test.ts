import { closeSync, copyFileSync, openSync, readSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../../../src/main/store/index.ts';
import { createWalCheckpointer } from '../../../src/main/store/wal-checkpoint.ts';
import { useTempDir } from './helpers.ts';

const tempDir = useTempDir();
const open: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/** The WAL header's first salt: SQLite changes it each time the WAL starts over from its beginning. */
function walSalt(wal: string): string {
  const fd = openSync(wal, 'r');
  try {
    const salt = Buffer.alloc(4);
    readSync(fd, salt, 0, 4, 16);
    return salt.toString('hex');
  } finally {
    closeSync(fd);
  }
}

/**
 * Messages of `threadId` in the database file alone, as if the WAL were lost: a copy of the file
 * without its `-wal` (0 before even the schema got there; undefined while the copy caught a
 * checkpoint mid-write).
 */
function messagesInDatabaseFile(file: string, threadId: string): number | undefined {
  const copy = `${file}.copy-${Math.random().toString(36).slice(2)}`;
  copyFileSync(file, copy);
  const raw = new DatabaseSync(copy, { readOnly: true });
  try {
    if (!raw.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'messages'`).get()) return 0;
    const row = raw.prepare('SELECT COUNT(*) AS n FROM messages WHERE thread_id = ?').get(threadId);
    return Number((row as { n: number }).n);
  } catch {
    return undefined;
  } finally {
    raw.close();
  }
}

const bulky = (i: number) => ({ role: 'user' as const, content: `${i} ${'x'.repeat(8_000)}` });

describe('WAL checkpoints on a worker thread', () => {
  it('copies committed messages into the database file shortly after the commit', async () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openDatabase(file, { checkpointAfterCommits: 1 });
    open.push(db);
    const id = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    db.threads.appendMessages(id, [{ role: 'user', content: 'hello' }]);
    await expect.poll(() => messagesInDatabaseFile(file, id), { timeout: 5_000 }).toBe(1);
  });

  it('never checkpoints inside a commit, however large the WAL grows before the worker runs', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openDatabase(file, { checkpointAfterCommits: 100_000 });
    open.push(db);
    const id = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    // ~3 pages per message: well past SQLite's 1,000-page automatic checkpoint.
    for (let i = 0; i < 600; i++) db.threads.appendMessages(id, [bulky(i)]);
    expect(messagesInDatabaseFile(file, id)).toBe(0);
    db.close();
    const again = openDatabase(file);
    open.push(again);
    expect(again.threads.get(id)?.messages).toHaveLength(600);
  });

  it('keeps the WAL from growing while commits go on: once checkpointed, it starts over', async () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openDatabase(file, { checkpointAfterCommits: 20 });
    open.push(db);
    const id = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    // ~9,000 pages (37 MB) in all, the main thread yielding now and then as a run does. A restart
    // can be missed (a commit that began during the last pass, a worker a busy machine left
    // waiting); the next checkpoint catches up, so the WAL starts over again and again.
    const salts = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      db.threads.appendMessages(id, [bulky(i)]);
      if (i % 2 === 1) await new Promise((resolve) => setTimeout(resolve, 1));
      if (i % 25 === 0) salts.add(walSalt(`${file}-wal`));
    }
    expect(salts.size).toBeGreaterThanOrEqual(3);
    expect(statSync(`${file}-wal`).size).toBeLessThan(30_000_000);
    db.close();
    const again = openDatabase(file);
    open.push(again);
    expect(again.threads.get(id)?.messages).toHaveLength(3000);
  });

  it('reports a worker that cannot open the database once, so the caller can fall back', async () => {
    const reasons: string[] = [];
    let failed!: () => void;
    const reported = new Promise<void>((resolve) => (failed = resolve));
    const checkpointer = createWalCheckpointer(join(tempDir(), 'missing', 'x.db'), {
      firstAfter: 1,
      onFailed: (reason) => {
        reasons.push(reason);
        failed();
      },
    });
    checkpointer.committed();
    await reported;
    checkpointer.committed();
    await new Promise((resolve) => setTimeout(resolve, 100));
    checkpointer.close();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/unable to open/i);
  });
});
