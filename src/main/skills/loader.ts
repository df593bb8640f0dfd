/**
 * Skill discovery (Agent Skills format, docs/skills.md): `<root>/<folder>/SKILL.md` with YAML
 * frontmatter. Loading never throws: a broken skill becomes a diagnostic the skills panel and
 * `workbench skills list` show next to the good ones.
 */
import { open, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { checkSource } from '../agents/source-policy.ts';
import { readFrontmatter } from './frontmatter.ts';
import { pluginSkillRoots } from './plugin-roots.ts';
import { existsAs } from '../fs/stat-if-any.ts';
import { READ_NONBLOCKING } from '../fs/read-text-if-file.ts';
import { claudeConfigDir } from '../env/claude-config-dir.ts';

/**
 * `claude`/`kodelet`: the workspace's `.claude/skills`/`.kodelet/skills`; `claude-user`/`kodelet-user`:
 * the same under `~`; `plugin`: enabled Claude Code plugins and installed Kodelet plugins.
 */
export type SkillSource =
  'workspace' | 'user' | 'claude' | 'claude-user' | 'kodelet' | 'kodelet-user' | 'plugin' | 'extra';

export interface Skill {
  name: string;
  description: string;
  /** Absolute (real) path of SKILL.md. */
  path: string;
  /** Absolute (real) path of the skill's folder. */
  dir: string;
  source: SkillSource;
  enabled: boolean;
  /** False for `disable-model-invocation: true`: left out of the model's catalog, the user can still ask for it. */
  modelInvocable: boolean;
  /** Every frontmatter key, `allowed-tools`, `license`, `metadata` … included. */
  frontmatter: Record<string, unknown>;
}

export interface SkillDiagnostic {
  path: string;
  severity: 'error' | 'warning';
  message: string;
}

export interface LoadSkillsOptions {
  home: string;
  workspace: string;
  /** agent.yaml `skills.paths`: folders of skill folders, relative to the workspace. */
  extraPaths?: readonly string[];
  /**
   * Working directories added to the workspace (`--add-dir`, `additionalDirectories`): their
   * `.claude/skills` are read after the workspace's, as Claude Code reads them.
   */
  workingDirs?: readonly string[];
  /** Skill names switched off in settings: still listed, `enabled: false`. */
  disabled?: readonly string[];
}

export interface LoadSkillsResult {
  skills: Skill[];
  diagnostics: SkillDiagnostic[];
}

/** Only the frontmatter matters for the catalog; a larger SKILL.md is read up to here. */
const HEAD_BYTES = 64 * 1024;
const MAX_DESCRIPTION = 1024;
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The skill roots in precedence order (first wins on duplicate names). */
export function skillRoots(
  opts: Pick<LoadSkillsOptions, 'home' | 'workspace' | 'extraPaths' | 'workingDirs'>,
): Array<{ dir: string; source: SkillSource; within?: string }> {
  return [
    { dir: join(opts.workspace, '.workbench', 'skills'), source: 'workspace' },
    { dir: join(opts.home, 'skills'), source: 'user' },
    { dir: join(opts.workspace, '.claude', 'skills'), source: 'claude' },
    // A working directory's skills must stay in it, as the workspace's stay in the workspace.
    ...(opts.workingDirs ?? []).map((d) => ({
      dir: join(d, '.claude', 'skills'),
      source: 'claude' as const,
      within: d,
    })),
    { dir: join(claudeConfigDir(), 'skills'), source: 'claude-user' },
    { dir: join(opts.workspace, '.kodelet', 'skills'), source: 'kodelet' },
    { dir: join(homedir(), '.kodelet', 'skills'), source: 'kodelet-user' },
    ...(opts.extraPaths ?? []).map((p) => ({
      dir: expand(p, opts.workspace),
      source: 'extra' as const,
    })),
  ];
}

/**
 * Discovers every `*\/SKILL.md` under the skill roots.
 * Contract: never rejects; missing roots are skipped silently; a workspace-named folder or SKILL.md
 * resolving outside the workspace and the user's config folders is never read (error diagnostic);
 * missing name or description, no
 * frontmatter, or frontmatter neither YAML nor `key: value` lines → error diagnostic, skill not listed;
 * frontmatter read line by line, `allowed-tools` (not enforced), name ≠ folder, a name outside the
 * Agent Skills pattern, an overlong description or a shadowed duplicate → warning.
 */
export async function loadSkills(opts: LoadSkillsOptions): Promise<LoadSkillsResult> {
  const disabled = new Set(opts.disabled ?? []);
  const skills: Skill[] = [];
  const diagnostics: SkillDiagnostic[] = [];
  const byName = new Map<string, Skill>();
  const seenRoots = new Set<string>();
  const plugins = (await pluginSkillRoots(opts.workspace)).map((p) => ({
    dir: p.dir,
    source: 'plugin' as const,
  }));
  const roots: Array<{ dir: string; source: SkillSource; within?: string }> = [
    ...skillRoots(opts),
    ...plugins,
  ];
  for (const root of roots) {
    // Most roots are missing: one synchronous stat each, no thread-pool round trip.
    if (!existsAs(root.dir, 'directory')) continue;
    const realRoot = await realpath(root.dir).catch(() => undefined);
    if (!realRoot || seenRoots.has(realRoot)) continue;
    seenRoots.add(realRoot);
    // The user's own folder may link anywhere; folders the workspace names must stay in allowed places.
    const allowed = async (p: string): Promise<string | undefined> => {
      if (root.source === 'user' || root.source === 'claude-user' || root.source === 'kodelet-user')
        return undefined;
      const check = await checkSource(p, root.within ?? opts.workspace, opts.home);
      return check.ok || check.reason === 'missing' ? undefined : check.reason;
    };
    const rootRefused = await allowed(realRoot);
    if (rootRefused) {
      diagnostics.push({
        path: root.dir,
        severity: 'error',
        message: `skill folder ${rootRefused}`,
      });
      continue;
    }
    for (const folder of await subfolders(realRoot)) {
      const refused =
        (await allowed(join(realRoot, folder))) ??
        (await allowed(join(realRoot, folder, 'SKILL.md')));
      if (refused) {
        diagnostics.push({
          path: join(realRoot, folder),
          severity: 'error',
          message: `skill ${refused}`,
        });
        continue;
      }
      const file = join(realRoot, folder, 'SKILL.md');
      const head = await readHead(file);
      if (head === undefined) continue; // a folder without SKILL.md is not a skill
      const dir = await realpath(join(realRoot, folder)).catch(() => join(realRoot, folder));
      const path = join(dir, 'SKILL.md');
      const parsed = parseSkillFile(head, path, folder);
      diagnostics.push(...parsed.diagnostics);
      if (!parsed.skill) continue;
      const noModel = parsed.skill.frontmatter['disable-model-invocation'];
      const skill: Skill = {
        ...parsed.skill,
        path,
        dir,
        source: root.source,
        enabled: !disabled.has(parsed.skill.name),
        modelInvocable: noModel !== true && noModel !== 'true',
      };
      const first = byName.get(skill.name);
      if (first) {
        diagnostics.push({
          path,
          severity: 'warning',
          message: `skill "${skill.name}" is shadowed by ${first.path} (the first source wins)`,
        });
        continue;
      }
      byName.set(skill.name, skill);
      skills.push(skill);
    }
  }
  return { skills, diagnostics };
}

/**
 * A SKILL.md's frontmatter text and the body after it.
 * Contract: pure; `error` says why the file has no frontmatter where one must be.
 */
export function skillFileParts(
  text: string,
): { frontmatter: string; body: string } | { error: string } {
  const file = text.replace(/^\uFEFF/, '');
  const open = /^---[ \t]*\r?\n/.exec(file);
  if (!open)
    return {
      error:
        'no YAML frontmatter: SKILL.md must start with a "---" line, then name and description, then "---"',
    };
  const rest = file.slice(open[0].length);
  const end = /^---[ \t]*(?:\r?\n|$)/m.exec(rest);
  if (!end) return { error: 'frontmatter is not closed by a "---" line' };
  return { frontmatter: rest.slice(0, end.index), body: rest.slice(end.index + end[0].length) };
}

/**
 * Parses a SKILL.md's frontmatter; `folder` is the name of its folder.
 * Contract: pure; returns the skill's metadata, or no skill when it has an error diagnostic.
 */
export function parseSkillFile(
  text: string,
  path: string,
  folder: string,
): {
  skill?: { name: string; description: string; frontmatter: Record<string, unknown> };
  diagnostics: SkillDiagnostic[];
} {
  const error = (message: string) => ({
    diagnostics: [{ path, severity: 'error' as const, message }],
  });
  const parts = skillFileParts(text);
  if ('error' in parts) return error(parts.error);
  const read = readFrontmatter(parts.frontmatter);
  if (!read.ok) return error(read.message);
  const frontmatter = read.data;
  const name = typeof frontmatter.name === 'string' ? frontmatter.name.trim() : '';
  const description =
    typeof frontmatter.description === 'string'
      ? frontmatter.description.replace(/\s+/g, ' ').trim()
      : '';
  const missing = [!name && 'name', !description && 'description'].filter(Boolean);
  if (missing.length)
    return error(`frontmatter is missing ${missing.join(' and ')} (both are required strings)`);
  const diagnostics: SkillDiagnostic[] = [];
  const warn = (message: string) => diagnostics.push({ path, severity: 'warning', message });
  if (read.lenient)
    warn(
      `frontmatter is not valid YAML (${read.lenient}); read line by line as Claude Code does — quote the value to silence this`,
    );
  const allowedTools = frontmatter['allowed-tools'];
  if (allowedTools !== undefined && allowedTools !== '')
    warn(`allowed-tools is not enforced yet: the skill runs with every tool the agent has`);
  if (name !== folder) warn(`name "${name}" differs from its folder "${folder}"`);
  if (!NAME_PATTERN.test(name) || name.length > 64)
    warn(
      `name "${name}" should be lowercase letters, digits and single hyphens, at most 64 characters`,
    );
  if (description.length > MAX_DESCRIPTION)
    warn(`description is ${description.length} characters; keep it under ${MAX_DESCRIPTION}`);
  return { skill: { name, description, frontmatter }, diagnostics };
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    // Symlinked skill folders count too; readHead filters out anything without a SKILL.md.
    return entries
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

async function readHead(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, READ_NONBLOCKING);
    if (!(await handle.stat()).isFile()) return undefined;
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

function expand(p: string, workspace: string): string {
  if (p === '~' || p.startsWith('~/')) return join(homedir(), p.slice(1));
  return isAbsolute(p) ? p : resolve(workspace, p);
}
