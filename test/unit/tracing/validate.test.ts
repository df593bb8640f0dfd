import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatSpanTree } from '../../../src/main/tracing/tree-text.ts';
import { validateSpanTree } from '../../../src/main/tracing/validate.ts';
import type { SpanRecord } from '../../../src/shared/types/index.ts';

const spans = JSON.parse(readFileSync(new URL('../../fixtures/traces/scripted-turn.spans.json', import.meta.url), 'utf8')) as SpanRecord[];

describe('validateSpanTree', () => {
  it('accepts one tree per run', () => {
    const r = validateSpanTree(spans);
    expect(r).toMatchObject({ ok: true, errors: [] });
    expect(r.roots.run_golden.name).toBe('invoke_agent workbench');
  });

  it('reports two roots, missing parents, children outside their parent and cycles', () => {
    const twoRoots = spans.map((s) => (s.name === 'chat gpt-4o' ? { ...s, parent_span_id: undefined } : s));
    expect(validateSpanTree(twoRoots).errors.join('\n')).toMatch(/exactly one root span, found 3/);
    const orphan = spans.map((s) => (s.span_id === '5555555555555555' ? { ...s, parent_span_id: 'abababababababab' } : s));
    expect(validateSpanTree(orphan).errors.join('\n')).toMatch(/missing parent abababababababab/);
    const outside = spans.map((s) => (s.span_id === '5555555555555555' ? { ...s, end_ms: s.end_ms! + 5000 } : s));
    expect(validateSpanTree(outside).errors.join('\n')).toMatch(/"hook before_tool_call guard" ends after its parent/);
    const cycle = [...spans, { ...spans[1], span_id: '7777777777777777', parent_span_id: '8888888888888888' }, { ...spans[1], span_id: '8888888888888888', parent_span_id: '7777777777777777' }];
    expect(validateSpanTree(cycle).errors.join('\n')).toMatch(/not reachable from the root/);
  });

  it('renders a text tree with durations and errors', () => {
    const text = formatSpanTree(spans);
    expect(text).toContain('invoke_agent workbench  2.50 s');
    expect(text).toContain('├─ execute_tool shell  387.5 ms  ERROR tool_error: exit 1');
    expect(text).toContain('│  └─ hook before_tool_call guard  7.5 ms');
    expect(text).toContain('└─ chat gpt-4o  1.10 s  in=200 out=22');
  });
});
