import { memo, useCallback, useRef, type MouseEvent } from 'react';
import { openExternal } from '../../components/open-external.ts';
import { renderBlock, splitBlocks, type BlockSplit } from './markdown-blocks.ts';

/** One top-level block; memoized, so a growing answer re-renders only its last block. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: renderBlock(text) }} />;
});

/** Sanitized Markdown with copy buttons on code blocks and links opened only after a confirm. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const split = useRef<BlockSplit | undefined>(undefined);
  const s = splitBlocks(text, split.current);
  split.current = s;
  const open = text.slice(s.openStart);
  const blocks = open.trim() ? [...s.blocks, open] : s.blocks;
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
        <MarkdownBlock key={i} text={b} />
      ))}
    </div>
  );
});
