/** Finding and completing the `@` mention (a file, a folder, an MCP resource) under the caret. Pure. */

/** The mention being typed: where its `@` is and what follows it, up to the caret. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** The `@word` that ends at `caret`, when the `@` starts a word. */
export function mentionAt(text: string, caret: number): MentionQuery | undefined {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return undefined;
  return { start: before.length - m[2]!.length - 1, query: m[2]! };
}

/**
 * The text with the mention replaced by `@path ` and the caret after it: a name with spaces is
 * quoted (`@"my notes.md" `), and a folder (`src/`) takes no space, so typing goes on inside it.
 */
export function completeMention(
  text: string,
  caret: number,
  mention: MentionQuery,
  path: string,
): { text: string; caret: number } {
  const spaced = /\s/.test(path);
  const into = !spaced && path.endsWith('/');
  const inserted = spaced ? `@"${path}" ` : into ? `@${path}` : `@${path} `;
  const rest = into ? text.slice(caret) : text.slice(caret).replace(/^\s/, '');
  return {
    text: text.slice(0, mention.start) + inserted + rest,
    caret: mention.start + inserted.length,
  };
}
