/**
 * grep without ripgrep: walks the tree honouring .gitignore (root, nested and the folders above the
 * search start), skips `.git`, symlinks, binaries and huge files, reads files with bounded concurrency
 * and tests a whole file (or 1 MB chunk) with one regex scan before looking at single lines.
 */
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { globToRegExp } from './glob-pattern.ts';
import { MatchCollector, matchText, type GrepOutput, type GrepRequest } from './grep-results.ts';
import { BINARY_SNIFF_BYTES } from './file-io.ts';
import { ancestorIgnores, walkTree } from './tree-walk.ts';
import { searchInWorkers } from './grep-worker.ts';
import { compareStrings } from './glob.ts';

/** Files larger than this are skipped by both engines. */
export const MAX_GREP_FILE_BYTES = 50 * 1024 * 1024;
const WHOLE_READ_BYTES = 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
const CONCURRENCY = 32;
/** How long a JS search may run before its workers are terminated. */
export const GREP_DEADLINE_MS = 10_000;

/**
 * Searches with the JS engine, in worker threads with a deadline: the main thread never runs a user
 * regex (one catastrophic pattern would freeze every run and `serve`). `workers: false` is for tests
 * only: it searches on the main thread to compare the worker source with `searchText`.
 * Contract: same output shape and order as the ripgrep engine.
 */
export async function jsSearch(req: GrepRequest, opts: { workers?: boolean; deadlineMs?: number } = {}): Promise<GrepOutput> {
  const flags = req.caseInsensitive ? 'i' : '';
  const scan = new RegExp(req.pattern, flags + 'gm');
  const lineRe = new RegExp(req.pattern, flags);
  const collector = new MatchCollector(req.maxResults);
  const files = await listFiles(req);
  if (files.length === 0) return collector.result();
  if (opts.workers !== false) {
    const deadlineMs = opts.deadlineMs ?? GREP_DEADLINE_MS;
    const found = await searchInWorkers({ files, pattern: req.pattern, flags, maxCount: req.maxResults, maxFileBytes: MAX_GREP_FILE_BYTES, skipHardLinked: req.skipHardLinked, signal: req.signal, deadlineMs });
    for (const [i, line, text] of found.matches) collector.add({ file: req.display(files[i]!), line, text });
    if (found.more) collector.markTruncated();
    return collector.result();
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      req.signal.throwIfAborted();
      const file = files[next++]!;
      const matches: Array<{ line: number; text: string }> = [];
      await searchFile(file, scan, lineRe, req.maxResults + 1, matches, req.skipHardLinked).catch(() => undefined);
      if (matches.length === 0) continue;
      const shown = req.display(file);
      for (const m of matches) collector.add({ file: shown, line: m.line, text: m.text });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  return collector.result();
}

async function listFiles(req: GrepRequest): Promise<string[]> {
  const st = await fs.stat(req.target);
  if (!st.isDirectory()) return [req.target];
  const walk = await walkTree(req.target, {
    gitignore: true,
    ignores: await ancestorIgnores(req.root, req.target),
    skipDirNames: new Set(['.git']),
    signal: req.signal,
  });
  const keep = globFilter(req);
  // Path order (the order of the output) lets the workers stop early; shared prefix, so same as display order.
  return walk.files.filter((f) => !walk.symlinks.has(f) && path.basename(f) !== '.git' && keep(f)).sort(compareStrings);
}

/**
 * The `glob` file filter both engines apply themselves (ripgrep's own --glob would override .gitignore):
 * without `/` it matches the file name, with `/` the path below the search target.
 */
export function globFilter(req: GrepRequest): (abs: string) => boolean {
  if (!req.glob) return () => true;
  const glob = req.glob.replace(/^\//, '');
  const re = globToRegExp(glob);
  if (!glob.includes('/')) return (abs) => re.test(path.basename(abs));
  return (abs) =>
    abs === req.target ||
    (abs.startsWith(req.target + path.sep) && re.test(abs.slice(req.target.length + 1).split(path.sep).join('/')));
}

async function searchFile(file: string, scan: RegExp, lineRe: RegExp, maxCount: number, out: Array<{ line: number; text: string }>, skipHardLinked: boolean): Promise<void> {
  const fh = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = await fh.stat();
    const size = st.size;
    if (size === 0 || size > MAX_GREP_FILE_BYTES || !st.isFile() || (skipHardLinked && st.nlink > 1)) return;
    if (size <= WHOLE_READ_BYTES) {
      const buf = await fh.readFile();
      if (buf.includes(0)) return; // binary: skipped like ripgrep does
      searchText(buf.toString('utf8'), 1, scan, lineRe, maxCount, out);
      return;
    }
    // Large file: 1 MB chunks cut at the last newline; a NUL ends the search (binary from there on).
    let carry = Buffer.alloc(0);
    let lineNo = 1;
    let position = 0;
    const chunk = Buffer.alloc(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      const nul = data.indexOf(0);
      if (nul !== -1 && position - bytesRead < BINARY_SNIFF_BYTES) return;
      const end = nul !== -1 ? data.lastIndexOf(10, nul) + 1 : data.lastIndexOf(10) + 1;
      const complete = end > 0 ? data.subarray(0, end) : data;
      carry = end > 0 ? Buffer.from(data.subarray(end)) : Buffer.alloc(0);
      lineNo = searchText(complete.toString('utf8'), lineNo, scan, lineRe, maxCount, out);
      if (nul !== -1 || out.length >= maxCount) return;
    }
    if (carry.length > 0) searchText(carry.toString('utf8'), lineNo, scan, lineRe, maxCount, out);
  } finally {
    await fh.close();
  }
}

/**
 * Finds matching lines in `text` (whole lines), numbering from `firstLine`. One global multiline scan
 * jumps to candidate lines; each candidate line is then confirmed on its own (a scan match may span lines).
 * Returns the number of the line after the text.
 */
export function searchText(text: string, firstLine: number, scan: RegExp, lineRe: RegExp, maxCount: number, out: Array<{ line: number; text: string }>): number {
  let lineNo = firstLine;
  let counted = 0; // offset up to which newlines were counted into lineNo
  scan.lastIndex = 0;
  while (out.length < maxCount) {
    const m = scan.exec(text);
    if (!m) break;
    const start = m.index === 0 ? 0 : text.lastIndexOf('\n', m.index - 1) + 1;
    let end = text.indexOf('\n', m.index);
    if (end === -1) end = text.length;
    if (start === end && end === text.length && start > 0) break; // empty match after the final newline
    lineNo += countNewlines(text, counted, start);
    counted = start;
    const line = text.slice(start, end);
    if (lineRe.test(line)) out.push({ line: lineNo, text: matchText(line) });
    if (end >= text.length) break;
    scan.lastIndex = end + 1;
  }
  return lineNo + countNewlines(text, counted, text.length);
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
