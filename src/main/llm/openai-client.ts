/**
 * The `LlmClient` over any OpenAI-compatible endpoint, on the `openai` SDK with the SDK's retries off:
 * we retry ourselves, only before the stream starts, so a half-streamed answer is never repeated.
 */
import OpenAI, { APIError } from 'openai';
import type { ChatOptions, LlmClient, LlmResponse, ModelRequest } from './types.ts';
import { LlmError } from './types.ts';
import { requestBody } from './request-body.ts';
import { createStreamAccumulator } from './stream-accumulator.ts';
import { classifyError, networkCode, scrub } from './error-mapping.ts';
import type { ClassifiedError } from './error-mapping.ts';
import { abortError, sleep } from '../abort.ts';
import { backoffDelay, parseRetryAfter } from './retry.ts';
import { errorMessage } from '../errors.ts';

/** Options of `createOpenAiClient`. */
export interface OpenAiClientOptions {
  /** May be '' for local servers that need no key. */
  apiKey: string;
  /** Must include the version path, e.g. http://127.0.0.1:11434/v1. */
  baseURL: string;
  fetch?: typeof fetch;
  /** Retries before the stream starts (429, 5xx, connection errors); default 3. */
  maxRetries?: number;
  /** No chunk for this long aborts the request; default 60 000. */
  idleTimeoutMs?: number;
  /** Overall cap for getting the response headers; default the SDK's 10 minutes. */
  requestTimeoutMs?: number;
  /** First backoff delay; default 500 (doubles per attempt). */
  retryBaseMs?: number;
  /** Largest backoff delay; default 8 000. */
  retryCapMs?: number;
  /** Largest honoured `Retry-After`; default 30 000. */
  maxRetryAfterMs?: number;
}

type Attempt =
  { kind: 'done'; response: LlmResponse } | { kind: 'failed'; failure: ClassifiedError };

/**
 * Creates an LlmClient for an OpenAI-compatible endpoint.
 * Contract: see `LlmClient` — a broken stream resolves `interrupted` with no tool calls; failures before
 * the stream rejects with one-line `LlmError`s that never contain the key; aborts reject `AbortError`.
 */
export function createOpenAiClient(opts: OpenAiClientOptions): LlmClient {
  const baseURL = opts.baseURL.replace(/\/+$/, '');
  const maxRetries = opts.maxRetries ?? 3;
  const idleMs = opts.idleTimeoutMs ?? 60_000;
  const sdk = new OpenAI({
    // The SDK refuses to start without a key; local servers ignore this placeholder.
    apiKey: opts.apiKey || 'no-key',
    baseURL,
    fetch: opts.fetch,
    maxRetries: 0,
    timeout: opts.requestTimeoutMs,
    // The SDK logs malformed SSE lines to the console; we report them through `error` instead.
    logLevel: 'off',
  });
  const ctx = { baseURL, apiKey: opts.apiKey };

  async function attempt(req: ModelRequest, o: ChatOptions): Promise<Attempt> {
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort(o.signal.reason);
    o.signal.addEventListener('abort', onAbort, { once: true });
    let idleFired = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        idleFired = true;
        ctrl.abort();
      }, idleMs);
    };
    const secs = `${Math.round(idleMs / 100) / 10} s`;
    arm();
    try {
      let stream: AsyncIterable<unknown>;
      try {
        // The body is sent as built by requestBody (each message serialized once per thread); the
        // params object only tells the SDK to read the answer as a stream.
        stream = await sdk.chat.completions.create(
          { model: req.model, messages: [], stream: true },
          {
            signal: ctrl.signal,
            maxRetries: 0,
            body: requestBody(req),
            headers: { 'content-type': 'application/json' },
          },
        );
      } catch (err) {
        if (o.signal.aborted) throw abortError(o.signal);
        if (idleFired) {
          const error = new LlmError('timeout', `${baseURL} sent no answer for ${secs}`);
          return { kind: 'failed', failure: { error, retryable: true } };
        }
        return { kind: 'failed', failure: classifyError(err, { ...ctx, model: req.model }) };
      }
      // From here on the stream has started: never retry, never return a half-built tool call.
      const acc = createStreamAccumulator();
      let first = true;
      try {
        for await (const chunk of stream) {
          arm();
          if (first) {
            first = false;
            o.onFirstChunk?.();
          }
          const text = acc.push(chunk as Parameters<typeof acc.push>[0]);
          if (text) o.onDelta?.(text);
        }
      } catch (err) {
        if (o.signal.aborted) throw abortError(o.signal);
        if (idleFired) return done(acc.interrupt(`the stream stalled: no data for ${secs}`));
        return done(acc.interrupt(scrub(describeBreak(err), opts.apiKey)));
      }
      // The SDK ends iteration quietly on abort, so the flags tell us why it stopped.
      if (o.signal.aborted) throw abortError(o.signal);
      if (idleFired) return done(acc.interrupt(`the stream stalled: no data for ${secs}`));
      if (!acc.finished) return done(acc.interrupt('the stream ended before the model finished'));
      return done(acc.finish());
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

function done(response: LlmResponse): Attempt {
  return { kind: 'done', response };
}

/** Why a started stream broke, in one line. */
function describeBreak(err: unknown): string {
  if (err instanceof SyntaxError) return 'the server sent malformed stream data';
  if (err instanceof APIError) return `the server reported an error mid-stream: ${err.message}`;
  const code = networkCode(err);
  if (code) return `the connection was lost mid-stream (${code})`;
  const why = errorMessage(err);
  // undici reports a dropped socket as a bare "terminated", which says nothing to a user.
  if (why === 'terminated' || why === '') return 'the connection was lost mid-stream';
  return `the connection was lost mid-stream (${why})`;
}
