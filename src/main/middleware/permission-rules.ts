/**
 * Claude Code's permission rules (`permissions.deny`, `ask` and `allow` of its settings files) as a
 * wrap_tool_call ring just inside the user hooks, so a rule sees the input a hook rewrote: a call a
 * deny rule covers is refused; one an ask rule covers is shown to a person in every approval mode;
 * one an allow rule covers skips the prompt of the mode (never a prompt a risky call always gets).
 * Deny, then ask, then allow, over every file: a deny anywhere wins (docs/security.md).
 */
import { homedir } from 'node:os';
import type { ToolCall, ToolResult } from '../../shared/types/index.ts';
import type { AgentProfile } from '../agents/profile.ts';
import type { Hook, MiddlewareInfo, RunContext } from '../pipeline/hook.ts';
import { claudeConfigDir, managedSettingsPath } from '../env/claude-config-dir.ts';
import {
  fileSetting,
  managedSets,
  parsedSettings,
  readClaudeSettingsFiles,
  type ReadSettingsFile,
} from '../user-hooks/claude-config.ts';
import { claudeRuleMatches, parseClaudeRule, type ClaudeRule } from '../user-hooks/claude-rules.ts';
import { bashFilePaths, type NamedPath } from '../user-hooks/bash-file-paths.ts';
import { claudeToolName, toClaudeInput, type ToolLookup } from '../user-hooks/claude-tools.ts';
import { isRecord } from '../user-hooks/json-output.ts';
import { allowByHook, askByRule, denied } from './approval.ts';
import { callEffects, effectKind } from '../tools/call-policy.ts';
import type { Workspace } from '../tools/workspace.ts';
import { setSandboxPaths } from '../tools/sandbox/index.ts';
import { rulesNotInSandbox, sandboxPathsFinder } from './rule-sandbox-paths.ts';
import { sandboxFilesystemEntries, type SandboxPathEntry } from './claude-sandbox-settings.ts';

export type RuleBehavior = 'deny' | 'ask' | 'allow';

export interface PermissionRule {
  rule: ClaudeRule;
  behavior: RuleBehavior;
  /** The settings file that holds it (named when it refuses or asks). */
  file: string;
  /**
   * From a workspace not trusted yet: it refuses what it covers, but the sandbox hides or keeps
   * read-only for it only what lies in the workspace (a repository cannot hide `/usr` from commands).
   */
  untrusted?: true;
}

export interface LoadedPermissionRules {
  rules: PermissionRule[];
  /** The `sandbox.filesystem` paths of the same files (docs/security.md#the-sandbox). */
  sandboxPaths: SandboxPathEntry[];
  /**
   * The file whose `permissions.denyInsteadOfPrompting` (Claude Code 2.1.319) refuses every call
   * that would wait for a person; any file counts, as it only refuses.
   */
  denyInsteadOfPromptingBy?: string;
  diagnostics: string[];
}

const BEHAVIORS: readonly RuleBehavior[] = ['deny', 'ask', 'allow'];

/**
 * The rules of the Claude dialect's settings files. Deny and ask rules count from every file (they
 * only add protection); a workspace's allow rules only once it is trusted (they would lift prompts),
 * and none but the managed settings' when those set `allowManagedPermissionRulesOnly`.
 * Contract: never rejects; a rule that does not parse is a diagnostic and is left out.
 */
