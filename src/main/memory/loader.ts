/**
 * The memory loader shared by the memory middleware and the memory panel (docs/memory.md): Claude Code's
 * managed CLAUDE.md (an administrator's), the user's
 * `$WORKBENCH_HOME/AGENTS.md` and `~/.claude/CLAUDE.md`, the workspace's `AGENTS.md`, `CLAUDE.md`,
 * `.claude/CLAUDE.md` and `CLAUDE.local.md`, Claude Code's rules (memory/rules.ts), any `memory.paths`
 * of agent.yaml, the memory of subfolders the agent touched, and the files all of these `@import`. Files are re-checked (stat) on every load
 * and re-read only when they changed.
 */
import { lstatIfAny, statIfAny } from '../fs/stat-if-any.ts';
import { READ_NONBLOCKING } from '../fs/read-text-if-file.ts';
import { open } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { checkSource, type SourceCheck } from '../agents/source-policy.ts';
import { importRefs, onlyImports, resolveRef } from './imports.ts';
import { claudeConfigDir, managedMemoryPath } from '../env/claude-config-dir.ts';
import { readRule, ruleFiles } from './rules.ts';

export type MemoryScope =
  'managed' | 'user' | 'parent' | 'workspace' | 'local' | 'extra' | 'working_dir' | 'subfolder';

/** A file reached through an `@path` import, with the files it imports in turn. */
export interface MemoryImport {
  /** The reference as written (`@docs/style.md` → `docs/style.md`). */
  ref: string;
  /** The file it resolves to. */
  path: string;
  exists: boolean;
  bytes: number;
  truncated: boolean;
  /** Why the file was not read: outside the allowed folders, a cycle, too deep, already loaded. */
  refused?: string;
  imports?: MemoryImport[];
}

export interface MemorySource {
  /** The file read (or looked for, when missing). */
  path: string;
  scope: MemoryScope;
  exists: boolean;
  bytes: number;
  truncated: boolean;
  /** Why the file was not read although it exists (it resolves outside the allowed folders). */
  refused?: string;
  /** The files it imports (`@path`), as a tree. */
  imports?: MemoryImport[];
  /** A Claude Code rule's `paths` globs: it joins once the agent touches a file they match. */
  paths?: string[];
  /** A rule with `paths` whose files the agent has not touched yet: listed, not in the text. */
  waiting?: boolean;
}

export interface LoadedMemory {
  sources: MemorySource[];
  /** The files' contents joined with `\n\n---\n\n` (missing files left out). */
  text: string;
  /** The file the agent is told to edit to update its memory. */
  editPath: string;
  /** The rules folders searched (a rule added or removed changes one of them). */
  ruleDirs: string[];
}

export interface LoadMemoryOptions {
  home: string;
  workspace: string;
  /** agent.yaml `memory.paths`: files, or folders holding AGENTS.md / CLAUDE.md; relative to the workspace. */
  extraPaths?: readonly string[];
  /** Workspace subfolders the agent touched: their AGENTS.md / CLAUDE.md are read too. */
  folders?: readonly string[];
  /** Rules with `paths` that joined (the agent touched a file they match): their text is read too. */
  rules?: readonly string[];
  /**
   * Working directories whose `CLAUDE.md` and `.claude/CLAUDE.md` are read after the workspace's:
   * Claude Code reads them with `CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD=1`.
   */
  workingDirs?: readonly string[];
}

/**
 * Whether the working directories' memory is read: Claude Code's opt-in variable is set, by the
 * settings' `env` (`settingsEnv`, which wins, as Claude Code applies it over its environment) or
 * by the environment.
 */
export function readsWorkingDirMemory(settingsEnv: Readonly<Record<string, string>> = {}): boolean {
  const name = 'CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD';
  return (settingsEnv[name] ?? process.env[name]) === '1';
}

