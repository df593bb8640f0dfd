/**
 * Live SKILL.md frontmatter validation for the editor (the same rules as the skills loader): name and
 * description required strings, name equal to its folder and in the Agent Skills pattern.
 */
import { LineCounter, parseDocument } from 'yaml';

export interface SkillProblem {
  severity: 'error' | 'warning';
  message: string;
  /** 1-based line in SKILL.md, when known. */
  line?: number;
}

export interface SkillValidation {
  name?: string;
  description?: string;
  problems: SkillProblem[];
}

const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_DESCRIPTION = 1024;

/**
 * Validates a SKILL.md text against its folder name.
 * Contract: pure; never throws; `problems` is empty for a valid skill.
 */
export function validateSkill(text: string, folder: string): SkillValidation {
  const error = (message: string, line?: number): SkillValidation => ({
    problems: [{ severity: 'error', message, ...(line ? { line } : {}) }],
  });
  const body = text.replace(/^\uFEFF/, '');
  const open = /^---[ \t]*\r?\n/.exec(body);
  if (!open)
    return error('SKILL.md must start with a "---" line, then name and description, then "---"', 1);
  const rest = body.slice(open[0].length);
  const end = /^---[ \t]*$/m.exec(rest);
  if (!end) return error('the frontmatter is not closed by a "---" line');
  const lines = new LineCounter();
  const doc = parseDocument(rest.slice(0, end.index), { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const line = lines.linePos(e.pos[0]).line + 1;
    return error(`invalid YAML: ${e.message.split('\n')[0]}`, line);
  }
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return error('the frontmatter must be a mapping with name and description', 2);
  const fm = data as Record<string, unknown>;
  const name = typeof fm.name === 'string' ? fm.name.trim() : '';
  const description =
    typeof fm.description === 'string' ? fm.description.replace(/\s+/g, ' ').trim() : '';
  const problems: SkillProblem[] = [];
  if (!name) problems.push({ severity: 'error', message: 'name is required (a string)' });
  if (!description)
    problems.push({ severity: 'error', message: 'description is required (a string)' });
  if (name && name !== folder)
    problems.push({
      severity: 'warning',
      message: `name "${name}" differs from its folder "${folder}"`,
    });
  if (name && (!NAME_PATTERN.test(name) || name.length > 64))
    problems.push({
      severity: 'warning',
      message: 'name should be lowercase letters, digits and single hyphens, at most 64 characters',
    });
  if (description.length > MAX_DESCRIPTION)
    problems.push({
      severity: 'warning',
      message: `description is ${description.length} characters; keep it under ${MAX_DESCRIPTION}`,
    });
  return { ...(name ? { name } : {}), ...(description ? { description } : {}), problems };
}

/** The folder name of a SKILL.md path. */
export function folderOf(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 2] ?? '';
}
