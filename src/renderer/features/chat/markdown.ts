/**
 * Model text → safe HTML: marked for Markdown, highlight.js for code blocks (with a copy button),
 * DOMPurify last so nothing the model writes can run script; only http(s)/mailto links survive.
 */
import { Marked, type Tokens } from 'marked';
import DOMPurify from 'dompurify';
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

const SAFE_URL = /^(?:https?:|mailto:|#)/i;
let hooked = false;

function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (!SAFE_URL.test(href.trim())) node.removeAttribute('href');
      node.setAttribute('rel', 'noopener noreferrer');
      node.setAttribute('target', '_blank');
    }
    if (node.tagName === 'IMG') {
      // Remote images would leak that the user read this text; only inline data images stay.
      const src = node.getAttribute('src') ?? '';
      if (!/^data:image\/(png|gif|jpeg|webp);/i.test(src)) node.removeAttribute('src');
    }
  });
}

/** Renders Markdown to sanitized HTML. Contract: the result has no script, handlers or javascript: URLs. */
export function renderMarkdown(text: string): string {
  installHooks();
  const html = marked.parse(text, { async: false }) as string;
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: [
      'style',
      'form',
      'input',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
      'svg',
      'math',
    ],
    FORBID_ATTR: ['style'],
    ALLOW_DATA_ATTR: false,
  });
}
