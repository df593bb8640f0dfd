import { describe, expect, it } from 'vitest';
import { terminalText } from '../../../src/main/tools/terminal-text.ts';

const shown = (raw: string) => terminalText(raw).text;

describe('terminalText', () => {
  it('returns plain output untouched, tabs and CRLF line ends included', () => {
    const plain = 'a\tb\nc d  \n';
    expect(terminalText(plain)).toEqual({ text: plain, changed: false });
    expect(terminalText('one\r\ntwo\r\n')).toEqual({ text: 'one\ntwo\n', changed: false });
  });

  it('removes colours, titles and hyperlinks but keeps their text', () => {
    expect(shown('\x1b[1;31merror\x1b[0m: \x1b[38;2;200;10;140mbad\x1b[m\n')).toBe('error: bad\n');
    expect(
      shown('\x1b]0;window title\x07ready \x1b]8;;https://x.test\x1b\\docs\x1b]8;;\x1b\\ here'),
    ).toBe('ready docs here');
    expect(terminalText('\x1b[32mok\x1b[0m').changed).toBe(true);
  });

  it('keeps the last state of a line redrawn with carriage returns and erase-line', () => {
    const meter = ['  0%', ' 40%', ' 80%', '100%']
      .map((p) => `\rDownloading ${p} [${'#'.repeat(p.trim().length)}]\x1b[K`)
      .join('');
    expect(shown(`${meter}\ndone\n`)).toBe('Downloading 100% [####]\ndone\n');
    // A shorter state over a longer one leaves the rest, as a terminal does.
    expect(shown('12345\rab')).toBe('ab345');
    expect(shown('abc\b\bX')).toBe('aXc');
  });

  it('applies cursor-up redraws of several lines (multi-line progress)', () => {
    const frame = (a: string, b: string) => `layer 1: ${a}\x1b[K\nlayer 2: ${b}\x1b[K\n`;
    const raw =
      frame('waiting', 'waiting') +
      '\x1b[2A' +
      frame('done', '50%') +
      '\x1b[2A' +
      frame('done', 'done') +
      'finished\n';
    expect(shown(raw)).toBe('layer 1: done\nlayer 2: done\nfinished\n');
  });

  it('stays bounded and loses no text on hostile or cut-off sequences', () => {
    expect(shown('\x1b[999999999Cx').length).toBeLessThanOrEqual(4097);
    expect(shown('\x1b[999999999Atop')).toBe('top');
    // An OSC string the output's head cut off ends at its line, not at the end of the output.
    expect(shown('head\x1b]0;cut off\n... (10 bytes of output dropped) ...\ntail')).toBe(
      'head\n... (10 bytes of output dropped) ...\ntail',
    );
    expect(shown('a\x00b\x07c\x1b[12')).toBe('abc');
    expect(shown('\u{1F642}abc\rX')).toBe('Xabc');
  });
});
