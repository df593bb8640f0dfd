/** The catalog line the model sees for a skill (as the skills hook renders it). */
export function catalogLine(name: string, description: string, path: string): string {
  const d = description.length > 1024 ? `${description.slice(0, 1024)}…` : description;
  return `[${name}] ${d} → Read ${path} for full instructions`;
}
