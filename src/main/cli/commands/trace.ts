/**
 * `workbench trace export|import|show`: a thread's spans as OTLP JSON (Jaeger, collectors) or Chrome
 * trace JSON (Perfetto), imports of OTLP files (to compare runs), and a text tree in the terminal,
 * all through the Workbench's trace service (the same one the Trace panel uses).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { SpanRecord } from '../../../shared/types/index.ts';
import type { Workbench } from '../../api/types.ts';
import { errorMessage, WorkbenchError } from '../../errors.ts';
import { parse } from '../args.ts';
import { withWorkbench } from '../open-workbench.ts';
import { UsageError, type CliCommand, type CliIo } from '../types.ts';

const USAGE = `usage:
  workbench trace export THREAD_ID --format otlp|chrome [--out FILE] [--content]
  workbench trace import FILE [--thread ID]
  workbench trace show THREAD_ID [--json]`;

function spansOf(wb: Workbench, threadId: string, io: CliIo): SpanRecord[] | undefined {
  const spans = wb.trace.list({ threadId });
  if (spans.length === 0) io.stderr(`workbench trace: no spans for thread ${threadId}\n`);
  return spans.length ? spans : undefined;
}

async function exportTrace(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, {
    format: { type: 'string' },
    out: { type: 'string' },
    content: { type: 'boolean' },
  });
  const threadId = positionals[0];
  if (!threadId) throw new UsageError(`trace export needs a THREAD_ID\n${USAGE}`);
  const format = values.format;
  if (format !== 'otlp' && format !== 'chrome')
    throw new UsageError('--format must be otlp or chrome');
  const captureContent = values.content ?? false;
  return withWorkbench(io, {}, (wb) => {
    const spans = spansOf(wb, threadId, io);
    if (!spans) return 1;
    const { content } = wb.trace.export({ threadId, format, captureContent });
    if (values.out) {
      writeFileSync(resolve(io.cwd, values.out), content);
      io.stderr(
        `wrote ${spans.length} spans to ${values.out}${captureContent ? ' (with content)' : ''}\n`,
      );
    } else io.stdout(content);
    return 0;
  });
}

/**
 * Imported spans get fresh span and run ids (links rewritten) so a file can be imported next to the
 * thread it came from without replacing its rows; trace ids are kept so runs stay recognisable.
 */
async function importTrace(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { thread: { type: 'string' } });
  const file = positionals[0];
  if (!file) throw new UsageError(`trace import needs a FILE\n${USAGE}`);
  let content: string;
  try {
    content = readFileSync(resolve(io.cwd, file), 'utf8');
  } catch (err) {
    io.stderr(`workbench trace: cannot read ${file}: ${errorMessage(err)}\n`);
    return 1;
  }
  return withWorkbench(io, {}, (wb) => {
    try {
      const r = wb.trace.import({ content, name: basename(file), threadId: values.thread });
      io.stdout(`imported ${r.spans} spans (${r.runs} runs) into thread ${r.threadId}\n`);
      return 0;
    } catch (err) {
      if (!(err instanceof WorkbenchError)) throw err;
      io.stderr(`workbench trace: ${file}: ${err.message}\n`);
      return 1;
    }
  });
}

async function showTrace(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } });
  const threadId = positionals[0];
  if (!threadId) throw new UsageError(`trace show needs a THREAD_ID\n${USAGE}`);
  return withWorkbench(io, {}, async (wb) => {
    const spans = spansOf(wb, threadId, io);
    if (!spans) return 1;
    if (values.json) io.stdout(`${JSON.stringify(spans, null, 2)}\n`);
    else io.stdout((await import('../../tracing/tree-text.ts')).formatSpanTree(spans));
    return 0;
  });
}

/** `workbench trace …`. Contract: exit 0 ok, 1 missing thread/spans or unreadable file, 2 bad usage. */
export const traceCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === 'export') return exportTrace(rest, io);
  if (sub === 'import') return importTrace(rest, io);
  if (sub === 'show') return showTrace(rest, io);
  throw new UsageError(`expected export, import or show\n${USAGE}`);
};
