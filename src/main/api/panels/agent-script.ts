/**
 * Reading, saving and adding a profile's script hooks file from the Agents panel (docs/agents.md).
 * Only the file a listed profile's `script:` names can be read or written — never any other path —
 * and only when its real path stays in the workspace (a workspace profile) or in the workspace and
 * the user's config folders (a user profile), so a link cannot lead the editor elsewhere.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, isAbsolute } from 'node:path';
import type { AgentFile, AgentScript, AgentScriptWrite } from '../../../shared/ipc/contract.ts';
import { loadAgentRegistry, type AgentEntry } from '../../agents/registry.ts';
import { userConfigDirs } from '../../agents/source-policy.ts';
import {
  ConflictError,
  readTextOrNull,
  versionOf,
  writeFileAtomic,
} from '../../fs/atomic-write.ts';
import { WorkbenchError } from '../../errors.ts';
import { agentScriptTemplate } from './agent-script-template.ts';
import type { PanelDeps } from './panel-deps.ts';

export interface AgentScripts {
  /** Contract: reads only the file the profile `name` names as its `script:`. */
  read(a: { workspace: string; name: string }): Promise<AgentScript>;
  /** Contract: as read; a file changed since `baseVersion` is not written (`conflict`, with the disk). */
  write(a: {
    workspace: string;
    name: string;
    content: string;
    baseVersion: string;
  }): Promise<AgentScriptWrite>;
  /**
   * Adds `<name>.hooks.ts` (from a template, or kept when it exists) next to the profile file and
   * `script: ./<name>.hooks.ts` to its frontmatter through `saveProfile`.
   * Contract: only for a `.md` profile without a script.
   */
  create(a: {
    workspace: string;
    name: string;
  }): Promise<{ profile: AgentFile; script: AgentScript }>;
}

type SaveProfile = (a: {
  workspace: string;
  path: string;
  content: string;
  baseVersion: string;
}) => Promise<{ status: 'saved' | 'conflict'; document: AgentFile }>;

const inside = (dir: string, path: string) => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};
const userSources = new Set(['user', 'claude-user']);

/** Creates the script half of the agents service. */
export function createAgentScripts(deps: PanelDeps, saveProfile: SaveProfile): AgentScripts {
  const entryOf = async (workspace: string, name: string) => {
    const trusted = deps.trust.isTrusted(workspace);
    const registry = await loadAgentRegistry({ workspace, home: deps.home, trusted });
    const entry = registry.agents.find((a) => a.name === name);
    if (!entry) throw new WorkbenchError('not_found', `no agent named ${name}`);
    return { entry, trusted };
  };

  /** The real path `path` lands on (its folder's, for a file not created yet), refused outside the allowed roots. */
  const checked = async (workspace: string, entry: AgentEntry, path: string) => {
    if (!/\.m?ts$/.test(path))
      throw new WorkbenchError('invalid_args', `${path}: a script hooks file ends in .ts`);
    const roots = userSources.has(entry.source)
      ? [workspace, ...userConfigDirs(deps.home), dirname(entry.path)]
      : [workspace];
    const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => r)));
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      real = join(await realpath(dirname(path)).catch(() => dirname(path)), basename(path));
    }
    if (!realRoots.some((r) => inside(r, real)))
      throw new WorkbenchError(
        'forbidden',
        `refused: ${path} resolves to ${real}, outside the folders ${entry.name}'s script may live in`,
      );
    return real;
  };

  const view =
    (entry: AgentEntry, trusted: boolean, workspace: string, path: string) =>
    (content: string): AgentScript => ({
      name: entry.name,
      path,
      content,
      version: versionOf(content),
      inert: inside(workspace, path) && !trusted,
    });

  const scriptOf = async (workspace: string, name: string) => {
    const { entry, trusted } = await entryOf(workspace, name);
    const path = entry.profile.script;
    if (!path) throw new WorkbenchError('invalid_args', `${name} has no script (add one first)`);
    // Reads and writes go to where a link lands, so editing through a link edits its target.
    const real = await checked(workspace, entry, path);
    return { real, make: view(entry, trusted, workspace, path) };
  };

  return {
    async read(a) {
      const { real, make } = await scriptOf(a.workspace, a.name);
      const content = await readTextOrNull(real);
      if (content === null) throw new WorkbenchError('not_found', `${real} does not exist`);
      return make(content);
    },
    async write(a) {
      const { real, make } = await scriptOf(a.workspace, a.name);
      try {
        await writeFileAtomic(real, a.content, {
          expectedVersion: a.baseVersion,
          createParents: false,
        });
        return { status: 'saved', script: make(a.content) };
      } catch (err) {
        if (!(err instanceof ConflictError)) throw err;
        return { status: 'conflict', script: make(err.current ?? '') };
      }
    },
    async create(a) {
      const { entry, trusted } = await entryOf(a.workspace, a.name);
      if (entry.profile.script)
        throw new WorkbenchError('invalid_args', `${a.name} already has a script`);
      if (!entry.path.endsWith('.md'))
        throw new WorkbenchError(
          'invalid_args',
          `${a.name} is defined in ${basename(entry.path)}; add script: to it by hand`,
        );
      const profileText = await readTextOrNull(entry.path);
      const close = profileText?.startsWith('---') ? profileText.indexOf('\n---', 3) : -1;
      if (profileText === null || close < 0)
        throw new WorkbenchError(
          'invalid_args',
          `${entry.path} has no frontmatter to add script: to`,
        );
      const file = `${a.name}.hooks.ts`;
      const path = join(dirname(entry.path), file);
      await checked(a.workspace, entry, path);
      const existing = await readTextOrNull(path);
      const content = existing ?? agentScriptTemplate(a.name);
      if (existing === null)
        await writeFileAtomic(path, content, { expectedVersion: '', createParents: false });
      const saved = await saveProfile({
        workspace: a.workspace,
        path: entry.path,
        content: `${profileText.slice(0, close)}\nscript: ./${file}${profileText.slice(close)}`,
        baseVersion: versionOf(profileText),
      });
      if (saved.status === 'conflict')
        throw new WorkbenchError('conflict', `${entry.path} changed while the script was added`);
      return { profile: saved.document, script: view(entry, trusted, a.workspace, path)(content) };
    },
  };
}
