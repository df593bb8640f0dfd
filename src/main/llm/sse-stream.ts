/**
 * Reads a started chat-completion stream (SSE over a Node response) into one `LlmResponse`: chunks
 * go to the accumulator as they arrive; any break resolves `interrupted` with a one-line reason.
 */
import type { IncomingMessage } from 'node:http';
import type { LlmResponse } from './types.ts';
import { createStreamAccumulator } from './stream-accumulator.ts';
import type { ChunkLike } from './stream-accumulator.ts';
import { createSseParser, SseTooLongError } from './sse-lines.ts';
import { networkCode, scrub } from './error-mapping.ts';
import { errorMessage } from '../errors.ts';

/** What `readStream` reports to and asks of its caller. */
export interface StreamOptions {
  /** Aborting it destroys the response; `stalled()` then says whether the idle timer did it. */
  signal: AbortSignal;
  /** Called per JSON chunk (re-arms the idle timer). */
  onChunk(): void;
  onFirstChunk?: () => void;
  onDelta?: (text: string) => void;
  /** Scrubbed from every reason. */
  apiKey: string;
  /** The reason when the idle timer fired, else undefined. */
  stalled(): string | undefined;
}

/** After `[DONE]` the rest of the response may take this long to end before its socket is dropped. */
const DRAIN_MS = 1000;

/** An `event: error` or a `{"error": …}` chunk in the stream. */
class StreamErrorEvent extends Error {}

/**
 * Reads the stream until `[DONE]`, its end, a break or an abort.
 * Contract: never rejects; `interrupted` (no tool calls) unless the model finished; an abort resolves
 * interrupted too (the caller turns it into its AbortError); the response is destroyed unless it
 * ended cleanly, so a broken connection is never reused.
 */
export function readStream(body: IncomingMessage, o: StreamOptions): Promise<LlmResponse> {
  return new Promise((resolve) => {
    const acc = createStreamAccumulator();
    let first = true;
    let settled = false;

    const settle = (response: LlmResponse) => {
      if (settled) return;
      settled = true;
      o.signal.removeEventListener('abort', onAbort);
      resolve(response);
    };
    const broke = (err: unknown) => {
      if (settled) return;
      body.destroy();
      settle(acc.interrupt(o.stalled() ?? scrub(describeBreak(err), o.apiKey)));
    };
    const onAbort = () => broke(new Error('cancelled'));
    o.signal.addEventListener('abort', onAbort, { once: true });

    const parser = createSseParser(({ event, data }) => {
      if (settled) return;
      if (data === '[DONE]') {
        if (!body.complete) {
          // Usually only the end of the chunked body is still on its way; the socket stays kept alive.
          const drop = setTimeout(() => body.destroy(), DRAIN_MS);
          drop.unref();
          body.once('end', () => clearTimeout(drop));
        }
        settle(acc.finished ? acc.finish() : unfinished());
        return;
      }
      const chunk = JSON.parse(data) as (ChunkLike & { error?: unknown }) | null;
      if (event === 'error') throw new StreamErrorEvent(errorText(chunk?.error ?? chunk));
      if (chunk === null || typeof chunk !== 'object') return;
      if (chunk.error) throw new StreamErrorEvent(errorText(chunk.error));
      o.onChunk();
      if (first) {
        first = false;
        o.onFirstChunk?.();
      }
      const text = acc.push(chunk);
      if (text) o.onDelta?.(text);
    });
    const unfinished = () => acc.interrupt('the stream ended before the model finished');

    body.on('data', (bytes: Buffer) => {
      if (settled) return;
      try {
        parser.push(bytes);
      } catch (err) {
        broke(err);
      }
    });
    body.on('end', () => {
      if (settled) return;
      try {
        parser.end();
      } catch (err) {
        return broke(err);
      }
      settle(acc.finished ? acc.finish() : unfinished());
    });
    body.on('error', (err) => broke(err));
    body.on('close', () => broke(new Error('')));
  });
}

/** The message of a server's error object, as OpenAI clients show it. */
function errorText(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === 'string') return message;
  if (message !== undefined && message !== null) return JSON.stringify(message);
  return JSON.stringify(error) ?? 'unknown error';
}

/** Why a started stream broke, in one line. */
function describeBreak(err: unknown): string {
  if (err instanceof SyntaxError) return 'the server sent malformed stream data';
  if (err instanceof SseTooLongError) return err.message;
  if (err instanceof StreamErrorEvent)
    return `the server reported an error mid-stream: ${err.message}`;
  const why = errorMessage(err);
  // Node reports a peer that closed mid-response as a bare "aborted", which says nothing to a user.
  if (why === 'aborted' || why === '') return 'the connection was lost mid-stream';
  const code = networkCode(err);
  if (code) return `the connection was lost mid-stream (${code})`;
  return `the connection was lost mid-stream (${why})`;
}
