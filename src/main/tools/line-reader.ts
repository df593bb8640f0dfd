/** Streams a page of lines from a file without ever holding a whole file or a whole huge line. */
import { read } from 'node:fs';

/** A page of lines read from a file. */
export interface LinePage {
  /** The lines read, without their line ending, each cut to `maxLineChars`. */
  lines: string[];
  /** 1-based number of the first line in `lines`. */
  first: number;
  /** Lines that were cut to `maxLineChars`, by index in `lines`. */
  cut: Set<number>;
  /** True when the file has more content after the page. */
  more: boolean;
  /** Lines seen in total (only the whole file when `more` is false). */
  linesSeen: number;
}

/** Which lines to read and the caps that apply. */
export interface LinePageOptions {
  offset: number; // 1-based first line
  limit: number;
  maxLineChars: number;
  /** Stop early when the page's text grows past this many characters. */
  maxPageChars: number;
  signal?: AbortSignal;
}

/**
 * Reads lines `offset .. offset+limit-1` of an open UTF-8 file (a descriptor; invalid bytes become
 * U+FFFD), or of a file's whole content already read.
 * Contract: reads from the start of the file; leaves the descriptor open for the caller to close.
 */
export async function readLinePage(
  file: number | Buffer,
  opts: LinePageOptions,
): Promise<LinePage> {
  const page: LinePage = { lines: [], first: opts.offset, cut: new Set(), more: false, linesSeen: 0 };
  const decoder = new TextDecoder('utf-8');
  const chunks = Buffer.isBuffer(file) ? [file] : chunksOf(file, opts.signal);
  let current = '';
  let currentCut = false;
  let lineNo = 1;
  let pageChars = 0;
  let done = false;
  const finishLine = (): void => {
    if (current.endsWith('\r')) current = current.slice(0, -1);
    if (lineNo >= opts.offset) {
      if (currentCut) page.cut.add(page.lines.length);
      page.lines.push(current);
      pageChars += current.length + 8;
    }
    page.linesSeen = lineNo;
    lineNo++;
    current = '';
    currentCut = false;
  };
  const pageFull = () => page.lines.length >= opts.limit || pageChars >= opts.maxPageChars;
  const append = (text: string): void => {
    if (lineNo < opts.offset) return; // lines before the page are only counted
    const room = opts.maxLineChars + 1 - current.length; // one extra char to know it was cut
    if (room > 0) current += text.length > room ? text.slice(0, room) : text;
    if (current.length > opts.maxLineChars) {
      current = current.slice(0, opts.maxLineChars);
      currentCut = true;
    }
  };
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    let pos = 0;
    while (pos <= text.length) {
      if (pageFull()) {
        if (pos < text.length) page.more = true;
        break;
      }
      const nl = text.indexOf('\n', pos);
      if (nl === -1) {
        append(text.slice(pos));
        break;
      }
      append(text.slice(pos, nl));
      finishLine();
      pos = nl + 1;
    }
    if (page.more) {
      done = true;
      break;
    }
  }
  if (!done) {
    const tail = decoder.decode();
    if (tail) append(tail);
    if (current.length > 0 || currentCut) {
      if (pageFull()) page.more = true;
      else finishLine();
    }
  }
  return page;
}

/**
 * The file's bytes from the start in 64 KB chunks, one positional read at a time on the thread pool
 * (a page deep in a huge file stays cancellable between chunks). No read is left in flight when the
 * caller stops, so it may close the descriptor at once.
 */
async function* chunksOf(fd: number, signal?: AbortSignal): AsyncGenerator<Buffer> {
  for (let position = 0; ; ) {
    signal?.throwIfAborted();
    const buf = Buffer.allocUnsafe(64 * 1024);
    const n = await new Promise<number>((resolve, reject) =>
      read(fd, buf, 0, buf.length, position, (err, bytes) => (err ? reject(err) : resolve(bytes))),
    );
    if (n === 0) return;
    position += n;
    yield buf.subarray(0, n);
  }
}
