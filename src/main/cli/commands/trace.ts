/**
 * `workbench trace export|import|show`: a thread's spans as OTLP JSON (Jaeger, collectors) or Chrome
 * trace JSON (Perfetto), imports of OTLP files (to compare runs), and a text tree in the terminal.
 * The store and exporters load lazily so `workbench trace --help`-style mistakes stay cheap.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { SpanRecord } from '../../../shared/types/index.ts';
import type { Database } from '../../store/types.ts';
import { parse } from '../args.ts';
import { UsageError, type CliCommand, type CliIo } from '../types.ts';

const USAGE = `usage:
  workbench trace export THREAD_ID --format otlp|chrome [--out FILE] [--content]
  workbench trace import FILE [--thread ID]
  workbench trace show THREAD_ID [--json]`;

async function withDatabase<T>(io: CliIo, fn: (db: Database) => T | Promise<T>): Promise<T> {
  const { openDatabase } = await import('../../store/database.ts');
  const { homePaths, resolveHome } = await import('../../store/paths.ts');
  const db = openDatabase(homePaths(resolveHome(io.env)).db);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

function spansOf(db: Database, threadId: string, io: CliIo): SpanRecord[] | undefined {
  const spans = db.spans.listByThread(threadId);
  if (spans.length === 0) io.stderr(`workbench trace: no spans for thread ${threadId}\n`);
  return spans.length ? spans : undefined;
}

async function exportTrace(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { format: { type: 'string' }, out: { type: 'string' }, content: { type: 'boolean' } });
  const threadId = positionals[0];
  if (!threadId) throw new UsageError(`trace export needs a THREAD_ID\n${USAGE}`);
  if (values.format !== 'otlp' && values.format !== 'chrome') throw new UsageError('--format must be otlp or chrome');
  const spans = await withDatabase(io, (db) => spansOf(db, threadId, io));
  if (!spans) return 1;
  const captureContent = values.content ?? false;
  let doc: unknown;
  if (values.format === 'otlp') doc = (await import('../../tracing/otlp-encode.ts')).toOtlpJson(spans, { captureContent });
  else doc = (await import('../../tracing/chrome-trace.ts')).toChromeTrace(spans, { captureContent });
  const text = `${JSON.stringify(doc)}\n`;
  if (values.out) {
    writeFileSync(resolve(io.cwd, values.out), text);
    io.stderr(`wrote ${spans.length} spans to ${values.out}${captureContent ? ' (with content)' : ''}\n`);
  } else io.stdout(text);
  return 0;
}

/**
 * Imported spans get fresh span and run ids (links rewritten) so a file can be imported next to the
 * thread it came from without replacing its rows; trace ids are kept so runs stay recognisable.
 */
async function importTrace(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { thread: { type: 'string' } });
  const file = positionals[0];
  if (!file) throw new UsageError(`trace import needs a FILE\n${USAGE}`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(resolve(io.cwd, file), 'utf8'));
  } catch (err) {
    io.stderr(`workbench trace: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  if (typeof doc === 'object' && doc !== null && 'traceEvents' in doc) {
    io.stderr('workbench trace: Chrome trace files cannot be imported (they lose span ids); export OTLP instead\n');
    return 1;
  }
  const { fromOtlpJson } = await import('../../tracing/otlp-decode.ts');
  const { newSpanId } = await import('../../tracing/ids.ts');
  let spans: SpanRecord[];
  try {
    spans = fromOtlpJson(doc);
  } catch (err) {
    io.stderr(`workbench trace: ${file}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  return withDatabase(io, (db) => {
    const threadId = values.thread ?? db.threads.loadOrCreate(undefined, io.cwd).thread_id;
    if (!values.thread) db.threads.setTitle(threadId, `imported trace ${basename(file)}`);
    const spanIds = new Map(spans.map((s) => [s.span_id, newSpanId()]));
    const runIds = new Map<string, string>();
    for (const s of spans) if (!runIds.has(s.run_id)) runIds.set(s.run_id, `imp_${newSpanId().slice(0, 12)}`);
    db.transaction(() => {
      for (const s of spans) {
        const parent = s.parent_span_id ? (spanIds.get(s.parent_span_id) ?? s.parent_span_id) : undefined;
        const copy: SpanRecord = { ...s, span_id: spanIds.get(s.span_id) as string, run_id: runIds.get(s.run_id) as string, thread_id: threadId };
        if (parent) copy.parent_span_id = parent;
        db.spans.upsert(copy);
      }
    });
    io.stdout(`imported ${spans.length} spans (${runIds.size} runs) into thread ${threadId}\n`);
    return 0;
  });
}

async function showTrace(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } });
  const threadId = positionals[0];
  if (!threadId) throw new UsageError(`trace show needs a THREAD_ID\n${USAGE}`);
  const spans = await withDatabase(io, (db) => spansOf(db, threadId, io));
  if (!spans) return 1;
  if (values.json) io.stdout(`${JSON.stringify(spans, null, 2)}\n`);
  else io.stdout((await import('../../tracing/tree-text.ts')).formatSpanTree(spans));
  return 0;
}

/** `workbench trace …`. Contract: exit 0 ok, 1 missing thread/spans or unreadable file, 2 bad usage. */
export const traceCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === 'export') return exportTrace(rest, io);
  if (sub === 'import') return importTrace(rest, io);
  if (sub === 'show') return showTrace(rest, io);
  throw new UsageError(`expected export, import or show\n${USAGE}`);
};
