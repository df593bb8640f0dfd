import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../../src/main/tools/glob-pattern.ts';
import { isIgnored, parseGitignore } from '../../../src/main/tools/gitignore.ts';
import { HeadTailBuffer } from '../../../src/main/tools/output-buffer.ts';
import { MatchCollector } from '../../../src/main/tools/grep-results.ts';
import { searchText } from '../../../src/main/tools/grep-js.ts';

describe('globToRegExp', () => {
  const m = (glob: string, p: string) => globToRegExp(glob).test(p);
  it('handles *, **, ?, braces, classes and literals', () => {
    expect(m('*.ts', 'a.ts')).toBe(true);
    expect(m('*.ts', 'src/a.ts')).toBe(false);
    expect(m('**/*.ts', 'a.ts')).toBe(true);
    expect(m('**/*.ts', 'src/deep/a.ts')).toBe(true);
    expect(m('src/**/x', 'src/x')).toBe(true);
    expect(m('src/**/x', 'src/a/b/x')).toBe(true);
    expect(m('?.txt', '1.txt')).toBe(true);
    expect(m('?.txt', '12.txt')).toBe(false);
    expect(m('*.{js,ts}', 'a.ts')).toBe(true);
    expect(m('*.{js,ts}', 'a.md')).toBe(false);
    expect(m('[ab].c', 'b.c')).toBe(true);
    expect(m('[!ab].c', 'b.c')).toBe(false);
    expect(m('a.b(c)+', 'a.b(c)+')).toBe(true);
    expect(m('{unclosed', '{unclosed')).toBe(true);
  });
});

describe('gitignore', () => {
  const stack = (text: string) => [{ dir: '/r', rules: parseGitignore(text) }];
  it('supports comments, negation, dir-only, anchoring and **', () => {
    const s = stack('# c\n*.log\n!keep.log\nbuild/\n/top.txt\ndocs/**/gen\n\\#hash\n');
    expect(isIgnored('/r/a/x.log', false, s)).toBe(true);
    expect(isIgnored('/r/keep.log', false, s)).toBe(false);
    expect(isIgnored('/r/x/build', true, s)).toBe(true);
    expect(isIgnored('/r/x/build', false, s)).toBe(false);
    expect(isIgnored('/r/top.txt', false, s)).toBe(true);
    expect(isIgnored('/r/sub/top.txt', false, s)).toBe(false);
    expect(isIgnored('/r/docs/a/b/gen', false, s)).toBe(true);
    expect(isIgnored('/r/#hash', false, s)).toBe(true);
  });
  it('lets nested files refine their parents', () => {
    const s = [...stack('*.log'), { dir: '/r/sub', rules: parseGitignore('!ok.log') }];
    expect(isIgnored('/r/sub/ok.log', false, s)).toBe(false);
    expect(isIgnored('/r/ok.log', false, s)).toBe(true);
  });
});

describe('HeadTailBuffer', () => {
  it('keeps head and tail and counts dropped bytes', () => {
    const b = new HeadTailBuffer(4, 4);
    for (const part of ['abc', 'defgh', 'ijklmnop', 'qrstuvwxyz']) b.write(Buffer.from(part));
    expect(b.droppedBytes).toBe(26 - 8);
    expect(b.text()).toBe('abcd\n\n... (18 bytes of output dropped) ...\n\nwxyz');
    const small = new HeadTailBuffer(4, 4);
    small.write(Buffer.from('abcdef'));
    expect(small.text()).toBe('abcdef');
  });
});

describe('MatchCollector', () => {
  it('keeps the first N in file/line order whatever the arrival order', () => {
    const c = new MatchCollector(3);
    for (const [file, line] of [['b', 2], ['a', 9], ['c', 1], ['a', 1], ['b', 1], ['a', 10], ['d', 1]] as const) c.add({ file, line, text: '' });
    expect(c.result()).toEqual({
      matches: [{ file: 'a', line: 1, text: '' }, { file: 'a', line: 9, text: '' }, { file: 'a', line: 10, text: '' }],
      truncated: true,
    });
  });
});

describe('searchText', () => {
  it('finds lines, counts line numbers and confirms multi-line scan hits per line', () => {
    const out: Array<{ line: number; text: string }> = [];
    const next = searchText('a x\nb\nfoo bar\n\nbar foo\n', 10, /o\s+b|foo$/gm, /o\s+b|foo$/, 100, out);
    expect(out).toEqual([{ line: 12, text: 'foo bar' }, { line: 14, text: 'bar foo' }]);
    expect(next).toBe(15);
    const cross: Array<{ line: number; text: string }> = [];
    searchText('foo\nbar\nfo b\n', 1, /o\s+b/gm, /o\s+b/, 100, cross);
    expect(cross).toEqual([{ line: 3, text: 'fo b' }]);
    const empty: Array<{ line: number; text: string }> = [];
    searchText('x\n\ny', 1, /^/gm, /^/, 100, empty);
    expect(empty.map((m) => m.line)).toEqual([1, 2, 3]);
  });
});
