/**
 * Claude Code's permission-rule patterns (`Bash(npm run *)`, `Read(./.env)`, `Edit(//etc/**)`,
 * `mcp__github__*`), matched against a tool call in Claude's naming: what a settings hook's `if`
 * field tests (docs/hooks.md). Bash rules are matched against each simple command of a compound
 * command, past wrappers such as `timeout` and `nohup`; path rules are gitignore-style and are
 * matched against the path as given and its real path, so a symlink does not slip past a rule.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { hostAllowed } from '../tools/domain-pattern.ts';
import { globToSource, starToSource } from '../tools/glob-pattern.ts';
import {
  list,
  nodeOffsets,
  nodeType,
  parseShell,
  walkShell,
  type ShNode,
} from '../tools/shell-syntax.ts';

/** A parsed rule: the tool part and, when written, the part in parentheses. */
export interface ClaudeRule {
  text: string;
  tool: string;
  specifier?: string;
}

/** A tool call as Claude Code names it: `Bash` with `{command}`, `Read` with an absolute `file_path`… */
export interface RuleSubject {
  tool: string;
  input: Record<string, unknown>;
}

/** Where relative path rules start: the project root and the user's home folder. */
export interface RuleWhere {
  workspace: string;
  home: string;
}

/** Rules that name a family apply to every tool of it, as Claude Code applies them. */
const FAMILIES: Record<string, readonly string[]> = {
  Edit: ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'],
  Read: ['Read', 'Grep', 'Glob', 'LS'],
};

/** Tools whose path is a folder they look inside. */
const SEARCHES = new Set(['Grep', 'Glob', 'LS']);

/** Programs that run the command after them; Claude Code matches the command inside. */
const WRAPPERS = new Set(['timeout', 'nice', 'nohup', 'time', 'stdbuf', 'ionice']);

/**
 * Parses `Tool` or `Tool(specifier)`.
 * Contract: a string describing the problem for anything else (never throws).
 */
export function parseClaudeRule(text: string): ClaudeRule | string {
  const m = /^\s*([A-Za-z0-9_*-]+)\s*(?:\(([\s\S]*)\))?\s*$/.exec(text);
  if (!m) return `"${text}" is not a permission rule (Tool or Tool(pattern))`;
  const specifier = m[2]?.trim();
  return { text: text.trim(), tool: m[1]!, ...(specifier ? { specifier } : {}) };
}

/** Whether `rule` covers the call. Contract: never throws; a malformed input matches no specifier. */
export function claudeRuleMatches(rule: ClaudeRule, call: RuleSubject, where: RuleWhere): boolean {
  if (!toolMatches(rule.tool, call.tool)) return false;
  const spec = rule.specifier;
  if (spec === undefined || spec === '*') return true;
  if (call.tool === 'Bash') {
    const command = call.input.command;
    return typeof command === 'string' && bashMatches(spec, command);
  }
  if (FAMILIES.Read!.includes(call.tool) || FAMILIES.Edit!.includes(call.tool)) {
    const path =
      call.input.file_path ?? call.input.notebook_path ?? call.input.path ?? where.workspace;
    // A search covers what is in its folder: `Read(~/.ssh/**)` covers a Grep of ~/.ssh.
    const folder = SEARCHES.has(call.tool);
    return typeof path === 'string' && pathMatches(spec, path, where, folder);
  }
  if (call.tool === 'WebFetch') {
    const url = call.input.url;
    return (
      typeof url === 'string' && spec.startsWith('domain:') && domainMatches(spec.slice(7), url)
    );
  }
  return false;
}

function toolMatches(ruleTool: string, tool: string): boolean {
  if (ruleTool === tool || FAMILIES[ruleTool]?.includes(tool)) return true;
  // `mcp__server__*` and `mcp__server`: every tool of that server.
  if (ruleTool.startsWith('mcp__') && ruleTool.endsWith('__*'))
    return tool.startsWith(ruleTool.slice(0, -1));
  return (
    ruleTool.startsWith('mcp__') &&
    !ruleTool.slice(5).includes('__') &&
    tool.startsWith(`${ruleTool}__`)
  );
}

/** `*` spans anything; `prefix:*` (the older form) and a trailing ` *` also match the bare prefix. */
function bashPattern(spec: string): RegExp {
  const legacy = spec.endsWith(':*') ? `${spec.slice(0, -2)} *` : spec;
  const trailing = legacy.endsWith(' *');
  const body = trailing ? legacy.slice(0, -2) : legacy;
  const source = starToSource(body);
  return new RegExp(`^${source}${trailing ? '(?:\\s.*)?' : ''}$`, 's');
}

/**
 * What a command may be made of to be matched whole: lists, pipes and plain commands with literal
 * words and redirections. No variable assignment (`PATH=… docker`, `export`), expansion, loop,
 * function or test, each of which could change what a matched command runs.
 */
const PLAIN_NODES = new Set([
  'File',
  'Stmt',
  'BinaryCmd',
  'CallExpr',
  'Word',
  'Lit',
  'SglQuoted',
  'DblQuoted',
  'Redirect',
]);

