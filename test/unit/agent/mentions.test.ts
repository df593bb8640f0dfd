/** Which `@` words of a person's message are read, and by which tool (docs/tools.md#mentions). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mentionCalls } from '../../../src/main/agent/mentions.ts';
import { MAX_MENTIONS, MENTION_CALL_PREFIX } from '../../../src/shared/constants.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mentions-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'app.ts'), 'x');
  writeFileSync(join(root, 'my notes.md'), 'y');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const everyTool = { hasTool: () => true };
const read = (text: string, hasTool: (name: string) => boolean = () => true) =>
  mentionCalls(text, { root, hasTool }).map((c) => [c.name, c.args]);

describe('mentions', () => {
  it('reads a file, lists a folder and takes a quoted name with spaces', () => {
    expect(read('explain @src/app.ts, then @src/ and @"my notes.md"')).toEqual([
      ['read_file', { path: 'src/app.ts' }],
      ['ls', { path: 'src/' }],
      ['read_file', { path: 'my notes.md' }],
    ]);
  });

  it('leaves words that name nothing, mail addresses and repeats alone', () => {
    expect(read('ask @alice, mail bob@src/app.ts, see @src/app.ts. Again: @src/app.ts')).toEqual([
      ['read_file', { path: 'src/app.ts' }],
    ]);
  });

  it('reads nothing inside code: a fenced block or an inline span', () => {
    const text = 'fix this:\n```ts\n// see @src/app.ts\n```\nnot `@src/app.ts` but @"my notes.md"';
    expect(read(text)).toEqual([['read_file', { path: 'my notes.md' }]]);
  });

  it('looks up a bounded number of @ words: a flood of them reads nothing past it', () => {
    const flood = Array.from({ length: 500 }, (_, i) => `@nothing-${i}`).join(' ');
    expect(read(`${flood} @src/app.ts`)).toEqual([]);
    expect(read(`@src/app.ts ${flood}`)).toEqual([['read_file', { path: 'src/app.ts' }]]);
  });

  it("names an MCP server's resource only when the run offers resources", () => {
    const text = 'summarise @demo:demo://readme.';
    expect(read(text)).toEqual([['read_mcp_resource', { server: 'demo', uri: 'demo://readme' }]]);
    expect(read(text, (name) => name !== 'read_mcp_resource')).toEqual([]);
  });

  it('reads nothing with a tool the run does not offer', () => {
    expect(read('@src/app.ts @src', (name) => name === 'ls')).toEqual([['ls', { path: 'src' }]]);
  });

  it(`reads at most ${MAX_MENTIONS} mentions, each with an id of its own marked as the person's`, () => {
    for (let i = 0; i < MAX_MENTIONS + 5; i++) writeFileSync(join(root, `f${i}.txt`), '');
    const text = Array.from({ length: MAX_MENTIONS + 5 }, (_, i) => `@f${i}.txt`).join(' ');
    const calls = mentionCalls(text, { root, ...everyTool });
    expect(calls).toHaveLength(MAX_MENTIONS);
    expect(new Set(calls.map((c) => c.id)).size).toBe(MAX_MENTIONS);
    expect(calls.every((c) => c.id.startsWith(MENTION_CALL_PREFIX))).toBe(true);
  });
});
