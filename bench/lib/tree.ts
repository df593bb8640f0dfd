/**
 * The grep/glob benchmark tree: 20,000 text files of ~10 KB (≈ 200 MB) in 1,000 folders, generated once
 * (deterministically) into a cache folder under os.tmpdir() and reused while its `.complete` marker exists.
 * A rare token `NEEDLE_RARE` sits on one line of every 200th file (100 matches); `parseRoute` is common.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const RARE_PATTERN = 'NEEDLE_RARE_[0-9]+';
export const COMMON_PATTERN = 'parseRoute\\(';
const EXTS = ['ts', 'ts', 'js', 'py', 'md'];
const VERSION = 1;

/** xorshift32: fast, deterministic. */
function rng(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const WORDS =
  'const let return value table route request response handler error result index count items parse build render stream token model thread message span hook tool file path data state cache store open close write read'.split(
    ' ',
  );

function linePool(): string[] {
  const r = rng(7);
  const pool: string[] = [];
  for (let i = 0; i < 4096; i++) {
    const n = 4 + Math.floor(r() * 10);
    const words: string[] = [];
    for (let k = 0; k < n; k++) words.push(WORDS[Math.floor(r() * WORDS.length)]!);
    const indent = '  '.repeat(Math.floor(r() * 4));
    pool.push(
      i % 64 === 0
        ? `${indent}const r${i} = parseRoute(${words.join(', ')});`
        : `${indent}${words.join(' ')};`,
    );
  }
  return pool;
}

/** Returns the tree's root, generating it first if needed. `files` = 20,000 for the full size. */
export function ensureTree(
  files: number,
  log: (m: string) => void,
): { root: string; files: number; bytes: number } {
  const root = path.join(os.tmpdir(), `wb-bench-tree-v${VERSION}-${files}`);
  const marker = path.join(root, '.complete');
  const bytesPerFile = 10_000;
  if (existsSync(marker)) return { root, files, bytes: files * bytesPerFile };
  log(
    `generating ${files} files (~${Math.round((files * bytesPerFile) / 1e6)} MB) into ${root} (once)…`,
  );
  rmSync(root, { recursive: true, force: true });
  const pool = linePool();
  const r = rng(42);
  const perDir = 20;
  for (let f = 0; f < files; f++) {
    const dir = path.join(
      root,
      `pkg${String(Math.floor(f / 1000)).padStart(2, '0')}`,
      `mod${String(Math.floor(f / perDir) % 50).padStart(2, '0')}`,
    );
    if (f % perDir === 0) mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    let size = 0;
    while (size < bytesPerFile) {
      const line = pool[Math.floor(r() * pool.length)]!;
      lines.push(line);
      size += line.length + 1;
    }
    if (f % 200 === 0) lines[Math.floor(lines.length / 2)] = `// NEEDLE_RARE_${f} marks this file`;
    writeFileSync(path.join(dir, `file${f}.${EXTS[f % EXTS.length]}`), `${lines.join('\n')}\n`);
  }
  writeFileSync(marker, '');
  return { root, files, bytes: files * bytesPerFile };
}
