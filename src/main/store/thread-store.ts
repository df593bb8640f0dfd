/** ThreadStore over SQLite with an in-memory cache in front. */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { AgentState, Message, ThreadSummary, Todo } from '../../shared/types/index.ts';
import type { CompactionSummary, ThreadStore } from './types.ts';
import type { TransactionOptions, TransactionRunner } from './transaction.ts';
import { ThreadCache } from './thread-cache.ts';
import {
  messageFromRow,
  messageValues,
  orphanToolResults,
  summaryFromRow,
  titleFrom,
  type MessageRow,
  type ThreadRow,
} from './thread-rows.ts';

/** The ThreadStore of `openDatabase`, plus cache controls for the owner and tests. */
export interface SqliteThreadStore extends ThreadStore {
  /**
   * Appends `msgs` as new rows (one transaction) and pushes them onto the cached AgentState.
   * Contract: callers must NOT also push to `state.messages` — the state object returned by
   * loadOrCreate/get is the cached one and this method updates it in place. O(1) in thread length.
   */
  appendMessages(threadId: string, msgs: Message[]): void;
  /**
   * Pushes `msgs` onto the cached AgentState now and writes their rows with `TransactionRunner.later`:
   * at the end of this turn of the event loop, or before the next transaction or read of this store.
   * A failed write (and every later one of the thread queued with it) drops the cached state, so the
   * next read loads what SQLite has, and is told to `onError`.
   */
  appendMessagesLater(
    threadId: string,
    msgs: Message[],
    opts: TransactionOptions,
    onError: (err: unknown) => void,
  ): void;
  /** Drops cache entries idle longer than the TTL; returns how many. Also runs on a timer. */
  sweep(): number;
  /** Number of threads currently held in memory. */
  readonly cacheSize: number;
  /**
   * Forgets the cached state of a thread when another process wrote to it since it was cached (its
   * stored message count differs), so the next read loads what that process wrote.
   * Contract: an unchanged thread keeps its cache (no reload of its messages).
   */
  evictIfStale(threadId: string): void;
  /** Stops the sweep timer and empties the cache. */
  dispose(): void;
}

export interface ThreadStoreOptions {
  now: () => number;
  cacheTtlMs: number;
  sweepMs: number;
  /**
   * True while another process runs the thread: its unanswered tool calls are in flight, not
   * left by a crash, so loading must not answer them.
   */
  runningElsewhere?: (threadId: string) => boolean;
}

/** A new thread id: `th_` + 12 random base36 characters. */
export function newThreadId(): string {
  const bytes = randomBytes(12);
  let id = 'th_';
  for (const b of bytes) id += (b % 36).toString(36);
  return id;
}

/** The state of a thread's latest run, selected alongside its row. */
const LAST_RUN_STATE = `(SELECT r.state FROM runs r WHERE r.thread_id = t.id
  ORDER BY r.created_at DESC, r.rowid DESC LIMIT 1) AS last_run_state`;

