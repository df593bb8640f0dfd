/** Shared fakes for tracing tests: an in-memory sink, a stepping clock, a minimal RunContext. */
import type { RunContext } from '../../../src/main/pipeline/hook.ts';
import { defaultAgentProfile } from '../../../src/main/agents/profile.ts';
import { createTraceRecorder, type RecorderWithStats } from '../../../src/main/tracing/recorder.ts';
import { DEFAULT_SETTINGS, type SpanRecord } from '../../../src/shared/types/index.ts';

export interface MemorySink {
  starts: SpanRecord[];
  ends: SpanRecord[];
  /** Latest snapshot per span id (what an upserting store would hold). */
  spans(): SpanRecord[];
  onStart(span: SpanRecord): void;
  onEnd(span: SpanRecord): void;
}

export function memorySink(): MemorySink {
  const latest = new Map<string, SpanRecord>();
  const sink: MemorySink = {
    starts: [],
    ends: [],
    spans: () => [...latest.values()],
    onStart(span) {
      sink.starts.push(span);
      latest.set(span.span_id, span);
    },
    onEnd(span) {
      sink.ends.push(span);
      latest.set(span.span_id, span);
    },
  };
  return sink;
}

/** A clock that advances 1.5 ms per reading: deterministic, ordered, with sub-ms fractions. */
export function steppingClock(start = 1_700_000_000_000.125, step = 1.5): () => number {
  let t = start;
  return () => {
    const now = t;
    t += step;
    return now;
  };
}

export function recorderWithSink(opts: { now?: () => number } = {}): { recorder: RecorderWithStats; sink: MemorySink } {
  const sink = memorySink();
  const recorder = createTraceRecorder({ threadId: 'th_test', runId: 'run_1', sink, now: opts.now });
  return { recorder, sink };
}

export function fakeContext(extra: Partial<RunContext> = {}): RunContext {
  return {
    threadId: 'th_test',
    runId: 'run_1',
    workspace: { root: '/ws' } as RunContext['workspace'],
    home: '/home',
    model: 'gpt-test',
    llm: { chat: async () => ({ content: '', tool_calls: [] }) },
    settings: DEFAULT_SETTINGS,
    profile: defaultAgentProfile('/ws'),
    signal: new AbortController().signal,
    state: { thread_id: 'th_test', messages: [], todos: [], files: {} },
    tools: { get: () => undefined } as unknown as RunContext['tools'],
    trusted: true,
    emit: () => undefined,
    recordFile: () => undefined,
    setTodos: () => undefined,
    ...extra,
  };
}

/** Resolves after `n` macrotask turns: lets concurrent work interleave without wall-clock sleeps. */
export async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}
