import { describe, expect, it } from 'vitest';
import {
  assignSiblingLanes,
  layoutRuns,
  runEnd,
} from '../../../src/renderer/features/trace/trace-layout.ts';
import {
  barGeometry,
  formatDuration,
  FULL_VIEW,
  panBy,
  zoomAt,
} from '../../../src/renderer/features/trace/trace-view.ts';
import { linkedSpans } from '../../../src/renderer/features/trace/span-links.ts';
import { mk } from './trace-fixtures.ts';

describe('trace layout', () => {
  it('flattens each run depth-first in start order with depths', () => {
    const spans = [
      mk('tool2', 'root', 'tool', 40, 60),
      mk('root', null, 'agent', 0, 100),
      mk('chat1', 'root', 'llm', 5, 30),
      mk('hook1', 'tool2', 'hook', 41, 45),
      mk('chat2', 'root', 'llm', 61, 90),
    ];
    const [run] = layoutRuns(spans);
    expect(run!.rows.map((r) => `${r.span.span_id}:${r.depth}`)).toEqual([
      'root:0',
      'chat1:1',
      'tool2:1',
      'hook1:2',
      'chat2:1',
    ]);
    expect(run!.rows[3]!.parent).toBe(2);
    expect(run!.root!.span_id).toBe('root');
    expect(run!.start).toBe(0);
    expect(run!.end).toBe(100);
    expect(run!.open).toBe(false);
  });

  it('puts overlapping siblings (parallel tool calls) on separate lanes and reuses freed lanes', () => {
    const spans = [
      mk('root', null, 'agent', 0, 100),
      mk('a', 'root', 'tool', 10, 50),
      mk('b', 'root', 'tool', 12, 40),
      mk('c', 'root', 'tool', 14, 30),
      mk('d', 'root', 'tool', 45, 60),
      mk('e', 'root', 'llm', 70, 80),
    ];
    const lanes = Object.fromEntries(
      layoutRuns(spans)[0]!.rows.map((r) => [r.span.span_id, r.lane]),
    );
    expect(lanes).toEqual({ root: 0, a: 0, b: 1, c: 2, d: 1, e: 0 });
  });

  it('treats an open span as running forever for lanes and marks the run open', () => {
    expect(
      assignSiblingLanes([mk('a', null, 'tool', 0, null), mk('b', null, 'tool', 100, 110)]),
    ).toEqual([0, 1]);
    const [run] = layoutRuns([mk('root', null, 'agent', 0, null), mk('x', 'root', 'llm', 1, 20)]);
    expect(run!.open).toBe(true);
    expect(runEnd(run!, 500)).toBe(500);
  });

  it('groups runs, orders them by start, and survives orphans and cycles', () => {
    const spans = [
      mk('r2', null, 'agent', 200, 300, { run_id: 'r2' }),
      mk('orphan', 'missing', 'tool', 210, 220, { run_id: 'r2' }),
      mk('r1', null, 'agent', 0, 100),
      mk('x', 'y', 'tool', 10, 20),
      mk('y', 'x', 'tool', 11, 19),
    ];
    const runs = layoutRuns(spans);
    expect(runs.map((r) => r.runId)).toEqual(['r1', 'r2']);
    expect(runs[1]!.rows.map((r) => r.span.span_id)).toEqual(['r2', 'orphan']);
    expect(runs[0]!.rows.map((r) => r.span.span_id)).toEqual(['r1']);
  });

  it("nests subagent runs under their task spans, side by side when parallel, inside the parent's run", () => {
    const spans = [
      mk('root', null, 'agent', 0, 100),
      mk('t1', 'root', 'tool', 10, 90, { name: 'execute_tool task' }),
      mk('t2', 'root', 'tool', 10, 80, { name: 'execute_tool task' }),
      mk('a', 't1', 'agent', 12, 88, { run_id: 'child1' }),
      mk('a-tool', 'a', 'tool', 20, 30, { run_id: 'child1' }),
      mk('b', 't2', 'agent', 12, 70, { run_id: 'child2' }),
      mk('g', 'b', 'tool', 15, 60, { run_id: 'child2', name: 'execute_tool task' }),
      mk('grand', 'g', 'agent', 16, 59, { run_id: 'grandchild' }),
    ];
    const runs = layoutRuns(spans);
    expect(runs.map((r) => r.runId)).toEqual(['r1']);
    const rows = runs[0]!.rows.map((r) => [r.span.span_id, r.depth, r.lane]);
    expect(rows).toEqual([
      ['root', 0, 0],
      ['t1', 1, 0],
      ['a', 2, 0],
      ['a-tool', 3, 0],
      ['t2', 1, 1],
      ['b', 2, 0],
      ['g', 3, 0],
      ['grand', 4, 0],
    ]);
  });

  it('lays out 20,000 spans', () => {
    const spans = [mk('root', null, 'agent', 0, 1e6)];
    for (let i = 0; i < 20_000; i++)
      spans.push(
        mk(
          `s${i}`,
          i % 10 === 0 ? 'root' : `s${i - (i % 10)}`,
          i % 10 === 0 ? 'tool' : 'hook',
          i * 10,
          i * 10 + 5,
        ),
      );
    const [run] = layoutRuns(spans);
    expect(run!.rows).toHaveLength(20_001);
  });
});

describe('trace view window', () => {
  it('zooms around the cursor, pans within bounds, and places bars', () => {
    const z = zoomAt(FULL_VIEW, 0.5, 0.25);
    expect(z.from).toBeCloseTo(0.125);
    expect(z.to).toBeCloseTo(0.625);
    expect(panBy(z, -10)).toEqual({ from: 0, to: 0.5 });
    expect(panBy(z, 10).to).toBe(1);
    expect(zoomAt(z, 100, 0.5)).toEqual(FULL_VIEW);
    expect(barGeometry(150, 200, 100, 200, FULL_VIEW)).toEqual({ left: 25, width: 25 });
    expect(barGeometry(150, 200, 100, 200, { from: 0.25, to: 0.5 })).toEqual({
      left: 0,
      width: 100,
    });
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_345)).toBe('12.3 s');
  });
});

describe('span links', () => {
  it('joins chat spans and the tool spans they requested on tool_call_id', () => {
    const spans = [
      mk('root', null, 'agent', 0, 100),
      mk('chat', 'root', 'llm', 1, 10, { attributes: { 'workbench.tool_call_ids': ['c1', 'c2'] } }),
      mk('t1', 'root', 'tool', 11, 20, { attributes: { 'gen_ai.tool.call.id': 'c1' } }),
      mk('t2', 'root', 'tool', 11, 25, { attributes: { 'gen_ai.tool.call.id': 'c2' } }),
    ];
    const [run] = layoutRuns(spans);
    expect(linkedSpans(spans[2]!, run).requestedBy?.span_id).toBe('chat');
    expect(linkedSpans(spans[1]!, run).requested.map((s) => s.span_id)).toEqual(['t1', 't2']);
    expect(linkedSpans(spans[0]!, run)).toEqual({ requested: [] });
  });
});

describe('incremental layout', () => {
  it('reuses the layout of runs whose spans did not change', () => {
    const a = [mk('r1', null, 'agent', 0, 10), mk('x', 'r1', 'llm', 1, 5)];
    const b = [mk('r2', null, 'agent', 20, null, { run_id: 'r2' })];
    const first = layoutRuns([...a, ...b]);
    const grown = [...a, ...b, mk('y', 'r2', 'tool', 21, null, { run_id: 'r2' })];
    const second = layoutRuns(grown, first);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]!.rows.map((r) => r.span.span_id)).toEqual(['r2', 'y']);
  });
});