/**
 * File timestamps are coarse (a jiffy on ext4, 2 s on FAT): a file changed within this long before
 * it was read is re-read next time even if its stat looks the same (git's "racy clean" rule).
 */
export const RACY_MS = 2_000;

/** Per-file cap: memory loads without trust, so a huge file must not flood every request. */
export const MEMORY_FILE_CAP = 64 * 1024;
export const MEMORY_SEPARATOR = '\n\n---\n\n';
/** Import hops followed from a memory file, as Claude Code does. */
export const MAX_IMPORT_DEPTH = 5;
/** Imported files read per load: a fan-out of imports must not flood every request. */
const MAX_IMPORTS = 64;

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

interface Candidate {
  scope: MemoryScope;
  path: string;
  /** Listed only when it exists (optional Claude Code locations, subfolders). */
  optional?: boolean;
  /** A Claude Code rule: frontmatter taken off, `paths` read. */
  rule?: boolean;
  /** The folder it and its imports must stay in, when not the workspace (a working directory). */
  within?: string;
}

/**
 * Reads every memory source, in order user → workspace → local → extra → subfolder, each followed by
 * its imports.
 * Contract: a source or import whose real path is outside the workspace and the user's config folders
 * is never read (`refused` says why; the user's own top-level files are exempt); imports follow at most
 * 5 hops, a cycle or a file already loaded is cut, imports in code spans and blocks are ignored; never
 * rejects for missing or unreadable files (they are `exists: false`); each file is capped at 64 KiB
 * with a note; with `cache`, unchanged files are not re-read.
 */
