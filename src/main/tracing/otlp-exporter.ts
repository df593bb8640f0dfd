/**
 * Live OTLP/HTTP JSON exporter (docs/tracing.md): bounded queue, batched POSTs to
 * `<endpoint>/v1/traces`, retries on 429/5xx honouring Retry-After. The agent only ever calls the
 * synchronous, O(1) `enqueue`; all network work happens on an unref'd timer.
 */
import type { SpanRecord } from '../../shared/types/index.ts';
import { toOtlpJson } from './otlp-encode.ts';
import { errorMessage } from '../errors.ts';

export interface OtlpExporterOptions {
  /** Collector base URL, e.g. http://localhost:4318 (a URL already ending in /v1/traces is used as is). */
  endpoint: string;
  headers?: Record<string, string>;
  captureContent: boolean;
  batchSize?: number;
  flushMs?: number;
  maxQueue?: number;
  /** Retries per batch after the first attempt. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry (Retry-After wins when the server sends it). */
  retryBaseMs?: number;
  /** Longest wait we accept, for backoff and Retry-After alike. */
  maxRetryDelayMs?: number;
  requestTimeoutMs?: number;
  fetch?: typeof fetch;
  serviceName?: string;
}

export interface OtlpExporterStats {
  sent: number;
  dropped: number;
  failed: number;
  queued: number;
  lastError?: string;
}

export interface OtlpExporter {
  /** Queues an ended span. Contract: synchronous, O(1), never throws; drops the oldest span when full. */
  enqueue(span: SpanRecord): void;
  /** Sends everything queued now. Contract: never rejects. */
  flush(): Promise<void>;
  /** Stops the timer and flushes; later enqueues are dropped. */
  shutdown(): Promise<void>;
  stats(): OtlpExporterStats;
}

const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

/** Retry-After as ms: delta-seconds or an HTTP date; undefined when absent or unparsable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const secs = Number(header);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function tracesUrl(endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '');
  return base.endsWith('/v1/traces') ? base : `${base}/v1/traces`;
}

/** Background waits must not keep the process alive; waits during shutdown must. */
function sleep(ms: number, keepAlive: boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    if (!keepAlive) t.unref?.();
  });
}

/** Longest retry wait while shutting down: quitting the app must not hang on a slow collector. */
const SHUTDOWN_MAX_DELAY_MS = 1000;

/** Creates the exporter; the flush timer never keeps the process alive. */
export function createOtlpHttpExporter(opts: OtlpExporterOptions): OtlpExporter {
  const batchSize = opts.batchSize ?? 256;
  const maxQueue = Math.max(1, opts.maxQueue ?? 2048);
  const maxRetries = opts.maxRetries ?? 4;
  const retryBaseMs = opts.retryBaseMs ?? 500;
  const maxRetryDelayMs = opts.maxRetryDelayMs ?? 30_000;
  const timeoutMs = opts.requestTimeoutMs ?? 10_000;
  const doFetch = opts.fetch ?? fetch;
  const url = tracesUrl(opts.endpoint);

  // Ring buffer: enqueue and drop-oldest are O(1) whatever the queue length.
  const ring: (SpanRecord | undefined)[] = new Array(maxQueue);
  let head = 0;
  let size = 0;
  const stats: OtlpExporterStats = { sent: 0, dropped: 0, failed: 0, queued: 0 };
  let inFlight: Promise<void> | undefined;
  let closed = false;
  let closing = false;
  let kick: NodeJS.Immediate | undefined;

  const timer = setInterval(() => void flush(), opts.flushMs ?? 2000);
  timer.unref?.();

  function take(n: number): SpanRecord[] {
    const out: SpanRecord[] = [];
    while (size > 0 && out.length < n) {
      out.push(ring[head] as SpanRecord);
      ring[head] = undefined;
      head = (head + 1) % maxQueue;
      size--;
    }
    return out;
  }

  async function post(batch: SpanRecord[]): Promise<void> {
    const body = JSON.stringify(toOtlpJson(batch, { captureContent: opts.captureContent, serviceName: opts.serviceName }));
    for (let attempt = 0; ; attempt++) {
      let delay = Math.min(maxRetryDelayMs, retryBaseMs * 2 ** attempt);
      try {
        const res = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...opts.headers },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        // Drain the body so keep-alive sockets are reused; its content does not matter on success.
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) {
          stats.sent += batch.length;
          return;
        }
        stats.lastError =
          res.status === 415 ? 'HTTP 415: this server does not accept OTLP JSON (it wants http/protobuf)' : `HTTP ${res.status}`;
        if (!RETRYABLE.has(res.status)) break;
        const after = parseRetryAfter(res.headers.get('retry-after'));
        if (after !== undefined) delay = Math.min(maxRetryDelayMs, after);
      } catch (err) {
        stats.lastError = errorMessage(err);
      }
      if (attempt >= maxRetries || closed) break;
      await sleep(closing ? Math.min(delay, SHUTDOWN_MAX_DELAY_MS) : delay, closing);
    }
    stats.failed += batch.length;
  }

  async function drain(): Promise<void> {
    while (size > 0) await post(take(batchSize));
  }

  function flush(): Promise<void> {
    // One export at a time: a second flush waits for the running one, then sends what is left.
    const run = (inFlight ?? Promise.resolve()).then(drain).catch((err: unknown) => {
      stats.lastError = errorMessage(err);
    });
    inFlight = run;
    void run.finally(() => {
      if (inFlight === run) inFlight = undefined;
    });
    return run;
  }

  return {
    enqueue(span) {
      if (closed || span.end_ms === undefined) {
        if (closed) stats.dropped++;
        return;
      }
      if (size === maxQueue) {
        ring[head] = undefined;
        head = (head + 1) % maxQueue;
        size--;
        stats.dropped++;
      }
      ring[(head + size) % maxQueue] = span;
      size++;
      if (size >= batchSize && !kick && !inFlight) {
        kick = setImmediate(() => {
          kick = undefined;
          void flush();
        });
        kick.unref?.();
      }
    },
    flush,
    async shutdown() {
      closing = true;
      clearInterval(timer);
      if (kick) clearImmediate(kick);
      await flush();
      closed = true;
    },
    stats: () => ({ ...stats, queued: size }),
  };
}