export async function loadPermissionRules(o: {
  workspace: string;
  /** $WORKBENCH_HOME. */
  home: string;
  trusted: boolean;
  claudeDir?: string;
  /** The settings files as the run already read them. */
  claudeSettings?: readonly ReadSettingsFile[];
}): Promise<LoadedPermissionRules> {
  const files =
    o.claudeSettings ??
    (await readClaudeSettingsFiles(o.workspace, o.home, o.claudeDir ?? claudeConfigDir()));
  const rules: PermissionRule[] = [];
  const diagnostics: string[] = [];
  const parsed = parsedSettings(files);
  const managed = managedSettingsPath();
  // An administrator's `allowManagedPermissionRulesOnly`: no other file's allow rule lifts a prompt.
  const managedOnly = managedSets(files, 'allowManagedPermissionRulesOnly');
  const counts = (f: (typeof parsed)[number], behavior: RuleBehavior) =>
    behavior !== 'allow' ||
    ((f.scope === 'user' || o.trusted) && (!managedOnly || f.path === managed));
  for (const f of parsed) {
    const permissions = isRecord(f.data) ? f.data.permissions : undefined;
    if (!isRecord(permissions)) continue;
    for (const behavior of BEHAVIORS) {
      const list = permissions[behavior];
      if (list === undefined || !counts(f, behavior)) continue;
      if (!Array.isArray(list)) {
        diagnostics.push(`${f.path}: permissions.${behavior} must be a list of rules`);
        continue;
      }
      for (const text of list) {
        const rule =
          typeof text === 'string'
            ? parseClaudeRule(text)
            : `${JSON.stringify(text)} is not a rule`;
        if (typeof rule === 'string')
          diagnostics.push(`${f.path}: permissions.${behavior}: ${rule}`);
        else
          rules.push({
            rule,
            behavior,
            file: f.path,
            ...(f.scope === 'workspace' && !o.trusted ? { untrusted: true as const } : {}),
          });
      }
    }
  }
  for (const r of rulesNotInSandbox(rules, { workspace: o.workspace, home: homedir() }))
    diagnostics.push(
      `${r.file}: ${r.rule.text} keeps the file tools and the commands that name its files from them, not every sandboxed command: a sandbox hides paths, and a pattern with wildcards outside the workspace cannot be listed`,
    );
  const sandbox = sandboxFilesystemEntries(files, {
    workspace: o.workspace,
    home: homedir(),
    workbenchHome: o.home,
    trusted: o.trusted,
  });
  diagnostics.push(...sandbox.diagnostics);
  const denyInsteadOfPromptingBy = fileSetting(
    files,
    ['permissions', 'denyInsteadOfPrompting'],
    true,
  );
  return {
    rules,
    sandboxPaths: sandbox.entries,
    ...(denyInsteadOfPromptingBy ? { denyInsteadOfPromptingBy } : {}),
    diagnostics,
  };
}

/**
 * The settings file that switches off the approval mode that asks nobody — Claude Code's
 * `"permissions": { "disableBypassPermissionsMode": "disable" }`, whose bypassPermissions is the
 * workbench's `auto` — or undefined. Every file counts, trusted or not: it only adds protection.
 */
export function bypassDisabledBy(files: readonly ReadSettingsFile[]): string | undefined {
  return fileSetting(files, ['permissions', 'disableBypassPermissionsMode'], 'disable');
}

/** An agent's `disallowedTools` rules (`Bash(git push *)`), as deny rules of its runs. */
export function profileDenyRules(
  profile: Pick<AgentProfile, 'name' | 'source' | 'disallowed_rules'>,
): PermissionRule[] {
  const file = profile.source ?? `agent ${profile.name}`;
  return (profile.disallowed_rules ?? []).flatMap((text) => {
    const rule = parseClaudeRule(text);
    return typeof rule === 'string' ? [] : [{ rule, behavior: 'deny' as const, file }];
  });
}

/** The permission rules as the hooks panel lists them. */
export const permissionRulesInfo: MiddlewareInfo = {
  name: 'permission-rules',
  description:
    "Claude Code's permission rules: deny refuses a call, ask always asks, allow skips the prompt",
  phases: ['wrap_tool_call'],
};

/** Refuses a call: the chat shows `reason` (on_blocked), the model is told `error`. */
function refuse(ctx: RunContext, call: ToolCall, reason: string, error: string): ToolResult {
  ctx.emit({
    event: 'on_blocked',
    name: call.name,
    data: { by: 'permission-rules', reason, target: 'tool_call', tool_call_id: call.id },
  });
  return denied(call, error);
}

/** A rule that covers a call: for a command, maybe through a file it names (`what`: "this command reads .env"). */
interface RuleMatch {
  rule: PermissionRule;
  what?: string;
}

/**
 * The first rule of a behaviour that covers `call`, as Claude Code names the tool and its input. A
 * command is also judged by the files its file commands and redirections name, as Claude Code
 * judges `cat .env` by `Read(./.env)`: by deny and ask rules only (an allow rule for a file never
 * lets a command run).
 */
