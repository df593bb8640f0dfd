/**
 * Workspace trust for the faces: whether a folder is trusted, what it brings that the trust prompt
 * must show (hooks, settings hooks, AGENTS.md, skills, agent.yaml's system prompt and paths), and
 * granting or revoking trust.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TrustItem, TrustStatus } from '../../../shared/ipc/contract.ts';
import { realDir } from '../../fs/real-dir.ts';
import { MCP_FILE, readMcpFile } from '../../mcp/config.ts';
import { claudeConfigDir } from '../../env/claude-config-dir.ts';
import {
  commandHookLines,
  folderDetail,
  mcpServerLine,
  settingsHooksDetail,
} from './trust-details.ts';
import { skillsWithHooks } from '../../user-hooks/skill-hooks.ts';
import { loadAgentRegistry } from '../../agents/registry.ts';
import { isInside } from '../../tools/path-guard.ts';
import {
  loadAgentProfile,
  defaultSystemPrompt,
  PROFILE_RELATIVE_PATH,
} from '../../agents/profile.ts';
import {
  realPathOf,
  type TrustStore,
  type TrustedWorkspace,
} from '../../user-hooks/trust-store.ts';

export interface TrustService {
  /** Contract: rejects (WorkbenchError invalid_args) when `workspace` is not a folder. */
  status(args: { workspace: string }): Promise<TrustStatus>;
  /** Trusts a folder (it must exist) or revokes trust (a folder since deleted included). */
  set(args: { workspace: string; trusted: boolean }): Promise<TrustStatus>;
  /** Every trusted workspace. */
  list(): TrustedWorkspace[];
  /** Whether `workspace` (its real path) is trusted, without looking at what it brings. */
  isTrusted(workspace: string): boolean;
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Lists what a workspace brings that the trust prompt must show. */
async function inspectWorkspace(workspace: string): Promise<TrustItem[]> {
  const items: TrustItem[] = [];
  const candidates: Array<[TrustItem['kind'], string]> = [
    ['agents_md', join(workspace, 'AGENTS.md')],
    ['hooks', join(workspace, '.workbench', 'hooks')],
    ['workbench_settings', join(workspace, '.workbench', 'settings.json')],
    ['claude_settings', join(workspace, '.claude', 'settings.json')],
    ['claude_settings', join(workspace, '.claude', 'settings.local.json')],
    ['skills', join(workspace, '.workbench', 'skills')],
  ];
  for (const [kind, path] of candidates) {
    if (!(await exists(path))) continue;
    if (kind === 'hooks' || kind === 'skills') {
      const names = await readdir(path).catch(() => [] as string[]);
      if (names.length === 0) continue;
    }
    items.push({ kind, path, detail: await detailOf(kind, path, workspace) });
  }
  return [...items, ...(await profileItems(workspace)), ...(await mcpItems(workspace))];
}

/** The servers of `.mcp.json`, each with what it starts or calls. */
async function mcpItems(workspace: string): Promise<TrustItem[]> {
  const file = join(workspace, MCP_FILE);
  const read = await readMcpFile(file);
  if (!read || typeof read === 'string') return [];
  const detail = Object.entries(read)
    .map(([name, raw]) => mcpServerLine(name, raw))
    .join('\n');
  return detail ? [{ kind: 'mcp_servers', path: file, detail }] : [];
}

/**
 * The hooks of the workspace's own skills and agents (their frontmatter), each line naming its skill
 * or agent: they run only with trust.
 */
async function frontmatterHookItems(workspace: string, home: string): Promise<TrustItem[]> {
  const [skills, agents] = await Promise.all([
    // What trusting it would let run: the skills of the working directories its settings add too.
    skillsWithHooks({ home, workspace, trusted: true }),
    loadAgentRegistry({ workspace, home, trusted: true }).catch(() => ({ agents: [] })),
  ]);
  const lines = [
    ...skills
      .filter((s) => s.scope === 'workspace')
      .flatMap((s) => commandHookLines(s.hooks).map((l) => `skill ${s.skill}: ${l}`)),
    ...agents.agents
      .filter((a) => a.profile.hooks && a.profile.source && isInside(a.profile.source, workspace))
      .flatMap((a) => commandHookLines(a.profile.hooks).map((l) => `agent ${a.name}: ${l}`)),
  ];
  return lines.length
    ? [{ kind: 'frontmatter_hooks', path: workspace, detail: lines.join('\n') }]
    : [];
}

/** Exactly what an item would run or add: hook files, commands, servers. */
function detailOf(
  kind: TrustItem['kind'],
  path: string,
  workspace: string,
): Promise<string> | undefined {
  if (kind === 'hooks' || kind === 'skills') return folderDetail(path);
  if (kind === 'claude_settings' || kind === 'workbench_settings')
    return settingsHooksDetail(path, { workspace, claudeDir: claudeConfigDir() });
  return undefined;
}

/** Lines of agent.yaml's system prompt shown in the prompt. */
const PROMPT_LINES = 5;

/** The agent.yaml fields that take effect only with trust: the system prompt and the paths it names. */
async function profileItems(workspace: string): Promise<TrustItem[]> {
  const { profile } = await loadAgentProfile(workspace, { trusted: true });
  const path = join(workspace, PROFILE_RELATIVE_PATH);
  const items: TrustItem[] = [];
  if (profile.system_prompt !== defaultSystemPrompt(workspace)) {
    const lines = profile.system_prompt.split('\n');
    const more =
      lines.length > PROMPT_LINES ? `\n… (${lines.length - PROMPT_LINES} more lines)` : '';
    items.push({
      kind: 'system_prompt',
      path,
      detail: lines.slice(0, PROMPT_LINES).join('\n') + more,
    });
  }
  if (profile.memory.paths.length > 0)
    items.push({ kind: 'memory_paths', path, detail: profile.memory.paths.join('\n') });
  if (profile.skills.paths.length > 0)
    items.push({ kind: 'skills_paths', path, detail: profile.skills.paths.join('\n') });
  if (profile.http_tools?.length)
    items.push({
      kind: 'http_tools',
      path,
      detail: profile.http_tools.map((t) => `${t.name}: ${t.url}`).join('\n'),
    });
  return items;
}

/**
 * Creates the trust service over the trust store. `untrusted` stops what the workspace (by both the
 * path given and its real path) has running, once its trust is revoked.
 */
export function createTrustService(
  trust: TrustStore,
  untrusted: (dirs: string[]) => Promise<void> = async () => {},
  home?: string,
): TrustService {
  const statusOf = async (path: string): Promise<TrustStatus> => ({
    workspace: path,
    trusted: trust.isTrusted(path),
    items: [
      ...(await inspectWorkspace(path)),
      ...(home ? await frontmatterHookItems(path, home) : []),
    ],
  });
  return {
    status: async (a) => statusOf(await realDir(a.workspace)),
    async set(a) {
      if (a.trusted) {
        const path = await realDir(a.workspace);
        await trust.trust(path);
        return statusOf(path);
      }
      const path = realPathOf(a.workspace);
      await trust.untrust(path);
      await untrusted([...new Set([path, a.workspace])]);
      return statusOf(path);
    },
    list: () => trust.list(),
    isTrusted: (workspace) => trust.isTrusted(workspace),
  };
}
