/**
 * Splits Markdown into top-level blocks at blank lines outside code fences, incrementally, so a
 * streaming answer re-renders only its last, still-growing block; finished blocks keep their HTML
 * in a bounded cache that the final message reuses (docs/performance.md). Small blocks are formatted
 * in the frame that draws them, bigger ones in a worker with a deadline (markdown-offload.ts); a
 * block that cannot be formatted, or not in time, is shown as plain text with a note saying why.
 * Pure apart from the cache and the worker.
 */
import { streamFrom, type StreamText } from '../../stores/stream-text.ts';
import {
  cannotFormat,
  codeBlockHtml,
  escapeHtml,
  fenceLanguage,
  plainBlockHtml,
  warmLanguage,
} from './markdown-html.ts';
import { renderMarkdown, sanitizeHtml } from './markdown.ts';
import { formatOffThread } from './markdown-offload.ts';

/** Where a split of some text stands; pass it back with a longer text to continue from there. */
export interface BlockSplit {
  text: string;
  /** Finished blocks, each ending with its blank line(s). */
  blocks: string[];
  /** Start of the open (last, unfinished) block. */
  openStart: number;
  /** Start of the first line not scanned yet (only whole lines are scanned). */
  scanned: number;
  /** The fence (``` or ~~~ run) of the code block being scanned, if inside one. */
  fence: string | null;
  /** Start of the line that opened `fence` (meaningless when `fence` is null). */
  fenceStart: number;
}

const EMPTY: BlockSplit = {
  text: '',
  blocks: [],
  openStart: 0,
  scanned: 0,
  fence: null,
  fenceStart: 0,
};
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Blocks of `text`. Contract: when `prev` split a prefix of `text`, only the new whole lines are
 * scanned; joining the blocks and the open rest gives back `text` exactly.
 */
export function splitBlocks(text: string, prev: BlockSplit = EMPTY): BlockSplit {
  const base = text.length >= prev.text.length && text.startsWith(prev.text) ? prev : EMPTY;
  const blocks = base === prev ? [...prev.blocks] : [];
  let { openStart, scanned, fence, fenceStart } = base;
  for (;;) {
    const nl = text.indexOf('\n', scanned);
    if (nl < 0) break;
    const line = text.slice(scanned, nl);
    const lineEnd = nl + 1;
    const marker = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (marker) {
        fence = marker;
        fenceStart = scanned;
      } else if (line.trim() === '' && text.slice(openStart, scanned).trim() !== '') {
        blocks.push(text.slice(openStart, lineEnd));
        openStart = lineEnd;
      }
    } else if (
      marker &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      line.trim() === marker
    ) {
      fence = null;
    }
    scanned = lineEnd;
  }
  return { text, blocks, openStart, scanned, fence, fenceStart };
}

/**
 * Where a split of a streaming answer stands: its finished blocks, and the split of the rest (the
 * open block and what follows) with positions counted from the rest's start.
 */
export interface StreamSplit {
  /** The stream split so far (its id) and how far (its length). */
  id: number;
  length: number;
  blocks: string[];
  rest: BlockSplit;
}

const EMPTY_STREAM_SPLIT: StreamSplit = { id: -1, length: 0, blocks: [], rest: EMPTY };

/**
 * Blocks of a streaming answer. Contract: as `splitBlocks` on the whole text, but a call continuing
 * the stream `prev` split reads only the open block and the text that arrived since, never the
 * finished blocks again.
 */
export function splitStream(s: StreamText, prev: StreamSplit = EMPTY_STREAM_SPLIT): StreamSplit {
  const base = prev.id === s.id && prev.length <= s.length ? prev : EMPTY_STREAM_SPLIT;
  const rest = splitBlocks(base.rest.text + streamFrom(s, base.length), base.rest);
  if (rest.blocks.length === 0) return { id: s.id, length: s.length, blocks: base.blocks, rest };
  // Finished blocks leave the rest, which starts again at the open block.
  const shift = rest.openStart;
  return {
    id: s.id,
    length: s.length,
    blocks: [...base.blocks, ...rest.blocks],
    rest: {
      text: rest.text.slice(shift),
      blocks: [],
      openStart: 0,
      scanned: rest.scanned - shift,
      fence: rest.fence,
      fenceStart: Math.max(0, rest.fenceStart - shift),
    },
  };
}

