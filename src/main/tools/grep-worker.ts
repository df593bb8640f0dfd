/**
 * Parallel file search for the JS grep engine. Async reads go through libuv's small thread pool and
 * are ~3× slower than synchronous reads; synchronous reads are fine off the main thread, so big file
 * sets are split over worker threads that read and scan synchronously. The worker is plain JavaScript
 * in a string (run with `eval: true`) so it survives bundling into the Electron main file unchanged.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { BINARY_SNIFF_BYTES } from './file-io.ts';
import { MAX_MATCH_TEXT } from './grep-results.ts';
import { ToolError } from './types.ts';
import { seconds } from '../seconds.ts';

/** A search handed to the worker threads (`files` sorted). */
export interface WorkerSearch {
  files: string[];
  pattern: string;
  flags: string;
  maxCount: number;
  maxFileBytes: number;
  skipHardLinked: boolean;
  signal: AbortSignal;
  /** The whole search is ended (workers terminated) after this long. */
  deadlineMs: number;
}

/** [file index, line, text] */
export type WorkerMatch = [number, number, string];

/** Merged answer of the workers. */
export interface WorkerResult {
  matches: WorkerMatch[];
  /** True when matches beyond the first `maxCount` (in path order) exist. */
  more: boolean;
}

/** Worker threads used for a search (at least 1, at most 4). */
function workerCount(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

/**
 * Searches `files` over worker threads and returns at most `maxCount` matches per worker: each worker
 * walks its share in path order and stops once it holds `maxCount` matches, since later files cannot
 * be among the first `maxCount` overall.
 * Contract: `files` must be sorted; rejects on abort (workers are terminated), with a ToolError when
 * the deadline passes (workers terminated: a catastrophic regex never blocks the main thread), or on
 * worker failure.
 */
export async function searchInWorkers(req: WorkerSearch): Promise<WorkerResult> {
  const n = Math.min(workerCount(), req.files.length);
  const shares: number[][] = Array.from({ length: n }, () => []);
  req.files.forEach((_, i) => shares[i % n]!.push(i)); // interleaved, so big folders spread evenly
  const workers: Worker[] = [];
  const onAbort = () => workers.forEach((w) => void w.terminate());
  req.signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onAbort();
      const secs = seconds(req.deadlineMs);
      reject(
        new ToolError(
          `grep stopped after ${secs} s: the pattern is too slow on these files (look-around or ` +
            'backreferences on long lines); simplify it or narrow path or glob',
        ),
      );
    }, req.deadlineMs);
  });
  try {
    const all = Promise.all(
      shares.map((indices) => {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          workerData: {
            files: indices.map((i) => req.files[i]),
            indices,
            pattern: req.pattern,
            flags: req.flags,
            maxCount: req.maxCount,
            maxFileBytes: req.maxFileBytes,
            skipHardLinked: req.skipHardLinked,
            sniff: BINARY_SNIFF_BYTES,
            maxText: MAX_MATCH_TEXT,
          },
        });
        workers.push(worker);
        return new Promise<WorkerResult>((resolve, reject) => {
          worker.once('message', (m: WorkerResult) => resolve(m));
          worker.once('error', reject);
          worker.once('exit', (code) => reject(new Error(`grep worker exited with code ${code}`)));
        });
      }),
    );
    all.catch(() => undefined); // a terminated worker's rejection after the deadline is not news
    const parts = await Promise.race([all, deadline]);
    req.signal.throwIfAborted();
    return { matches: parts.flatMap((p) => p.matches), more: parts.some((p) => p.more) };
  } finally {
    clearTimeout(timer);
    req.signal.removeEventListener('abort', onAbort);
    workers.forEach((w) => void w.terminate());
  }
}

// Keep in step with searchText/searchFile in grep-js.ts (the grep tests compare both paths with ripgrep).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { files, indices, pattern, flags, maxCount, maxFileBytes, skipHardLinked, sniff, maxText } = workerData;
const scan = new RegExp(pattern, flags + 'gm');
const lineRe = new RegExp(pattern, flags);
const WHOLE = 1024 * 1024;
const out = [];
function matchText(line) {
  const text = line.replace(/\\r?\\n$/, '').replace(/\\r$/, '');
  return text.length > maxText ? text.slice(0, maxText) + '\\u2026' : text;
}
function countNewlines(text, from, to) {
  let n = 0;
  for (let i = text.indexOf('\\n', from); i !== -1 && i < to; i = text.indexOf('\\n', i + 1)) n++;
  return n;
}
function searchText(text, firstLine, found, index, limit) {
  let lineNo = firstLine, counted = 0;
  scan.lastIndex = 0;
  while (found.n < limit) {
    const m = scan.exec(text);
    if (!m) break;
    const start = m.index === 0 ? 0 : text.lastIndexOf('\\n', m.index - 1) + 1;
    let end = text.indexOf('\\n', m.index);
    if (end === -1) end = text.length;
    if (start === end && end === text.length && start > 0) break;
    lineNo += countNewlines(text, counted, start);
    counted = start;
    const line = text.slice(start, end);
    if (lineRe.test(line)) { out.push([index, lineNo, matchText(line)]); found.n++; }
    if (end >= text.length) break;
    scan.lastIndex = end + 1;
  }
  return lineNo + countNewlines(text, counted, text.length);
}
function searchFile(file, index, limit = maxCount + 1) {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    const size = st.size;
    if (size === 0 || size > maxFileBytes || !st.isFile() || (skipHardLinked && st.nlink > 1)) return;
    const found = { n: 0 };
    if (size <= WHOLE) {
      const buf = Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) { const r = fs.readSync(fd, buf, got, size - got, got); if (r === 0) break; got += r; }
      const data = buf.subarray(0, got);
      if (data.includes(0)) return;
      searchText(data.toString('utf8'), 1, found, index, limit);
      return;
    }
    let carry = Buffer.alloc(0), lineNo = 1, position = 0;
    const chunk = Buffer.alloc(WHOLE);
    for (;;) {
      const bytesRead = fs.readSync(fd, chunk, 0, WHOLE, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      const nul = data.indexOf(0);
      if (nul !== -1 && position - bytesRead < sniff) return;
      const end = nul !== -1 ? data.lastIndexOf(10, nul) + 1 : data.lastIndexOf(10) + 1;
      const complete = end > 0 ? data.subarray(0, end) : data;
      carry = end > 0 ? Buffer.from(data.subarray(end)) : Buffer.alloc(0);
      lineNo = searchText(complete.toString('utf8'), lineNo, found, index, limit);
      if (nul !== -1 || found.n >= limit) return;
    }
    if (carry.length > 0) searchText(carry.toString('utf8'), lineNo, found, index, limit);
  } finally {
    fs.closeSync(fd);
  }
}
let more = false;
let i = 0;
for (; i < files.length && out.length < maxCount; i++) {
  try { searchFile(files[i], indices[i]); } catch {}
}
if (out.length > maxCount) { more = true; out.length = maxCount; }
// Full: later files cannot rank, but whether one more match exists decides the truncated flag.
const kept = out.length;
for (; !more && i < files.length; i++) {
  try { searchFile(files[i], indices[i], 1); } catch {}
  if (out.length > kept) { more = true; out.length = kept; }
}
parentPort.postMessage({ matches: out, more });
`;
