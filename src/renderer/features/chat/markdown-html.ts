/**
 * Model text → HTML, unsanitized: marked for Markdown, highlight.js for code blocks (with a copy
 * button). Free of the DOM, so the Markdown worker (markdown-worker.ts) runs it too; markdown.ts
 * sanitizes whatever it returns before it reaches the page.
 */
import { Marked, type Tokens } from 'marked';
import hljs from 'highlight.js/lib/common';

/** `s` with the five HTML special characters escaped. Contract: safe as element text and attribute value. */
export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The language of a fence's info string: its first word. */
export const fenceLanguage = (info: string): string => info.trim().split(/\s/)[0] ?? '';

/**
 * The frame of a code block around `body`. Contract: `body` must already be safe HTML (escaped or
 * highlighted text); `lang` is escaped here.
 */
export function codeBlockHtml(lang: string, body: string): string {
  const label = lang ? `<span class="code-lang">${escapeHtml(lang)}</span>` : '';
  return `<div class="code-block">${label}<button type="button" class="code-copy" aria-label="Copy code">Copy</button><pre><code class="hljs">${body}</code></pre></div>`;
}

const warmed = new Set<string>();

/**
 * Compiles the highlighter's grammar for `lang` soon, in idle time (once per language), so the frame that
 * closes a streaming code block does not also pay for the first compile, which is several times
 * the cost of highlighting the block itself.
 */
export function warmLanguage(lang: string): void {
  if (!lang || warmed.has(lang) || !hljs.getLanguage(lang)) return;
  warmed.add(lang);
  const warm = () => {
    try {
      hljs.highlight('x', { language: lang });
    } catch {
      // A grammar that fails here fails when the block closes too, and renders escaped there.
    }
  };
  // A stream keeps frames busy: the timeout runs it as a task of its own when no idle time comes.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 50 });
  else setTimeout(warm, 0);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code(token: Tokens.Code) {
      const lang = fenceLanguage(token.lang ?? '');
      let body: string;
      try {
        body =
          lang && hljs.getLanguage(lang)
            ? hljs.highlight(token.text, { language: lang }).value
            : escapeHtml(token.text);
      } catch {
        body = escapeHtml(token.text);
      }
      return codeBlockHtml(lang, body);
    },
  },
});

/** Markdown to HTML as marked and highlight.js make it. Contract: NOT safe until sanitized; may throw. */
export function markdownHtml(text: string): string {
  return marked.parse(text, { async: false }) as string;
}

/**
 * A block shown as it was written, every character escaped: while it is formatted off the main
 * thread, or for good (with `note`) when formatting failed or took too long.
 */
export function plainBlockHtml(text: string, note?: string): string {
  const plain = `<div class="md-plain">${escapeHtml(text)}</div>`;
  return note ? `${plain}<p class="md-note">${escapeHtml(note)}</p>` : plain;
}

/** Why a block is shown as plain text when marked threw over it: the error's first line. */
export function cannotFormat(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `it could not be formatted (${message.split('\n')[0]!.trim()})`;
}
