/** The result shape both grep engines produce, and a bounded collector that keeps the first N in order. */

/** One matching line. */
export interface GrepMatch {
  file: string; // root-relative (absolute only for read-only roots outside the workspace)
  line: number; // 1-based
  text: string;
}

/** What the grep tool returns (as JSON). */
export interface GrepOutput {
  matches: GrepMatch[];
  truncated: boolean;
  /** Why the search ended before it was done (only then): the matches are those found until then. */
  stopped?: string;
}

/** Longest line text returned for a match. */
export const MAX_MATCH_TEXT = 300;

/** The request both engines run. */
export interface GrepRequest {
  /** Workspace root (cwd for ripgrep). */
  readonly root: string;
  /** Real absolute folder or file to search. */
  readonly target: string;
  readonly pattern: string;
  readonly caseInsensitive: boolean;
  /** File filter glob: without `/` it matches the file name, with `/` the path below `target`. */
  readonly glob?: string;
  readonly maxResults: number;
  /** Skip files with other hard links (their content may belong to a file outside the workspace). */
  readonly skipHardLinked: boolean;
  readonly signal: AbortSignal;
  readonly display: (abs: string) => string;
}

/** Line text as shown: line ending removed, cut to MAX_MATCH_TEXT characters. */
export function matchText(line: string): string {
  const text = line.replace(/\r?\n$/, '').replace(/\r$/, '');
  return text.length > MAX_MATCH_TEXT ? text.slice(0, MAX_MATCH_TEXT) + '…' : text;
}

function compare(a: GrepMatch, b: GrepMatch): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line;
}

/**
 * Keeps the first `max` matches in (file, line) order whatever order they arrive in.
 * Contract: memory stays under 2×max matches; `truncated` is true when more than `max` were seen.
 */
export class MatchCollector {
  private readonly max: number;
  private items: GrepMatch[] = [];
  private seen = 0;
  private forced = false;
  private worst: GrepMatch | undefined;

  constructor(max: number) {
    this.max = max;
  }

  add(match: GrepMatch): void {
    this.seen++;
    this.items.push(match);
    if (this.items.length >= this.max * 2) {
      this.items = this.items.sort(compare).slice(0, this.max);
      this.worst = this.items[this.max - 1];
    }
  }

  /** False when a match at (file, line) certainly cannot be in the result: callers may then `skip()` it cheaply. */
  wouldKeep(file: string, line: number): boolean {
    const w = this.worst;
    return w === undefined || file < w.file || (file === w.file && line < w.line);
  }

  /** Counts a match that was not built because `wouldKeep` said no. */
  skip(): void {
    this.seen++;
  }

  /** Records that matches beyond the first `max` exist even though they were never added. */
  markTruncated(): void {
    this.forced = true;
  }

  result(): GrepOutput {
    const matches = this.items.sort(compare).slice(0, this.max);
    return { matches, truncated: this.forced || this.seen > this.max };
  }
}
