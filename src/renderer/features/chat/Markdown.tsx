import { memo, useCallback, useMemo, type MouseEvent } from 'react';
import { renderMarkdown } from './markdown.ts';
import { openExternal } from '../../components/open-external.ts';

/** Sanitized Markdown with copy buttons on code blocks and links opened only after a confirm. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
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
  return <div className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
});
