/**
 * Skills you invoke (docs/skills.md#invoking-a-skill), as Claude Code's `/skill-name args`: the
 * SKILL.md's body becomes the message, with `$ARGUMENTS` (as typed), `$ARGUMENTS[N]` and `$N` (the
 * arguments from 0, quoted parts kept together), the names its `arguments` frontmatter declares,
 * `${CLAUDE_SKILL_DIR}` and `${CLAUDE_SESSION_ID}` filled in one pass; a body that uses none of the
 * arguments gets them as a last line `ARGUMENTS: …`.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { WorkbenchError } from '../errors.ts';
import { splitArguments } from '../recipes/render.ts';
import { isInside } from '../tools/path-guard.ts';
import { allowedTools } from './allowed-tools.ts';
import { skillFileParts, type Skill } from './loader.ts';

/** A SKILL.md larger than this is refused: it is a prompt, not a data file. */
const MAX_SKILL_BYTES = 1024 * 1024;

/** Where an invoked skill lives: a workspace's (or working directory's) own, or the user's. */
export type SkillScope = 'workspace' | 'user';

/** A skill the user may invoke by name. */
export interface InvocableSkill {
  name: string;
  description: string;
  argument_hint?: string;
  path: string;
  dir: string;
  scope: SkillScope;
  allowed_tools?: string[];
  /** The `arguments` frontmatter: names for the arguments in order (`$issue`). */
  argument_names: string[];
}

/** The names an `arguments` frontmatter declares: a list, or one space-separated string. */
function argumentNames(value: unknown): string[] {
  const names = Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value.split(/[\s,]+/)
      : [];
  return names.map((n) => n.trim()).filter((n) => /^[A-Za-z_][\w-]*$/.test(n) && n !== 'ARGUMENTS');
}

/**
 * The skills the user may invoke: switched on, not `user-invocable: false`, and — as a workspace's
 * recipes — a workspace's or working directory's own only when it is trusted (a cloned repository
 * cannot put words in your mouth, nor run its `!` lines).
 */
export function invocableSkills(
  skills: readonly Skill[],
  o: { workspace: string; workingDirs?: readonly string[]; trusted: boolean },
): InvocableSkill[] {
  const inWorkspace = (dir: string) =>
    isInside(dir, o.workspace) || (o.workingDirs ?? []).some((d) => isInside(dir, d));
  return skills.flatMap((s) => {
    const fm = s.frontmatter;
    const scope: SkillScope = inWorkspace(s.dir) ? 'workspace' : 'user';
    if (!s.enabled || fm['user-invocable'] === false || fm['user-invocable'] === 'false') return [];
    if (scope === 'workspace' && !o.trusted) return [];
    const hint = fm['argument-hint'];
    const tools = allowedTools(fm['allowed-tools']);
    return [
      {
        name: s.name,
        description: s.description,
        ...(typeof hint === 'string' && hint ? { argument_hint: hint } : {}),
        path: s.path,
        dir: s.dir,
        scope,
        ...(tools ? { allowed_tools: tools } : {}),
        argument_names: argumentNames(fm.arguments),
      },
    ];
  });
}

/**
 * The body of a skill's SKILL.md (after its frontmatter).
 * Contract: the file is opened without following a link and without blocking on a FIFO; anything
 * but a regular file of at most 1 MiB with frontmatter is a WorkbenchError naming the skill.
 */
export async function readSkillBody(skill: Pick<InvocableSkill, 'name' | 'path'>): Promise<string> {
  const refuse = (why: string) =>
    new WorkbenchError('invalid_args', `skill ${skill.name}: ${skill.path} ${why}`);
  let handle;
  try {
    handle = await open(
      skill.path,
      constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW,
    );
  } catch (err) {
    throw refuse(
      `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw refuse('is not a regular file');
    if (st.size > MAX_SKILL_BYTES) throw refuse('is larger than 1 MiB');
    const parts = skillFileParts(await handle.readFile('utf8'));
    if ('error' in parts) throw refuse(`has ${parts.error}`);
    return parts.body;
  } finally {
    await handle.close();
  }
}

/**
 * The message a skill sends for `args`.
 * Contract: pure; one pass, so an argument's own `$…` is never filled again; a missing positional
 * argument is empty; an unknown `$name` stays as written.
 */
export function renderSkill(
  body: string,
  args: string,
  o: { dir: string; sessionId: string; argumentNames: readonly string[] },
): string {
  const positional = splitArguments(args);
  const names = [...o.argumentNames].sort((a, b) => b.length - a.length);
  const named = names.length ? `|\\$(${names.join('|')})(?![\\w-])` : '';
  const pattern = new RegExp(
    `\\$\\{CLAUDE_SKILL_DIR\\}|\\$\\{CLAUDE_SESSION_ID\\}|\\$ARGUMENTS\\[(\\d+)\\]|\\$ARGUMENTS|\\$(\\d+)${named}`,
    'g',
  );
  let usesArgs = false;
  const text = body.replace(pattern, (whole, index?: string, n?: string, name?: string) => {
    if (whole === '${CLAUDE_SKILL_DIR}') return o.dir;
    if (whole === '${CLAUDE_SESSION_ID}') return o.sessionId;
    usesArgs = true;
    if (whole === '$ARGUMENTS') return args;
    const at = index ?? n ?? String(o.argumentNames.indexOf(name!));
    return positional[Number(at)] ?? '';
  });
  const rendered = text.trim();
  return !usesArgs && args ? `${rendered}\n\nARGUMENTS: ${args}` : rendered;
}
