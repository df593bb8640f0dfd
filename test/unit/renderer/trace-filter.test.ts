import { describe, expect, it } from 'vitest';
import {
  filterChoices,
  filterRows,
  isProblem,
  NO_FILTER,
} from '../../../src/renderer/features/trace/trace-filter.ts';
import { layoutRuns } from '../../../src/renderer/features/trace/trace-layout.ts';
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
