/**
 * Formats Markdown blocks in a worker (markdown-worker.ts), one at a time, each within a deadline: a
 * block the worker has not answered in time is given up on by ending the worker (a new one takes the
 * next block). Blocks nobody waits for any more (a streaming block that has grown since) are skipped.
 * Where workers do not exist (unit tests in Node) blocks are formatted at once, without a deadline.
 */
import { cannotFormat, markdownHtml } from './markdown-html.ts';
import type { FormatAnswer, FormatRequest } from './markdown-worker.ts';

/** How long the worker may take over one block before it is ended and the block shown as plain text. */
export const FORMAT_DEADLINE_MS = 1500;

/** What formatting a block came to: unsanitized HTML, or why there is none. */
export type Formatted = { html: string } | { failed: string };

type Listener = (result: Formatted) => void;

interface Job {
  text: string;
  listeners: Set<Listener>;
}

const jobs = new Map<string, Job>();
let worker: Worker | undefined;
let running: { id: number; job: Job; timer: ReturnType<typeof setTimeout> } | undefined;
let nextId = 1;

/**
 * Formats `text` and calls `done` with the result (later, never during this call, when a worker is
 * used). Contract: returns a function that stops waiting; a block nobody waits for is not formatted.
 */
export function formatOffThread(text: string, done: Listener): () => void {
  if (typeof Worker !== 'function') {
    let waiting = true;
    queueMicrotask(() => {
      if (waiting) done(formatHere(text));
    });
    return () => {
      waiting = false;
    };
  }
  let job = jobs.get(text);
  if (!job) {
    job = { text, listeners: new Set() };
    jobs.set(text, job);
  }
  const listener: Listener = (r) => done(r);
  job.listeners.add(listener);
  startNext();
  const waiting = job;
  return () => {
    waiting.listeners.delete(listener);
  };
}

function formatHere(text: string): Formatted {
  try {
    return { html: markdownHtml(text) };
  } catch (err) {
    return { failed: cannotFormat(err) };
  }
}

function startNext(): void {
  if (running) return;
  for (const [text, job] of jobs) {
    if (job.listeners.size > 0) {
      run(job);
      return;
    }
    jobs.delete(text);
  }
}

function run(job: Job): void {
  worker ??= startWorker();
  const id = nextId++;
  const timer = setTimeout(() => {
    // Ending the worker is the only way to stop a parse that is still going.
    worker?.terminate();
    worker = undefined;
    finish(id, { failed: `formatting it took over ${FORMAT_DEADLINE_MS / 1000} s` });
  }, FORMAT_DEADLINE_MS);
  running = { id, job, timer };
  worker.postMessage({ id, text: job.text } satisfies FormatRequest);
}

function startWorker(): Worker {
  const w = new Worker(new URL('./markdown-worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<FormatAnswer>) => {
    const a = e.data;
    finish(a.id, 'html' in a ? { html: a.html } : { failed: a.failed });
  };
  w.onerror = (e) => {
    e.preventDefault();
    worker?.terminate();
    worker = undefined;
    if (running)
      finish(running.id, { failed: cannotFormat(e.message || 'the Markdown worker failed') });
  };
  return w;
}

function finish(id: number, result: Formatted): void {
  if (!running || running.id !== id) return;
  const { job, timer } = running;
  clearTimeout(timer);
  running = undefined;
  jobs.delete(job.text);
  for (const listener of job.listeners) listener(result);
  startNext();
}
