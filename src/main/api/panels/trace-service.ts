/**
 * The trace domain of the Workbench (`trace.*` channels): a thread's spans for the timeline, file
 * exports (OTLP JSON, Chrome trace) with content capture per settings, OTLP imports into a new thread,
 * and the stored hook run behind a hook span (payload, stdout, stderr).
 */
import type { HookRunRecord, SpanRecord } from '../../../shared/types/index.ts';
import type { HookRunStore, SpanStore, ThreadStore } from '../../store/types.ts';
import { toChromeTrace } from '../../tracing/chrome-trace.ts';
import { toOtlpJson } from '../../tracing/otlp-encode.ts';
import { fromOtlpJson } from '../../tracing/otlp-decode.ts';
import { WorkbenchError, errorMessage } from '../../errors.ts';
import { renewIds } from './trace-import.ts';

export type TraceExportFormat = 'otlp' | 'chrome';

export interface TraceServiceDeps {
  spans: SpanStore;
  threads: Omit<ThreadStore, 'children'> & Partial<Pick<ThreadStore, 'children'>>;
  hookRuns: HookRunStore;
  /** Writes buffered span updates so a list sees the running run's latest spans. */
  flush?: () => void;
  /** Runs `fn` in one transaction (imports of 20,000 spans). */
  transaction?: <T>(fn: () => T) => T;
  /** `settings.tracing.capture_content` at the time of the call. */
  captureContent: () => boolean;
  /** Workspace of the thread an import creates. */
  workspace: string;
}

export interface TraceService {
  /** Every span of a thread and of its subagents' child threads, ordered by start. */
  list(args: { threadId: string }): SpanRecord[];
  /**
   * A file for download.
   * Contract: content attributes are dropped unless `captureContent` (default: the setting) is on.
   */
  export(args: { threadId: string; format: TraceExportFormat; captureContent?: boolean }): {
    filename: string;
    content: string;
  };
  /**
   * Imports an OTLP JSON text into `threadId`, or a new thread titled after `name`.
   * Contract: a bad file throws WorkbenchError invalid_args.
   */
  import(args: { content: string; name?: string; threadId?: string }): {
    threadId: string;
    spans: number;
    runs: number;
  };
  /** The stored run of a hook span, or null (in-process hooks and old runs have none). */
  hookRun(args: { threadId: string; spanId: string }): HookRunRecord | null;
}

/** Creates the trace service over the database's stores. */
export function createTraceService(deps: TraceServiceDeps): TraceService {
  const tx = deps.transaction ?? (<T>(fn: () => T) => fn());
  /** The thread's spans and those of its subagents' child threads, which nest under its task spans. */
  function list(threadId: string): SpanRecord[] {
    deps.flush?.();
    const spans = deps.spans.listByThread(threadId);
    const children = deps.threads.children?.(threadId) ?? [];
    if (children.length === 0) return spans;
    return [...spans, ...children.flatMap((c) => list(c.thread_id))].sort((a, b) => a.start_ms - b.start_ms);
  }
  return {
    list: (a) => list(a.threadId),
    export(a) {
      const spans = list(a.threadId);
      const captureContent = a.captureContent ?? deps.captureContent();
      const doc =
        a.format === 'otlp'
          ? toOtlpJson(spans, { captureContent })
          : toChromeTrace(spans, { captureContent });
      const ext = a.format === 'otlp' ? 'otlp.json' : 'perfetto.json';
      return { filename: `trace-${a.threadId}.${ext}`, content: `${JSON.stringify(doc)}\n` };
    },
    import(a) {
      let doc: unknown;
      try {
        doc = JSON.parse(a.content);
      } catch (err) {
        throw new WorkbenchError('invalid_args', `not JSON: ${errorMessage(err)}`, { cause: err });
      }
      if (typeof doc === 'object' && doc !== null && 'traceEvents' in doc) {
        throw new WorkbenchError(
          'invalid_args',
          'Chrome trace files cannot be imported (they lose span ids); export OTLP instead',
        );
      }
      let decoded: SpanRecord[];
      try {
        decoded = fromOtlpJson(doc);
      } catch (err) {
        throw new WorkbenchError('invalid_args', errorMessage(err), { cause: err });
      }
      if (decoded.length === 0) throw new WorkbenchError('invalid_args', 'the file holds no spans');
      let threadId = a.threadId;
      if (!threadId) {
        threadId = deps.threads.loadOrCreate(undefined, deps.workspace).thread_id;
        deps.threads.setTitle(threadId, `imported trace${a.name ? ` ${a.name}` : ''}`);
      }
      const spans = renewIds(decoded, threadId);
      tx(() => {
        for (const s of spans) deps.spans.upsert(s);
      });
      return { threadId, spans: spans.length, runs: new Set(spans.map((s) => s.run_id)).size };
    },
    hookRun(a) {
      const runs = deps.hookRuns.recent({ threadId: a.threadId, limit: 5000 });
      return runs.find((r) => r.span_id === a.spanId) ?? null;
    },
  };
}