/**
 * Whether `command` is made only of simple commands that each match one of the Bash patterns
 * (`docker *`, `gh pr:*`), as Claude Code's `excludedCommands` are read — and nothing else (see
 * PLAIN_NODES). Contract: false for a command that does not parse or runs nothing.
 */
export function everyCommandMatches(specs: readonly string[], command: string): boolean {
  const file = parseShell(command);
  if (!file) return false;
  let plain = true;
  walkShell(file, (node) => {
    const type = nodeType(node);
    if (!PLAIN_NODES.has(type) || (type === 'CallExpr' && list(node, 'Assigns').length > 0))
      plain = false;
  });
  if (!plain) return false;
  const patterns = specs.map(bashPattern);
  const commands = simpleCommands(command);
  return commands.length > 0 && commands.every((c) => patterns.some((p) => p.test(c)));
}

function bashMatches(spec: string, command: string): boolean {
  const pattern = bashPattern(spec);
  return [command.trim(), ...simpleCommands(command)].some((c) => pattern.test(c));
}

/**
 * Each simple command of `command` (`a && b | c` → a, b, c), its words unquoted, past its leading
 * variable assignments and wrappers (`FOO=1 timeout 5 make` → `make`).
 */
export function simpleCommands(command: string): string[] {
  const file = parseShell(command);
  if (!file) return [];
  const bytes = Buffer.from(command);
  const out: string[] = [];
  walkShell(file, (node) => {
    if (nodeType(node) !== 'CallExpr') return;
    const words = list(node, 'Args').map((w) => wordValue(bytes, w));
    let i = 0;
    while (i < words.length && WRAPPERS.has(words[i]!)) {
      i++;
      // A wrapper's own options and, for timeout, its duration.
      while (i < words.length && (words[i]!.startsWith('-') || /^[0-9.]+[smhd]?$/.test(words[i]!)))
        i++;
    }
    if (i < words.length) out.push(words.slice(i).join(' '));
  });
  return out;
}

function slice(bytes: Buffer, node: ShNode): string {
  return bytes.subarray(...nodeOffsets(node)).toString();
}

/**
 * A word as the shell passes it on, quotes and escapes removed (`r\m`, `'rm'` and `"r"m` are `rm`);
 * a word with an expansion in it stays as written.
 */
function wordValue(bytes: Buffer, word: ShNode): string {
  let text = '';
  for (const part of list(word, 'Parts')) {
    const type = nodeType(part);
    if (type === 'Lit') text += String(part.Value).replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
    else if (type === 'SglQuoted' && !part.Dollar) text += String(part.Value);
    else if (type === 'DblQuoted' && list(part, 'Parts').every((p) => nodeType(p) === 'Lit'))
      text += wordValue(bytes, part);
    else return slice(bytes, word);
  }
  return text;
}

/** A path rule's pattern: where it starts, and what it matches relative to there. */
export interface RulePathPattern {
  base: string;
  /** The pattern as written past its prefix, without a trailing `/`. */
  pattern: string;
  /** Matches a path relative to `base` (`/`-separated), or any folder it is in. */
  regex: RegExp;
  /** True for a pattern without a `/` inside: it matches a name at any depth. */
  anywhere: boolean;
}

/**
 * gitignore-style: `//x` from the filesystem root, `~/x` from home, `/x` from the project root,
 * `x` or `./x` from the working folder (the project root here). A pattern without a `/` inside
 * matches a name at any depth; a pattern that matches a folder matches everything in it.
 * Contract: undefined for an empty pattern (it matches nothing).
 */
export function rulePathPattern(spec: string, where: RuleWhere): RulePathPattern | undefined {
  let base: string;
  let pattern: string;
  if (spec.startsWith('//')) [base, pattern] = ['/', spec.slice(2)];
  else if (spec.startsWith('~/')) [base, pattern] = [where.home, spec.slice(2)];
  else if (spec.startsWith('/')) [base, pattern] = [where.workspace, spec.slice(1)];
  else [base, pattern] = [where.workspace, spec.replace(/^\.\//, '')];
  pattern = pattern.replace(/\/+$/, '');
  if (pattern === '') return undefined;
  const anywhere = !pattern.includes('/');
  const regex = new RegExp(`^${anywhere ? '(?:.*/)?' : ''}${globToSource(pattern)}$`);
  return { base, pattern, regex, anywhere };
}

function pathMatches(spec: string, path: string, where: RuleWhere, folder: boolean): boolean {
  const rule = rulePathPattern(spec, where);
  if (!rule) return false;
  const abs = resolve(where.workspace, path);
  return [abs, realOrSelf(abs)].some((p) => {
    const rel = relative(rule.base, p);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
    const parts = folder ? [...rel.split(sep), 'x'] : rel.split(sep);
    // The path itself or any folder it is in.
    return parts.some((_, i) => rule.regex.test(parts.slice(0, i + 1).join('/')));
  });
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // A file not written yet: its folder's real path, if that exists.
    try {
      return join(realpathSync(resolve(path, '..')), path.split(sep).pop()!);
    } catch {
      return path;
    }
  }
}

function domainMatches(pattern: string, url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return hostAllowed(host, [pattern]);
}
