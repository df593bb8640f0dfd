/**
 * The agent profile (docs/memory.md): optional `<workspace>/.workbench/agent.yaml`. Every
 * field has a default, so a workspace without the file gets a working agent. A bad field is reported
 * (file:line) and replaced by its default; the rest of the file still applies.
 *
 * Activation: the filesystem backend always exists in a local workbench, so tracing, todolist,
 * filesystem, skills, memory and summarization are all active by default; `skills.paths` and
 * `memory.paths` only add sources, they do not switch anything on. Any built-in can
 * be switched off in settings (`hook_overrides["builtin:<name>"].enabled = false`).
 */
import type { AgentMemoryScope } from './agent-memory.ts';
import { readTextFileSync } from '../fs/read-text-if-file.ts';
import { dirname, join, resolve } from 'node:path';
import { LineCounter, parseDocument, isMap } from 'yaml';
import { z } from 'zod';
import { DEFAULT_CONTEXT_WINDOW } from '../../shared/constants.ts';
import type { CompactionConfig } from '../middleware/compaction.ts';
import { retriesSchema, type RetryRules } from '../agent/tool-retry.ts';
import { httpToolConfigSchema, type HttpToolConfig } from '../tools/http-tool.ts';

export interface AgentProfile {
  name: string;
  /** Overrides the model from settings when set. */
  model?: string;
  system_prompt: string;
  context_window: number;
  /** Allowlist of tool names; undefined = every tool. */
  tools?: string[];
  /** Tools this agent never gets, whatever the allowlist (Claude Code's `disallowedTools`). */
  disallowed_tools?: string[];
  /**
   * Calls this agent may not make, as Claude Code permission rules (`Bash(git push *)` in
   * `disallowedTools`); they hold in its runs like deny rules of the settings.
   */
  disallowed_rules?: string[];
  /** Claude Code's `permissionMode: plan`: the agent may read, never write or run commands. */
  read_only?: boolean;
  /** Claude Code hooks of the agent's frontmatter: they run in this agent's runs only. */
  hooks?: Record<string, unknown>;
  /** Extra skill folders; `preload`: skills whose whole SKILL.md joins the system prompt (Claude Code's agent `skills`). */
  skills: { paths: string[]; preload?: string[] };
  memory: { paths: string[] };
  /** Claude Code's agent memory (`memory: user | project | local`, agents/agent-memory.ts). */
  agent_memory?: AgentMemoryScope;
  compaction: CompactionConfig;
  /** Attempts, backoff and jitter per tool (docs/tools.md#errors-and-retries). */
  retries?: RetryRules;
  /** Tools that POST to a URL (docs/tools.md#http-tools); ignored in an untrusted workspace. */
  http_tools?: HttpToolConfig[];
  /** The agent.yaml that was read, when one exists. */
  source?: string;
  /** One line saying when to use this agent (the `task` tool lists it; docs/agents.md). */
  description?: string;
  /** Rounds this agent may take per run; overrides settings.max_iterations when set. */
  max_iterations?: number;
  /** How deep subagents may nest under this agent (default settings, else 2). */
  max_subagent_depth?: number;
  /** Absolute path of the profile's TypeScript script hooks, resolved against the profile file. */
  script?: string;
}

/** Whether the profile lets its agent use the tool: on its allowlist (when it has one), not taken. */
export function profileOffers(
  profile: Pick<AgentProfile, 'tools' | 'disallowed_tools'>,
  name: string,
): boolean {
  return (!profile.tools?.length || profile.tools.includes(name)) && !profile.disallowed_tools?.includes(name);
}

export interface LoadAgentProfileResult {
  profile: AgentProfile;
  /** One line each, `file:line: message` when the position is known. */
  diagnostics: string[];
}

export const PROFILE_RELATIVE_PATH = join('.workbench', 'agent.yaml');

