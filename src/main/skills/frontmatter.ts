/**
 * Reading a SKILL.md frontmatter as leniently as Claude Code (docs/skills.md): YAML first; when that
 * fails — typically an unquoted `: ` inside a description, `description: Use when: the user asks` —
 * each top-level `key: value` line is read as is, with indented lines continuing the value and
 * `- item` lines making a list.
 */
import { LineCounter, parseDocument } from 'yaml';

export type FrontmatterRead =
  { ok: true; data: Record<string, unknown>; lenient?: string } | { ok: false; message: string };

/**
 * Parses the YAML between the `---` lines.
 * Contract: pure; `lenient` carries the YAML error when the line-based read was used; fails only when
 * neither reading gives a mapping.
 */
export function readFrontmatter(yamlText: string): FrontmatterRead {
  const lines = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length === 0) {
    const data: unknown = doc.toJS();
    if (data !== null && typeof data === 'object' && !Array.isArray(data))
      return { ok: true, data: data as Record<string, unknown> };
    return { ok: false, message: 'frontmatter must be a mapping with name and description' };
  }
  const e = doc.errors[0];
  // +1: the opening "---" line comes before the YAML.
  const yamlError = `line ${lines.linePos(e.pos[0]).line + 1}: ${e.message.split('\n')[0]}`;
  const data = readLines(yamlText);
  if (!data) return { ok: false, message: `invalid YAML in frontmatter (${yamlError})` };
  return { ok: true, data, lenient: yamlError };
}

/** The line-based reading: undefined when no line is a top-level `key: value`. */
function readLines(text: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  let last: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const top = /^([A-Za-z][\w-]*):(?:\s+(.*))?$/.exec(line);
    if (top) {
      last = top[1];
      data[last] = unquote((top[2] ?? '').trim());
      continue;
    }
    if (!last || !/^\s/.test(line)) return undefined;
    const item = /^\s+-\s+(.*)$/.exec(line);
    const prev = data[last];
    if (item && (prev === '' || Array.isArray(prev)))
      data[last] = [...(Array.isArray(prev) ? prev : []), unquote(item[1].trim())];
    else if (typeof prev === 'string') data[last] = `${prev} ${line.trim()}`.trim();
  }
  return last ? data : undefined;
}

function unquote(v: string): string {
  return /^(["']).*\1$/.test(v) && v.length >= 2 ? v.slice(1, -1) : v;
}
