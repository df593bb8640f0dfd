/**
 * Runs the `` !`command` `` lines of a recipe or a skill you invoke, for a send
 * (recipes/shell-snippets.ts), as the agent's commands run: in the workspace, in the command sandbox
 * with the settings' sandbox paths, under the same rules — a deny or ask rule of the settings, a
 * sandbox that is required and missing, or a command that always needs a person keeps one from
 * running (docs/recipes.md#commands-in-a-recipe). `"disableSkillShellExecution": true` in any of
 * Claude Code's settings files runs none of them.
 */
import { homedir } from 'node:os';
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import { EXECUTE_TIMEOUT_MS } from '../../shared/constants.ts';
import { disableSnippets, expandSnippets, mayHaveSnippets } from '../recipes/shell-snippets.ts';
import { fileSetting, readClaudeSettingsFiles } from '../user-hooks/claude-config.ts';
import { runSandboxSettings } from '../middleware/claude-sandbox-settings.ts';
import { loadPermissionRules, ruleRefusal } from '../middleware/permission-rules.ts';
import { sandboxPathsFinder } from '../middleware/rule-sandbox-paths.ts';
import { createWorkspace } from '../tools/path-guard.ts';
import { createExecuteTool } from '../tools/execute.ts';
import { alwaysAskReason } from '../tools/risk.ts';
import { defaultShell, runInProcessGroup } from '../tools/process-group.ts';
import { terminalText } from '../tools/terminal-text.ts';
import { safeChildEnv } from '../env/child-env.ts';
import { seconds } from '../seconds.ts';
import {
  commandSandbox,
  detectSandbox,
  wrapCommand,
  type CommandSandbox,
  type SandboxPaths,
} from '../tools/sandbox/index.ts';

/** Where a send's recipe runs its commands. */
export interface RecipeSnippetOptions {
  workspace: string;
  /** $WORKBENCH_HOME. */
  home: string;
  settings: WorkbenchSettings;
  trusted: boolean;
}

/** What asks for its commands to run: a recipe or a skill, with its `allowed-tools`. */
export interface SnippetSource {
  kind: 'recipe' | 'skill';
  name: string;
  allowed_tools?: readonly string[];
}

/** Fills a rendered recipe's or skill's commands in; a text without any costs nothing. */
export function recipeSnippetExpander(
  o: RecipeSnippetOptions,
): (source: SnippetSource, text: string) => Promise<string> {
  return async (source, text) => {
    if (!mayHaveSnippets(text)) return text;
    const from = `${source.kind} ${source.name}`;
    const claudeSettings = await readClaudeSettingsFiles(o.workspace, o.home);
    if (fileSetting(claudeSettings, ['disableSkillShellExecution'], true))
      return disableSnippets(text);
    const sandboxSettings = await runSandboxSettings(o.settings, { ...o, claudeSettings });
    const permissions = await loadPermissionRules({ ...o, claudeSettings });
    const workspace = await createWorkspace(o.workspace);
    const execute = createExecuteTool();
    const tools = { get: (name: string) => (name === 'execute' ? execute : undefined) };
    const availability = await detectSandbox();
    const sandboxOf = (command: string) => commandSandbox(sandboxSettings, availability, command);
    const paths = sandboxPathsFinder(
      permissions.rules,
      { workspace: o.workspace, home: homedir() },
      permissions.sandboxPaths,
    )?.();
    return expandSnippets(text, {
      from,
      allowedTools: source.allowed_tools ?? [],
      refusal(command) {
        const call = { id: `${source.kind}-${source.name}`, name: 'execute', args: { command } };
        const sandbox = sandboxOf(command);
        if (sandbox.kind === 'refused') return sandbox.reason;
        const risk = alwaysAskReason(execute, call.args, o.workspace, {
          sandboxed: sandbox.kind === 'sandboxed',
          network: sandbox.kind === 'sandboxed' && sandbox.network,
          readsKeptBy: sandboxSettings.reads_kept_by,
        });
        return (
          ruleRefusal(permissions.rules, tools, call, workspace) ??
          (risk && `${risk}, so it always needs a person's approval: run it yourself`)
        );
      },
      run: (command) => runSnippet(command, sandboxOf(command), { ...o, paths }),
    });
  };
}

/** One command's output as it stands in the prompt, with how it ended when that was not well. */
async function runSnippet(
  command: string,
  sandbox: CommandSandbox,
  o: RecipeSnippetOptions & { paths?: SandboxPaths },
): Promise<string> {
  const wrapped =
    sandbox.kind === 'sandboxed'
      ? await wrapCommand(
          sandbox,
          {
            workspace: o.workspace,
            home: homedir(),
            workbenchHome: o.home,
            deniedRead: o.paths?.deniedRead,
            deniedWrite: o.paths?.deniedWrite,
            allowedRead: o.paths?.allowedRead,
            allowedWrite: o.paths?.allowedWrite,
          },
          defaultShell(),
          command,
          o.workspace,
        )
      : undefined;
  let result;
  try {
    result = await runInProcessGroup({
      command: wrapped?.command ?? command,
      cwd: o.workspace,
      env: safeChildEnv({ PWD: o.workspace, ...wrapped?.env }),
      timeoutMs: EXECUTE_TIMEOUT_MS,
    });
  } finally {
    await wrapped?.cleanup();
  }
  const output = terminalText(result.output).text.replace(/\n+$/, '');
  const ended = result.timedOut
    ? `(timed out after ${seconds(EXECUTE_TIMEOUT_MS)}s)`
    : result.exitCode
      ? `(exit code ${result.exitCode})`
      : '';
  return [output, ended].filter(Boolean).join('\n');
}
