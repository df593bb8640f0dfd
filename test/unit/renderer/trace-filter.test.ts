import { describe, expect, it } from 'vitest';
import {
  filterChoices,
  filterRows,
  isProblem,
  NO_FILTER,
} from '../../../src/renderer/features/trace/trace-filter.ts';
import { layoutRuns } from '../../../src/renderer/features/trace/trace-layout.ts';
import {
  isSlow,
  MIN_SAMPLES,
  p90ByOperation,
} from '../../../src/renderer/features/trace/trace-stats.ts';
import { mk } from './trace-fixtures.ts';

const spans = [
  mk('root', null, 'agent', 0, 100),
  mk('chat', 'root', 'llm', 1, 10, {
    attributes: { 'workbench.output.preview': 'I will read the README' },
  }),
  mk('read', 'root', 'tool', 11, 20, {
    attributes: { 'gen_ai.tool.name': 'read_file', tool_args: '{"path":"README.md"}' },
  }),
  mk('guard', 'read', 'hook', 12, 13, {
    name: 'hook before_tool_call guard',
    attributes: { 'workbench.hook.name': 'guard', 'workbench.hook.timed_out': true },
  }),
  mk('sh', 'root', 'tool', 21, 30, {
    status: { code: 'ERROR', message: 'exit 1' },
    attributes: { 'gen_ai.tool.name': 'shell' },
  }),
];
const rows = layoutRuns(spans)[0]!.rows;
const ids = (f: Partial<typeof NO_FILTER>) => {
  const r = filterRows(rows, { ...NO_FILTER, ...f });
  return r.visible.map((i) => `${rows[i]!.span.span_id}${r.matched.has(i) ? '' : '~'}`);
};

describe('trace filters', () => {
  it('shows everything without a filter', () => {
    expect(ids({})).toEqual(['root', 'chat', 'read', 'guard', 'sh']);
  });

  it('errors only keeps errors, timeouts and their ancestors (as context)', () => {
    expect(isProblem(spans[3]!)).toBe(true);
    expect(ids({ errorsOnly: true })).toEqual(['root~', 'read~', 'guard', 'sh']);
  });

  it('filters by kind, tool and hook', () => {
    expect(ids({ kinds: ['llm'] })).toEqual(['root~', 'chat']);
    expect(ids({ tool: 'read_file' })).toEqual(['root~', 'read']);
    expect(ids({ hook: 'guard' })).toEqual(['root~', 'read~', 'guard']);
  });

  it('searches names, attribute values and status messages, case-insensitively', () => {
    expect(ids({ text: 'readme' })).toEqual(['root~', 'chat', 'read']);
    expect(ids({ text: 'EXIT 1' })).toEqual(['root~', 'sh']);
    expect(ids({ text: 'nothing like this' })).toEqual([]);
  });

  it('lists tool and hook names for the pickers', () => {
    expect(filterChoices(spans)).toEqual({ tools: ['read_file', 'shell'], hooks: ['guard'] });
  });
});

describe('slow spans (p90 per operation)', () => {
  const reads = [10, 11, 12, 13, 14, 15, 16, 17, 18, 100].map((d, i) =>
    mk(`r${i}`, 'root', 'tool', i * 200, i * 200 + d, {
      attributes: { 'gen_ai.tool.name': 'read_file' },
    }),
  );
  const all = [
    mk('root', null, 'agent', 0, 3000),
    ...reads,
    mk('open', 'root', 'tool', 2500, null, { attributes: { 'gen_ai.tool.name': 'read_file' } }),
  ];

  it('computes a p90 per operation only with enough samples', () => {
    const p90 = p90ByOperation(all);
    expect(p90.get('tool:read_file')).toBe(18);
    expect(p90.has('llm')).toBe(false);
    expect(p90ByOperation(reads.slice(0, MIN_SAMPLES - 1)).size).toBe(0);
  });

  it('marks ended spans above p90 as slow and open spans past it (by now) as stuck', () => {
    const p90 = p90ByOperation(all);
    expect(isSlow(reads[9]!, p90)).toBe(true);
    expect(isSlow(reads[0]!, p90)).toBe(false);
    expect(isSlow(all[all.length - 1]!, p90, 2510)).toBe(false);
    expect(isSlow(all[all.length - 1]!, p90, 2600)).toBe(true);
  });

  it('the slow filter keeps ended slow spans with their ancestors', () => {
    const runRows = layoutRuns(all)[0]!.rows;
    const r = filterRows(runRows, { ...NO_FILTER, slowOnly: true }, p90ByOperation(all));
    expect(r.visible.map((i) => runRows[i]!.span.span_id)).toEqual(['root', 'r9']);
  });
});
