/**
 * Messages written at the end of the event loop's turn (`appendMessagesLater`, TransactionRunner.later):
 * a round's messages share one commit that happens after its request went out, nothing is lost, the
 * order holds, and a write that fails is told, not swallowed.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransactionRunner, openDatabase, type SqliteDatabase } from '../../../src/main/store/index.ts';
import type { Message } from '../../../src/shared/types/index.ts';
import { useTempDir } from './helpers.ts';

const tempDir = useTempDir();
const open: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});
const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));
const call: Message = {
  role: 'assistant',
  content: '',
  tool_calls: [{ id: 'c1', name: 'read_file', args: { path: 'a.ts' } }],
};
const result: Message = { role: 'tool', content: 'file text', tool_call_id: 'c1', name: 'read_file' };

function setup(): { db: SqliteDatabase; file: string; threadId: string; stored: () => string[] } {
  const file = join(tempDir(), 'workbench.db');
  const db = openDatabase(file);
  open.push(db);
  const threadId = db.threads.loadOrCreate(undefined, '/ws').thread_id;
  db.threads.appendMessages(threadId, [{ role: 'user', content: 'read a.ts' }]);
  // What another process (the app, a second CLI) reads from the file.
  const stored = () => {
    const reader = new DatabaseSync(file, { readOnly: true });
    try {
      const rows = reader.prepare('SELECT role FROM messages WHERE thread_id = ? ORDER BY seq').all(threadId);
      return rows.map((r) => String(r.role));
    } finally {
      reader.close();
    }
  };
  return { db, file, threadId, stored };
}

describe('messages written at the end of the turn', () => {
  it('are in the thread at once and in the file once the turn ends, in order', async () => {
    const { db, threadId, stored } = setup();
    const failed: unknown[] = [];
    db.threads.appendMessagesLater(threadId, [call], { deferSync: true }, (e) => failed.push(e));
    db.threads.appendMessagesLater(threadId, [result], { syncInBackground: true }, (e) => failed.push(e));
    expect(db.threads.get(threadId)!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(stored()).toEqual(['user']);
    await turnEnd();
    expect(stored()).toEqual(['user', 'assistant', 'tool']);
    expect(failed).toEqual([]);
    await db.whenDurable();
  });

  it('are written before any other transaction, a read of the thread list or a close', () => {
    const { db, file, threadId, stored } = setup();
    db.threads.appendMessagesLater(threadId, [call], { deferSync: true }, () => {});
    expect(db.threads.summary(threadId)!.message_count).toBe(2);
    db.threads.appendMessagesLater(threadId, [result], { syncInBackground: true }, () => {});
    db.threads.appendMessages(threadId, [{ role: 'assistant', content: 'done' }]);
    expect(stored()).toEqual(['user', 'assistant', 'tool', 'assistant']);
    db.threads.appendMessagesLater(threadId, [{ role: 'user', content: 'more' }], { syncInBackground: true }, () => {});
    db.close();
    const again = openDatabase(file);
    open.push(again);
    expect(again.threads.get(threadId)!.messages.map((m) => m.content).at(-1)).toBe('more');
  });

  it('share one commit per turn, made as durable as the strictest asks', async () => {
    const file = join(tempDir(), 'raw.db');
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (v TEXT)');
    const execs: string[] = [];
    const spy = new Proxy(raw, {
      get(target, key) {
        if (key === 'exec') return (sql: string) => (execs.push(sql), target.exec(sql));
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const tx = createTransactionRunner(spy);
    const insert = raw.prepare('INSERT INTO t VALUES (?)');
    tx.later('x', () => insert.run('a'), { deferSync: true }, () => {});
    tx.later('y', () => insert.run('b'), {}, () => {});
    await turnEnd();
    expect(execs.filter((s) => s === 'COMMIT')).toHaveLength(1);
    // One write wanted its fsync: the batch is not relaxed.
    expect(execs).not.toContain('PRAGMA synchronous = NORMAL');
    expect(raw.prepare('SELECT v FROM t').all().map((r) => r.v)).toEqual(['a', 'b']);
    raw.close();
  });

  it('undo a write that failed with the later ones of its thread, tell them, and keep the rest', async () => {
    const { db, file, threadId, stored } = setup();
    const otherThread = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    const other = new DatabaseSync(file);
    other.exec(
      "CREATE TRIGGER no_calls BEFORE INSERT ON messages WHEN NEW.role = 'assistant' AND NEW.tool_calls IS NOT NULL BEGIN SELECT RAISE(ABORT, 'disk is full'); END",
    );
    other.close();
    const failed: string[] = [];
    const kept: unknown[] = [];
    db.threads.appendMessagesLater(threadId, [call], { deferSync: true }, (e) => failed.push(String(e)));
    db.threads.appendMessagesLater(otherThread, [{ role: 'user', content: 'hello' }], { syncInBackground: true }, (e) => kept.push(e));
    db.threads.appendMessagesLater(threadId, [result], { syncInBackground: true }, (e) => failed.push(String(e)));
    await turnEnd();
    expect(failed).toHaveLength(2);
    expect(failed[0]).toContain('disk is full');
    expect(kept).toEqual([]);
    // No result without its call: the thread in the file ends where the failure began.
    expect(stored()).toEqual(['user']);
    expect(db.threads.get(otherThread)!.messages.map((m) => m.content)).toEqual(['hello']);
    // The cached thread no longer claims what the file does not hold.
    expect(db.threads.get(threadId)!.messages.map((m) => m.role)).toEqual(['user']);
    db.threads.appendMessages(threadId, [{ role: 'assistant', content: 'still here' }]);
    expect(stored()).toEqual(['user', 'assistant']);
  });
});
