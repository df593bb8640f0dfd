/**
 * The named agents of a workspace (docs/agents.md): `main` (agent.yaml) and the subagent profiles
 * from `.workbench/agents/*.md`, `.claude/agents/*.md`, agent.yaml `subagents:`,
 * `$WORKBENCH_HOME/agents/*.md` and `~/.claude/agents/*.md`, the first of a name winning in that
 * order. Workspace profiles are inert (listed, never offered nor run) until the workspace is trusted.
 */
import { basename, join } from 'node:path';
import { LineCounter, parseDocument, isMap, isSeq, stringify } from 'yaml';
import { loadAgentProfile, PROFILE_RELATIVE_PATH, type AgentProfile } from './profile.ts';
import { parseProfileFile, profileFromFields, PROFILE_NAME } from './profile-file.ts';
import { checkSource } from './source-policy.ts';
import { compareStrings } from '../tools/glob.ts';
import { namesIfAny } from '../fs/list-if-any.ts';
import { readTextFileSync } from '../fs/read-text-if-file.ts';
import { claudeConfigDir } from '../env/claude-config-dir.ts';

/** Where a profile was found. */
export type ProfileSource = 'agent.yaml' | 'workspace' | 'claude-project' | 'user' | 'claude-user';

export interface AgentEntry {
  name: string;
  description: string;
  source: ProfileSource;
  /** The file it came from (agent.yaml for `main` and `subagents:` entries). */
  path: string;
  /** True for a workspace profile of an untrusted workspace: listed, but never run. */
  inert: boolean;
  profile: AgentProfile;
}

export interface AgentRegistry {
  /** Every agent, `main` first, then by name; one entry per name. */
  agents: AgentEntry[];
  diagnostics: string[];
  /** The runnable agent of that name (never an inert one). */
  get(name: string): AgentEntry | undefined;
  /** Runnable subagents (everything but `main`), for the `task` tool. */
  subagents(): AgentEntry[];
}

export interface RegistryOptions {
  workspace: string;
  /** $WORKBENCH_HOME. */
  home: string;
  trusted: boolean;
  /** Claude Code's user folder (default `$CLAUDE_CONFIG_DIR` or `~/.claude`). */
  claudeHome?: string;
}

export const MAIN_AGENT = 'main';

/** The folders profile files are read from, in precedence order. */
export function profileDirs(
  o: Pick<RegistryOptions, 'workspace' | 'home' | 'claudeHome'>,
): { dir: string; source: ProfileSource }[] {
  const claudeHome = o.claudeHome ?? claudeConfigDir();
  return [
    { dir: join(o.workspace, '.workbench', 'agents'), source: 'workspace' },
    { dir: join(o.workspace, '.claude', 'agents'), source: 'claude-project' },
    { dir: join(o.home, 'agents'), source: 'user' },
    { dir: join(claudeHome, 'agents'), source: 'claude-user' },
  ];
}

const inWorkspace = (s: ProfileSource) =>
  s === 'workspace' || s === 'claude-project' || s === 'agent.yaml';

/**
 * Loads every profile. Contract: never rejects; a broken file is a `file:line` diagnostic and the
 * other profiles still load; `get` never returns an inert (untrusted workspace) profile.
 */
export async function loadAgentRegistry(o: RegistryOptions): Promise<AgentRegistry> {
  const { profile: main, diagnostics } = await loadAgentProfile(o.workspace, {
    trusted: o.trusted,
  });
  const found: AgentEntry[] = [];
  const add = (entry: Omit<AgentEntry, 'inert'>) => {
    if (entry.name === MAIN_AGENT) {
      diagnostics.push(
        `${entry.path}: the name "main" is the agent of agent.yaml; this profile is ignored`,
      );
      return;
    }
    found.push({ ...entry, inert: inWorkspace(entry.source) && !o.trusted });
  };
  const dirs = profileDirs(o);
  const [workspaceDirs, userDirs] = [dirs.slice(0, 2), dirs.slice(2)];
  for (const d of workspaceDirs)
    for (const e of await readDir(d.dir, d.source, main, diagnostics, o)) add(e);
  for (const e of yamlSubagents(o.workspace, main, diagnostics)) add(e);
  for (const d of userDirs)
    for (const e of await readDir(d.dir, d.source, main, diagnostics, o)) add(e);

  const mainPath = main.source ?? join(o.workspace, PROFILE_RELATIVE_PATH);
  const byName = new Map<string, AgentEntry>();
  for (const e of found) {
    const had = byName.get(e.name);
    // The first runnable profile of a name wins; an inert one only stands in until one is found.
    if (!had || (had.inert && !e.inert)) byName.set(e.name, e);
  }
  const mainEntry: AgentEntry = {
    name: MAIN_AGENT,
    description: main.description ?? 'The agent of .workbench/agent.yaml',
    source: 'agent.yaml',
    path: mainPath,
    inert: false,
    profile: main,
  };
  const agents = [mainEntry, ...[...byName.values()].sort((a, b) => compareStrings(a.name, b.name))];
  return {
    agents,
    diagnostics,
    get: (name) => agents.find((a) => a.name === name && !a.inert),
    subagents: () => agents.filter((a) => a.name !== MAIN_AGENT && !a.inert),
  };
}

