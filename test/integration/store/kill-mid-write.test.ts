import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_RESULT, openDatabase } from '../../../src/main/store/index.ts';
import { expectedTurn } from './fixtures/turns.ts';

const root = resolve(import.meta.dirname, '../../..');
const node = join(root, 'node_modules/.bin/node');
const script = join(import.meta.dirname, 'fixtures/append-loop.ts');
const dir = mkdtempSync(join(tmpdir(), 'wb-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the child until it reports `target` committed turns, then SIGKILLs it mid-loop. */
function runAndKill(
  file: string,
  threadId: string,
  target: number,
): Promise<{ threadId: string; committed: number }> {
  return new Promise((done, fail) => {
    const child = spawn(node, [script, file, threadId, '/ws'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let id = threadId;
    let committed = 0;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('thread ')) id = line.slice(7);
      if (line.startsWith('committed ')) committed = Number(line.slice(10));
      if (committed >= target && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') done({ threadId: id, committed });
      else fail(new Error(`child exited ${code}: ${stderr}`));
    });
  });
}

describe('kill -9 while appending', () => {
  it('keeps every committed turn, a valid db and a loadable thread across repeated crashes', async () => {
    const file = join(dir, 'workbench.db');
    let threadId = '-';
    for (const [round, target] of [40, 90, 150].entries()) {
      const run = await runAndKill(file, threadId, target);
      threadId = run.threadId;
      expect(run.committed).toBeGreaterThanOrEqual(target);
      const lastCommitted = run.committed;

      const db = openDatabase(file);
      try {
        expect(db.integrityCheck()).toEqual(['ok']);
        const state = db.threads.get(threadId)!;
        const turns = Math.floor(state.messages.length / 3);
        // Everything reported is there; at most the turn in flight beyond it, never a partial turn.
        expect(turns).toBeGreaterThanOrEqual(lastCommitted);
        expect(turns).toBeLessThanOrEqual(lastCommitted + 1);
        expect(state.messages.length % 3).toBe(0);
        let recovered = 0;
        for (let n = 0; n < turns; n++) {
          const [user, assistant, tool] = expectedTurn(n);
          const got = state.messages.slice(3 * n, 3 * n + 3);
          expect(got.slice(0, 2)).toEqual([user, assistant]);
          // A kill between the assistant commit and the tool commit is closed by crash recovery.
          if (got[2].content === INTERRUPTED_TOOL_RESULT) recovered++;
          else expect(got[2]).toEqual(tool);
          expect(got[2]).toMatchObject({
            role: 'tool',
            tool_call_id: `call_${n}`,
            name: 'write_file',
          });
        }
        expect(recovered).toBeLessThanOrEqual(round + 1);
        expect(db.threads.summary(threadId)?.message_count).toBe(state.messages.length);
        // The span is a separate commit after the turn's messages, so each crash may have lost one.
        expect(db.spans.listByThread(threadId).length).toBeGreaterThanOrEqual(turns - (round + 1));
        expect(db.spans.listByThread(threadId).length).toBeLessThanOrEqual(turns);
      } finally {
        db.close();
      }
    }
  });
});