export async function loadMemory(
  opts: LoadMemoryOptions,
  cache: MemoryCache = new Map(),
): Promise<LoadedMemory> {
  const candidates: Candidate[] = [];
  // The administrator's CLAUDE.md comes first, as in Claude Code.
  candidates.push({ scope: 'managed', path: managedMemoryPath(), optional: true });
  candidates.push({ scope: 'user', path: await pickFile(opts.home) });
  candidates.push({ scope: 'user', path: join(claudeConfigDir(), 'CLAUDE.md'), optional: true });
  const userRules = ruleFiles(join(claudeConfigDir(), 'rules'));
  for (const path of userRules.files)
    candidates.push({ scope: 'user', path, optional: true, rule: true });
  // The folders above the workspace (a monorepo's root when a package is opened), top-most first.
  for (const path of parentMemoryFiles(opts.workspace))
    candidates.push({ scope: 'parent', path, optional: true });
  const workspaceFile = await pickFile(opts.workspace);
  candidates.push({ scope: 'workspace', path: workspaceFile });
  candidates.push({ scope: 'workspace', path: join(opts.workspace, 'CLAUDE.md'), optional: true });
  candidates.push({
    scope: 'workspace',
    path: join(opts.workspace, '.claude', 'CLAUDE.md'),
    optional: true,
  });
  const projectRules = ruleFiles(join(opts.workspace, '.claude', 'rules'));
  for (const path of projectRules.files)
    candidates.push({ scope: 'workspace', path, optional: true, rule: true });
  candidates.push({
    scope: 'local',
    path: join(opts.workspace, 'CLAUDE.local.md'),
    optional: true,
  });
  for (const dir of opts.workingDirs ?? []) {
    for (const path of [join(dir, 'CLAUDE.md'), join(dir, '.claude', 'CLAUDE.md')])
      candidates.push({ scope: 'working_dir', path, optional: true, within: dir });
  }
  for (const p of opts.extraPaths ?? []) {
    const abs = isAbsolute(p) ? p : resolve(opts.workspace, p);
    candidates.push({ scope: 'extra', path: (await isDirectory(abs)) ? await pickFile(abs) : abs });
  }
  for (const dir of opts.folders ?? []) {
    for (const name of ['AGENTS.md', 'CLAUDE.md'])
      candidates.push({ scope: 'subfolder', path: join(dir, name), optional: true });
  }
  const listed = new Set<string>();
  /** Real paths already in the text: a file reached twice (directly and through an import) counts once. */
  const loaded = new Set<string>();
  const budget = { imports: MAX_IMPORTS };
  const sources: MemorySource[] = [];
  const texts: string[] = [];
  for (const c of candidates) {
    if (listed.has(c.path)) continue; // memory.paths naming the workspace AGENTS.md again
    listed.add(c.path);
    // The user's own file may link anywhere; what the workspace names must stay in allowed folders.
    const check =
      c.scope === 'user' || c.scope === 'managed'
        ? undefined
        : c.scope === 'parent'
          ? await checkParentSource(c.path, opts.home)
          : await checkSource(c.path, c.within ?? opts.workspace, opts.home);
    if (check && !check.ok && check.reason !== 'missing') {
      sources.push({
        path: c.path,
        scope: c.scope,
        exists: true,
        bytes: 0,
        truncated: false,
        refused: check.reason,
      });
      continue;
    }
    const real = check?.ok ? check.real : c.path;
    const entry = await readCached(real, cache);
    if (!entry && c.optional) continue;
    const source: MemorySource = {
      path: c.path,
      scope: c.scope,
      exists: entry !== undefined,
      bytes: entry?.bytes ?? 0,
      truncated: entry?.truncated ?? false,
    };
    sources.push(source);
    if (!entry) continue;
    if (loaded.has(real)) {
      source.refused = 'already loaded (imported by another memory file)';
      continue;
    }
    const rule = c.rule ? readRule(entry.text) : undefined;
    if (rule?.paths) {
      source.paths = rule.paths;
      if (!opts.rules?.includes(c.path)) {
        source.waiting = true;
        continue;
      }
    }
    loaded.add(real);
    const text = rule ? rule.body : entry.text;
    if (text.trim() && !onlyImports(text)) texts.push(text.trim());
    const imports = await readImports(text, real, [real], {
      opts,
      // A file above the workspace may import from its own folder (a monorepo root's docs).
      root: c.scope === 'parent' ? dirname(c.path) : (c.within ?? opts.workspace),
      cache,
      loaded,
      budget,
      texts,
    });
    if (imports.length) source.imports = imports;
  }
  const ruleDirs = [
    join(claudeConfigDir(), 'rules'),
    ...userRules.dirs,
    join(opts.workspace, '.claude', 'rules'),
    ...projectRules.dirs,
  ];
  return { sources, text: texts.join(MEMORY_SEPARATOR), editPath: workspaceFile, ruleDirs };
}

interface ImportWalk {
  opts: LoadMemoryOptions;
  /** The folder imports must stay in (besides the user's config folders). */
  root: string;
  cache: MemoryCache;
  loaded: Set<string>;
  budget: { imports: number };
  texts: string[];
}

