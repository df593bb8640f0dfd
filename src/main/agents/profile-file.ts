/**
 * One agent profile file (docs/agents.md): YAML frontmatter (name, description, model, tools,
 * max_iterations, skills, memory, script) and the system prompt as the body — the format of Claude
 * Code's `.claude/agents/*.md`. Claude tool names (Bash, Read, …) become ours through each tool's
 * `dialects.claude` entry.
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { LineCounter, parseDocument, isMap } from 'yaml';
import { createFilesystemTools } from '../tools/index.ts';
import { parseClaudeRule } from '../user-hooks/claude-rules.ts';
import type { AgentProfile } from './profile.ts';
import { AGENT_MEMORY_SCOPES, type AgentMemoryScope } from './agent-memory.ts';

/** The fields a profile file may set, before they are merged over the main profile. */
export interface ProfileFields {
  name: string;
  description?: string;
  model?: string;
  system_prompt?: string;
  tools?: string[];
  disallowed_tools?: string[];
  disallowed_rules?: string[];
  hooks?: Record<string, unknown>;
  read_only?: boolean;
  max_iterations?: number;
  skills?: string[];
  /** Skill names to preload (Claude Code's `skills: [name]`). */
  preload_skills?: string[];
  memory?: string[];
  /** Claude Code's agent memory: `memory: user | project | local`. */
  agent_memory?: AgentMemoryScope;
  script?: string;
}

export interface ParsedProfileFile {
  /** Undefined when the file cannot be used at all (no frontmatter, invalid YAML). */
  fields?: ProfileFields;
  /** `file:line: message`, one per problem; the other fields still apply. */
  diagnostics: string[];
}

/** A `skills` entry that names a skill (`api-conventions`, `plugin:review`) rather than a folder. */
function isSkillName(entry: string): boolean {
  return /^[A-Za-z0-9][\w.:-]*$/.test(entry) && !entry.includes('..');
}

/** Frontmatter keys of Claude Code agents that have no meaning here; accepted without a warning. */
const CLAUDE_ONLY_KEYS = new Set(['color', 'mcpServers']);
/** Claude Code permission modes; only `plan` changes anything here (the agent may only read). */
const PERMISSION_MODES = new Set([
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
  'dontAsk',
  'auto',
]);
/** Claude Code model aliases: they name Anthropic models, so such a profile uses the thread's model. */
const INHERIT_MODELS = new Set(['inherit', 'sonnet', 'opus', 'haiku']);
/** Profile names: what the model types as `subagent_type`. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

let claudeNames: Map<string, string> | undefined;
/** Claude Code tool name (lower case) → workbench tool name, from the tools' own dialects. */
function claudeToolNames(): Map<string, string> {
  if (!claudeNames) {
    claudeNames = new Map([
      ['task', 'task'],
      ['todowrite', 'write_todos'],
    ]);
    for (const tool of createFilesystemTools()) {
      const claude = tool.dialects?.claude?.name;
      if (claude) claudeNames.set(claude.toLowerCase(), tool.name);
      claudeNames.set(tool.name.toLowerCase(), tool.name);
    }
  }
  return claudeNames;
}

/** A tool name from a profile as the workbench knows it (`Bash` → `execute`), or undefined. */
export function mapToolName(name: string): string | undefined {
  return claudeToolNames().get(name.trim().toLowerCase());
}

/** Splits `---\nyaml\n---\nbody`; undefined when the text has no frontmatter. */
function splitFrontmatter(text: string): { yaml: string; body: string } | undefined {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  return m ? { yaml: m[1], body: m[2] } : undefined;
}

