import { memo, useCallback, useRef, type MouseEvent } from 'react';
import { openExternal } from '../../components/open-external.ts';
import { renderBlock, renderDraftBlock, splitBlocks, type BlockSplit } from './markdown-blocks.ts';

/**
 * One top-level block; memoized, so a growing answer re-renders only its last block. With
 * `draftFence` (where an open code fence starts in a streaming block) its code is drawn unhighlighted.
 */
const MarkdownBlock = memo(function MarkdownBlock({
  text,
  draftFence,
}: {
  text: string;
  draftFence?: number;
}) {
  const html = draftFence === undefined ? renderBlock(text) : renderDraftBlock(text, draftFence);
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
});

/**
 * Sanitized Markdown with copy buttons on code blocks and links opened only after a confirm.
 * Contract: `streaming` only changes how an open code fence at the end looks (plain until it closes);
 * without it every block is rendered in full, so the finished message is the same HTML either way.
 */
export const Markdown = memo(function Markdown({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}) {
  const split = useRef<BlockSplit | undefined>(undefined);
  const s = splitBlocks(text, split.current);
  split.current = s;
  const open = text.slice(s.openStart);
  const blocks = open.trim() ? [...s.blocks, open] : s.blocks;
  // An open fence is always in the open block: finished blocks end outside fences.
  const draftFence = streaming && s.fence !== null ? s.fenceStart - s.openStart : undefined;
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
          draftFence={i === s.blocks.length ? draftFence : undefined}
        />
      ))}
    </div>
  );
});
