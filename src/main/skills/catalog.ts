/** The one-line-per-skill catalog the model sees (docs/skills.md), shared by the middleware and the skills panel. */
import type { Skill } from './loader.ts';

const MAX_CATALOG_DESCRIPTION = 1024;

export const SKILLS_HEADER = [
  '## Skills',
  "Skills are folders of instructions for specific tasks. When a task matches a skill's description, read its SKILL.md with read_file before starting and follow it; files it mentions are relative to its folder.",
].join('\n');

/** One catalog line: name, description and the SKILL.md path to read (docs/skills.md). */
export function catalogLine(skill: Pick<Skill, 'name' | 'description' | 'path'>): string {
  // Skills load without trust: an overlong description must not flood every request.
  const description =
    skill.description.length > MAX_CATALOG_DESCRIPTION
      ? `${skill.description.slice(0, MAX_CATALOG_DESCRIPTION)}…`
      : skill.description;
  return `[${skill.name}] ${description} → Read ${skill.path} for full instructions`;
}

/** The catalog block, or '' when no enabled skill is model-invocable (`disable-model-invocation` keeps a skill out). */
export function renderCatalog(skills: readonly Skill[]): string {
  const enabled = skills.filter((s) => s.enabled && s.modelInvocable);
  return enabled.length ? `${SKILLS_HEADER}\n${enabled.map(catalogLine).join('\n')}` : '';
}
