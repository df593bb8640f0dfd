/**
 * A command's output as a terminal would leave it on screen, as plain text for the model: colours
 * and other escape sequences removed, a carriage return or cursor movement overwriting what it goes
 * back over (a progress meter keeps its last state, not every redraw), backspaces applied. What the
 * command wrote stays as it was everywhere else (live output, hooks' `tool_response`).
 */

/** Widest column a cursor movement may reach: a screen is never wider (hostile `ESC[99999999C`). */
const MAX_COLUMN = 4096;

/** Anything a terminal interprets instead of printing; text without any is returned as it is. */
// eslint-disable-next-line no-control-regex -- control characters are what this file reads
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/**
 * One escape sequence, one control character, or a run of printable text. CSI: ESC [, parameters,
 * intermediates, a final byte. OSC, DCS, SOS, PM, APC: a string ended by BEL or ST — or by the end
 * of its line, so a string cut short (the output's head ends inside one) does not hide what follows.
 * 8-bit C1 controls are dropped, never read as introducers (UTF-8 terminals ignore them too).
 */
const TOKEN =
  // eslint-disable-next-line no-control-regex -- escape sequences are what this file reads
  /\x1b\[([0-?]*)[ -/]*([@-~])?|\x1b[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]?|[\x00-\x1f\x7f-\x9f]|[^\x00-\x1f\x7f-\x9f]+/gy;

export interface TerminalText {
  text: string;
  /** Whether anything was interpreted beyond line endings (escape sequences removed, text overwritten). */
  changed: boolean;
}

class Screen {
  private readonly lines: string[][] = [[]];
  private row = 0;
  private col = 0;

  print(text: string): void {
    const line = this.lines[this.row]!;
    for (const ch of text) {
      while (line.length < this.col) line.push(' ');
      line[this.col++] = ch;
    }
  }

  control(ch: string): void {
    if (ch === '\n') this.moveTo(this.row + 1, 0);
    else if (ch === '\r') this.col = 0;
    else if (ch === '\b') this.col = Math.max(0, this.col - 1);
    else if (ch === '\t') this.print('\t');
  }

  csi(params: string, final: string): void {
    const nums = params.split(';').map((p) => Number.parseInt(p, 10));
    const n = Math.min(Number.isNaN(nums[0]!) || nums[0]! < 1 ? 1 : nums[0]!, MAX_COLUMN);
    const line = this.lines[this.row]!;
    switch (final) {
      case 'A':
        return this.moveTo(this.row - n, this.col);
      case 'B':
        return this.moveTo(this.row + n, this.col);
      case 'C':
        this.col = Math.min(this.col + n, MAX_COLUMN);
        return;
      case 'D':
        this.col = Math.max(0, this.col - n);
        return;
      case 'E':
        return this.moveTo(this.row + n, 0);
      case 'F':
        return this.moveTo(this.row - n, 0);
      case 'G':
        this.col = n - 1;
        return;
      case 'K':
        if (params === '' || nums[0] === 0) line.length = Math.min(line.length, this.col);
        else if (nums[0] === 1) line.fill(' ', 0, Math.min(line.length, this.col + 1));
        else if (nums[0] === 2) line.length = 0;
        return;
      case 'J':
        // Below the cursor only: a cleared screen keeps what it showed in the scrollback.
        if (params === '' || nums[0] === 0) {
          line.length = Math.min(line.length, this.col);
          this.lines.length = this.row + 1;
        }
        return;
      default:
      // Colours, modes, absolute positions: nothing a plain transcript keeps.
    }
  }

  /** Moves the cursor, adding lines below as a terminal scrolls; never above the first line. */
  private moveTo(row: number, col: number): void {
    this.row = Math.max(0, row);
    while (this.lines.length <= this.row) this.lines.push([]);
    this.col = col;
  }

  text(): string {
    return this.lines.map((l) => l.join('')).join('\n');
  }
}

/**
 * `raw` as a terminal would show it (see the file comment).
 * Contract: text without control characters (other than `\n` and `\t`) comes back unchanged.
 */
export function terminalText(raw: string): TerminalText {
  if (!CONTROL.test(raw)) return { text: raw, changed: false };
  const screen = new Screen();
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(raw); m; m = TOKEN.exec(raw)) {
    const token = m[0];
    const first = token.charCodeAt(0);
    if (first === 0x1b) {
      if (m[2] !== undefined) screen.csi(m[1] ?? '', m[2]);
    } else if (first < 0x20 || (first >= 0x7f && first <= 0x9f)) {
      if (token.length === 1) screen.control(token);
    } else {
      screen.print(token);
    }
  }
  const text = screen.text();
  return { text, changed: text !== raw.replace(/\r\n/g, '\n') };
}
