import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExecuteTool } from '../../../src/main/tools/execute.ts';
import { createLiveOutput } from '../../../src/main/tools/live-output.ts';
import { toolOutput } from '../../../src/main/tools/types.ts';
import { tempWorkspace, type TempWorkspace } from './helpers.ts';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

type Chunk = { stream: 'stdout' | 'stderr'; chunk: string; at: number };

describe('execute live output', () => {
  it('streams stdout and stderr apart while the command runs, and keeps them apart in the result', async () => {
    const chunks: Chunk[] = [];
    const started = Date.now();
    const ctx = {
      ...t.ctx,
      onOutput: (stream: Chunk['stream'], chunk: string) =>
        chunks.push({ stream, chunk, at: Date.now() - started }),
    };
    const out = toolOutput(
      await createExecuteTool().execute(
        { command: 'echo first; echo oops >&2; sleep 0.6; echo second' },
        ctx,
      ),
    );
    const text = (s: Chunk['stream']) =>
      chunks
        .filter((c) => c.stream === s)
        .map((c) => c.chunk)
        .join('');
    expect(text('stdout')).toBe('first\nsecond\n');
    expect(text('stderr')).toBe('oops\n');
    // The first line arrived long before the command ended.
    const first = chunks.find((c) => c.chunk.includes('first'))!;
    expect(first.at).toBeLessThan(450);
    expect(out.streams).toEqual({ stdout: 'first\nsecond\n', stderr: 'oops\n' });
    expect(out.content).toBe('first\noops\nsecond\n\nexit code: 0');
  });

  it('batches a flood into few events and bounds what is sent live', async () => {
    const events: string[] = [];
    const live = createLiveOutput({
      emit: (_s, c) => events.push(c),
      intervalMs: 50,
      maxChars: 1000,
    });
    for (let i = 0; i < 5000; i++) live.write('stdout', Buffer.from('x'.repeat(10)));
    live.close();
    const all = events.join('');
    expect(events.length).toBeLessThanOrEqual(2);
    expect(all.startsWith('x'.repeat(1000))).toBe(true);
    expect(all).toContain('live output stopped here');
    expect(all.length).toBeLessThan(1200);
  });

  it('never splits a multi-byte character between events', () => {
    const events: string[] = [];
    const live = createLiveOutput({ emit: (_s, c) => events.push(c) });
    const bytes = Buffer.from('é€');
    live.write('stdout', bytes.subarray(0, 1));
    live.write('stdout', bytes.subarray(1));
    live.close();
    expect(events.join('')).toBe('é€');
  });

  it('gives Claude hooks real stdout, stderr and interrupted', async () => {
    const tool = createExecuteTool();
    const out = toolOutput(
      await tool.execute(
        { command: 'echo out; echo err >&2; sleep 5', timeout_seconds: 0.3 },
        t.ctx,
      ),
    );
    const response = tool.dialects!.claude!.toResponse!({
      args: { command: 'x' },
      output: out.content,
      status: out.status,
      streams: out.streams,
      absolute: (p) => p,
    });
    expect(response).toMatchObject({ stdout: 'out\n', stderr: 'err\n', interrupted: true });
  });
});
