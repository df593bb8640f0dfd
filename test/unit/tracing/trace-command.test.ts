import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { traceCommand } from '../../../src/main/cli/commands/trace.ts';
import type { CliIo } from '../../../src/main/cli/types.ts';
import { openDatabase } from '../../../src/main/store/database.ts';
import { validateSpanTree } from '../../../src/main/tracing/validate.ts';
import type { SpanRecord } from '../../../src/shared/types/index.ts';

const fixture = readFileSync(new URL('../../fixtures/traces/scripted-turn.spans.json', import.meta.url), 'utf8');
const spans = JSON.parse(fixture) as SpanRecord[];

let home: string;
let out: string[];
let err: string[];
let io: CliIo;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'wb-trace-'));
  out = [];
  err = [];
  io = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { WORKBENCH_HOME: home }, cwd: home };
  const db = openDatabase(join(home, 'workbench.db'));
  for (const s of spans) db.spans.upsert(s);
  db.close();
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('workbench trace', () => {
  it('exports OTLP to stdout without content by default, with it on --content', async () => {
    expect(await traceCommand(['export', 'th_golden', '--format', 'otlp'], io)).toBe(0);
    const doc = JSON.parse(out.join(''));
    expect(doc.resourceSpans[0].scopeSpans[0].spans).toHaveLength(spans.length);
    expect(out.join('')).not.toContain('output_preview');
    out = [];
    expect(await traceCommand(['export', 'th_golden', '--format', 'otlp', '--content'], io)).toBe(0);
    expect(out.join('')).toContain('output_preview');
  });

  it('exports Chrome traces to a file', async () => {
    expect(await traceCommand(['export', 'th_golden', '--format', 'chrome', '--out', 'trace.json'], io)).toBe(0);
    const doc = JSON.parse(readFileSync(join(home, 'trace.json'), 'utf8'));
    expect(doc.traceEvents.filter((e: { ph: string }) => e.ph === 'X')).toHaveLength(spans.length);
    expect(err.join('')).toMatch(/wrote 7 spans/);
  });

  it('rejects bad usage and unknown threads', async () => {
    await expect(traceCommand(['export', 'th_golden', '--format', 'pdf'], io)).rejects.toThrow(/otlp or chrome/);
    await expect(traceCommand(['frobnicate'], io)).rejects.toThrow(/export, import or show/);
    expect(await traceCommand(['show', 'th_nope'], io)).toBe(1);
    expect(err.join('')).toMatch(/no spans for thread th_nope/);
  });

  it('imports an OTLP export into a new thread with fresh span ids, keeping the tree and trace id', async () => {
    await traceCommand(['export', 'th_golden', '--format', 'otlp', '--content', '--out', 'x.json'], io);
    out = [];
    expect(await traceCommand(['import', 'x.json'], io)).toBe(0);
    const match = /imported 7 spans \(1 runs\) into thread (\S+)/.exec(out.join(''));
    expect(match).not.toBeNull();
    const db = openDatabase(join(home, 'workbench.db'));
    const imported = db.spans.listByThread(match![1]);
    expect(db.spans.listByThread('th_golden')).toHaveLength(7); // the original is untouched
    db.close();
    expect(imported).toHaveLength(7);
    expect(validateSpanTree(imported).errors).toEqual([]);
    expect(new Set(imported.map((s) => s.trace_id))).toEqual(new Set([spans[0].trace_id]));
    expect(imported.map((s) => s.span_id)).not.toContain(spans[0].span_id);
    expect(await traceCommand(['import', 'x.json', '--thread', 'th_mine'], io)).toBe(0);
    expect(out.join('')).toContain('into thread th_mine');
  });

  it('reports broken files clearly', async () => {
    writeFileSync(join(home, 'bad.json'), '{"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "x", "traceId": "zz"}]}]}]}');
    expect(await traceCommand(['import', 'bad.json'], io)).toBe(1);
    expect(err.join('')).toMatch(/bad.json: invalid OTLP JSON: .*traceId "zz" is not 32 hex chars/);
  });

  it('shows a text tree or JSON', async () => {
    expect(await traceCommand(['show', 'th_golden'], io)).toBe(0);
    expect(out.join('')).toContain('├─ execute_tool shell  387.5 ms  ERROR tool_error: exit 1');
    out = [];
    expect(await traceCommand(['show', 'th_golden', '--json'], io)).toBe(0);
    expect(JSON.parse(out.join(''))).toHaveLength(7);
  });
});