/** Escapes LIKE wildcards so a search for `50%` matches literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Creates the store. Contract: every mutation is committed before it returns (or joins the caller's transaction). */
export function createThreadStore(
  db: DatabaseSync,
  tx: TransactionRunner,
  opts: ThreadStoreOptions,
): SqliteThreadStore {
  const { now } = opts;
  const cache = new ThreadCache(now, opts.cacheTtlMs);
  // Each thread's stored summary as last read or written here; read again when a run starts
  // (evictIfStale), since another process may have compacted the thread meanwhile.
  const compactions = new Map<string, CompactionSummary | undefined>();
  const timer = setInterval(() => cache.sweep(), opts.sweepMs);
  timer.unref();

  const q = {
    insertThread: db.prepare(
      'INSERT INTO threads (id, title, workspace, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    ),
    thread: db.prepare('SELECT * FROM threads WHERE id = ?'),
    summary: db.prepare(`SELECT t.*, ${LAST_RUN_STATE} FROM threads t WHERE t.id = ?`),
    metadata: db.prepare('SELECT metadata FROM threads WHERE id = ?'),
    setMetadata: db.prepare('UPDATE threads SET metadata = ? WHERE id = ?'),
    head: db.prepare('SELECT title, message_count FROM threads WHERE id = ?'),
    messages: db.prepare(
      'SELECT role, content, tool_calls, tool_call_id, name, interrupted, status, metadata FROM messages WHERE thread_id = ? ORDER BY seq',
    ),
    files: db.prepare('SELECT path, content FROM files WHERE thread_id = ?'),
    insertMessage: db.prepare(
      `INSERT INTO messages (thread_id, seq, role, content, tool_calls, tool_call_id, name, interrupted, status, metadata, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    bumpThread: db.prepare(
      'UPDATE threads SET message_count = ?, updated_at = ?, title = ? WHERE id = ?',
    ),
    setTodos: db.prepare('UPDATE threads SET todos = ?, updated_at = ? WHERE id = ?'),
    setTitle: db.prepare('UPDATE threads SET title = ?, updated_at = ? WHERE id = ?'),
    upsertFile: db.prepare(
      'INSERT INTO files (thread_id, path, content) VALUES (?, ?, ?) ON CONFLICT (thread_id, path) DO UPDATE SET content = excluded.content',
    ),
    touch: db.prepare('UPDATE threads SET updated_at = ? WHERE id = ?'),
    compaction: db.prepare('SELECT compaction FROM threads WHERE id = ?'),
    setCompaction: db.prepare('UPDATE threads SET compaction = ? WHERE id = ?'),
    deleteThread: db.prepare('DELETE FROM threads WHERE id = ?'),
    deleteMessages: db.prepare('DELETE FROM messages WHERE thread_id = ?'),
    resetThread: db.prepare('UPDATE threads SET message_count = 0, compaction = NULL WHERE id = ?'),
    deleteSpans: db.prepare('DELETE FROM spans WHERE thread_id = ?'),
    // What the thread's runs left beside its messages (no foreign key: rows outlive a run's thread
    // while it is written): hook payloads and outputs, and its event feed with webhook deliveries.
    deleteHookRuns: db.prepare('DELETE FROM hook_runs WHERE thread_id = ?'),
    deleteDeliveries: db.prepare(
      'DELETE FROM webhook_deliveries WHERE event_seq IN (SELECT seq FROM events WHERE thread_id = ?)',
    ),
    deleteEvents: db.prepare('DELETE FROM events WHERE thread_id = ?'),
    children: db.prepare('SELECT * FROM threads WHERE parent_thread_id = ? ORDER BY created_at, rowid'),
    setLineage: db.prepare(
      'UPDATE threads SET agent = ?, parent_thread_id = COALESCE(?, parent_thread_id), parent_tool_call_id = COALESCE(?, parent_tool_call_id) WHERE id = ?',
    ),
    list: db.prepare(
      `SELECT t.*, ${LAST_RUN_STATE} FROM threads t
       WHERE ($ws IS NULL OR t.workspace = $ws)
         AND ($children = 1 OR t.parent_thread_id IS NULL)
         AND ($meta IS NULL OR NOT EXISTS (
              SELECT 1 FROM json_each($meta) f WHERE NOT EXISTS (
                SELECT 1 FROM json_each(t.metadata) m WHERE m.key = f.key AND m.value = f.value)))
         AND ($q IS NULL OR t.title LIKE $q ESCAPE '\\'
              OR EXISTS (SELECT 1 FROM messages m WHERE m.thread_id = t.id AND m.content LIKE $q ESCAPE '\\'))
       ORDER BY t.updated_at DESC, t.rowid DESC
       LIMIT $limit`,
    ),
  };

  /** Stable message_count source inside a transaction: the threads row, never COUNT(*). */
  function head(threadId: string): { title: string; message_count: number } {
    const row = q.head.get(threadId) as { title: string; message_count: number } | undefined;
    if (!row) throw new Error(`unknown thread ${threadId}`);
    return row;
  }

  function insertMessages(threadId: string, msgs: readonly Message[]): void {
    const h = head(threadId);
    const t = now();
    let title = h.title;
    msgs.forEach((msg, i) => {
      q.insertMessage.run(threadId, h.message_count + i, ...messageValues(msg), t);
      if (!title && msg.role === 'user' && msg.content.trim()) title = titleFrom(msg.content);
    });
    q.bumpThread.run(h.message_count + msgs.length, t, title, threadId);
  }

  /** Loads from SQLite, closing tool calls a crash left unanswered (persisted, so it happens once). */
  function load(threadId: string): AgentState | undefined {
    tx.flushLater();
    const row = q.thread.get(threadId) as ThreadRow | undefined;
    if (!row) return undefined;
    const messages = (q.messages.all(threadId) as unknown as MessageRow[]).map(messageFromRow);
    const files: Record<string, string> = {};
    for (const f of q.files.all(threadId) as { path: string; content: string }[])
      files[f.path] = f.content;
    const state: AgentState = {
      thread_id: threadId,
      messages,
      todos: JSON.parse(row.todos) as Todo[],
      files,
    };
    const synthetic = opts.runningElsewhere?.(threadId) ? [] : orphanToolResults(messages);
    if (synthetic.length > 0) {
      tx.run(() => insertMessages(threadId, synthetic));
      messages.push(...synthetic);
    }
    cache.set(threadId, state);
    // If a surrounding transaction rolls back, the synthetic rows vanish; drop the entry so it reloads.
    tx.onRollback(() => cache.delete(threadId));
    return state;
  }

  function cached(threadId: string): AgentState | undefined {
    return cache.get(threadId) ?? load(threadId);
  }

  /** Runs a write; if the enclosing transaction later rolls back, the cached state is discarded. */
  function write(threadId: string, fn: () => void): void {
    tx.run(() => {
      tx.onRollback(() => cache.delete(threadId));
      fn();
    });
  }

  return {
    loadOrCreate(threadId, workspace) {
      if (threadId !== undefined) {
        const state = cached(threadId);
        if (!state) throw new Error(`unknown thread ${threadId}`);
        return state;
      }
      const id = newThreadId();
      const t = now();
      // The thread's first message commits with an fsync right after; that makes this row durable.
      tx.run(() => q.insertThread.run(id, '', workspace, t, t), { deferSync: true });
      const state: AgentState = { thread_id: id, messages: [], todos: [], files: {} };
      cache.set(id, state);
      tx.onRollback(() => cache.delete(id));
      return state;
    },
    get: (threadId) => cached(threadId),
    summary(threadId) {
      tx.flushLater();
      const row = q.summary.get(threadId) as ThreadRow | undefined;
      return row ? summaryFromRow(row) : undefined;
    },
    list(opts = {}): ThreadSummary[] {
      const search = opts.search?.trim();
      tx.flushLater();
      const rows = q.list.all({
        ws: opts.workspace ?? null,
        q: search ? likePattern(search) : null,
        meta: opts.metadata && Object.keys(opts.metadata).length ? JSON.stringify(opts.metadata) : null,
        limit: opts.limit ?? -1,
        children: opts.includeChildren ? 1 : 0,
      }) as unknown as ThreadRow[];
      return rows.map(summaryFromRow);
    },
    children(threadId) {
      tx.flushLater();
      return (q.children.all(threadId) as unknown as ThreadRow[]).map(summaryFromRow);
    },
    setLineage(threadId, lineage) {
      const agent = lineage.agent && lineage.agent !== 'main' ? lineage.agent : null;
      const r = q.setLineage.run(agent, lineage.parent_thread_id ?? null, lineage.parent_tool_call_id ?? null, threadId);
      if (r.changes === 0) throw new Error(`unknown thread ${threadId}`);
    },
    appendMessages(threadId, msgs) {
      if (msgs.length === 0) return;
      const state = cache.get(threadId);
      write(threadId, () => insertMessages(threadId, msgs));
      // Not cached: nothing to update in memory; the next load reads the rows.
      state?.messages.push(...msgs);
    },
    appendMessagesLater(threadId, msgs, opts, onError) {
      if (msgs.length === 0) return;
      cache.get(threadId)?.messages.push(...msgs);
      tx.later(
        threadId,
        () => insertMessages(threadId, msgs),
        opts,
        (err) => {
          cache.delete(threadId);
          onError(err);
        },
      );
    },
    replaceMessages(threadId, msgs) {
      const state = cache.get(threadId);
      write(threadId, () => {
        head(threadId);
        q.deleteMessages.run(threadId);
        q.resetThread.run(threadId);
        insertMessages(threadId, msgs);
      });
      compactions.delete(threadId);
      state?.messages.splice(0, state.messages.length, ...msgs);
    },
    setTodos(threadId, todos) {
      const state = cache.get(threadId);
      write(threadId, () => {
        const r = q.setTodos.run(JSON.stringify(todos), now(), threadId);
        if (r.changes === 0) throw new Error(`unknown thread ${threadId}`);
      });
      if (state) state.todos = [...todos];
    },
    setFile(threadId, path, content) {
      const state = cache.get(threadId);
      write(threadId, () => {
        if (q.touch.run(now(), threadId).changes === 0)
          throw new Error(`unknown thread ${threadId}`);
        q.upsertFile.run(threadId, path, content);
      });
      if (state) state.files[path] = content;
    },
    setTitle(threadId, title) {
      if (q.setTitle.run(title.trim(), now(), threadId).changes === 0)
        throw new Error(`unknown thread ${threadId}`);
    },
    delete(threadId) {
      tx.run(() => {
        q.deleteSpans.run(threadId);
        q.deleteHookRuns.run(threadId);
        q.deleteDeliveries.run(threadId);
        q.deleteEvents.run(threadId);
        q.deleteThread.run(threadId);
      });
      cache.delete(threadId);
      compactions.delete(threadId);
    },
    mergeMetadata(threadId, patch) {
      return tx.run(() => {
        const row = q.metadata.get(threadId) as { metadata: string } | undefined;
        if (!row) throw new Error(`unknown thread ${threadId}`);
        const merged: Record<string, string> = JSON.parse(row.metadata) as Record<string, string>;
        for (const [k, v] of Object.entries(patch)) {
          if (v === null) delete merged[k];
          else merged[k] = v;
        }
        q.setMetadata.run(JSON.stringify(merged), threadId);
        return merged;
      });
    },
    getCompaction(threadId) {
      if (compactions.has(threadId)) return compactions.get(threadId);
      const row = q.compaction.get(threadId) as { compaction: string | null } | undefined;
      if (!row) return undefined;
      const summary = row.compaction ? (JSON.parse(row.compaction) as CompactionSummary) : undefined;
      compactions.set(threadId, summary);
      return summary;
    },
    setCompaction(threadId, summary) {
      compactions.delete(threadId);
      if (q.setCompaction.run(JSON.stringify(summary), threadId).changes === 0) {
        throw new Error(`unknown thread ${threadId}`);
      }
      compactions.set(threadId, summary);
      tx.onRollback(() => compactions.delete(threadId));
    },
    sweep: () => {
      compactions.clear();
      return cache.sweep();
    },
    get cacheSize() {
      return cache.size;
    },
    evictIfStale(threadId) {
      compactions.delete(threadId);
      const state = cache.get(threadId);
      if (!state) return;
      tx.flushLater();
      const row = q.head.get(threadId) as { message_count: number } | undefined;
      if (row?.message_count !== state.messages.length) cache.delete(threadId);
    },
    dispose() {
      clearInterval(timer);
      cache.clear();
      compactions.clear();
    },
  };
}
