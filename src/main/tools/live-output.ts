/**
 * Live output of a running command (docs/tools.md#live-output): chunks are decoded per stream,
 * batched for at most `intervalMs` so a flood becomes a few events, and bounded in total so a
 * command printing gigabytes cannot flood the UI. The result the model sees is built separately.
 */
import { StringDecoder } from 'node:string_decoder';
import type { OutputStream } from './process-group.ts';

/** Characters sent live per call before the rest is left to the final result. */
export const LIVE_OUTPUT_MAX_CHARS = 512 * 1024;

export interface LiveOutputOptions {
  emit(stream: OutputStream, chunk: string): void;
  /** Longest a chunk waits before it is sent (default 80 ms). */
  intervalMs?: number;
  maxChars?: number;
}

/** A live writer for one call. */
export interface LiveOutput {
  write(stream: OutputStream, chunk: Buffer): void;
  /** Sends what is pending now and stops the timer. Contract: nothing is emitted after it. */
  close(): void;
}

/**
 * Creates the batcher of one call.
 * Contract: the chunks keep their arrival order across both streams; consecutive chunks of one
 * stream are merged; at most `maxChars` characters (plus one truncation note) are emitted.
 */
export function createLiveOutput(opts: LiveOutputOptions): LiveOutput {
  const interval = opts.intervalMs ?? 80;
  const max = opts.maxChars ?? LIVE_OUTPUT_MAX_CHARS;
  const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  const pending: { stream: OutputStream; text: string }[] = [];
  let sent = 0;
  let truncated = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const queue = (stream: OutputStream, text: string): void => {
    if (!text || truncated) return;
    const room = max - sent;
    const take = text.length > room ? text.slice(0, room) : text;
    sent += take.length;
    const last = pending.at(-1);
    if (last?.stream === stream) last.text += take;
    else if (take) pending.push({ stream, text: take });
    if (take.length < text.length) {
      truncated = true;
      pending.push({
        stream: 'stderr',
        text: '\n[live output stopped here; the end of the output is in the result]\n',
      });
    }
  };
  const flush = (): void => {
    timer = undefined;
    for (const p of pending.splice(0)) opts.emit(p.stream, p.text);
  };
  return {
    write(stream, chunk) {
      if (closed) return;
      queue(stream, decoders[stream].write(chunk));
      if (!timer && pending.length) timer = setTimeout(flush, interval);
    },
    close() {
      if (closed) return;
      closed = true;
      queue('stdout', decoders.stdout.end());
      queue('stderr', decoders.stderr.end());
      if (timer) clearTimeout(timer);
      flush();
    },
  };
}
