/** grep through `rg` (NUL-separated text output, cheaper to parse than --json): spawned without a shell in its own process group, killed on abort. */
import { spawn } from 'node:child_process';
import { accessSync, constants, lstatSync } from 'node:fs';
import path from 'node:path';
import { MatchCollector, matchText, type GrepOutput, type GrepRequest } from './grep-results.ts';
import { MAX_GREP_FILE_BYTES, globFilter } from './grep-js.ts';
import { seconds } from '../seconds.ts';

let cachedRg: string | null | undefined;

/** Absolute path of `rg` on PATH, or null. Looked up once per process. */
export function findRipgrep(): string | null {
  if (cachedRg !== undefined) return cachedRg;
  cachedRg = null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg');
    try {
      accessSync(candidate, constants.X_OK);
      cachedRg = candidate;
      break;
    } catch {
      // not here
    }
  }
  return cachedRg;
}

/**
 * False for a file whose lines are dropped: one over the size limit, or with other names (one may lie
 * outside the workspace) when hard links are refused. Asked only of a file with a match that would
 * be kept: ripgrep's own `--max-filesize` would stat every file it walks, 14 % of a search of 20,000
 * files here (docs/performance.md).
 */
function searchable(abs: string, skipHardLinked: boolean): boolean {
  try {
    const st = lstatSync(abs);
    return st.size <= MAX_GREP_FILE_BYTES && !(skipHardLinked && st.nlink > 1);
  } catch {
    return false;
  }
}

/**
 * How long ripgrep may search (as long as Claude Code gives its own): a search of a huge tree, or one
 * that waits on a `.gitignore` that is a FIFO (ripgrep opens it and blocks for a writer), ends with
 * the matches found until then.
 */
const RIPGREP_DEADLINE_MS = 20_000;

/** Thrown when ripgrep cannot handle the request (e.g. a regex only JavaScript understands). */
export class RipgrepUnusableError extends Error {}

/**
 * Runs ripgrep with flags that make it agree with the JS fallback: hidden files searched, `.git`
 * skipped, only `.gitignore` files honoured (also outside a git repo), binaries skipped; the file glob
 * and the size limit are applied to its results, as in the JS engine.
 */
export async function ripgrepSearch(
  rg: string,
  req: GrepRequest,
  deadlineMs = RIPGREP_DEADLINE_MS,
): Promise<GrepOutput> {
  req.signal.throwIfAborted();
  const args = [
    '--null', '--line-number', '--no-heading', '--with-filename', '--color', 'never', '--no-config', '--hidden', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude',
    '--no-ignore-dot', '--no-messages', '--max-count', String(req.maxResults + 1),
  ];
  if (req.caseInsensitive) args.push('--ignore-case');
  else args.push('--case-sensitive');
  args.push('--glob', '!.git', '--regexp', req.pattern);
  const rel = path.relative(req.root, req.target);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  if (rel !== '') args.push('--', inside ? rel : req.target);

  const child = spawn(rg, args, { cwd: req.root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let exited = false;
  child.once('exit', () => (exited = true));
  const kill = () => {
    try {
      // After exit the group id may be reused by an unrelated process: never signal it then.
      if (!exited && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  req.signal.addEventListener('abort', kill, { once: true });
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    kill();
  }, deadlineMs);
  const collector = new MatchCollector(req.maxResults);
  const keep = globFilter(req);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    if (stderr.length < 4096) stderr += d;
  });
  const exit = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  exit.catch(() => undefined); // awaited below; this only stops an early rejection from counting as unhandled
  let lastPath: Buffer | undefined;
  let lastFile: string | null = null; // displayed file of lastPath, or null when the glob filters it out
  let lastAbs = '';
  let lastChecked = false; // whether lastAbs's size and links were looked at (only once a line would be kept)
  const onLine = (line: Buffer): void => {
    // `path\0line:text` — the NUL separator keeps paths with ':' intact.
    const nul = line.indexOf(0);
    if (nul === -1) return;
    const colon = line.indexOf(0x3a, nul + 1);
    if (colon === -1) return;
    // Consecutive lines mostly share a file: compare bytes instead of decoding the path again.
    if (lastPath === undefined || nul !== lastPath.length || line.compare(lastPath, 0, nul, 0, nul) !== 0) {
      lastPath = Buffer.from(line.subarray(0, nul));
      lastAbs = path.resolve(req.root, lastPath.toString('utf8'));
      lastFile = keep(lastAbs) ? req.display(lastAbs) : null;
      lastChecked = false;
    }
    if (lastFile === null) return;
    const lineNo = Number(line.toString('latin1', nul + 1, colon));
    // A line that cannot be kept only counts: more matches than asked for were seen already.
    if (!collector.wouldKeep(lastFile, lineNo)) return collector.skip();
    if (!lastChecked) {
      lastChecked = true;
      if (!searchable(lastAbs, req.skipHardLinked)) return void (lastFile = null);
    }
    collector.add({ file: lastFile, line: lineNo, text: matchText(line.toString('utf8', colon + 1)) });
  };
  try {
    let rest: Buffer = Buffer.alloc(0);
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      let from = 0;
      for (let nl = data.indexOf(10, from); nl !== -1; nl = data.indexOf(10, from)) {
        onLine(data.subarray(from, nl));
        from = nl + 1;
      }
      rest = Buffer.from(data.subarray(from));
    }
    if (rest.length > 0) onLine(rest);
    const code = await exit;
    req.signal.throwIfAborted();
    if (timedOut) {
      return {
        ...collector.result(),
        truncated: true,
        stopped: `ripgrep had not finished after ${seconds(deadlineMs)} s; these are the matches found until then (narrow path or glob)`,
      };
    }
    if (code === 2 && /regex|parse error|syntax/i.test(stderr)) throw new RipgrepUnusableError(stderr.trim());
    return collector.result();
  } finally {
    clearTimeout(deadline);
    req.signal.removeEventListener('abort', kill);
    kill();
  }
}
