/**
 * Claude Code dialect configuration: the `hooks` key of the settings files, flattened into one
 * handler list with stable ids `claude:<file>#<Event>/<group>/<handler>`. Identical handlers found in
 * several files run once (the first file wins), as in Claude Code.
 */
import { basename, join } from 'node:path';
import { CLAUDE_AGENT_HOOK_TIMEOUT_MS, CLAUDE_HOOK_TIMEOUT_MS, CLAUDE_PROMPT_HOOK_TIMEOUT_MS } from '../../shared/constants.ts';
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import { isRecord } from './json-output.ts';
import { errorMessage } from '../errors.ts';
import { readTextIfFile } from '../fs/read-text-if-file.ts';
import { CLAUDE_EVENTS, isClaudeEvent } from './claude-events.ts';
import { enabledPlugins, type SettingsData } from './claude-plugins.ts';
import { claudeConfigDir, managedSettingsPath } from '../env/claude-config-dir.ts';
import { parseClaudeRule, type ClaudeRule } from './claude-rules.ts';
import { parsePromptHandler, type PromptTarget } from './claude-prompt.ts';
import { parseMcpToolHandler, type McpToolTarget } from './claude-mcp-tool.ts';
import { httpHookPolicy, parseHttpHandler, refusedHttpUrl, type HttpHookPolicy, type HttpTarget } from './claude-http.ts';

/** The events about one tool call, the only ones a handler's `if` is read on. */
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied']);

/** A handler's `if`: the rule, or why the handler cannot run with it. */
function ifRule(value: unknown, event: string): ClaudeRule | string {
  if (typeof value !== 'string') return '"if" must be a permission rule such as "Bash(git *)"';
  if (!TOOL_EVENTS.has(event)) return `"if" is read only on tool events (${[...TOOL_EVENTS].join(', ')}): on ${event} this handler never runs`;
  return parseClaudeRule(value);
}


export interface ClaudeSettingsFile {
  path: string;
  /** Workspace files need trust; the user's own settings never do. */
  scope: 'workspace' | 'user';
  /** Precedence for `enabledPlugins` (higher wins): managed > local > project > user. */
  precedence: number;
}

export interface ClaudeHandler {
  id: string;
  name: string;
  file: string;
  scope: 'workspace' | 'user';
  event: string;
  matcher?: string;
  /** Shell string (run with /bin/sh -c) or, with `args`, the program of the exec form; an http handler's URL. */
  command: string;
  /** An `http` handler: its input is POSTed to this target instead of a process's stdin. */
  http?: HttpTarget;
  /** A `prompt` handler: its input is judged by the model instead of a process. */
  prompt?: PromptTarget;
  /** An `agent` handler: judged by the model after reading the workspace with its read tools. */
  agent?: PromptTarget;
  /** An `mcp_tool` handler: one call of a connected MCP server's tool instead of a process. */
  mcpTool?: McpToolTarget;
  /** A skill's handler: it runs once the skill's SKILL.md was read in the thread. */
  skill?: string;
  /** `once: true` (skills): it runs at most once in a thread. */
  once?: boolean;
  /** `statusMessage`: shown to the user while it runs. */
  statusMessage?: string;
  /**
   * `async: true`: runs in the background, never holding the agent; what it says reaches the model on
   * a later request. `asyncRewake: true` also hands its exit-2 reason to the model that way.
   */
  background?: 'async' | 'rewake';
  /** `onFailure: "block"`: a failure (it cannot start, times out, exits with an unexpected code) blocks what it guards. */
  failClosed?: boolean;
  args?: string[];
  timeoutMs: number;
  enabled: boolean;
  trusted: boolean;
  problem?: string;
  /** Same event, matcher and command as a handler listed earlier: that one runs instead. */
  duplicate?: boolean;
  /** The handler's `if`: it runs only for tool calls this permission rule covers (`Bash(git *)`). */
  if?: ClaudeRule;
  /**
   * Claude Code's settings `env` for the hook process: every settings file's block merged by
   * precedence (`settingsEnv`), as Claude Code sets them all in its own process.
   */
  env?: Record<string, string>;
  /** Runs in the command sandbox: the handler's `"sandbox": true` (a workbench extension) or its override. */
  sandbox?: boolean;
  /** A plugin's handler: its install folder (`${CLAUDE_PLUGIN_ROOT}`, `CLAUDE_PLUGIN_ROOT`). */
  pluginRoot?: string;
  /** A plugin's handler: its persistent data folder (`${CLAUDE_PLUGIN_DATA}`), created when it runs. */
  pluginData?: string;
}