/** Longest total of cached HTML kept, in characters. */
const CACHE_CHARS = 4_000_000;
const cache = new Map<string, string>();
let cached = 0;

/** Blank lines after a block's last line: they do not change its HTML. */
const TRAILING_BLANK = /(?:\n[ \t]*)+$/;

/**
 * Blocks up to this many characters are formatted in the frame that draws them: marked takes a few
 * milliseconds over such a block even when it was written to be slow to parse (nested quotes,
 * thousands of emphasis marks); over a big one it can take seconds.
 */
export const SYNC_BLOCK_CHARS = 2048;

/**
 * The sanitized HTML of one block: from the cache, else formatted now when it is small; undefined
 * for a big one not formatted yet (`whenFormatted` has it formatted off the main thread).
 * Contract: never throws; trailing blank lines are ignored, so the last block of a stream, once
 * finished by its blank line, is a cache hit instead of being highlighted and sanitized again.
 */
export function blockHtml(text: string): string | undefined {
  const block = text.replace(TRAILING_BLANK, '');
  const hit = cache.get(block);
  if (hit !== undefined) {
    cache.delete(block);
    cache.set(block, hit);
    return hit;
  }
  if (block.length > SYNC_BLOCK_CHARS) return undefined;
  let html: string;
  try {
    html = renderMarkdown(block);
  } catch (err) {
    html = plainBlockHtml(block, plainNote(cannotFormat(err)));
  }
  remember(block, html);
  return html;
}

/**
 * Has the worker format a block `blockHtml` left undefined and calls `done` once its HTML (or its
 * plain-text fallback) is in the cache. Contract: returns a function that stops waiting.
 */
export function whenFormatted(text: string, done: () => void): () => void {
  const block = text.replace(TRAILING_BLANK, '');
  return formatOffThread(block, (result) => {
    let html: string;
    try {
      html =
        'html' in result
          ? sanitizeHtml(result.html)
          : plainBlockHtml(block, plainNote(result.failed));
    } catch (err) {
      html = plainBlockHtml(block, plainNote(cannotFormat(err)));
    }
    remember(block, html);
    done();
  });
}

/** The note under a block shown as written, `why` being the reason. */
const plainNote = (why: string) => `Shown as plain text: ${why}.`;

function remember(block: string, html: string): void {
  cache.set(block, html);
  cached += block.length + html.length;
  for (const [k, v] of cache) {
    if (cached <= CACHE_CHARS) break;
    cache.delete(k);
    cached -= k.length + v.length;
  }
}

/** True when `blockHtml(text)` would answer from the cache. */
export function isRendered(text: string): boolean {
  return cache.has(text.replace(TRAILING_BLANK, ''));
}

/**
 * The HTML of a streaming block whose code fence is still open, `fenceAt` being where its fence line
 * starts: the text before the fence as `blockHtml` renders it (as written while a worker formats
 * it), the code so far as escaped plain text in the frame of a code block. Highlighting (and
 * sanitizing the highlighted HTML) waits for
 * the closing fence, so a growing code block costs only an escape per frame; meanwhile the
 * language's grammar is compiled in idle time.
 * Contract: the result is safe HTML (everything the model wrote is escaped or sanitized).
 */
export function renderDraftBlock(block: string, fenceAt: number): string {
  const before = block.slice(0, fenceAt);
  const lineEnd = block.indexOf('\n', fenceAt);
  const fenceLine = lineEnd < 0 ? block.slice(fenceAt) : block.slice(fenceAt, lineEnd);
  const [, indent = '', marker = ''] = /^( {0,3})(`{3,}|~{3,})/.exec(fenceLine) ?? [];
  const lang = fenceLanguage(fenceLine.slice(indent.length + marker.length));
  warmLanguage(lang);
  // Like a closed fence: each code line loses up to the fence's indentation.
  const strip = indent ? new RegExp(`^ {1,${indent.length}}`, 'gm') : null;
  const code = lineEnd < 0 ? '' : block.slice(lineEnd + 1);
  const head = before.trim() ? (blockHtml(before) ?? plainBlockHtml(before)) : '';
  return head + codeBlockHtml(lang, escapeHtml(strip ? code.replace(strip, '') : code));
}
