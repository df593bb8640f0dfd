import { describe, expect, it } from 'vitest';
import { accountRun, selfTime } from '../../../src/renderer/features/trace/trace-accounting.ts';
import { mk } from './trace-fixtures.ts';

describe('time accounting', () => {
  it('splits a run into model, tools, hooks and other, counting parallel work once', () => {
    const a = accountRun(
      [
        mk('root', null, 'agent', 0, 100),
        mk('c1', 'root', 'llm', 0, 20),
        mk('t1', 'root', 'tool', 20, 50),
        mk('t2', 'root', 'tool', 30, 60),
        mk('h1', 't1', 'hook', 25, 35),
        mk('c2', 'root', 'llm', 70, 90),
      ],
      0,
    );
    expect(a).toEqual({ total: 100, model: 40, tools: 30, hooks: 10, approval: 0, other: 20 });
  });

  it('takes approval wait out of tool time when spans carry it', () => {
    const a = accountRun(
      [
        mk('root', null, 'agent', 0, 100),
        mk('t', 'root', 'tool', 0, 100, { attributes: { 'workbench.permission.wait_ms': 60 } }),
      ],
      0,
    );
    expect(a.approval).toBe(60);
    expect(a.tools).toBe(40);
  });

  it("takes the time spent answering an MCP server's questions out of tool time too", () => {
    const a = accountRun(
      [
        mk('root', null, 'agent', 0, 100),
        mk('t', 'root', 'tool', 0, 100, {
          attributes: { 'workbench.permission.wait_ms': 20, 'workbench.elicitation.wait_ms': 50 },
        }),
      ],
      0,
    );
    expect(a.approval).toBe(70);
    expect(a.tools).toBe(30);
  });

  it('grows open spans to now and sums to the total', () => {
    const a = accountRun(
      [mk('root', null, 'agent', 0, null), mk('c', 'root', 'llm', 10, null)],
      50,
    );
    expect(a.total).toBe(50);
    expect(a.model).toBe(40);
    expect(a.model + a.tools + a.hooks + a.approval + a.other).toBe(a.total);
  });
});

describe('self time', () => {
  it('is the span’s time outside its (possibly overlapping) children', () => {
    const parent = mk('t', null, 'tool', 0, 100);
    expect(
      selfTime(
        parent,
        [mk('a', 't', 'hook', 10, 30), mk('b', 't', 'hook', 20, 40), mk('c', 't', 'hook', 90, 120)],
        0,
      ),
    ).toBe(60);
    expect(selfTime(parent, [], 0)).toBe(100);
    expect(selfTime(mk('o', null, 'tool', 0, null), [mk('k', 'o', 'hook', 0, null)], 50)).toBe(0);
  });
});
