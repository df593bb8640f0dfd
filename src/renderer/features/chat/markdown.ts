/**
 * Model text → safe HTML: markdown-html.ts makes the HTML, DOMPurify sanitizes it last so nothing the
 * model writes can run script; only http(s)/mailto links survive.
 */
import DOMPurify from 'dompurify';
import { markdownHtml } from './markdown-html.ts';

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

/** Renders Markdown to sanitized HTML. Contract: the result has no script, handlers or javascript: URLs; may throw. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(markdownHtml(text));
}

/** HTML made from model text, made safe. Contract: the result has no script, handlers or javascript: URLs. */
export function sanitizeHtml(html: string): string {
  installHooks();
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
