/**
 * An agent handler's runner outside a run — the hooks panel's Test and Replay: the workspace's own
 * read tools behind its path guard, and the user's permission rules as a run would load them.
 */
import type { LlmClient } from '../llm/types.ts';
import { loadPermissionRules, ruleRefusal } from '../middleware/permission-rules.ts';
import { createFilesystemTools } from '../tools/index.ts';
import { createWorkspace } from '../tools/path-guard.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { AgentHookRunner } from './claude-agent.ts';

export async function standaloneAgentRunner(o: {
  llm: LlmClient;
  model: string;
  home: string;
  workspaceRoot: string;
  allowHardLinks: boolean;
}): Promise<AgentHookRunner> {
  const workspace = await createWorkspace(o.workspaceRoot, { allowHardLinks: o.allowHardLinks });
  const tools = new ToolRegistry();
  for (const tool of createFilesystemTools()) tools.register(tool);
  // Deny and ask rules count from every settings file, trusted or not (allow rules do not matter here).
  const { rules } = await loadPermissionRules({
    workspace: o.workspaceRoot,
    home: o.home,
    trusted: false,
  });
  return {
    llm: o.llm,
    model: o.model,
    workspace,
    tools,
    refuse: (call) => ruleRefusal(rules, tools, call, workspace),
  };
}
