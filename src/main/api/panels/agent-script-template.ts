/** The script a profile gets from the Agents panel's "Add script" (docs/agents.md, Script hooks). */

/** A Create that hands questions mentioning "search" to the `search` agent, and a Next to start from. */
export function agentScriptTemplate(profile: string): string {
  return `// Script hooks of the ${profile} agent (docs/agents.md, "Script hooks").

// Runs before the first model call of each run; return null to keep the defaults.
export function Create(ctx, messages, options) {
  const last = messages.at(-1)?.content ?? '';
  if (/\\bsearch\\b/i.test(String(last))) {
    // Hand the turn to the \`search\` agent: this agent's model is not called.
    return { delegate: { agent_id: 'search', messages: [{ role: 'user', content: last }] } };
  }
  return null;
}

// Runs once when the run would end. Uncomment to show a notice with the number of tool calls:
// export function Next(ctx, payload, options) {
//   return { data: { tool_calls: payload.tools.length } };
// }
`;
}
