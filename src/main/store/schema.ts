/** Versioned migrations of workbench.db, tracked in `PRAGMA user_version`. */
import type { DatabaseSync } from 'node:sqlite';

/** Migration N (1-based) brings the schema from version N-1 to N. Append only; never edit a shipped one. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    workspace TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    todos TEXT NOT NULL DEFAULT '[]',
    compaction TEXT
  );
  CREATE INDEX threads_updated ON threads(updated_at);
  CREATE TABLE messages (
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    tool_calls TEXT,
    tool_call_id TEXT,
    name TEXT,
    interrupted INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (thread_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE files (
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (thread_id, path)
  );
  CREATE TABLE spans (
    span_id TEXT PRIMARY KEY,
    trace_id TEXT NOT NULL,
    parent_span_id TEXT,
    thread_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    start_ms REAL NOT NULL,
    end_ms REAL,
    status TEXT NOT NULL,
    attributes TEXT NOT NULL,
    events TEXT NOT NULL,
    incomplete INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX spans_thread ON spans(thread_id, start_ms);
  CREATE INDEX spans_run ON spans(run_id, start_ms);
  CREATE INDEX spans_open ON spans(span_id) WHERE end_ms IS NULL;
  CREATE TABLE hook_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    hook_id TEXT NOT NULL,
    hook_name TEXT NOT NULL,
    event TEXT NOT NULL,
    thread_id TEXT,
    run_id TEXT,
    span_id TEXT,
    started_at REAL NOT NULL,
    duration_ms REAL NOT NULL,
    payload TEXT NOT NULL,
    stdout TEXT NOT NULL,
    stderr TEXT NOT NULL,
    exit_code INTEGER,
    signal TEXT,
    timed_out INTEGER NOT NULL DEFAULT 0,
    decision TEXT NOT NULL,
    reason TEXT,
    error TEXT
  );
  CREATE INDEX hook_runs_started ON hook_runs(started_at);
  CREATE INDEX hook_runs_hook ON hook_runs(hook_id, started_at);
  `,
  // How each tool call ended (ToolStatus); NULL on rows written before it was kept.
  `ALTER TABLE messages ADD COLUMN status TEXT;`,
  // One run per thread across processes (lease-store.ts).
  `
  CREATE TABLE thread_leases (
    thread_id TEXT PRIMARY KEY,
    owner_pid INTEGER NOT NULL,
    owner_host TEXT NOT NULL,
    owner_nonce TEXT NOT NULL,
    heartbeat_at INTEGER NOT NULL
  );
  `,
  // Subagent runs: a child thread names its parent thread, the parent's tool call and its agent profile.
  `
  ALTER TABLE threads ADD COLUMN parent_thread_id TEXT;
  ALTER TABLE threads ADD COLUMN parent_tool_call_id TEXT;
  ALTER TABLE threads ADD COLUMN agent TEXT;
  CREATE INDEX threads_parent ON threads(parent_thread_id);
  `,
  // Run metadata, the event feed, webhook deliveries and run rescue (docs/events.md).
  `
  ALTER TABLE threads ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE messages ADD COLUMN metadata TEXT;
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    stop_reason TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    recipe TEXT,
    owner_pid INTEGER NOT NULL,
    owner_host TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    ended_at INTEGER
  );
  CREATE INDEX runs_thread ON runs(thread_id, created_at);
  CREATE INDEX runs_running ON runs(state) WHERE state = 'running';
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT,
    run_id TEXT,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    origin_pid INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX events_thread ON events(thread_id, seq);
  CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_seq INTEGER NOT NULL,
    url TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    claimed_until INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    delivered_at INTEGER
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_at) WHERE state = 'pending';
  `,
  // Checkpoints: the content of every agent write before and after it, for revert (checkpoint-store.ts).
  `
  CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    run_id TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    workspace TEXT NOT NULL,
    path TEXT NOT NULL,
    before BLOB,
    before_known INTEGER NOT NULL,
    after BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    reverted_at INTEGER
  );
  CREATE INDEX checkpoints_thread ON checkpoints(thread_id, id);
  `,
  // Command snapshots: the shadow git trees around each execute, its changed files as checkpoints.
  `
  ALTER TABLE checkpoints ADD COLUMN kind TEXT NOT NULL DEFAULT 'write';
  ALTER TABLE checkpoints ADD COLUMN before_mode TEXT;
  ALTER TABLE checkpoints ADD COLUMN after_mode TEXT;
  CREATE TABLE command_snapshots (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    run_id TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    workspace TEXT NOT NULL,
    before_tree TEXT,
    after_tree TEXT,
    skipped TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX command_snapshots_thread ON command_snapshots(thread_id, id);
  `,
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Reads `PRAGMA user_version`. */
export function schemaVersion(db: DatabaseSync): number {
  return Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
}

/**
 * Brings `db` to SCHEMA_VERSION, one transaction per migration.
 * Contract: re-running is a no-op; a database from a newer build throws instead of being touched;
 * before upgrading an existing database a copy is written next to it (`<file>.bak-v<old>`), so an
 * interrupted or buggy migration never loses a thread.
 */
export function migrate(db: DatabaseSync, file: string): void {
  const current = schemaVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `${file} has schema version ${current}, newer than this build supports (${SCHEMA_VERSION}); update the workbench`,
    );
  }
  if (current === SCHEMA_VERSION) return;
  if (current > 0 && file !== ':memory:') {
    const backup = `${file}.bak-v${current}`;
    db.prepare('VACUUM INTO ?').run(backup);
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(MIGRATIONS[v]);
      // user_version lives in the db header and is part of the transaction, so a crash here
      // leaves the old version and the migration simply reruns.
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
  }
}