const paths = z.object({ paths: z.array(z.string().min(1)).default([]) }).strict();
const schema = z
  .object({
    name: z.string().min(1),
    // `model` is either a plain name or an object whose `name` is the model.
    model: z.union([z.string().min(1), z.object({ name: z.string().min(1) }).loose().transform((m) => m.name)]),
    system_prompt: z.string().min(1),
    context_window: z.number().int().min(1_000),
    tools: z.array(z.string().min(1)),
    script: z.string().min(1),
    skills: paths,
    memory: paths,
    compaction: z
      .object({
        strategy: z.enum(['hybrid', 'summarization']),
        trigger: z.number().gt(0).max(1),
        target_tokens: z.number().int().positive(),
        preserve_last_n: z.number().int().min(0),
        protected_tokens: z.number().int().min(0),
      })
      .partial()
      .strict(),
    description: z.string().min(1),
    max_iterations: z.number().int().min(1).max(1000),
    max_subagent_depth: z.number().int().min(0).max(10),
    // Read by the agent registry (agents/registry.ts), which reports problems per entry.
    subagents: z.array(z.unknown()),
    retries: retriesSchema,
    http_tools: z.array(httpToolConfigSchema),
  })
  .partial();
type ProfileFile = z.infer<typeof schema>;
const KNOWN_KEYS = new Set(Object.keys(schema.shape));

/** The prompt used when agent.yaml sets none: who the agent is, where it works, which tools it has. */
export function defaultSystemPrompt(workspace: string): string {
  return [
    'You are a careful coding agent working in a local workspace on the user\'s machine.',
    `Workspace: ${workspace}. Relative paths are resolved against it; you cannot write outside it.`,
    'Tools: ls, read_file, glob and grep to explore; write_file and edit_file to change files (read a file before editing it); execute to run shell commands in the workspace; write_todos to keep a task list for multi-step work.',
    'Work in small verified steps: look before you change, run the tests or the program after a change, and report what you did and what is left. Ask when a request is ambiguous or destructive. Never invent file contents or command output.',
  ].join('\n');
}

/** The profile used when agent.yaml is absent. */
export function defaultAgentProfile(workspace: string): AgentProfile {
  return {
    name: 'workbench',
    system_prompt: defaultSystemPrompt(workspace),
    context_window: DEFAULT_CONTEXT_WINDOW,
    skills: { paths: [] },
    memory: { paths: [] },
    compaction: {},
  };
}

/**
 * Reads `<workspace>/.workbench/agent.yaml` into a profile.
 * Contract: with `trusted: false` the system prompt, `memory.paths` and `skills.paths` are ignored
 * (see `dropUntrusted`); never rejects; a missing file gives the defaults and no diagnostic; unreadable or
 * malformed YAML gives the defaults and one diagnostic; a field of the wrong type is dropped (its
 * default used) with a diagnostic, the other fields still apply.
 */
export async function loadAgentProfile(
  workspace: string,
  opts: { trusted?: boolean } = {},
): Promise<LoadAgentProfileResult> {
  const file = join(workspace, PROFILE_RELATIVE_PATH);
  const defaults = defaultAgentProfile(workspace);
  let text: string | undefined;
  try {
    text = readTextFileSync(file);
  } catch (err) {
    return { profile: defaults, diagnostics: [`${file}: cannot read: ${(err as Error).message}`] };
  }
  if (text === undefined) return { profile: defaults, diagnostics: [] };
  const loaded = parseAgentProfile(text, file, workspace);
  return opts.trusted === false ? dropUntrusted(loaded, workspace) : loaded;
}

/** The agent.yaml fields an untrusted workspace may not set: they steer what reaches the model. */
export const UNTRUSTED_PROFILE_FIELDS = ['system_prompt', 'memory.paths', 'skills.paths', 'http_tools'] as const;

/**
 * The profile with the fields an untrusted workspace may not set put back to their defaults, one
 * diagnostic per field that was set. Contract: pure; other fields are kept.
 */