async function readDir(
  dir: string,
  source: ProfileSource,
  main: AgentProfile,
  diagnostics: string[],
  roots: { workspace: string; home: string },
): Promise<Omit<AgentEntry, 'inert'>[]> {
  const names = namesIfAny(dir).filter((n) => n.endsWith('.md')).sort();
  const out: Omit<AgentEntry, 'inert'>[] = [];
  for (const n of names) {
    const path = join(dir, n);
    // A profile's body reaches the model: a link out of the workspace and the user's config folders is refused.
    // Claude Code's user folder may be moved by CLAUDE_CONFIG_DIR: it is then the allowed root itself.
    const where = await checkSource(
      path,
      source === 'claude-user' ? dir : roots.workspace,
      roots.home,
    );
    if (!where.ok) {
      if (where.reason !== 'missing') diagnostics.push(`${path}: ${where.reason}`);
      continue;
    }
    let text: string | undefined;
    try {
      text = readTextFileSync(path);
    } catch (err) {
      diagnostics.push(`${path}: cannot read: ${(err as Error).message}`);
      continue;
    }
    if (text === undefined) continue;
    const parsed = parseProfileFile(text, path, basename(n, '.md'));
    diagnostics.push(...parsed.diagnostics);
    if (!parsed.fields) continue;
    const profile = profileFromFields(parsed.fields, main, path);
    out.push({ name: profile.name, description: profile.description ?? '', source, path, profile });
  }
  return out;
}

/** agent.yaml `subagents:` entries: the same fields as a profile file, `system_prompt` for the body. */
function yamlSubagents(
  workspace: string,
  main: AgentProfile,
  diagnostics: string[],
): Omit<AgentEntry, 'inert'>[] {
  const file = join(workspace, PROFILE_RELATIVE_PATH);
  let text: string | undefined;
  try {
    text = readTextFileSync(file);
  } catch {
    return []; // loadAgentProfile reported it
  }
  if (text === undefined) return [];
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length || !isMap(doc.contents)) return [];
  const node = doc.get('subagents', true);
  if (!isSeq(node)) return [];
  const out: Omit<AgentEntry, 'inert'>[] = [];
  node.items.forEach((item, i) => {
    const line = lines.linePos((item as { range?: [number] }).range?.[0] ?? 0).line;
    const value = (item as { toJSON?: () => unknown }).toJSON?.() as
      Record<string, unknown> | undefined;
    if (
      !value ||
      typeof value !== 'object' ||
      Array.isArray(value) ||
      typeof value.name !== 'string' ||
      !PROFILE_NAME.test(value.name)
    ) {
      diagnostics.push(
        `${file}:${line}: subagents[${i}]: needs a name (letters, digits, "-", "_", "."); ignored`,
      );
      return;
    }
    const { system_prompt: prompt, ...front } = value;
    // Reuses the profile-file parser so both formats accept exactly the same fields.
    const parsed = parseProfileFile(
      `---\n${stringify(front)}---\n${typeof prompt === 'string' ? prompt : ''}`,
      file,
      value.name,
    );
    diagnostics.push(
      ...parsed.diagnostics.map((d) =>
        d.replace(/^[^:]+:\d+:/, `${file}:${line}: subagents[${i}]:`),
      ),
    );
    if (!parsed.fields) return;
    const profile = profileFromFields(parsed.fields, main, file);
    out.push({
      name: profile.name,
      description: profile.description ?? '',
      source: 'agent.yaml',
      path: file,
      profile,
    });
  });
  return out;
}
