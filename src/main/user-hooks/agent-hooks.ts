/**
 * The `hooks` of agents' frontmatter (docs/agents.md), as the hooks panel and `workbench hooks
 * list` show them: each handler with the agent whose runs it takes part in. They run only in that
 * agent's runs (api/build-pipeline.ts hands the running agent's to the pipeline).
 */
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import { loadAgentRegistry } from '../agents/registry.ts';
import { isInside } from '../tools/path-guard.ts';
import { loadClaudeHooks, readClaudeSettingsFiles, type ClaudeHandler, type ReadSettingsFile } from './claude-config.ts';

export interface AgentHandler {
  agent: string;
  handler: ClaudeHandler;
}

/** Every handler of every agent's frontmatter, problems included; listed as the agent runs as the main agent. */
export async function agentHandlers(o: {
  workspace: string;
  home: string;
  settings: WorkbenchSettings;
  trusted: boolean;
  /** The Claude dialect's settings files as the caller already read them (else read here, once). */
  claudeSettings?: readonly ReadSettingsFile[];
}): Promise<AgentHandler[]> {
  const registry = await loadAgentRegistry({ workspace: o.workspace, home: o.home, trusted: o.trusted });
  const withHooks = registry.agents.filter((e) => e.profile.hooks && e.profile.source);
  if (withHooks.length === 0) return [];
  const claudeSettings = o.claudeSettings ?? (await readClaudeSettingsFiles(o.workspace, o.home));
  const found: AgentHandler[] = [];
  for (const entry of withHooks) {
    const { hooks, source } = entry.profile as { hooks: unknown; source: string };
    const scope = isInside(source, o.workspace) ? 'workspace' : 'user';
    const { handlers } = await loadClaudeHooks({ ...o, claudeSettings, agent: { file: source, scope, hooks, subagent: false } });
    for (const handler of handlers) if (handler.file === source) found.push({ agent: entry.name, handler });
  }
  return found;
}
