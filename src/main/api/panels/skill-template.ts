/** The SKILL.md a new skill starts from (Agent Skills format: frontmatter with name and description). */
import { stringify } from 'yaml';

/** Skill names as Agent Skills wants them: lowercase letters, digits and single hyphens. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The text of a new SKILL.md. */
export function skillTemplate(name: string, description: string): string {
  const title = name
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
  const front = stringify(
    { name, description: description.trim() || `Describe when the agent should use ${name}.` },
    { lineWidth: 0 },
  );
  return `---\n${front}---\n# ${title}\n\nStep-by-step instructions for the agent. Files mentioned here are relative to this folder.\n\n1. …\n`;
}
