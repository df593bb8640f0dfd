/**
 * Skills an agent profile preloads (Claude Code's agent `skills: [name, …]`, docs/agents.md): each
 * named skill's whole SKILL.md body joins the agent's system prompt at the start of its runs,
 * instead of a catalog line the model may follow.
 */
import type { Skill } from './loader.ts';
import { readSkillBody } from './invocation.ts';

/** The skill `name` names: exact, else the part after a plugin's `plugin:` prefix. */
function skillNamed(skills: readonly Skill[], name: string): Skill | undefined {
  return (
    skills.find((s) => s.name === name) ??
    skills.find((s) => s.name === name.slice(name.lastIndexOf(':') + 1))
  );
}

/**
 * The system block of the preloaded skills, and a problem for each one that could not be.
 * Contract: never rejects; a skill missing, switched off or unreadable is left out with a problem
 * naming the agent and the skill; without names the block is ''.
 */
export async function preloadedSkills(
  skills: readonly Skill[],
  names: readonly string[],
  agent: string,
): Promise<{ block: string; problems: string[] }> {
  const parts: string[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const skill = skillNamed(skills, name);
    if (!skill || !skill.enabled) {
      problems.push(
        `agent ${agent}: skill "${name}" is not preloaded: ${skill ? 'it is switched off in settings' : 'no skill has that name'}`,
      );
      continue;
    }
    try {
      const body = (await readSkillBody(skill)).trim();
      parts.push(`### ${skill.name} (files it mentions are relative to ${skill.dir})\n${body}`);
    } catch (err) {
      problems.push(`agent ${agent}: skill "${name}" is not preloaded: ${(err as Error).message}`);
    }
  }
  const block = parts.length ? `## Skills loaded for this agent\n${parts.join('\n\n')}` : '';
  return { block, problems };
}