const stringList = (v: unknown): string[] | undefined => {
  if (typeof v === 'string') {
    // Commas inside a rule's parentheses (`Bash(a, b)`) do not split it.
    return v
      .split(/,(?![^(]*\))/)
      .map((s) => s.trim().replace(/^(["'])(.*)\1$/, '$2'))
      .filter(Boolean);
  }
  if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
    return v.map((s) => s.trim()).filter(Boolean);
  return undefined;
};

/**
 * Parses a profile file's text; `file` names it in diagnostics and anchors relative paths
 * (`script`, `skills`, `memory`), `fallbackName` is used when the frontmatter has no name.
 * Contract: never throws; a bad field is dropped with a `file:line` diagnostic, the rest applies.
 */
export function parseProfileFile(
  text: string,
  file: string,
  fallbackName: string,
): ParsedProfileFile {
  const parts = splitFrontmatter(text);
  if (!parts) {
    return {
      diagnostics: [
        `${file}:1: expected YAML frontmatter between --- lines (name, description, tools, …)`,
      ],
    };
  }
  const lines = new LineCounter();
  const doc = parseDocument(parts.yaml, { lineCounter: lines, prettyErrors: false });
  // The frontmatter starts on line 2 of the file.
  const at = (offset: number | undefined) =>
    offset === undefined ? `${file}:1` : `${file}:${lines.linePos(offset).line + 1}`;
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    return { diagnostics: [`${at(e.pos[0])}: invalid YAML: ${e.message.split('\n')[0]}`] };
  }
  const raw: unknown = doc.toJS();
  const values = (raw ?? {}) as Record<string, unknown>;
  if (raw !== null && raw !== undefined && !isMap(doc.contents)) {
    return {
      diagnostics: [`${file}:2: the frontmatter must be a mapping (name: …, description: …)`],
    };
  }
  const diagnostics: string[] = [];
  const lineOf = (key: string) => {
    if (!isMap(doc.contents)) return `${file}:1`;
    const pair = doc.contents.items.find(
      (p) => (p.key as { value?: unknown } | null)?.value === key,
    );
    return at((pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0]);
  };
  const bad = (key: string, message: string) =>
    diagnostics.push(`${lineOf(key)}: ${key}: ${message}; ignored`);
  const base = dirname(file);
  const abs = (p: string) =>
    p.startsWith('~/') ? join(homedir(), p.slice(2)) : isAbsolute(p) ? p : resolve(base, p);

  const fields: ProfileFields = { name: fallbackName };
  for (const [key, value] of Object.entries(values)) {
    switch (key) {
      case 'name':
        if (typeof value === 'string' && PROFILE_NAME.test(value)) fields.name = value;
        else bad(key, 'must be a name of letters, digits, "-", "_" or "."');
        break;
      case 'description':
        if (typeof value === 'string' && value.trim()) fields.description = value.trim();
        else bad(key, 'must be a non-empty string');
        break;
      case 'model':
        if (typeof value !== 'string' || !value.trim()) bad(key, 'must be a model name');
        else if (!INHERIT_MODELS.has(value.trim())) fields.model = value.trim();
        break;
      case 'tools': {
        const list = stringList(value);
        if (!list) {
          bad(key, 'must be a list of tool names or a comma-separated string');
          break;
        }
        fields.tools = list.map((t) => {
          const mapped = mapToolName(t);
          if (!mapped)
            diagnostics.push(
              `${lineOf(key)}: tools: unknown tool "${t}" (no workbench tool has that name)`,
            );
          return mapped ?? t;
        });
        break;
      }
      case 'disallowedTools': {
        const list = stringList(value);
        if (!list) {
          bad(key, 'must be a list of tool names or a comma-separated string');
          break;
        }
        // `Bash(rm *)` takes away those calls only; a bare name takes the tool away.
        for (const t of list) {
          const rule = t.includes('(') ? parseClaudeRule(t) : undefined;
          if (typeof rule === 'string')
            diagnostics.push(`${lineOf(key)}: disallowedTools: ${rule}`);
          else if (rule) (fields.disallowed_rules ??= []).push(rule.text);
          else (fields.disallowed_tools ??= []).push(mapToolName(t) ?? t);
        }
        break;
      }
      case 'permissionMode':
        if (typeof value !== 'string' || !PERMISSION_MODES.has(value))
          bad(key, `must be one of ${[...PERMISSION_MODES].join(', ')}`);
        else if (value === 'plan') fields.read_only = true;
        break;
      case 'hooks':
        // Read like a settings file's `hooks` when the agent runs (docs/agents.md).
        if (value && typeof value === 'object' && !Array.isArray(value))
          fields.hooks = value as Record<string, unknown>;
        else bad(key, 'must be a mapping of events, as in a settings file');
        break;
      case 'max_iterations':
      case 'maxTurns':
        if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 1000)
          fields.max_iterations = value;
        else bad(key, 'must be a whole number from 1 to 1000');
        break;
      case 'skills': {
        // Claude Code lists skill names to preload; a path (`../extra`, `~/skills`) is a folder of skills.
        const list = stringList(value);
        if (!list) {
          bad(key, 'must be a list of skill names or folders');
          break;
        }
        const names = list.filter(isSkillName);
        const folders = list.filter((e) => !isSkillName(e));
        if (names.length) fields.preload_skills = names;
        if (folders.length) fields.skills = folders.map(abs);
        break;
      }
      case 'memory': {
        // Claude Code's agent memory is one scope; a list is of memory files to add.
        if (typeof value === 'string' && AGENT_MEMORY_SCOPES.has(value.trim())) {
          fields.agent_memory = value.trim() as AgentMemoryScope;
          break;
        }
        const list = stringList(value);
        if (list) fields[key] = list.map(abs);
        else bad(key, 'must be a list of paths');
        break;
      }
      case 'script':
        if (typeof value === 'string' && value.trim()) fields.script = abs(value.trim());
        else bad(key, 'must be a path to a .ts file');
        break;
      default:
        if (!CLAUDE_ONLY_KEYS.has(key))
          diagnostics.push(`${lineOf(key)}: unknown field "${key}" ignored`);
    }
  }
  const prompt = parts.body.trim();
  if (prompt) fields.system_prompt = prompt;
  return { fields, diagnostics };
}

/** A subagent's profile: the main profile's context settings with the file's fields over them. */
export function profileFromFields(
  fields: ProfileFields,
  main: AgentProfile,
  source: string,
): AgentProfile {
  return {
    name: fields.name,
    system_prompt: fields.system_prompt ?? main.system_prompt,
    context_window: main.context_window,
    compaction: main.compaction,
    skills: {
      paths: fields.skills ?? [],
      ...(fields.preload_skills ? { preload: fields.preload_skills } : {}),
    },
    memory: { paths: fields.memory ?? [] },
    source,
    ...(fields.model ? { model: fields.model } : {}),
    ...(fields.tools ? { tools: withMemoryTools(fields.tools, fields.agent_memory) } : {}),
    ...(fields.agent_memory ? { agent_memory: fields.agent_memory } : {}),
    ...(fields.disallowed_tools ? { disallowed_tools: fields.disallowed_tools } : {}),
    ...(fields.disallowed_rules ? { disallowed_rules: fields.disallowed_rules } : {}),
    ...(fields.hooks ? { hooks: fields.hooks } : {}),
    ...(fields.read_only ? { read_only: true } : {}),
    ...(fields.description ? { description: fields.description } : {}),
    ...(fields.max_iterations ? { max_iterations: fields.max_iterations } : {}),
    ...(fields.script ? { script: fields.script } : {}),
  };
}

/** As in Claude Code, an agent with memory may read and write it whatever its `tools` list says. */
function withMemoryTools(tools: string[], memory: AgentMemoryScope | undefined): string[] {
  if (!memory) return tools;
  return [...tools, ...['read_file', 'write_file', 'edit_file'].filter((t) => !tools.includes(t))];
}
