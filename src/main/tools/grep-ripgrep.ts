/** grep through `rg --json`: spawned without a shell in its own process group, killed on abort. */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MatchCollector, matchText, type GrepOutput, type GrepRequest } from './grep-results.ts';
import { MAX_GREP_FILE_BYTES, globFilter } from './grep-js.ts';

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

/** Thrown when ripgrep cannot handle the request (e.g. a regex only JavaScript understands). */
export class RipgrepUnusableError extends Error {}

/**
 * Runs ripgrep with flags that make it agree with the JS fallback: hidden files searched, `.git`
 * skipped, only `.gitignore` files honoured (also outside a git repo), binaries and >50 MB files skipped;
 * the file glob is applied to its results, as in the JS engine.
 */
export async function ripgrepSearch(rg: string, req: GrepRequest): Promise<GrepOutput> {
  const args = [
    '--json', '--no-config', '--hidden', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude',
    '--no-ignore-dot', '--no-messages', '--max-count', String(req.maxResults),
    '--max-filesize', String(MAX_GREP_FILE_BYTES),
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
  try {
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line.startsWith('{"type":"match"')) continue;
      const data = (JSON.parse(line) as { data: RgMatchData }).data;
      const abs = path.resolve(req.root, decode(data.path));
      if (!keep(abs)) continue;
      collector.add({ file: req.display(abs), line: data.line_number, text: matchText(decode(data.lines)) });
    }
    const code = await exit;
    req.signal.throwIfAborted();
    if (code === 2 && /regex|parse error|syntax/i.test(stderr)) throw new RipgrepUnusableError(stderr.trim());
    return collector.result();
  } finally {
    req.signal.removeEventListener('abort', kill);
    kill();
  }
}

interface RgText {
  text?: string;
  bytes?: string;
}
interface RgMatchData {
  path: RgText;
  lines: RgText;
  line_number: number;
}

function decode(t: RgText): string {
  if (t.text !== undefined) return t.text;
  return Buffer.from(t.bytes ?? '', 'base64').toString('utf8');
}
