/**
 * The Markdown worker: formats blocks off the main thread (markdown-offload.ts), so a block that
 * marked or highlight.js take long over — a big table, or text written to be slow to parse — never
 * holds the page, and can be given up on by ending this worker.
 */
import { cannotFormat, markdownHtml } from './markdown-html.ts';

export interface FormatRequest {
  id: number;
  text: string;
}

/** The HTML, or why there is none (`cannotFormat`). */
export type FormatAnswer = { id: number; html: string } | { id: number; failed: string };

self.onmessage = (e: MessageEvent<FormatRequest>) => {
  const { id, text } = e.data;
  let answer: FormatAnswer;
  try {
    answer = { id, html: markdownHtml(text) };
  } catch (err) {
    answer = { id, failed: cannotFormat(err) };
  }
  self.postMessage(answer);
};
