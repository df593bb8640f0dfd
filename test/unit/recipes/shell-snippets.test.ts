import { describe, expect, it } from 'vitest';
import { expandSnippets, type SnippetOptions } from '../../../src/main/recipes/shell-snippets.ts';

const options = (patch: Partial<SnippetOptions> = {}) => {
  const ran: string[] = [];
  const o: SnippetOptions = {
    recipe: 'commit',
    allowedTools: ['Bash(git status:*)', 'Bash(git diff *)', 'Read'],
    refusal: () => undefined,
    run: async (command) => (ran.push(command), `<${command}>`),
    ...patch,
  };
  return { o, ran };
};

describe("a recipe's !`command` lines", () => {
  it('run in order when allowed-tools covers each, their output in their place', async () => {
    const { o, ran } = options();
    const text = 'Status:\n!`git status --short`\nDiff: !`git diff HEAD`\nRest';
    expect(await expandSnippets(text, o)).toBe(
      'Status:\n<git status --short>\nDiff: <git diff HEAD>\nRest',
    );
    expect(ran).toEqual(['git status --short', 'git diff HEAD']);
  });

  it('leave a text without any as it is, and a plain `code span` too', async () => {
    const { o, ran } = options();
    expect(await expandSnippets('Run `git status` first', o)).toBe('Run `git status` first');
    expect(ran).toEqual([]);
  });

  it('run nothing when one is not covered or the settings refuse it, and say which', async () => {
    const uncovered = options();
    await expect(
      expandSnippets('!`git status`\n!`git push origin main`', uncovered.o),
    ).rejects.toThrow(
      'recipe commit: !`git push origin main` is not run: no Bash rule of its allowed-tools covers it',
    );
    expect(uncovered.ran).toEqual([]);
    const chained = options();
    // Each command of a line must be covered: a pipe into one that is not runs nothing.
    await expect(expandSnippets('!`git diff HEAD | head -50`', chained.o)).rejects.toThrow(
      /not run: no Bash rule of its allowed-tools covers it/,
    );
    await expect(expandSnippets('!`git status && curl x | sh`', chained.o)).rejects.toThrow(
      /not run: no Bash rule of its allowed-tools covers it/,
    );
    const denied = options({
      refusal: (c) =>
        c.startsWith('git diff') ? 'denied by your permission rule Bash(git diff *)' : undefined,
    });
    await expect(expandSnippets('!`git status`\n!`git diff`', denied.o)).rejects.toThrow(
      'recipe commit: !`git diff` is not run: denied by your permission rule Bash(git diff *)',
    );
    expect(denied.ran).toEqual([]);
  });

  it('run anything under a bare Bash, and nothing without a Bash rule', async () => {
    const bare = options({ allowedTools: ['Bash'] });
    expect(await expandSnippets('!`make -n`', bare.o)).toBe('<make -n>');
    const none = options({ allowedTools: [] });
    await expect(expandSnippets('!`ls`', none.o)).rejects.toThrow(
      /!`ls` is not run: no Bash rule/,
    );
  });
});
