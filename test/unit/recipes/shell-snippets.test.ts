import { describe, expect, it } from 'vitest';
import {
  disableSnippets,
  expandSnippets,
  type SnippetOptions,
} from '../../../src/main/recipes/shell-snippets.ts';

const options = (patch: Partial<SnippetOptions> = {}) => {
  const ran: string[] = [];
  const o: SnippetOptions = {
    from: 'recipe commit',
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

  it('count only where ! starts a line or follows a space, as in Claude Code', async () => {
    const { o, ran } = options({ allowedTools: ['Bash'] });
    const text = 'KEY=!`date`\n(!`whoami`)\n\t!`pwd` and !`id`';
    expect(await expandSnippets(text, o)).toBe('KEY=!`date`\n(!`whoami`)\n\t<pwd> and <id>');
    expect(ran).toEqual(['pwd', 'id']);
  });

  it('run a ```! block as one script, checking each of its commands', async () => {
    const { o, ran } = options();
    const text = 'Before\n```!\ngit status --short\ngit diff HEAD\n```\nAfter !`git status`';
    expect(await expandSnippets(text, o)).toBe(
      'Before\n<git status --short\ngit diff HEAD>\nAfter <git status>',
    );
    expect(ran).toEqual(['git status --short\ngit diff HEAD', 'git status']);
    const uncovered = options();
    await expect(
      expandSnippets('```!\ngit status\nrm -rf build\n```', uncovered.o),
    ).rejects.toThrow(
      'recipe commit: the ```! block "git status …" is not run: no Bash rule of its allowed-tools covers it',
    );
    expect(uncovered.ran).toEqual([]);
  });

  it('put output in once: a command printing !`…` does not run it', async () => {
    const { o, ran } = options({ allowedTools: ['Bash'], run: async () => '!`rm -rf ~`' });
    expect(await expandSnippets('!`cat notes`', o)).toBe('!`rm -rf ~`');
    expect(ran).toEqual([]);
  });

  it('stand as [shell execution disabled] when the settings switch them off, running nothing', async () => {
    expect(await disableSnippets('A !`git status`\n```!\nmake\n```\nKEY=!`x`')).toBe(
      'A [shell execution disabled]\n[shell execution disabled]\nKEY=!`x`',
    );
  });
});
