/**
 * The AGENTS.md memory loader shared by the memory middleware and the memory panel: the user's
 * `$WORKBENCH_HOME/AGENTS.md`, the workspace's `AGENTS.md` and any `memory.paths` of agent.yaml.
 * Files are re-checked (stat) on every load and re-read only when they changed.
 */
import { open, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { checkSource } from '../agents/source-policy.ts';

export type MemoryScope = 'user' | 'workspace' | 'extra';

export interface MemorySource {
  /** The file read (or looked for, when missing). */
  path: string;
  scope: MemoryScope;
  exists: boolean;
  bytes: number;
  truncated: boolean;
  /** Why the file was not read although it exists (it resolves outside the allowed folders). */
  refused?: string;
}

export interface LoadedMemory {
  sources: MemorySource[];
  /** The files' contents joined with `\n\n---\n\n` (missing files left out). */
  text: string;
  /** The file the agent is told to edit to update its memory. */
  editPath: string;
}

export interface LoadMemoryOptions {
  home: string;
  workspace: string;
  /** agent.yaml `memory.paths`: files, or folders holding AGENTS.md / CLAUDE.md; relative to the workspace. */
  extraPaths?: readonly string[];
}

/**
 * File timestamps are coarse (a jiffy on ext4, 2 s on FAT): a file changed within this long before
 * it was read is re-read next time even if its stat looks the same (git's "racy clean" rule).
 */
const RACY_MS = 2_000;

/** Per-file cap: memory loads without trust, so a huge file must not flood every request. */
export const MEMORY_FILE_CAP = 64 * 1024;
export const MEMORY_SEPARATOR = '\n\n---\n\n';

interface CacheEntry {
  key: string;
  /** Changed so shortly before it was read that a later edit could keep the same stat signature. */
  racy: boolean;
  text: string;
  bytes: number;
  truncated: boolean;
}

/** A reader that re-reads a file only when its stat signature changed. */
export type MemoryCache = Map<string, CacheEntry>;

/**
 * Reads every memory source, in order user → workspace → extra.
 * Contract: a workspace or extra source whose real path is outside the workspace and the user's
 * config folders is never read (`refused` says why); never rejects for missing or unreadable files
 * (they are `exists: false`); each file is
 * capped at 64 KiB with a note; with `cache`, unchanged files are not re-read.
 */
export async function loadMemory(opts: LoadMemoryOptions, cache: MemoryCache = new Map()): Promise<LoadedMemory> {
  const candidates: Array<{ scope: MemoryScope; path: string }> = [];
  candidates.push({ scope: 'user', path: await pickFile(opts.home) });
  const workspaceFile = await pickFile(opts.workspace);
  candidates.push({ scope: 'workspace', path: workspaceFile });
  for (const p of opts.extraPaths ?? []) {
    const abs = isAbsolute(p) ? p : resolve(opts.workspace, p);
    candidates.push({ scope: 'extra', path: (await isDirectory(abs)) ? await pickFile(abs) : abs });
  }
  const seen = new Set<string>();
  const sources: MemorySource[] = [];
  const texts: string[] = [];
  for (const c of candidates) {
    if (seen.has(c.path)) continue; // memory.paths naming the workspace AGENTS.md again
    seen.add(c.path);
    // The user's own file may link anywhere; what the workspace names must stay in allowed folders.
    const check = c.scope === 'user' ? undefined : await checkSource(c.path, opts.workspace, opts.home);
    if (check && !check.ok && check.reason !== 'missing') {
      sources.push({ path: c.path, scope: c.scope, exists: true, bytes: 0, truncated: false, refused: check.reason });
      continue;
    }
    const entry = await readCached(check?.ok ? check.real : c.path, cache);
    sources.push({ path: c.path, scope: c.scope, exists: entry !== undefined, bytes: entry?.bytes ?? 0, truncated: entry?.truncated ?? false });
    if (entry && entry.text.trim()) texts.push(entry.text.trim());
  }
  return { sources, text: texts.join(MEMORY_SEPARATOR), editPath: workspaceFile };
}

/** The block appended to the system message (docs/memory.md shows it), naming the real file to edit. */
export function renderMemoryBlock(memory: LoadedMemory): string {
  return [
    '<agent_memory>',
    memory.text || '(no memory yet)',
    '</agent_memory>',
    '',
    'Guidelines for agent memory:',
    '- This memory persists across conversations',
    `- You can update it by using edit_file on the AGENTS.md file: ${memory.editPath} (create it with write_file if it does not exist)`,
    '- Use it to track important context, decisions, and patterns',
    '- Keep entries concise and organized',
  ].join('\n');
}

/** `dir/AGENTS.md`, or `dir/CLAUDE.md` when only that exists (Claude Code projects). */
async function pickFile(dir: string): Promise<string> {
  const agents = join(dir, 'AGENTS.md');
  if (await isFile(agents)) return agents;
  const claude = join(dir, 'CLAUDE.md');
  return (await isFile(claude)) ? claude : agents;
}

async function readCached(path: string, cache: MemoryCache): Promise<CacheEntry | undefined> {
  let key: string;
  let changedAt: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) return undefined;
    key = `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    changedAt = Math.max(s.mtimeMs, s.ctimeMs);
  } catch {
    cache.delete(path);
    return undefined;
  }
  const hit = cache.get(path);
  if (hit?.key === key && !hit.racy) return hit;
  const racy = Date.now() - changedAt < RACY_MS;
  const entry = await readCapped(path, key, racy);
  if (entry) cache.set(path, entry);
  else cache.delete(path);
  return entry;
}

async function readCapped(path: string, key: string, racy: boolean): Promise<CacheEntry | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
    const size = (await handle.stat()).size;
    const buf = Buffer.alloc(Math.min(size, MEMORY_FILE_CAP));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const truncated = size > MEMORY_FILE_CAP;
    // A cut may split a UTF-8 sequence; drop the replacement characters it leaves.
    let text = buf.subarray(0, bytesRead).toString('utf8');
    if (truncated) text = `${text.replace(/\uFFFD+$/, '')}\n\n[memory file truncated: ${path} is ${size} bytes; only the first ${MEMORY_FILE_CAP} are shown]`;
    return { key, racy, text, bytes: size, truncated };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}
