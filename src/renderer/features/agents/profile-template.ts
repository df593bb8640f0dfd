/** The text of a new agent profile (docs/agents.md): frontmatter to fill in and a prompt to replace. */
export function profileTemplate(name: string): string {
  return [
    '---',
    `name: ${name}`,
    'description: When the main agent should hand work to this agent',
    'tools: read_file, grep, glob, ls',
    '---',
    `You are ${name}. Describe here how this agent works and what its final answer must contain.`,
    '',
  ].join('\n');
}