function firstRule(
  rules: readonly PermissionRule[],
  tools: ToolLookup,
  call: ToolCall,
  ws: Workspace,
): (behavior: RuleBehavior) => RuleMatch | undefined {
  const workspace = ws.root;
  const subject = {
    tool: claudeToolName(tools, call.name),
    input: toClaudeInput(tools, call.name, call.args, workspace),
  };
  const where = { workspace, home: homedir() };
  const command = subject.tool === 'Bash' ? subject.input.command : undefined;
  let named: NamedPath[] | undefined;
  const files = () =>
    (named ??= typeof command === 'string' ? bashFilePaths(command, workspace, where.home) : []);
  const pathRule = (r: PermissionRule) =>
    r.rule.specifier !== undefined && ['Read', 'Edit', 'Write'].includes(r.rule.tool);
  return (behavior) => {
    const direct = rules.find(
      (r) => r.behavior === behavior && claudeRuleMatches(r.rule, subject, where),
    );
    if (direct || behavior === 'allow' || command === undefined) return direct && { rule: direct };
    for (const rule of rules) {
      if (rule.behavior !== behavior || !pathRule(rule)) continue;
      const hit = files().find((f) =>
        claudeRuleMatches(
          rule.rule,
          {
            tool: f.tool,
            input:
              f.tool === 'Read' || f.tool === 'Write' ? { file_path: f.path } : { path: f.path },
          },
          where,
        ),
      );
      if (hit)
        return {
          rule,
          what: `this command ${hit.access === 'write' ? 'writes' : 'reads'} ${ws.display(hit.path)}`,
        };
    }
    return undefined;
  };
}

/** How a refusal or a prompt names the rule. */
const ruleText = (m: RuleMatch) => `your permission rule ${m.rule.rule.text} (${m.rule.file})`;
/** The file a command was judged by, to end a refusal or a prompt with. */
const whatText = (m: RuleMatch) => (m.what ? `: ${m.what}` : '');

/**
 * Why `rules` keep a call made where nobody can be asked (a hook's own agent) from running: a deny
 * rule, or an ask rule; undefined when none covers it.
 */
export function ruleRefusal(
  rules: readonly PermissionRule[],
  tools: ToolLookup,
  call: ToolCall,
  workspace: Workspace,
): string | undefined {
  if (rules.length === 0) return undefined;
  const first = firstRule(rules, tools, call, workspace);
  const deny = first('deny');
  if (deny) return `denied by ${ruleText(deny)}${whatText(deny)}`;
  const ask = first('ask');
  if (ask)
    return `${ruleText(ask)} asks a person before this call, and nobody can be asked here${whatText(ask)}`;
  return undefined;
}

/**
 * Creates the ring over `rules`; `readOnly` (an agent's `permissionMode: plan`, named by its file)
 * refuses every call that writes or runs a command; `sandboxEntries` are the `sandbox.filesystem`
 * paths the thread's sandboxed commands get with the rules' own.
 * Contract: a run with no rules and no read-only agent passes every call straight on.
 */
export function createPermissionRulesHook(
  rules: readonly PermissionRule[],
  readOnly?: { file: string },
  sandboxEntries: readonly SandboxPathEntry[] = [],
): Hook {
  // The sandbox keeps a thread's commands from what its Read and Edit deny rules cover.
  const sandboxed = new WeakSet<object>();
  return {
    name: permissionRulesInfo.name,
    source: 'builtin',
    async wrapToolCall(ctx, call, next) {
      if (!sandboxed.has(ctx.state)) {
        sandboxed.add(ctx.state);
        const find = sandboxPathsFinder(
          rules,
          { workspace: ctx.workspace.root, home: homedir() },
          sandboxEntries,
        );
        if (find) setSandboxPaths(ctx.state, find);
      }
      if (readOnly) {
        const tool = ctx.tools.get(call.name);
        const effects = tool && callEffects(tool, call.args);
        // A call with invalid arguments goes on: dispatch refuses it without running anything.
        if (effects && effectKind(effects) !== 'read') {
          const reason = `this agent only plans (permissionMode: plan in ${readOnly.file}): it may read, not change files or run commands`;
          return refuse(ctx, call, reason, `denied: ${reason}`);
        }
      }
      if (rules.length === 0) return next(call);
      const first = firstRule(rules, ctx.tools, call, ctx.workspace);
      const deny = first('deny');
      if (deny) {
        const reason = `${ruleText(deny)}${whatText(deny)}`;
        return refuse(ctx, call, reason, `denied by ${reason}`);
      }
      const ask = first('ask');
      if (ask)
        askByRule(ctx.state, call.id, `${ruleText(ask)} asks before this call${whatText(ask)}`);
      else if (first('allow')) allowByHook(ctx.state, call.id);
      return next(call);
    },
  };
}
