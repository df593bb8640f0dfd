import { DatabaseSync } from 'node:sqlite';
import { existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTransactionRunner,
  openDatabase,
  SCHEMA_VERSION,
  type SqliteDatabase,
} from '../../../src/main/store/index.ts';
import { useTempDir } from './helpers.ts';
import { createWalSyncer } from '../../../src/main/store/wal-sync.ts';

const tempDir = useTempDir();
const open: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});
function openAt(file: string): SqliteDatabase {
  const db = openDatabase(file);
  open.push(db);
  return db;
}
function pragma(file: string, name: string): unknown {
  const raw = new DatabaseSync(file);
  try {
    return Object.values(raw.prepare(`PRAGMA ${name}`).get() as object)[0];
  } finally {
    raw.close();
  }
}

describe('openDatabase', () => {
  it('migrates an empty file and re-opens idempotently', () => {
    const file = join(tempDir(), 'nested', 'workbench.db');
    const db = openAt(file);
    expect(db.integrityCheck()).toEqual(['ok']);
    const id = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    db.threads.appendMessages(id, [{ role: 'user', content: 'hi' }]);
    db.close();
    expect(pragma(file, 'user_version')).toBe(SCHEMA_VERSION);
    expect(pragma(file, 'journal_mode')).toBe('wal');
    const again = openAt(file);
    expect(again.threads.get(id)?.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(existsSync(`${file}.bak-v${SCHEMA_VERSION}`)).toBe(false);
  });

  it('keeps how each tool call ended, and opens a version-1 file whose tool rows have none', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openAt(file);
    const id = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    const call = { id: 'c1', name: 'read_file', args: { path: 'a' } };
    db.threads.appendMessages(id, [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', content: 'Error: EACCES', tool_call_id: 'c1', name: 'read_file', status: 'error' },
    ]);
    db.close();
    expect(openAt(file).threads.get(id)?.messages[2].status).toBe('error');
    open.pop()!.close();

    // Back to version 1: no status column, as a file written by an older build.
    const raw = new DatabaseSync(file);
    // Back to version 1 means without every later table and column.
    raw.exec(
      'DROP TABLE command_snapshots; DROP TABLE checkpoints; DROP TABLE thread_leases; ALTER TABLE messages DROP COLUMN status; DROP TABLE runs; DROP TABLE events; DROP TABLE webhook_deliveries; ALTER TABLE threads DROP COLUMN metadata; ALTER TABLE messages DROP COLUMN metadata; ' +
        'DROP INDEX threads_parent; ALTER TABLE threads DROP COLUMN parent_thread_id; ALTER TABLE threads DROP COLUMN parent_tool_call_id; ALTER TABLE threads DROP COLUMN agent; PRAGMA user_version = 1',
    );
    raw.close();
    const old = openAt(file);
    expect(pragma(file, 'user_version')).toBe(SCHEMA_VERSION);
    expect(existsSync(`${file}.bak-v1`)).toBe(true);
    expect(old.threads.get(id)?.messages[2]).toEqual({ role: 'tool', content: 'Error: EACCES', tool_call_id: 'c1', name: 'read_file' });
  });

  it('refuses a schema newer than this build, leaving it untouched', () => {
    const file = join(tempDir(), 'workbench.db');
    const raw = new DatabaseSync(file);
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(/newer than this build supports/);
    expect(pragma(file, 'user_version')).toBe(SCHEMA_VERSION + 1);
  });

  it('nested transactions join the outer one and roll back together', () => {
    const db = openAt(join(tempDir(), 'workbench.db'));
    const state = db.threads.loadOrCreate(undefined, '/ws');
    const id = state.thread_id;
    expect(() =>
      db.transaction(() => {
        db.transaction(() => db.threads.appendMessages(id, [{ role: 'user', content: 'one' }]));
        db.threads.appendMessages(id, [{ role: 'assistant', content: 'two' }]);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.threads.summary(id)?.message_count).toBe(0);
    // The in-memory state no longer matched SQLite, so it was dropped and reloads from the truth.
    expect(db.threads.get(id)?.messages).toEqual([]);
    expect(db.transaction(() => db.transaction(() => 42))).toBe(42);
  });

  it('closes cleanly twice and keeps the WAL crash-safe settings', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openDatabase(file);
    db.close();
    db.close();
    expect(pragma(file, 'journal_mode')).toBe('wal');
  });
});

describe('deferred-sync transactions', () => {
  it('commit the data and put synchronous back to FULL, also after a throw', () => {
    const file = join(tempDir(), 'tx.db');
    const conn = new DatabaseSync(file);
    try {
      conn.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t (v TEXT)');
      const tx = createTransactionRunner(conn);
      const sync = () =>
        (conn.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous;
      let inside = -1;
      tx.run(
        () => {
          inside = sync();
          conn.prepare('INSERT INTO t VALUES (?)').run('kept');
        },
        { deferSync: true },
      );
      expect(inside).toBe(1); // NORMAL while the deferred transaction commits
      expect(sync()).toBe(2); // FULL again afterwards
      expect(() =>
        tx.run(
          () => {
            throw new Error('boom');
          },
          { deferSync: true },
        ),
      ).toThrow('boom');
      expect(sync()).toBe(2);
      const other = new DatabaseSync(file);
      expect(other.prepare('SELECT v FROM t').all()).toEqual([{ v: 'kept' }]);
      other.close();
    } finally {
      conn.close();
    }
  });

  it('commit in the background: visible to another connection at once, whenDurable resolves', async () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openDatabase(file);
    const thread = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    db.transaction(
      () => db.threads.appendMessages(thread, [{ role: 'user', content: 'kept' }]),
      { syncInBackground: true },
    );
    const other = new DatabaseSync(file);
    expect(other.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 1 });
    other.close();
    await db.whenDurable();
    db.close();
    await db.whenDurable();
  });

  it('background sync of a WAL file that was replaced or removed syncs the new one or nothing', async () => {
    const wal = join(tempDir(), 'x.db-wal');
    writeFileSync(wal, 'a');
    const syncer = createWalSyncer(wal);
    syncer.schedule();
    syncer.schedule(); // queued behind the running one; both resolve
    await syncer.idle();
    unlinkSync(wal);
    syncer.schedule();
    await syncer.idle();
    writeFileSync(wal, 'b');
    syncer.schedule();
    await syncer.idle();
    expect(syncer.failed).toBe(false);
    syncer.close();
  });
});
