import { existsSync, readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/shared/types/index.ts';
import {
  INTERRUPTED_TOOL_RESULT,
  openDatabase,
  type OpenDatabaseOptions,
  type SqliteDatabase,
} from '../../../src/main/store/index.ts';
import { fakeClock, useTempDir } from './helpers.ts';

const tempDir = useTempDir();
const opened: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});
function openAt(file: string, opts?: OpenDatabaseOptions): SqliteDatabase {
  const db = openDatabase(file, opts);
  opened.push(db);
  return db;
}

const turn: Message[] = [
  { role: 'user', content: 'Create a hello.py file' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      {
        id: 'call_w01',
        name: 'write_file',
        args: { path: '/w/hello.py', content: "print('hello')" },
      },
    ],
  },
  { role: 'tool', content: '{"bytes_written":14}', tool_call_id: 'call_w01', name: 'write_file' },
  { role: 'assistant', content: 'Created hello.py.' },
];

describe('ThreadStore', () => {
  it('keeps the stored summary in memory and reads it again when a run starts', () => {
    const file = join(tempDir(), 'workbench.db');
    const app = openAt(file);
    const id = app.threads.loadOrCreate(undefined, '/ws').thread_id;
    app.threads.appendMessages(id, turn);
    expect(app.threads.getCompaction(id)).toBeUndefined();
    app.threads.setCompaction(id, { upto: 2, content: 'first summary', created_at: 1 });
    expect(app.threads.getCompaction(id)).toEqual({ upto: 2, content: 'first summary', created_at: 1 });
    // `workbench compact` in another process while no run holds the thread.
    const cli = openAt(file);
    cli.threads.setCompaction(id, { upto: 3, content: 'newer summary', created_at: 2 });
    // The next run's start checks the thread against other processes and sees it.
    app.threads.evictIfStale(id);
    expect(app.threads.getCompaction(id)?.content).toBe('newer summary');
    // A rewrite of the conversation drops it, here and for the next process.
    app.threads.replaceMessages(id, turn.slice(0, 1));
    expect(app.threads.getCompaction(id)).toBeUndefined();
    expect(openAt(file).threads.getCompaction(id)).toBeUndefined();
  });

  it('round-trips messages with tool calls, todos and files through SQLite', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openAt(file);
    const state = db.threads.loadOrCreate(undefined, '/ws');
    expect(state.thread_id).toMatch(/^th_[0-9a-z]{12}$/);
    db.threads.appendMessages(state.thread_id, turn.slice(0, 2));
    db.threads.appendMessages(state.thread_id, turn.slice(2));
    db.threads.setTodos(state.thread_id, [{ id: '1', title: 'Create hello.py', status: 'done' }]);
    db.threads.setFile(state.thread_id, '/w/hello.py', "print('hello')");
    db.threads.setCompaction(state.thread_id, { upto: 2, content: 'summary', created_at: 5 });
    db.close();

    const again = openAt(file);
    expect(again.threads.loadOrCreate(state.thread_id, '/ws')).toEqual({
      thread_id: state.thread_id,
      messages: turn,
      todos: [{ id: '1', title: 'Create hello.py', status: 'done' }],
      files: { '/w/hello.py': "print('hello')" },
    });
    expect(again.threads.getCompaction(state.thread_id)).toEqual({
      upto: 2,
      content: 'summary',
      created_at: 5,
    });
    expect(again.threads.summary(state.thread_id)).toMatchObject({
      title: 'Create a hello.py file',
      workspace: '/ws',
      message_count: 4,
    });
  });

  it('returns the cached object and updates it in place (callers must not push themselves)', () => {
    const db = openAt(join(tempDir(), 'workbench.db'));
    const state = db.threads.loadOrCreate(undefined, '/ws');
    expect(db.threads.loadOrCreate(state.thread_id, '/ws')).toBe(state);
    expect(db.threads.get(state.thread_id)).toBe(state);
    db.threads.appendMessages(state.thread_id, [turn[0]]);
    db.threads.setTodos(state.thread_id, [{ id: 'a', title: 't', status: 'pending' }]);
    db.threads.setFile(state.thread_id, 'x', 'y');
    expect(state.messages).toEqual([turn[0]]);
    expect(state.todos).toEqual([{ id: 'a', title: 't', status: 'pending' }]);
    expect(state.files).toEqual({ x: 'y' });
  });

  it('sweeps entries idle longer than the TTL; SQLite stays the truth', () => {
    const clock = fakeClock();
    const db = openAt(join(tempDir(), 'workbench.db'), { now: clock.now, cacheTtlMs: 60 * 60_000 });
    const a = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    const b = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    db.threads.appendMessages(a, [turn[0]]);
    clock.advance(30 * 60_000);
    db.threads.get(b); // touched: stays hot
    clock.advance(31 * 60_000);
    expect(db.threads.sweep()).toBe(1);
    expect(db.threads.cacheSize).toBe(1);
    expect(db.threads.get(a)?.messages).toEqual([turn[0]]);
    expect(db.threads.cacheSize).toBe(2);
  });

  it('gives a swept state that a caller still holds back as the same object', () => {
    const clock = fakeClock();
    const db = openAt(join(tempDir(), 'workbench.db'), { now: clock.now });
    const held = db.threads.loadOrCreate(undefined, '/ws');
    clock.advance(2 * 60 * 60_000);
    db.threads.sweep();
    expect(db.threads.cacheSize).toBe(0);
    db.threads.appendMessages(held.thread_id, [turn[0]]);
    expect(db.threads.get(held.thread_id)).toBe(held);
    expect(held.messages).toEqual([turn[0]]);
  });

  it('appends without COUNT(*): message_count is the sequence source', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openAt(file);
    const id = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    for (let i = 0; i < 50; i++)
      db.threads.appendMessages(id, [{ role: 'user', content: `m${i}` }]);
    expect(db.threads.summary(id)?.message_count).toBe(50);
    // Bump the counter behind the store's back: the next row must take seq 100, proving no COUNT(*).
    const raw = new DatabaseSync(file);
    raw.prepare('UPDATE threads SET message_count = 100 WHERE id = ?').run(id);
    db.threads.appendMessages(id, [{ role: 'user', content: 'next' }]);
    const row = raw.prepare('SELECT MAX(seq) AS s FROM messages WHERE thread_id = ?').get(id) as {
      s: number;
    };
    raw.close();
    expect(row.s).toBe(100);
    expect(db.threads.summary(id)?.message_count).toBe(101);
  });

  it('titles a thread from its first user message unless set, trimmed to ~60 chars', () => {
    const db = openAt(join(tempDir(), 'workbench.db'));
    const a = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    db.threads.appendMessages(a, [
      { role: 'system', content: 'sys' },
      { role: 'user', content: `  ${'word '.repeat(40)}` },
      { role: 'user', content: 'second' },
    ]);
    const title = db.threads.summary(a)!.title;
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title.startsWith('word word')).toBe(true);
    const b = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    db.threads.setTitle(b, 'Mine');
    db.threads.appendMessages(b, [{ role: 'user', content: 'hello' }]);
    expect(db.threads.summary(b)!.title).toBe('Mine');
  });

  it('lists by updated_at desc with workspace filter, search and limit', () => {
    const clock = fakeClock();
    const db = openAt(join(tempDir(), 'workbench.db'), { now: clock.now });
    const mk = (ws: string, text: string): string => {
      clock.advance(1000);
      const id = db.threads.loadOrCreate(undefined, ws).thread_id;
      db.threads.appendMessages(id, [
        { role: 'user', content: text },
        { role: 'assistant', content: `re ${text} 50%` },
      ]);
      return id;
    };
    const a = mk('/one', 'fix the parser');
    const b = mk('/two', 'write docs');
    const c = mk('/one', 'refactor store');
    expect(db.threads.list().map((t) => t.thread_id)).toEqual([c, b, a]);
    clock.advance(1000);
    db.threads.appendMessages(a, [{ role: 'user', content: 'more' }]);
    expect(db.threads.list().map((t) => t.thread_id)).toEqual([a, c, b]);
    expect(db.threads.list({ workspace: '/one' }).map((t) => t.thread_id)).toEqual([a, c]);
    expect(db.threads.list({ search: 'PARSER' }).map((t) => t.thread_id)).toEqual([a]);
    expect(db.threads.list({ search: 're write' }).map((t) => t.thread_id)).toEqual([b]);
    expect(db.threads.list({ search: '50%' })).toHaveLength(3);
    expect(db.threads.list({ search: '_' })).toHaveLength(0);
    expect(db.threads.list({ limit: 1 }).map((t) => t.thread_id)).toEqual([a]);
  });

  it('throws for an unknown thread id and deletes threads for good', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openAt(file);
    expect(() => db.threads.loadOrCreate('th_nope', '/ws')).toThrow('unknown thread th_nope');
    expect(db.threads.get('th_nope')).toBeUndefined();
    expect(() => db.threads.appendMessages('th_nope', [turn[0]])).toThrow('unknown thread th_nope');
    const id = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    db.threads.appendMessages(id, turn);
    db.threads.setFile(id, 'f', 'c');
    db.threads.delete(id);
    expect(db.threads.get(id)).toBeUndefined();
    expect(db.threads.list()).toEqual([]);
    const raw = new DatabaseSync(file);
    expect(raw.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 0 });
    raw.close();
  });

  it("deleting a thread deletes what its runs stored beside it: hook runs, its event feed and the feed's webhook deliveries, to the last byte", () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openAt(file);
    const secret = 'sk-live-do-not-keep-4f9c2a';
    const [gone, kept] = [0, 1].map(() => db.threads.loadOrCreate(undefined, '/ws').thread_id);
    const hookRun = (thread_id: string, payload: string) =>
      db.hookRuns.insert({
        hook_id: 'user:guard',
        hook_name: 'guard',
        event: 'before_tool_call',
        thread_id,
        started_at: 1,
        duration_ms: 1,
        payload,
        stdout: '',
        stderr: '',
        exit_code: 0,
        signal: null,
        timed_out: false,
        decision: 'none',
      });
    db.threads.appendMessages(gone, [{ role: 'user', content: `my key is ${secret}` }]);
    hookRun(gone, JSON.stringify({ tool_input: { command: `echo ${secret}` } }));
    hookRun(kept, '{}');
    const events = db.events.append([
      { type: 'message', thread_id: gone, run_id: null, data: { text: secret } },
      { type: 'message', thread_id: kept, run_id: null, data: { text: 'kept' } },
    ]);
    for (const e of events) db.webhooks.enqueue(e.seq, 'https://hooks.example/in');
    db.threads.delete(gone);
    expect(db.hookRuns.recent().map((r) => r.thread_id)).toEqual([kept]);
    expect(db.events.since(0).map((e) => e.thread_id)).toEqual([kept]);
    expect(db.webhooks.forEvent(events[0]!.seq)).toEqual([]);
    expect(db.webhooks.forEvent(events[1]!.seq)).toHaveLength(1);
    db.close();
    opened.length = 0;
    // Not left in the file's free pages either (secure_delete).
    const bytes = Buffer.concat(
      [file, `${file}-wal`].flatMap((f) => (existsSync(f) ? [readFileSync(f)] : [])),
    );
    expect(bytes.includes(secret)).toBe(false);
  });

  it('closes a tool call left without a result by a crash, once, persisted', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openAt(file);
    const id = db.threads.loadOrCreate(undefined, '/ws').thread_id;
    db.threads.appendMessages(id, [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'c1', name: 'ls', args: {} },
          { id: 'c2', name: 'execute', args: { command: 'sleep 100' } },
        ],
      },
      { role: 'tool', content: 'a b', tool_call_id: 'c1', name: 'ls' },
    ]);
    db.close(); // "crash": the c2 result never arrives

    const again = openAt(file);
    const state = again.threads.loadOrCreate(id, '/ws');
    expect(state.messages).toHaveLength(4);
    expect(state.messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'c2',
      name: 'execute',
      content: INTERRUPTED_TOOL_RESULT,
      status: 'cancelled',
    });
    again.threads.appendMessages(id, [{ role: 'assistant', content: 'continuing' }]);
    again.close();

    const third = openAt(file);
    expect(third.threads.get(id)?.messages).toHaveLength(5);
    expect(third.threads.get(id)?.messages[3].status).toBe('cancelled');
    expect(third.threads.summary(id)?.message_count).toBe(5);
  });
});

describe('ThreadStore.replaceMessages', () => {
  it('replaces the whole conversation in place and on disk, dropping a stale compaction', () => {
    const file = join(tempDir(), 'workbench.db');
    const db = openAt(file);
    const state = db.threads.loadOrCreate(undefined, '/ws');
    db.threads.appendMessages(state.thread_id, turn);
    db.threads.setCompaction(state.thread_id, { upto: 3, content: 'old summary', created_at: 1 });
    const replacement: Message[] = [{ role: 'user', content: 'Start over: just say hi' }];
    db.threads.replaceMessages(state.thread_id, replacement);
    expect(state.messages).toEqual(replacement);
    db.threads.appendMessages(state.thread_id, [{ role: 'assistant', content: 'hi' }]);
    db.close();
    const again = openAt(file);
    expect(again.threads.get(state.thread_id)!.messages).toEqual([...replacement, { role: 'assistant', content: 'hi' }]);
    expect(again.threads.summary(state.thread_id)!.message_count).toBe(2);
    expect(again.threads.getCompaction(state.thread_id)).toBeUndefined();
  });
});
