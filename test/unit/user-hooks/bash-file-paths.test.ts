/** The files a command names for Claude Code's Read and Write rules: file commands, redirections, globs, cd. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bashFilePaths } from '../../../src/main/user-hooks/bash-file-paths.ts';

const ws = mkdtempSync(join(tmpdir(), 'wb-bash-paths-'));
for (const name of ['.env', '.envrc', 'a.txt', 'sub/.env', 'sub/deep/.env']) {
  mkdirSync(join(ws, name, '..'), { recursive: true });
  writeFileSync(join(ws, name), '');
}
afterAll(() => rmSync(ws, { recursive: true, force: true }));
const home = '/home/someone';

/** `access tool path` per file, paths relative to the workspace where they are in it. */
const named = (command: string) =>
  bashFilePaths(command, ws, home).map(
    (n) =>
      `${n.access} ${n.tool} ${n.path.startsWith(`${ws}/`) ? n.path.slice(ws.length + 1) : n.path}`,
  );

describe('bashFilePaths', () => {
  it('reads and writes of file commands, past options, wrappers and pipes', () => {
    expect(named('cat -n ./.env | head -3')).toEqual(['read Read .env']);
    expect(named('timeout 5 nice tail -- -odd')).toEqual(['read Read -odd']);
    expect(named('rm -rf build && mkdir out')).toEqual(['write Write build', 'write Write out']);
    expect(named('cp .env /tmp/copy')).toEqual(['read Read .env', 'write Write /tmp/copy']);
    expect(named('dd if=.env of=out.bin')).toEqual(['read Read .env', 'write Write out.bin']);
  });

  it("a search's first word is its pattern unless an option gives one; sed -i writes", () => {
    expect(named('grep -n TOKEN .env')).toEqual(['read Grep .env']);
    expect(named('grep -e .env a.txt')).toEqual(['read Grep a.txt']);
    expect(named("sed -n '1p' a.txt")).toEqual(['read Read a.txt']);
    expect(named("sed -i 's/a/b/' a.txt")).toEqual(['write Write a.txt']);
    expect(named('find secrets -name "*.key"')).toEqual(['read LS secrets']);
  });

  it('redirections, ~/ and cd; a glob as the shell expands it', () => {
    expect(named('echo x > .env; wc -l < a.txt 2>/dev/null')).toEqual([
      'write Write .env',
      'read Read a.txt',
    ]);
    expect(named('cat ~/.ssh/id_rsa')).toEqual(['read Read /home/someone/.ssh/id_rsa']);
    expect(named('cd sub && cat .env')).toEqual(['read Read sub/.env']);
    expect(named('head .e*')).toEqual(['read Read .env', 'read Read .envrc']);
    // Without globstar, bash's default, `**` is `*`: one folder deep, never a walk of the tree.
    expect(named('cat **/.env')).toEqual(['read Read sub/.env']);
  });

  it('names nothing it cannot know before the command runs, or a program that opens files itself', () => {
    expect(named('cat "$HOME/.env" $(ls)')).toEqual([]);
    expect(named(`python3 -c "print(open('.env').read())"`)).toEqual([]);
    expect(named('cat "unclosed')).toEqual([]);
  });
});