/** The string values of a settings file's `env` block (other values are skipped, as Claude Code does). */
function envBlock(data: Record<string, unknown>): Record<string, string> | undefined {
  if (!isRecord(data.env)) return undefined;
  const env = Object.fromEntries(Object.entries(data.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return Object.keys(env).length ? env : undefined;
}

/**
 * Claude Code's settings `env` for a run's commands (docs/settings.md): every file's `env` block,
 * a higher precedence winning (managed over local over project over yours); a workspace's files
 * only once it is trusted. Secret-looking names are dropped later, where commands are started.
 */
export function settingsEnv(files: readonly ReadSettingsFile[], trusted: boolean): Record<string, string> {
  const counted = files.filter((f) => (trusted || f.scope !== 'workspace') && isRecord(f.data));
  const byPrecedence = [...counted].sort((a, b) => a.precedence - b.precedence);
  return Object.assign({}, ...byPrecedence.map((f) => envBlock(f.data as Record<string, unknown>) ?? {}));
}

/** The settings files of the Claude dialect; `claudeDir` is the user's Claude Code folder (`~/.claude`). */
export function claudeSettingsFiles(workspace: string, home: string, claudeDir: string = claudeConfigDir()): ClaudeSettingsFile[] {
  return [
    { path: managedSettingsPath(), scope: 'user', precedence: 4 },
    { path: join(workspace, '.claude', 'settings.json'), scope: 'workspace', precedence: 2 },
    { path: join(workspace, '.claude', 'settings.local.json'), scope: 'workspace', precedence: 3 },
    { path: join(workspace, '.workbench', 'settings.json'), scope: 'workspace', precedence: 2 },
    { path: join(home, 'settings.json'), scope: 'user', precedence: 1 },
    { path: join(claudeDir, 'settings.json'), scope: 'user', precedence: 1 },
  ];
}

/** A file whose `hooks` are read: a settings file, a plugin's hooks.json or an agent's frontmatter. */
interface SourceFile {
  path: string;
  scope: 'workspace' | 'user';
  /** Its content; absent when it does not parse (then `parseError` says why). */
  data?: unknown;
  parseError?: string;
  pluginRoot?: string;
  pluginData?: string;
  /** An agent's hooks run as a subagent: `Stop` handlers are `SubagentStop` ones (their ids stay as written). */
  stopAsSubagentStop?: boolean;
  /** A skill's frontmatter: its handlers run once the skill is read in the thread. */
  skill?: string;
}

/** A JSON file's text as `data`, or why it does not parse. */
function parseJsonText(text: string): { data: unknown } | { parseError: string } {
  try {
    return { data: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (err) {
    return { parseError: errorMessage(err) };
  }
}

/** A settings file that exists, with its content when it parses (else why not: reported where its hooks are read). */
export interface ReadSettingsFile extends ClaudeSettingsFile {
  data?: unknown;
  parseError?: string;
}

/**
 * The settings files of the Claude dialect that exist, read and parsed once for a run: its hooks,
 * permission rules, MCP servers and plugins are all read from them.
 */
export async function readClaudeSettingsFiles(workspace: string, home: string, claudeDir: string = claudeConfigDir()): Promise<ReadSettingsFile[]> {
  const files: ReadSettingsFile[] = [];
  for (const file of claudeSettingsFiles(workspace, home, claudeDir)) {
    const text = await readTextIfFile(file.path);
    if (text !== undefined) files.push({ ...file, ...parseJsonText(text) });
  }
  return files;
}

/** The files that parse, as `enabledPlugins` reads them. */
export const parsedSettings = (files: readonly ReadSettingsFile[]): (ReadSettingsFile & SettingsData)[] =>
  files.filter((f): f is ReadSettingsFile & SettingsData => 'data' in f);

/**
 * Whether the administrator's managed settings set the key at `keys` to true (`allowManagedPermissionRulesOnly`,
 * `sandbox`, `network`, `allowManagedDomainsOnly`…): then only that file's own entries of the list it guards count.
 */
export function managedSets(files: readonly ReadSettingsFile[], ...keys: string[]): boolean {
  return valueAt(parsedSettings(files).find((f) => f.path === managedSettingsPath())?.data, keys) === true;
}

/**
 * The first file that sets the key at `keys` to `value`, or undefined: for a setting that only takes
 * something away (`permissions.denyInsteadOfPrompting`), which any file may turn on.
 */
export function fileSetting(files: readonly ReadSettingsFile[], keys: readonly string[], value: unknown): string | undefined {
  return parsedSettings(files).find((f) => valueAt(f.data, keys) === value)?.path;
}

function valueAt(data: unknown, keys: readonly string[]): unknown {
  let value = data;
  for (const key of keys) value = isRecord(value) ? value[key] : undefined;
  return value;
}

/**
 * Why Claude Code handlers are switched off, per scope: `"disableAllHooks": true` in the managed
 * settings switches off every handler; in the user's own every handler but the managed ones (as in
 * Claude Code: the user cannot switch off the administrator's); in a workspace's only the handlers
 * the workspace brings (it cannot switch off the user's guards). The managed settings'
 * `"allowManagedHooksOnly": true` switches off every handler they do not hold themselves.
 */
function switchedOffBy(files: readonly SourceFile[]): (file: SourceFile) => string | undefined {
  /** Per scope; `managed` switches off every handler, `unmanaged` every one outside the managed settings. */
  const off: { managed?: string; user?: string; workspace?: string; unmanaged?: string } = {};
  const managed = managedSettingsPath();
  for (const f of files) {
    if (f.pluginRoot || !isRecord(f.data)) continue;
    const why = `switched off by "disableAllHooks": true in ${f.path}`;
    if (f.data.disableAllHooks === true) {
      if (f.path === managed) off.managed = why;
      else off[f.scope] ??= why;
    }
    if (f.path === managed && f.data.allowManagedHooksOnly === true) off.unmanaged = `switched off: only managed hooks run ("allowManagedHooksOnly" in ${f.path})`;
  }
  // The managed settings' handlers are the administrator's: only their own switch turns them off.
  return (file) => off.managed ?? (file.path === managed ? undefined : (off.user ?? (file.scope === 'workspace' ? off.workspace : undefined) ?? off.unmanaged));
}

/** The `hooks` of a Claude Code agent's frontmatter, for the runs of that agent only. */
export interface AgentHooks {
  /** The agent's file. */
  file: string;
  scope: 'workspace' | 'user';
  hooks: unknown;
  /** The agent runs as a subagent: its `Stop` handlers are `SubagentStop` ones. */
  subagent: boolean;
}

/** A skill whose SKILL.md frontmatter has `hooks` (docs/skills.md). */
export interface SkillHooks {
  skill: string;
  /** Its SKILL.md (real path): reading it activates the hooks. */
  file: string;
  scope: 'workspace' | 'user';
  hooks: unknown;
}

/**
 * An agent's hooks as one more settings file; run as a subagent, its `Stop` handlers become
 * `SubagentStop`, as Claude Code registers them.
 */
function agentSource(a: AgentHooks): SourceFile {
  return { path: a.file, scope: a.scope, data: { hooks: a.hooks }, ...(a.subagent ? { stopAsSubagentStop: true } : {}) };
}

/** The settings files as the run read them, then the hooks files of the plugins they enable. */
async function sourceFiles(settings: readonly ReadSettingsFile[], workspace: string, claudeDir: string): Promise<SourceFile[]> {
  const files: SourceFile[] = settings.map(({ path, scope, data, parseError }) => ({ path, scope, data, parseError }));
  for (const plugin of enabledPlugins(parsedSettings(settings), workspace, claudeDir)) {
    const path = join(plugin.root, 'hooks', 'hooks.json');
    const text = await readTextIfFile(path);
    if (text !== undefined) files.push({ path, scope: plugin.scope, ...parseJsonText(text), pluginRoot: plugin.root, pluginData: pluginDataDir(claudeDir, plugin.id) });
  }
  return files;
}

/**
 * A plugin's data folder as Claude Code lays it out: `<claude dir>/plugins/data/<id>`, where every
 * character of `name@marketplace` outside letters, digits, `_` and `-` becomes `-`; it survives updates.
 */
export function pluginDataDir(claudeDir: string, pluginId: string): string {
  return join(claudeDir, 'plugins', 'data', pluginId.replace(/[^A-Za-z0-9_-]/g, '-'));
}

/** Launchers whose first argument is the script that names the hook (`python3 guard.py`, `env X=1 bash x.sh`). */
const LAUNCHERS = new Set(['env', 'sh', 'bash', 'zsh', 'dash', 'fish', 'python', 'python3', 'node', 'deno', 'bun', 'tsx', 'ts-node', 'ruby', 'perl', 'php', 'uv', 'uvx', 'run', 'npx', 'exec', 'nohup', 'command']);

/**
 * A short display name: the file name of the script the command runs, past launchers, their flags and
 * `VAR=value` assignments; else the program's name, else the start of the command.
 */
export function displayName(command: string, args: readonly string[] = []): string {
  const words = [...(command.trim().match(/"[^"]*"\S*|'[^']*'\S*|\S+/g) ?? []), ...args];
  const clean = (w: string) => basename(w.replace(/["']/g, '').replace(/\/+$/, ''));
  let fallback: string | undefined;
  for (const word of words) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || word.startsWith('-')) continue;
    const name = clean(word);
    if (!name) continue;
    if (LAUNCHERS.has(name)) {
      fallback ??= name;
      continue;
    }
    return name;
  }
  return fallback ?? command.slice(0, 40);
}

/** An http handler's display name: its host and path (`hooks.example.com/guard`). */
function httpName(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname === '/' ? '' : u.pathname}`.slice(0, 60);
}

export interface LoadedClaudeConfig {
  handlers: ClaudeHandler[];
  diagnostics: string[];
}

/** Events on which Claude Code ignores a handler's `onFailure: "block"` (a failure there never blocks). */
const ON_FAILURE_IGNORED = new Set(['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle']);

/**
 * Reads every settings file and returns all handlers, problems included (for listing).
 * Contract: never throws; a missing file is skipped, bad JSON or shape becomes a diagnostic and an
 * entry with `problem`.
 */
export async function loadClaudeHooks(opts: { workspace: string; home: string; trusted: boolean; settings: WorkbenchSettings; claudeDir?: string; agent?: AgentHooks; claudeSettings?: readonly ReadSettingsFile[]; skills?: readonly SkillHooks[] }): Promise<LoadedClaudeConfig> {
  const handlers: ClaudeHandler[] = [];
  const diagnostics: string[] = [];
  const seen = new Set<string>();
  const claudeDir = opts.claudeDir ?? claudeConfigDir();
  const settings = opts.claudeSettings ?? (await readClaudeSettingsFiles(opts.workspace, opts.home, claudeDir));
  const files = await sourceFiles(settings, opts.workspace, claudeDir);
  // Claude Code sets every settings file's `env` in its own process, so each of its hooks has them all.
  const env = settingsEnv(settings, opts.trusted);
  const hookEnv = Object.keys(env).length ? { env } : {};
  if (opts.agent) files.push(agentSource(opts.agent));
  for (const s of opts.skills ?? []) files.push({ path: s.file, scope: s.scope, data: { hooks: s.hooks }, skill: s.skill });
  const switchedOff = switchedOffBy(files);
  const managed = managedSettingsPath();
  const policy: HttpHookPolicy = httpHookPolicy(
    files.filter((f) => !f.pluginRoot && (f.scope === 'user' || opts.trusted)).map((f) => ({ path: f.path, data: f.data, managed: f.path === managed })),
  );
  for (const file of files) {
    const trusted = file.scope === 'user' || opts.trusted;
    // Switched off on purpose: listed as such, not reported on every run.
    const offBy = switchedOff(file);
    const base = { file: file.path, scope: file.scope, trusted, command: '', timeoutMs: CLAUDE_HOOK_TIMEOUT_MS, enabled: false, ...(file.pluginRoot ? { pluginRoot: file.pluginRoot, pluginData: file.pluginData } : {}), ...(file.skill ? { skill: file.skill } : {}) };
    const data = file.data;
    if (file.parseError !== undefined) {
      const problem = `bad JSON in settings: ${file.parseError}`;
      diagnostics.push(`${file.path}: ${problem}`);
      handlers.push({ ...base, id: `claude:${file.path}`, name: basename(file.path), event: '(file)', problem });
      continue;
    }
    if (!isRecord(data) || data.hooks === undefined) continue;
    if (!isRecord(data.hooks)) {
      const problem = '"hooks" must be an object of events';
      diagnostics.push(`${file.path}: ${problem}`);
      handlers.push({ ...base, id: `claude:${file.path}`, name: basename(file.path), event: '(file)', problem });
      continue;
    }
    for (const [written, groups] of Object.entries(data.hooks)) {
      // Ids keep the event as written, so a handler's switch holds whichever way its agent runs.
      const event = file.stopAsSubagentStop && written === 'Stop' ? 'SubagentStop' : written;
      const known = isClaudeEvent(event);
      if (!Array.isArray(groups)) {
        const problem = `"${event}" must be an array of matcher groups`;
        diagnostics.push(`${file.path}: ${problem}`);
        handlers.push({ ...base, id: `claude:${file.path}#${written}`, name: event, event, problem });
        continue;
      }
      groups.forEach((group: unknown, g) => {
        const matcher = isRecord(group) && typeof group.matcher === 'string' ? group.matcher : undefined;
        const list = isRecord(group) && Array.isArray(group.hooks) ? group.hooks : undefined;
        if (!list) {
          const problem = `${event}[${g}] needs a "hooks" array`;
          diagnostics.push(`${file.path}: ${problem}`);
          handlers.push({ ...base, id: `claude:${file.path}#${written}/${g}`, name: event, event, matcher, problem });
          return;
        }
        list.forEach((h: unknown, i) => {
          const id = `claude:${file.path}#${written}/${g}/${i}`;
          const override = opts.settings.hook_overrides[id] ?? {};
          const entry: ClaudeHandler = { ...base, id, name: event, event, matcher, enabled: override.enabled !== false, ...(event === 'UserPromptSubmit' ? { timeoutMs: CLAUDE_PROMPT_HOOK_TIMEOUT_MS } : {}), ...hookEnv };
          let problem: string | undefined;
          if (!known) problem = `unsupported event "${event}" (supported: ${CLAUDE_EVENTS.join(', ')})`;
          if (!isRecord(h)) problem ??= 'handler must be an object';
          else {
            if (h.type === 'http') {
              const target = parseHttpHandler(h, policy);
              if (typeof target === 'string') problem ??= target;
              else {
                entry.http = target;
                entry.command = target.url;
                entry.name = httpName(target.url);
                problem ??= refusedHttpUrl(target.url, policy);
              }
            } else if (h.type === 'prompt' || h.type === 'agent') {
              const target = parsePromptHandler(h, event, h.type);
              if (typeof target === 'string') problem ??= target;
              else {
                entry[h.type] = target;
                entry.command = target.prompt;
                entry.name = `${h.type}: ${target.prompt.replace(/\s+/g, ' ').trim().slice(0, 40)}`;
              }
              entry.timeoutMs = h.type === 'agent' ? CLAUDE_AGENT_HOOK_TIMEOUT_MS : CLAUDE_PROMPT_HOOK_TIMEOUT_MS;
            } else if (h.type === 'mcp_tool') {
              const target = parseMcpToolHandler(h);
              if (typeof target === 'string') problem ??= target;
              else {
                entry.mcpTool = target;
                entry.command = `${target.server} › ${target.tool}`;
                entry.name = `mcp: ${target.server} › ${target.tool}`;
              }
            } else if (h.type !== undefined && h.type !== 'command') problem ??= `handler type "${String(h.type)}" is not supported (only "command", "http", "mcp_tool", "prompt" and "agent")`;
            else if (typeof h.command !== 'string' || h.command.trim() === '') problem ??= 'handler needs a "command" string';
            else {
              entry.command = h.command;
              entry.name = displayName(h.command, Array.isArray(h.args) ? h.args.filter((a): a is string => typeof a === 'string') : []);
            }
            if (h.args !== undefined) {
              if (!Array.isArray(h.args) || h.args.some((a) => typeof a !== 'string')) problem ??= '"args" must be an array of strings';
              else entry.args = h.args as string[];
            }
            for (const key of ['async', 'asyncRewake'] as const) {
              if (h[key] === undefined || h[key] === false) continue;
              if (h[key] !== true) problem ??= `"${key}" must be true or false`;
              else if (entry.http || entry.prompt || entry.agent || entry.mcpTool) problem ??= `"${key}" is for command handlers`;
              else entry.background = key === 'asyncRewake' ? 'rewake' : 'async';
            }
            if (h.statusMessage !== undefined) {
              if (typeof h.statusMessage !== 'string') problem ??= '"statusMessage" must be a string';
              else if (h.statusMessage.trim()) entry.statusMessage = h.statusMessage.trim().slice(0, 200);
            }
            if (h.once !== undefined && h.once !== false) {
              if (h.once !== true) problem ??= '"once" must be true or false';
              else if (!file.skill) problem ??= '"once" is for the hooks of a skill';
              else entry.once = true;
            }
            if (h.timeout !== undefined) {
              if (typeof h.timeout !== 'number' || !(h.timeout > 0)) problem ??= '"timeout" must be a positive number of seconds';
              else entry.timeoutMs = Math.round(h.timeout * 1000);
            }
            // A misspelt value is read the strict way: a guard must not start failing open over a typo.
            if (h.onFailure !== undefined && h.onFailure !== 'continue') {
              const where = `${file.path}: ${event}[${g}].hooks[${i}]`;
              if (h.onFailure !== 'block') diagnostics.push(`${where}: "onFailure" must be "block" or "continue"; ${JSON.stringify(h.onFailure)} is read as "block"`);
              // Where Claude Code ignores it, so does the workbench, and says so as Claude Code logs it.
              if (entry.background) diagnostics.push(`${where}: not blocking (onFailure: "block" is ignored on a handler that runs in the background)`);
              else if (ON_FAILURE_IGNORED.has(event)) diagnostics.push(`${where}: not blocking (onFailure: "block" is ignored on ${event})`);
              else entry.failClosed = true;
            }
          }
          if (isRecord(h) && h.type !== 'http' && h.sandbox !== undefined && typeof h.sandbox !== 'boolean') problem ??= '"sandbox" must be true or false';
          if (isRecord(h) && (h.type === 'prompt' || h.type === 'agent' || h.type === 'mcp_tool') && h.sandbox !== undefined) problem ??= `"sandbox" is for command handlers: ${h.type === 'prompt' ? 'a prompt' : `an ${h.type}`} handler runs no process`;
          if (isRecord(h) && h.if !== undefined) {
            const rule = ifRule(h.if, event);
            if (typeof rule === 'string') problem ??= rule;
            else entry.if = rule;
          }
          if (!entry.http && !entry.prompt && !entry.agent && !entry.mcpTool && (override.sandbox ?? (isRecord(h) && h.sandbox === true)) === true) entry.sandbox = true;
          if (override.timeout_ms) entry.timeoutMs = override.timeout_ms;
          if (problem) {
            entry.problem = problem;
            diagnostics.push(`${file.path}: ${event}[${g}].hooks[${i}]: ${problem}`);
          }
          if (offBy) entry.problem ??= offBy;
          const key = JSON.stringify([event, matcher ?? '', entry.agent ? 'agent' : entry.prompt ? 'prompt' : entry.mcpTool ? 'mcp_tool' : 'command', entry.command, entry.args ?? entry.http?.headers ?? entry.mcpTool?.input ?? null, entry.if?.text ?? null, entry.failClosed === true]);
          // Identical handlers of settings files run once; a plugin's copy stays separate, as in Claude Code.
          if (!entry.problem && trusted && !file.pluginRoot) {
            if (seen.has(key)) entry.duplicate = true;
            else seen.add(key);
          }
          handlers.push(entry);
        });
      });
    }
  }
  return { handlers, diagnostics };
}

/** Whether a handler takes part in runs. */
export const isClaudeRunnable = (h: ClaudeHandler): boolean => h.enabled && h.trusted && !h.problem && !h.duplicate;
