import { describe, expect, it } from 'vitest';
import {
  MAX_EVENT_CHARS,
  SseTooLongError,
  createSseParser,
} from '../../../src/main/llm/sse-lines.ts';
import type { SseEvent } from '../../../src/main/llm/sse-lines.ts';

function parse(pieces: Buffer[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((e) => events.push(e));
  for (const p of pieces) parser.push(p);
  parser.end();
  return events;
}

const STREAM =
  ': keep-alive\r\n' +
  '\r\n' +
  'data: {"a":"é😀"}\r\n\r\n' +
  'event: error\n' +
  'data: line one\n' +
  'data:line two\n' +
  'id: 7\n' +
  '\n' +
  'data: cr only\r\r' +
  'event: ping\n\n' +
  'data: [DONE]\n\n' +
  'data: never finished';

const EXPECTED: SseEvent[] = [
  { data: '{"a":"é😀"}' },
  { event: 'error', data: 'line one\nline two' },
  { data: 'cr only' },
  { data: '[DONE]' },
];

describe('createSseParser', () => {
  it('parses a whole stream: comments, CRLF, CR, multi-line data, event names', () => {
    expect(parse([Buffer.from(STREAM)])).toEqual(EXPECTED);
  });

  it('gives the same events when the bytes arrive one at a time', () => {
    const bytes = Buffer.from(STREAM);
    const pieces = [...bytes].map((b) => Buffer.from([b]));
    expect(parse(pieces)).toEqual(EXPECTED);
  });

  it('gives the same events for every split into two pieces', () => {
    const bytes = Buffer.from(STREAM);
    for (let i = 1; i < bytes.length; i++) {
      expect(parse([bytes.subarray(0, i), bytes.subarray(i)])).toEqual(EXPECTED);
    }
  });

  it('takes an event of up to 16 MB and refuses a longer line or event', () => {
    const events: SseEvent[] = [];
    const parser = createSseParser((e) => events.push(e));
    const big = 'y'.repeat(MAX_EVENT_CHARS - 1);
    parser.push(Buffer.from(`data: ${big}\n\n`));
    expect(events).toEqual([{ data: big }]);

    const endless = createSseParser(() => {});
    endless.push(Buffer.from(`data: ${'z'.repeat(MAX_EVENT_CHARS - 10)}`));
    expect(() => endless.push(Buffer.from('z'.repeat(20)))).toThrow(SseTooLongError);

    const lines = createSseParser(() => {});
    const line = `data: ${'w'.repeat(1024 * 1024)}\n`;
    expect(() => {
      for (let i = 0; i < 17; i++) lines.push(Buffer.from(line));
    }).toThrow('the server sent a stream event over 16 MB');
  });
});
