/**
 * The Agents panel's service (docs/agents.md): lists the profiles a run in the workspace would see,
 * reads, validates and saves profile files — only inside a folder profiles are read from.
 */
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type {
  AgentFile,
  AgentListing,
  AgentView,
  SaveResult,
} from '../../../shared/ipc/contract.ts';
import { loadAgentRegistry, profileDirs, type AgentEntry } from '../../agents/registry.ts';
import { parseProfileFile, PROFILE_NAME } from '../../agents/profile-file.ts';
import {
  ConflictError,
  readTextOrNull,
  versionOf,
  writeFileAtomic,
} from '../../fs/atomic-write.ts';
import { WorkbenchError } from '../../errors.ts';
import { createAgentScripts, type AgentScripts } from './agent-script.ts';
import type { PanelDeps } from './panel-deps.ts';

export interface AgentsService {
  list(args: { workspace: string }): Promise<AgentListing>;
  /** Contract: reads only a `.md` file directly inside a profile folder. */
  read(args: { workspace: string; path: string }): Promise<AgentFile>;
  /** The problems of a profile text, as a run would report them (file:line). */
  validate(args: { content: string; path?: string }): {
    diagnostics: string[];
    name?: string;
    script?: string;
  };
  /**
   * Saves `path`, or creates `<scope folder>/<name>.md`.
   * Contract: writes only inside a profile folder; never over a file changed since `baseVersion`.
   */
  save(args: {
    workspace: string;
    content: string;
    path?: string;
    scope?: 'user' | 'workspace';
    name?: string;
    baseVersion: string;
  }): Promise<SaveResult<AgentFile>>;
  /** The profile's script in the editor (docs/agents.md); see agent-script.ts for the contracts. */
  readScript: AgentScripts['read'];
  writeScript: AgentScripts['write'];
  createScript: AgentScripts['create'];
}

/** A registry entry as the panel and the CLI show it. */
export function agentView(e: AgentEntry): AgentView {
  const p = e.profile;
  return {
    name: e.name,
    description: e.description,
    source: e.source,
    path: e.path,
    inert: e.inert,
    ...(p.model ? { model: p.model } : {}),
    ...(p.tools ? { tools: p.tools } : {}),
    ...(p.max_iterations ? { max_iterations: p.max_iterations } : {}),
    ...(p.script ? { script: p.script } : {}),
  };
}

/** Creates the agents service. */
export function createAgentsService(deps: PanelDeps): AgentsService {
  const validate = (content: string, path = 'profile.md') => {
    const parsed = parseProfileFile(content, path, basename(path, '.md'));
    return {
      diagnostics: parsed.diagnostics,
      ...(parsed.fields ? { name: parsed.fields.name } : {}),
      ...(parsed.fields?.script ? { script: parsed.fields.script } : {}),
    };
  };
  /** The profile file `path` names, refused unless it is a `.md` directly inside a profile folder. */
  const locate = (workspace: string, path: string) => {
    const file = resolve(path);
    const dirs = profileDirs({ workspace, home: deps.home }).map((d) => d.dir);
    if (!file.endsWith('.md') || !dirs.includes(dirname(file)) || file.includes(`${sep}..${sep}`)) {
      throw new WorkbenchError(
        'invalid_args',
        `${path} is not a profile file (expected <agents folder>/<name>.md)`,
      );
    }
    return file;
  };
  const readFile = async (file: string): Promise<AgentFile> => {
    const content = await readTextOrNull(file);
    if (content === null) throw new WorkbenchError('not_found', `no such file: ${file}`);
    return { path: file, content, version: versionOf(content), ...validate(content, file) };
  };
  const save: AgentsService['save'] = async (a) => {
    let file: string;
    if (a.path) file = locate(a.workspace, a.path);
    else {
      if (!a.name || !PROFILE_NAME.test(a.name) || a.name === 'main') {
        throw new WorkbenchError(
          'invalid_args',
          'a profile name is letters, digits, "-", "_" or "." (and not "main")',
        );
      }
      const dir =
        a.scope === 'user' ? join(deps.home, 'agents') : join(a.workspace, '.workbench', 'agents');
      await mkdir(dir, { recursive: true });
      file = join(dir, `${a.name}.md`);
    }
    try {
      await writeFileAtomic(file, a.content, { expectedVersion: a.baseVersion });
    } catch (err) {
      if (err instanceof ConflictError)
        return { status: 'conflict', document: await readFile(file) };
      throw err;
    }
    return {
      status: 'saved',
      document: {
        path: file,
        content: a.content,
        version: versionOf(a.content),
        ...validate(a.content, file),
      },
    };
  };
  const scripts = createAgentScripts(deps, save);
  return {
    async list(a) {
      const registry = await loadAgentRegistry({
        workspace: a.workspace,
        home: deps.home,
        trusted: deps.trust.isTrusted(a.workspace),
      });
      return { agents: registry.agents.map(agentView), diagnostics: registry.diagnostics };
    },
    read: (a) => readFile(locate(a.workspace, a.path)),
    validate: (a) => validate(a.content, a.path),
    save,
    readScript: scripts.read,
    writeScript: scripts.write,
    createScript: scripts.create,
  };
}
