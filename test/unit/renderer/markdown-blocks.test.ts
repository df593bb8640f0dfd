import { describe, expect, it } from 'vitest';
import {
  SYNC_BLOCK_CHARS,
  blockHtml,
  isRendered,
  renderDraftBlock,
  splitBlocks,
  splitStream,
  whenFormatted,
} from '../../../src/renderer/features/chat/markdown-blocks.ts';
import {
  appendStream,
  EMPTY_STREAM,
  streamFrom,
  streamOf,
  streamText,
  type StreamText,
} from '../../../src/renderer/stores/stream-text.ts';

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

/** TEXT repeated into a long answer, streamed in `size`-character deltas. */
function streamed(text: string, size: number): StreamText[] {
  const out: StreamText[] = [];
  let s = EMPTY_STREAM;
  for (let i = 0; i < text.length; i += size)
    out.push((s = appendStream(s, text.slice(i, i + size))));
  return out;
}

describe('StreamText', () => {
  const long = Array.from({ length: 300 }, (_, i) => `${i}: ${TEXT}\n\n`).join('');

  it('holds exactly the deltas appended, and any suffix of them', () => {
    const versions = streamed(long, 64);
    const last = versions.at(-1)!;
    expect(streamText(last)).toBe(long);
    expect(last.length).toBe(long.length);
    for (const start of [0, 1, 4095, 4096, 4097, 30_000, long.length - 1, long.length])
      expect(streamFrom(last, start)).toBe(long.slice(start));
    // Earlier versions are unchanged by later appends.
    expect(streamText(versions[10]!)).toBe(long.slice(0, 11 * 64));
    expect(versions.every((v) => v.id === last.id)).toBe(true);
    expect(streamOf('other').id).not.toBe(last.id);
  });

  it('splits a stream frame by frame into the same blocks as the whole text', () => {
    const versions = streamed(long, 64);
    let split = splitStream(versions[0]!);
    for (let i = 7; i < versions.length; i += 7) split = splitStream(versions[i]!, split);
    split = splitStream(versions.at(-1)!, split);
    const whole = splitBlocks(long);
    expect(split.blocks).toEqual(whole.blocks);
    expect(split.rest.text.slice(split.rest.openStart)).toBe(long.slice(whole.openStart));
    // The rest it keeps is the open block, not the answer so far.
    expect(split.rest.text.length).toBeLessThan(200);
  });

  it('starts over for another stream, and keeps an open fence open across frames', () => {
    const first = splitStream(streamOf('a\n\nb'));
    const other = streamOf('```ts\nconst a = 1;\n\n');
    const s = splitStream(appendStream(other, 'const b = 2;\n'), splitStream(other, first));
    expect(s.blocks).toEqual([]);
    expect(s.rest.fence).toBe('```');
    expect(s.rest.text).toBe('```ts\nconst a = 1;\n\nconst b = 2;\n');
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

describe('blockHtml and whenFormatted', () => {
  it('shows a block marked cannot parse as escaped plain text with a note, instead of throwing', () => {
    const deep = `${'>'.repeat(2000)} <b>deep</b>`;
    expect(deep.length).toBeLessThanOrEqual(SYNC_BLOCK_CHARS);
    const html = blockHtml(deep);
    expect(html).toBe(
      `<div class="md-plain">${'&gt;'.repeat(2000)} &lt;b&gt;deep&lt;/b&gt;</div>` +
        '<p class="md-note">Shown as plain text: it could not be formatted (Maximum call stack size exceeded).</p>',
    );
    // Cached: the next frame does not parse it again.
    expect(isRendered(deep)).toBe(true);
  });

  it('leaves a block over the sync limit to whenFormatted, which caches it before calling back', async () => {
    const big = `${'word '.repeat(SYNC_BLOCK_CHARS / 5)}**end**`;
    expect(blockHtml(big)).toBeUndefined();
    expect(isRendered(big)).toBe(false);
    let called = 0;
    const stop = whenFormatted(big, () => called++);
    expect(called).toBe(0);
    await new Promise((r) => setTimeout(r, 0));
    expect(called).toBe(1);
    expect(isRendered(big)).toBe(true);
    stop();
  });

  it('does not call back once the caller stopped waiting', async () => {
    const big = `${'other '.repeat(SYNC_BLOCK_CHARS / 6)}done`;
    let called = 0;
    whenFormatted(big, () => called++)();
    await new Promise((r) => setTimeout(r, 0));
    expect(called).toBe(0);
    expect(isRendered(big)).toBe(false);
  });
});
