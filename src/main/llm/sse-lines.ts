/**
 * A server-sent-events parser over raw response bytes (bytes → lines → events, by the EventSource
 * rules), with no web streams in between (docs/performance.md, the model client).
 */
import { StringDecoder } from 'node:string_decoder';

/** One dispatched event: its `event:` name (when the server sent one) and its joined `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** Feeds response bytes in; calls `onEvent` for each complete event. */
export interface SseParser {
  push(bytes: Buffer): void;
  /** Contract: an event the stream ended in the middle of (no blank line after it) is dropped. */
  end(): void;
}

/**
 * The most characters one event (or one line) may hold. A chunk of a chat-completion stream is a few
 * hundred bytes; a server that sends more without ending its line or event is broken, and holding
 * what it sends would take this process's memory instead.
 */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** A stream whose line or event is longer than MAX_EVENT_CHARS. */
export class SseTooLongError extends Error {}

/**
 * Creates a parser calling `onEvent` once per event (a blank line ends an event).
 * Contract: lines end in LF, CRLF or CR; bytes may be split anywhere, also inside a UTF-8 character;
 * `:` comments and unknown fields are ignored; several `data:` lines join with '\n'; a leading
 * space after the colon is dropped; an event with no `data:` line is not dispatched.
 * An exception thrown by `onEvent` propagates out of `push`, and so does SseTooLongError.
 */
export function createSseParser(onEvent: (e: SseEvent) => void): SseParser {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  // A chunk ending in '\r' may be the first half of a CRLF: the '\n' opening the next chunk is skipped.
  let afterCr = false;
  let data: string | undefined;
  let event: string | undefined;
  const tooLong = () => {
    throw new SseTooLongError(
      `the server sent a stream event over ${MAX_EVENT_CHARS / 1024 / 1024} MB`,
    );
  };

  const line = (text: string) => {
    if (text === '') {
      if (data !== undefined) {
        const e: SseEvent = event === undefined ? { data } : { event, data };
        data = undefined;
        event = undefined;
        onEvent(e);
      }
      event = undefined;
      return;
    }
    if (text.charCodeAt(0) === 58 /* ':' */) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 32 /* ' ' */) value = value.slice(1);
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    else if (field === 'event') event = value;
    if (data !== undefined && data.length > MAX_EVENT_CHARS) tooLong();
  };

  const feed = (text: string) => {
    let start = 0;
    if (afterCr && text.charCodeAt(0) === 10) start = 1;
    afterCr = false;
    const n = text.length;
    for (let i = start; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      const piece = text.slice(start, i);
      const full = rest === '' ? piece : rest + piece;
      rest = '';
      if (c === 13) {
        if (i + 1 < n) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else afterCr = true;
      }
      start = i + 1;
      line(full);
    }
    if (start < n) rest += text.slice(start);
    if (rest.length > MAX_EVENT_CHARS) tooLong();
  };

  return {
    push(bytes) {
      const text = decoder.write(bytes);
      if (text !== '') feed(text);
    },
    end() {
      const text = decoder.end();
      if (text !== '') feed(text);
      rest = '';
      data = undefined;
      event = undefined;
    },
  };
}
