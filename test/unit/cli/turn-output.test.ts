/**
 * The CLI prints once per turn of the event loop: a turn's lines go out together, in the order they
 * were printed across stdout and stderr, and what is left at exit is still written.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTurnOutput, type Stream } from '../../../src/main/cli/turn-output.ts';

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('CLI output per turn', () => {
  it('writes a turn’s lines once per stream, after the turn, in the order printed', async () => {
    const writes: [Stream, string][] = [];
    const out = createTurnOutput((stream, text) => writes.push([stream, text]));
    out.stderr('\n→ read_file {"path":"a.ts"}\n');
    out.stderr('✓ read_file (0 ms)\n');
    out.stdout('The file ');
    out.stdout('defines a router.');
    out.stderr('thread th_1\n');
    expect(writes).toEqual([]);
    await turnEnd();
    expect(writes).toEqual([
      ['stderr', '\n→ read_file {"path":"a.ts"}\n✓ read_file (0 ms)\n'],
      ['stdout', 'The file defines a router.'],
      ['stderr', 'thread th_1\n'],
    ]);
    out.stdout('next turn');
    await turnEnd();
    expect(writes.at(-1)).toEqual(['stdout', 'next turn']);
  });

  it('writes what is queued when the process exits at once', () => {
    const module = fileURLToPath(new URL('../../../src/main/cli/turn-output.ts', import.meta.url));
    const script = `import { processTurnOutput } from ${JSON.stringify(module)};
      const out = processTurnOutput();
      out.stdout('answer\\n');
      out.stderr('error: stopped\\n');
      process.exit(3);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status).toBe(3);
    expect(child.stdout).toBe('answer\n');
    expect(child.stderr).toContain('error: stopped\n');
  });
});
