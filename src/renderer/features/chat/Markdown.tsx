import { memo, useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { openExternal } from '../../components/open-external.ts';
import type { StreamText } from '../../stores/stream-text.ts';
import { plainBlockHtml } from './markdown-html.ts';
import {
  blockHtml,
  isRendered,
  renderDraftBlock,
  whenFormatted,
  splitBlocks,
  splitStream,
  type BlockSplit,
  type StreamSplit,
} from './markdown-blocks.ts';

/** Runs `fn` when the page is idle, at the latest after `timeout` ms; returns the cancel. */
function whenIdle(fn: () => void, timeout: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 0);
  return () => clearTimeout(id);
}

/**
 * One top-level block; memoized, so a growing answer re-renders only its last block. With
 * `draftFence` (where an open code fence starts in a streaming block) its code is drawn unhighlighted.
 * While the answer streams, a block whose fence just closed keeps its draft for a moment: it is
 * highlighted and sanitized in a task of its own (idle time, at most 100 ms later), not in the frame
 * that also takes the next chunk. A big block is formatted in the worker; until it is, a streaming
 * block keeps what it showed and any other block shows its text as written.
 */
const MarkdownBlock = memo(function MarkdownBlock({
  text,
  draftFence,
  streaming,
}: {
  text: string;
  draftFence?: number;
  streaming: boolean;
}) {
  const shown = useRef<{ html: string; draft: boolean } | undefined>(undefined);
  const [, rendered] = useState(0);
  const waiting =
    draftFence === undefined && streaming && shown.current?.draft === true && !isRendered(text);
  let html: string | undefined;
  if (draftFence !== undefined) html = renderDraftBlock(text, draftFence);
  else if (waiting) html = shown.current!.html;
  else html = blockHtml(text);
  const formatting = html === undefined;
  html ??= (streaming ? shown.current?.html : undefined) ?? plainBlockHtml(text);
  shown.current = { html, draft: draftFence !== undefined || waiting };
  useEffect(() => {
    if (!waiting) return;
    let stopWaiting = () => {};
    const stopIdle = whenIdle(() => {
      if (blockHtml(text) !== undefined) rendered((n) => n + 1);
      else stopWaiting = whenFormatted(text, () => rendered((n) => n + 1));
    }, 100);
    return () => {
      stopIdle();
      stopWaiting();
    };
  }, [waiting, text]);
  useEffect(() => {
    if (!formatting) return;
    return whenFormatted(text, () => rendered((n) => n + 1));
  }, [formatting, text]);
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
});

/** The blocks to draw and where an open code fence starts in the last one. */
interface Blocks {
  finished: readonly string[];
  open: string;
  /** Where the open block's code fence starts, when it is inside one. */
  openFence?: number;
}

/** The blocks of a split: `finished` ones, then its open block (`split` positions). */
function blocksOf(finished: readonly string[], split: BlockSplit): Blocks {
  const fence = split.fence !== null ? split.fenceStart - split.openStart : undefined;
  return { finished, open: split.text.slice(split.openStart), openFence: fence };
}

/**
 * Splits the text, continuing the last split of the same kind: a whole text that grew is scanned
 * from where it was, a stream reads only what arrived since the last frame (`useRef` state).
 */
function useBlocks(text: string | StreamText): Blocks {
  const whole = useRef<BlockSplit | undefined>(undefined);
  const streamed = useRef<StreamSplit | undefined>(undefined);
  if (typeof text === 'string') {
    const s = splitBlocks(text, whole.current);
    whole.current = s;
    return blocksOf(s.blocks, s);
  }
  const s = splitStream(text, streamed.current);
  streamed.current = s;
  return blocksOf(s.blocks, s.rest);
}

/**
 * Sanitized Markdown with copy buttons on code blocks and links opened only after a confirm.
 * `text` is a finished text or, while an answer streams, its StreamText (read piece by piece).
 * Contract: `streaming` only changes how a code fence looks while it is open or has just closed
 * (plain until it is highlighted); without it every block is rendered in full, so the finished
 * message is the same HTML either way.
 */
export const Markdown = memo(function Markdown({
  text,
  streaming = false,
}: {
  text: string | StreamText;
  streaming?: boolean;
}) {
  const { finished, open, openFence } = useBlocks(text);
  const blocks = open.trim() ? [...finished, open] : finished;
  // An open fence is always in the open block: finished blocks end outside fences.
  const draftFence = streaming ? openFence : undefined;
  const onClick = useCallback((e: MouseEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    const copy = target.closest('button.code-copy');
    if (copy) {
      const code = copy.parentElement?.querySelector('code')?.textContent ?? '';
      void navigator.clipboard?.writeText(code).then(() => {
        copy.textContent = 'Copied';
        setTimeout(() => (copy.textContent = 'Copy'), 1200);
      });
      return;
    }
    const link = target.closest('a');
    if (link) {
      e.preventDefault();
      const href = link.getAttribute('href');
      if (href) openExternal(href);
    }
  }, []);
  return (
    <div className="markdown" onClick={onClick}>
      {blocks.map((b, i) => (
        <MarkdownBlock
          key={i}
          text={b}
          draftFence={i === finished.length ? draftFence : undefined}
          streaming={streaming}
        />
      ))}
    </div>
  );
});
