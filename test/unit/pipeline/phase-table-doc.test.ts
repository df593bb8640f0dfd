/** docs/architecture.md prints the phase table; it must say what the code does. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PHASES } from '../../../src/main/pipeline/phases.ts';

const doc = readFileSync(new URL('../../../docs/architecture.md', import.meta.url), 'utf8');

describe('docs/architecture.md', () => {
  it('prints every phase with its method, shape, failure policy and abort behaviour as the table in code', () => {
    const documented = doc
      .split('\n')
      .filter((line) => /^\| `[a-z_]+` \|/.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim().replace(/^`|`$/g, '')),
      );
    const inCode = PHASES.map((p) => [
      p.name,
      p.method,
      p.shape,
      p.failure + (p.failClosedBlocks ? ', fail-closed blocks' : ''),
      p.abort,
      p.when,
    ]);
    expect(documented).toEqual(inCode);
  });
});
