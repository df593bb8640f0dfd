/**
 * Splits Markdown into top-level blocks at blank lines outside code fences, incrementally, so a
 * streaming answer re-renders only its last, still-growing block; finished blocks keep their HTML
 * in a bounded cache that the final message reuses (docs/performance.md). Pure apart from the cache.
 */
import { renderMarkdown } from './markdown.ts';

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
}

const EMPTY: BlockSplit = { text: '', blocks: [], openStart: 0, scanned: 0, fence: null };
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Blocks of `text`. Contract: when `prev` split a prefix of `text`, only the new whole lines are
 * scanned; joining the blocks and the open rest gives back `text` exactly.
 */
export function splitBlocks(text: string, prev: BlockSplit = EMPTY): BlockSplit {
  const base = text.length >= prev.text.length && text.startsWith(prev.text) ? prev : EMPTY;
  const blocks = base === prev ? [...prev.blocks] : [];
  let { openStart, scanned, fence } = base;
  for (;;) {
    const nl = text.indexOf('\n', scanned);
    if (nl < 0) break;
    const line = text.slice(scanned, nl);
    const lineEnd = nl + 1;
    const marker = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (marker) fence = marker;
      else if (line.trim() === '' && text.slice(openStart, scanned).trim() !== '') {
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
  return { text, blocks, openStart, scanned, fence };
}

/** Longest total of cached HTML kept, in characters. */
const CACHE_CHARS = 4_000_000;
const cache = new Map<string, string>();
let cached = 0;

/** The sanitized HTML of one block, from the cache when the same block was rendered before. */
export function renderBlock(block: string): string {
  const hit = cache.get(block);
  if (hit !== undefined) {
    cache.delete(block);
    cache.set(block, hit);
    return hit;
  }
  const html = renderMarkdown(block);
  cache.set(block, html);
  cached += block.length + html.length;
  for (const [k, v] of cache) {
    if (cached <= CACHE_CHARS) break;
    cache.delete(k);
    cached -= k.length + v.length;
  }
  return html;
}
