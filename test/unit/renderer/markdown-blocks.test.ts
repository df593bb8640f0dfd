import { describe, expect, it } from 'vitest';
import {
  renderDraftBlock,
  splitBlocks,
} from '../../../src/renderer/features/chat/markdown-blocks.ts';

const TEXT = [
  '# Title',
  '',
  'A paragraph',
  'on two lines.',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '- one',
  '- two',
  '',
  'tail',
].join('\n');

const joined = (s: ReturnType<typeof splitBlocks>) => s.blocks.join('') + s.text.slice(s.openStart);

describe('splitBlocks', () => {
  it('splits at blank lines but never inside a code fence, and loses nothing', () => {
    const s = splitBlocks(TEXT);
    expect(s.blocks.map((b) => b.trim())).toEqual([
      '# Title',
      'A paragraph\non two lines.',
      '```ts\nconst a = 1;\n\nconst b = 2;\n```',
      '- one\n- two',
    ]);
    expect(TEXT.slice(s.openStart)).toBe('tail');
    expect(joined(s)).toBe(TEXT);
  });

  it('gives the same blocks when the text arrives in small pieces', () => {
    let s = splitBlocks('');
    for (let i = 1; i <= TEXT.length; i += 3) s = splitBlocks(TEXT.slice(0, i), s);
    s = splitBlocks(TEXT, s);
    expect(s.blocks).toEqual(splitBlocks(TEXT).blocks);
    expect(joined(s)).toBe(TEXT);
  });

  it('starts over when the text is not a continuation', () => {
    const s = splitBlocks(TEXT);
    const other = splitBlocks('new\n\ntext', s);
    expect(other.blocks).toEqual(['new\n\n']);
    expect(joined(other)).toBe('new\n\ntext');
  });

  it('keeps a tilde fence open across a backtick line', () => {
    const s = splitBlocks('~~~\n```\n\nstill code\n~~~\n\nafter');
    expect(s.blocks).toEqual(['~~~\n```\n\nstill code\n~~~\n\n']);
  });
});

describe('renderDraftBlock', () => {
  it('draws an open fence as escaped code in a code block frame', () => {
    const text = 'Some code:\n\n```ts title\nconst a = "<img src=x onerror=alert(1)>";\nif (a';
    const s = splitBlocks(text);
    expect(s.fence).toBe('```');
    const open = text.slice(s.openStart);
    const html = renderDraftBlock(open, s.fenceStart - s.openStart);
    expect(html).toBe(
      '<div class="code-block"><span class="code-lang">ts</span>' +
        '<button type="button" class="code-copy" aria-label="Copy code">Copy</button>' +
        '<pre><code class="hljs">const a = &quot;&lt;img src=x onerror=alert(1)&gt;&quot;;\nif (a</code></pre></div>',
    );
  });

  it('removes the fence indentation from the code lines and escapes the language', () => {
    const html = renderDraftBlock('  ```<b>\n    indented\n  two\n', 0);
    expect(html).toContain('<span class="code-lang">&lt;b&gt;</span>');
    expect(html).toContain('<code class="hljs">  indented\ntwo\n</code>');
  });
});
