/**
 * The `LlmClient` over any OpenAI-compatible endpoint, on `node:http(s)` with one kept-alive
 * connection and its own SSE parser (docs/performance.md). We retry ourselves, only before the
 * stream starts, so a half-streamed answer is never repeated.
 */
import type { ChatOptions, LlmClient, LlmResponse, ModelRequest } from './types.ts';
import { LlmError } from './types.ts';
import { requestBodyChunks } from './request-body.ts';
import { createHttpTransport, headerGetter, readText } from './http-transport.ts';
import type { HttpResponse } from './http-transport.ts';
import { readStream } from './sse-stream.ts';
import { classifyError, classifyStatus, serverMessage } from './error-mapping.ts';
import type { ClassifiedError } from './error-mapping.ts';
import { abortError, sleep } from '../abort.ts';
import { backoffDelay, parseRetryAfter } from './retry.ts';
import { seconds } from '../seconds.ts';

/** Options of `createOpenAiClient`. */
export interface OpenAiClientOptions {
  /** May be '' for local servers that need no key (then no authorization header is sent). */
  apiKey: string;
  /** Must include the version path, e.g. http://127.0.0.1:11434/v1. */
  baseURL: string;
  /** Retries before the stream starts (429, 5xx, connection errors); default 3. */
  maxRetries?: number;
  /** No chunk for this long aborts the request; default 60 000. */
  idleTimeoutMs?: number;
  /** Overall cap for getting the response headers; default 10 minutes. */
  requestTimeoutMs?: number;
  /** First backoff delay; default 500 (doubles per attempt). */
  retryBaseMs?: number;
  /** Largest backoff delay; default 8 000. */
  retryCapMs?: number;
  /** Largest honoured `Retry-After`; default 30 000. */
  maxRetryAfterMs?: number;
}

/** An error body is read up to this size for its message. */
const ERROR_BODY_MAX = 64 * 1024;

type Attempt =
  { kind: 'done'; response: LlmResponse } | { kind: 'failed'; failure: ClassifiedError };

/**
 * Creates an LlmClient for an OpenAI-compatible endpoint.
 * Contract: see `LlmClient` — a broken stream resolves `interrupted` with no tool calls; failures before
 * the stream rejects with one-line `LlmError`s that never contain the key; aborts reject `AbortError`.
 * Consecutive calls reuse one kept-alive connection.
 */
export function createOpenAiClient(opts: OpenAiClientOptions): LlmClient {
  const baseURL = opts.baseURL.replace(/\/+$/, '');
  const url = `${baseURL}/chat/completions`;
  const maxRetries = opts.maxRetries ?? 3;
  const idleMs = opts.idleTimeoutMs ?? 60_000;
  const requestTimeoutMs = opts.requestTimeoutMs ?? 600_000;
  const transport = createHttpTransport();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'user-agent': 'agent-workbench',
  };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  const ctx = { baseURL, apiKey: opts.apiKey };

  async function attempt(req: ModelRequest, o: ChatOptions): Promise<Attempt> {
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort(o.signal.reason);
    o.signal.addEventListener('abort', onAbort, { once: true });
    let idleFired = false;
    // One timer per attempt, pushed back on every chunk (refresh is cheaper than a new timer).
    const timer = setTimeout(() => {
      idleFired = true;
      ctrl.abort();
    }, idleMs);
    const arm = () => void timer.refresh();
    const secs = `${seconds(idleMs)} s`;
    const noAnswer = (): Attempt => {
      const error = new LlmError('timeout', `${baseURL} sent no answer for ${secs}`);
      return { kind: 'failed', failure: { error, retryable: true } };
    };
    try {
      let res: HttpResponse;
      try {
        // The body is sent exactly as requestBodyChunks built it (each message serialized once per thread).
        res = await transport.send({
          method: 'POST',
          url,
          headers,
          body: requestBodyChunks(req),
          signal: ctrl.signal,
          timeoutMs: requestTimeoutMs,
        });
      } catch (err) {
        if (o.signal.aborted) throw abortError(o.signal);
        if (idleFired) return noAnswer();
        return { kind: 'failed', failure: classifyError(err, { ...ctx, model: req.model }) };
      }
      if (res.status < 200 || res.status > 299) {
        const destroy = () => res.body.destroy();
        ctrl.signal.addEventListener('abort', destroy, { once: true });
        const text = await readText(res.body, ERROR_BODY_MAX);
        ctrl.signal.removeEventListener('abort', destroy);
        if (o.signal.aborted) throw abortError(o.signal);
        const failure = classifyStatus(
          res.status,
          serverMessage(text),
          { ...ctx, model: req.model },
          headerGetter(res.headers),
        );
        return { kind: 'failed', failure };
      }
      // From here on the stream has started: never retry, never return a half-built tool call.
      const response = await readStream(res.body, {
        signal: ctrl.signal,
        onChunk: arm,
        onFirstChunk: o.onFirstChunk,
        onDelta: o.onDelta,
        apiKey: opts.apiKey,
        stalled: () => (idleFired ? `the stream stalled: no data for ${secs}` : undefined),
      });
      if (o.signal.aborted) throw abortError(o.signal);
      return { kind: 'done', response };
    } finally {
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
    }
  }

  return {
    async chat(req, o) {
      if (o.signal.aborted) throw abortError(o.signal);
      for (let n = 0; ; n++) {
        const result = await attempt(req, o);
        if (result.kind === 'done') return result.response;
        const { error, retryable, retryAfterHeaders } = result.failure;
        if (!retryable || n >= maxRetries) throw error;
        const requested = parseRetryAfter(retryAfterHeaders);
        const delay =
          requested !== undefined
            ? Math.min(requested, opts.maxRetryAfterMs ?? 30_000)
            : backoffDelay(n, { baseMs: opts.retryBaseMs ?? 500, capMs: opts.retryCapMs ?? 8_000 });
        o.onRetry?.(n + 1, delay, error.message);
        await sleep(delay, o.signal);
      }
    },
  };
}
