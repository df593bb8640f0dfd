/**
 * The text of an answer while it streams, kept in chunks. A string grown with `+` is a rope that its
 * first read copies whole into one flat string; read every frame (the Markdown view does), a 100 KB
 * answer arriving in 64-character deltas was copied some 200 times, 10 MB of garbage for one answer
 * and O(n²) for longer ones. Here a delta joins a short tail; a full tail becomes a finished chunk, so
 * a frame reads only what arrived since the last (`streamFrom`). Values are immutable.
 */

export interface StreamText {
  /** Which stream this is: appending keeps it, a new stream (or a rewritten one) gets a new one. */
  readonly id: number;
  /** Finished chunks, each about CHUNK_CHARS long. */
  readonly chunks: readonly string[];
  /** The text after the chunks. */
  readonly tail: string;
  readonly length: number;
}

/** Length at which the tail becomes a chunk: reading the tail copies at most this much. */
const CHUNK_CHARS = 4096;

let nextId = 1;

export const EMPTY_STREAM: StreamText = { id: 0, chunks: [], tail: '', length: 0 };

/** A stream holding `text` (a new stream). */
export function streamOf(text: string): StreamText {
  return text ? { id: nextId++, chunks: [], tail: text, length: text.length } : EMPTY_STREAM;
}

/** `s` followed by `delta`. Contract: the result keeps `s.id` unless `s` is empty. */
export function appendStream(s: StreamText, delta: string): StreamText {
  if (!delta) return s;
  if (s.length === 0) return streamOf(delta);
  const tail = s.tail + delta;
  const length = s.length + delta.length;
  return tail.length >= CHUNK_CHARS
    ? { id: s.id, chunks: [...s.chunks, tail], tail: '', length }
    : { id: s.id, chunks: s.chunks, tail, length };
}

/** The text of `s` from character `start` on: joins only the chunks that reach past `start`. */
export function streamFrom(s: StreamText, start: number): string {
  let at = s.length - s.tail.length;
  if (start >= at) return s.tail.slice(start - at);
  const parts = [s.tail];
  for (let i = s.chunks.length - 1; i >= 0 && at > start; i--) {
    const chunk = s.chunks[i]!;
    at -= chunk.length;
    parts.push(at < start ? chunk.slice(start - at) : chunk);
  }
  return parts.reverse().join('');
}

/** The whole text of `s`. */
export const streamText = (s: StreamText): string => streamFrom(s, 0);
