/**
 * Memory as of the last request, kept while nothing it depends on changed (docs/memory.md). Every
 * request still looks at the disk, but with one synchronous stat per path the memory could come from
 * (found or not) instead of the loader's whole walk: an edit, a new file, a removed one or a swapped
 * symlink changes a stat signature and the next request loads again.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { statIfAny } from '../fs/stat-if-any.ts';
import { claudeConfigDir, managedMemoryPath } from '../env/claude-config-dir.ts';
import {
  loadMemory,
  parentMemoryFiles,
  RACY_MS,
  type LoadedMemory,
  type LoadMemoryOptions,
  type MemoryCache,
  type MemoryImport,
} from './loader.ts';

export interface MemoryMemo {
  load(opts: LoadMemoryOptions): Promise<LoadedMemory>;
}

/**
 * Creates a memo over `loadMemory` with its file cache. Contract: answers what `loadMemory` would;
 * files changed within `racyMs` (default 2 s) are never trusted to be unchanged.
 */
export function createMemoryMemo(opts: { cache?: MemoryCache; racyMs?: number } = {}): MemoryMemo {
  const cache = opts.cache ?? new Map();
  const racyMs = opts.racyMs ?? RACY_MS;
  // The paths are kept with the memory they were worked out for: a request only stats them.
  const last = new Map<string, { signature: string; memory: LoadedMemory; paths: string[] }>();
  return {
    async load(load) {
      const key = JSON.stringify([
        load.home,
        load.workspace,
        load.extraPaths,
        load.folders,
        load.rules,
        load.workingDirs,
        claudeConfigDir(),
        managedMemoryPath(),
      ]);
      const kept = last.get(key);
      if (kept && signature(kept.paths, racyMs) === kept.signature) return kept.memory;
      const memory = await loadMemory(load, cache);
      // A file changed while the loader read it has a fresh mtime, so its signature is not kept.
      const paths = watchedPaths(load, memory);
      const now = signature(paths, racyMs);
      if (now === undefined) last.delete(key);
      else last.set(key, { signature: now, memory, paths });
      return memory;
    },
  };
}

/** Every path the loader may read for `opts`, plus the files `memory` was built from. */
function watchedPaths(opts: LoadMemoryOptions, memory: LoadedMemory | undefined): string[] {
  const paths = [
    managedMemoryPath(),
    ...parentMemoryFiles(opts.workspace),
    ...agentFiles(opts.home),
    join(claudeConfigDir(), 'CLAUDE.md'),
    ...agentFiles(opts.workspace),
    join(opts.workspace, '.claude', 'CLAUDE.md'),
    join(opts.workspace, 'CLAUDE.local.md'),
  ];
  for (const p of opts.extraPaths ?? []) {
    const abs = isAbsolute(p) ? p : resolve(opts.workspace, p);
    paths.push(abs, ...agentFiles(abs));
  }
  for (const dir of opts.folders ?? []) paths.push(...agentFiles(dir));
  for (const dir of opts.workingDirs ?? [])
    paths.push(join(dir, 'CLAUDE.md'), join(dir, '.claude', 'CLAUDE.md'));
  // A rule added or removed changes its folder; the folders' own absence is in the signature too.
  paths.push(
    ...(memory?.ruleDirs ?? [
      join(claudeConfigDir(), 'rules'),
      join(opts.workspace, '.claude', 'rules'),
    ]),
  );
  const addImports = (imports: readonly MemoryImport[] | undefined) => {
    for (const i of imports ?? []) {
      paths.push(i.path);
      addImports(i.imports);
    }
  };
  for (const s of memory?.sources ?? []) {
    paths.push(s.path);
    addImports(s.imports);
  }
  return paths;
}

function agentFiles(dir: string): string[] {
  return [join(dir, 'AGENTS.md'), join(dir, 'CLAUDE.md')];
}

/** The paths' stat signatures, or undefined when one changed too recently to be trusted. */
function signature(paths: readonly string[], racyMs: number): string | undefined {
  const now = Date.now();
  let out = '';
  for (const p of paths) {
    let s;
    try {
      s = statIfAny(p);
    } catch {
      return undefined; // EACCES, ELOOP…: let the loader report it each time
    }
    if (!s) {
      out += '-|';
      continue;
    }
    if (now - Math.max(s.mtimeMs, s.ctimeMs) < racyMs) return undefined;
    out += `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.mode}|`;
  }
  return out;
}
