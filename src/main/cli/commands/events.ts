/**
 * `workbench events [--follow] [--json] [--thread ID] [--since SEQ]`: prints the event feed of
 * $WORKBENCH_HOME (docs/events.md), and with `--follow` keeps printing what any process appends
 * until interrupted.
 */
import type { FeedEvent } from '../../../shared/types/index.ts';
import { followFeed } from '../../events/feed-follower.ts';
import { openDatabase } from '../../store/database.ts';
import { homePaths, resolveHome } from '../../store/paths.ts';
import { parse } from '../args.ts';
import { UsageError, type CliCommand } from '../types.ts';

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export const eventsCommand: CliCommand = async (argv, io) => {
  const { values, positionals } = parse(argv, {
    follow: { type: 'boolean', short: 'f' },
    json: { type: 'boolean' },
    thread: { type: 'string' },
    since: { type: 'string' },
  });
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const since = values.since === undefined ? undefined : Number(values.since);
  if (since !== undefined && (!Number.isInteger(since) || since < 0))
    throw new UsageError(`--since needs a whole number ≥ 0, got "${values.since}"`);
  const db = openDatabase(homePaths(resolveHome(io.env)).db);
  const print = values.json
    ? (e: FeedEvent) => io.stdout(`${JSON.stringify(e)}\n`)
    : (e: FeedEvent) => io.stdout(`${line(e)}\n`);
  try {
    // Without --follow, everything after --since; with it and no --since, only what comes next.
    const start = since ?? (values.follow ? db.events.lastSeq() : 0);
    const follower = followFeed({
      events: db.events,
      since: start,
      threadId: values.thread,
      onEvent: print,
      keepAlive: true,
    });
    follower.poll();
    if (!values.follow) {
      follower.stop();
      return 0;
    }
    await untilSignal();
    follower.stop();
    follower.poll();
    return 0;
  } finally {
    db.close();
  }
};

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      for (const sig of STOP_SIGNALS) process.removeListener(sig, stop);
      resolve();
    };
    for (const sig of STOP_SIGNALS) process.on(sig, stop);
  });
}

/** One event as a terminal line: seq, time, type, thread, run and the gist of its data. */
function line(e: FeedEvent): string {
  const time = new Date(e.created_at).toISOString().slice(11, 23);
  return `${String(e.seq).padStart(6)}  ${time}  ${e.type.padEnd(17)}  ${e.thread_id ?? '-'}  ${e.run_id ?? '-'}  ${gist(e)}`;
}

function gist(e: FeedEvent): string {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'run_state_changed':
      return `${String(d.previous_state)} → ${String(d.state)}`;
    case 'run_finalized':
      return `${String(d.state)} (${String(d.stop_reason)})`;
    case 'message': {
      const m = d.message as { role: string; content: string };
      return `${m.role}: ${m.content.replace(/\s+/g, ' ').slice(0, 80)}`;
    }
    case 'tool_pending':
      return String(d.tool_name);
    case 'hook_end':
      return `${String(d.hook)} ${String(d.event)} ${d.ok ? 'ok' : 'failed'}`;
    default:
      return JSON.stringify(d).slice(0, 100);
  }
}