/** Follows the imports of one file depth-first, appending each imported file's text after its importer's. */
async function readImports(
  text: string,
  importer: string,
  chain: string[],
  walk: ImportWalk,
): Promise<MemoryImport[]> {
  const out: MemoryImport[] = [];
  for (const ref of importRefs(text)) {
    const path = resolveRef(ref, importer);
    const check = await checkSource(path, walk.root, walk.opts.home);
    if (!check.ok && check.reason === 'missing') continue; // a mention (`@alice`), not an import
    const node: MemoryImport = { ref, path, exists: true, bytes: 0, truncated: false };
    out.push(node);
    if (!check.ok) {
      node.refused = check.reason;
      continue;
    }
    if (chain.includes(check.real)) {
      node.refused = 'import cycle: the file is already being imported';
      continue;
    }
    if (chain.length > MAX_IMPORT_DEPTH) {
      node.refused = `not read: imports go at most ${MAX_IMPORT_DEPTH} hops deep`;
      continue;
    }
    if (walk.loaded.has(check.real)) {
      node.refused = 'already loaded';
      continue;
    }
    if (walk.budget.imports <= 0) {
      node.refused = `not read: at most ${MAX_IMPORTS} imported files per load`;
      continue;
    }
    walk.budget.imports -= 1;
    const entry = await readCached(check.real, walk.cache);
    if (!entry) {
      node.exists = false;
      continue;
    }
    Object.assign(node, { bytes: entry.bytes, truncated: entry.truncated });
    walk.loaded.add(check.real);
    if (entry.text.trim() && !onlyImports(entry.text)) walk.texts.push(entry.text.trim());
    const nested = await readImports(entry.text, check.real, [...chain, check.real], walk);
    if (nested.length) node.imports = nested;
  }
  return out;
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

/** The memory files the folders above `workspace` may hold, the top-most folder's first (`/` left out). */
export function parentMemoryFiles(workspace: string): string[] {
  const dirs: string[] = [];
  for (let dir = dirname(workspace); dirname(dir) !== dir; dir = dirname(dir)) dirs.unshift(dir);
  return dirs.flatMap((dir) => PARENT_FILES.map((name) => join(dir, name)));
}
const PARENT_FILES = ['AGENTS.md', 'CLAUDE.md', 'CLAUDE.local.md'];

/**
 * A file above the workspace is read when it is yours (or root's) and stays in its own folder: on a
 * shared machine another user can write `/tmp/CLAUDE.md` above a workspace in /tmp.
 */
async function checkParentSource(path: string, home: string): Promise<SourceCheck> {
  const s = lstatIfAny(path);
  if (!s) return { ok: false, reason: 'missing' };
  const uid = process.getuid?.();
  const owner = statIfAny(path)?.uid;
  if (uid !== undefined && owner !== undefined && owner !== uid && owner !== 0)
    return { ok: false, reason: `refused: ${path} belongs to another user (uid ${owner})` };
  return checkSource(path, dirname(path), home);
}

/** `dir/AGENTS.md`, or `dir/CLAUDE.md` when only that exists (Claude Code projects). */
async function pickFile(dir: string): Promise<string> {
  const agents = join(dir, 'AGENTS.md');
  if (await isFile(agents)) return agents;
  const claude = join(dir, 'CLAUDE.md');
  return (await isFile(claude)) ? claude : agents;
}

async function readCached(path: string, cache: MemoryCache): Promise<CacheEntry | undefined> {
  // Checked on every request, and most optional files are missing: no thrown error for those.
  const s = statIfAny(path);
  if (!s?.isFile()) {
    cache.delete(path);
    return undefined;
  }
  const key = `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  const changedAt = Math.max(s.mtimeMs, s.ctimeMs);
  const hit = cache.get(path);
  if (hit?.key === key && !hit.racy) return hit;
  const racy = Date.now() - changedAt < RACY_MS;
  const entry = await readCapped(path, key, racy);
  if (entry) cache.set(path, entry);
  else cache.delete(path);
  return entry;
}

async function readCapped(
  path: string,
  key: string,
  racy: boolean,
): Promise<CacheEntry | undefined> {
  let handle;
  try {
    handle = await open(path, READ_NONBLOCKING); // a FIFO swapped in after the stat never blocks
    const size = (await handle.stat()).size;
    const buf = Buffer.alloc(Math.min(size, MEMORY_FILE_CAP));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const truncated = size > MEMORY_FILE_CAP;
    // A cut may split a UTF-8 sequence; drop the replacement characters it leaves.
    let text = buf.subarray(0, bytesRead).toString('utf8');
    if (truncated)
      text = `${text.replace(/\uFFFD+$/, '')}\n\n[memory file truncated: ${path} is ${size} bytes; only the first ${MEMORY_FILE_CAP} are shown]`;
    return { key, racy, text, bytes: size, truncated };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

async function isFile(p: string): Promise<boolean> {
  return statIfAny(p)?.isFile() ?? false;
}

async function isDirectory(p: string): Promise<boolean> {
  return statIfAny(p)?.isDirectory() ?? false;
}