export function dropUntrusted(loaded: LoadAgentProfileResult, workspace: string): LoadAgentProfileResult {
  const { profile } = loaded;
  const defaults = defaultAgentProfile(workspace);
  const ignored = [
    profile.system_prompt !== defaults.system_prompt && 'system_prompt',
    profile.memory.paths.length > 0 && 'memory.paths',
    profile.skills.paths.length > 0 && 'skills.paths',
    (profile.http_tools?.length ?? 0) > 0 && 'http_tools',
  ].filter((f): f is string => typeof f === 'string');
  const file = profile.source ?? PROFILE_RELATIVE_PATH;
  return {
    profile: { ...profile, system_prompt: defaults.system_prompt, memory: { paths: [] }, skills: { paths: [] }, http_tools: undefined },
    diagnostics: [
      ...loaded.diagnostics,
      ...ignored.map((f) => `${file}: ${f} ignored: the workspace is not trusted (run \`workbench trust DIR\`)`),
    ],
  };
}

/** Parses agent.yaml text (see `loadAgentProfile`); `file` is used in diagnostics only. */
export function parseAgentProfile(text: string, file: string, workspace: string): LoadAgentProfileResult {
  const defaults = { ...defaultAgentProfile(workspace), source: file };
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const at = (offset: number | undefined) => (offset === undefined ? file : `${file}:${lines.linePos(offset).line}`);
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    return { profile: defaults, diagnostics: [`${at(e.pos[0])}: invalid YAML: ${firstLine(e.message)}; using defaults`] };
  }
  const raw: unknown = doc.toJS();
  if (raw === null || raw === undefined) return { profile: defaults, diagnostics: [] };
  if (typeof raw !== 'object' || Array.isArray(raw) || !isMap(doc.contents)) {
    return { profile: defaults, diagnostics: [`${file}:1: expected a mapping of settings (name, model, system_prompt, …); using defaults`] };
  }
  const diagnostics: string[] = [];
  const lineOf = (path: PropertyKey[]) => {
    const node = doc.getIn(path.filter((p): p is string | number => typeof p !== 'symbol'), true) as { range?: [number, number, number] } | undefined;
    return at(node?.range?.[0] ?? findKeyOffset(doc, path[0]));
  };
  const values: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const key of Object.keys(values)) {
    if (KNOWN_KEYS.has(key)) continue;
    diagnostics.push(`${lineOf([key])}: unknown setting "${key}" ignored`);
    delete values[key];
  }
  let parsed: ProfileFile | undefined;
  // Each round drops the fields that failed; a handful of rounds covers every top-level key.
  for (let round = 0; round <= KNOWN_KEYS.size && !parsed; round++) {
    const result = schema.safeParse(values);
    if (result.success) {
      parsed = result.data;
      break;
    }
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? '');
      diagnostics.push(`${lineOf(issue.path)}: ${issue.path.join('.') || 'file'}: ${issue.message}; using the default`);
      delete values[key];
    }
  }
  return { profile: merge(defaults, parsed ?? {}), diagnostics };
}

function merge(defaults: AgentProfile, file: ProfileFile): AgentProfile {
  return {
    ...defaults,
    ...(file.name !== undefined ? { name: file.name } : {}),
    ...(file.model !== undefined ? { model: file.model } : {}),
    ...(file.system_prompt !== undefined ? { system_prompt: file.system_prompt } : {}),
    ...(file.context_window !== undefined ? { context_window: file.context_window } : {}),
    ...(file.tools !== undefined ? { tools: file.tools } : {}),
    ...(file.script !== undefined ? { script: resolve(dirname(defaults.source ?? ''), file.script) } : {}),
    skills: { paths: file.skills?.paths ?? [] },
    memory: { paths: file.memory?.paths ?? [] },
    compaction: file.compaction ?? {},
    ...(file.description !== undefined ? { description: file.description } : {}),
    ...(file.max_iterations !== undefined ? { max_iterations: file.max_iterations } : {}),
    ...(file.max_subagent_depth !== undefined ? { max_subagent_depth: file.max_subagent_depth } : {}),
    ...(file.retries !== undefined ? { retries: file.retries } : {}),
    ...(file.http_tools !== undefined ? { http_tools: file.http_tools } : {}),
  };
}

function findKeyOffset(doc: ReturnType<typeof parseDocument>, key: PropertyKey | undefined): number | undefined {
  if (!isMap(doc.contents) || typeof key !== 'string') return undefined;
  const pair = doc.contents.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
  return (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0];
}

function firstLine(message: string): string {
  return message.split('\n')[0];
}
