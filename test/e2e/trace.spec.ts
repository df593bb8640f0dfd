import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures.ts';
import { TracePage } from './pages/trace-page.ts';

interface OtlpSpanJson {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

function otlpSpans(doc: {
  resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpanJson[] }> }>;
}): OtlpSpanJson[] {
  return doc.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

test('a run’s spans appear live; the drawer shows a tool’s arguments; OTLP export forms one tree per run', async ({
  app,
  fake,
  chat,
}) => {
  const trace = new TracePage(app);
  await fake.script([
    {
      toolCalls: [
        { name: 'read_file', args: { path: 'README.md' } },
        { name: 'read_file', args: { path: 'index.js' } },
      ],
    },
    {
      text: 'The project is a small demo workspace with a README and an index file. '.repeat(4),
      chunkSize: 3,
      delayMs: 40,
    },
  ]);
  await trace.open();
  await chat.sendNew('What is in this project?');
  // Live: the run is still streaming its second model call while the tool spans are already listed.
  await expect(app.locator('[data-testid="trace-run"][data-open="true"]')).toHaveCount(1);
  await expect(trace.rowsOfKind('tool')).toHaveCount(2);
  await expect(trace.rowsOfKind('llm').first()).toBeVisible();
  await trace.rowsOfKind('tool').first().click();
  await expect(trace.drawer).toBeVisible();
  await expect(trace.page.getByTestId('trace-drawer-args')).toContainText('"path": "README.md"');
  await chat.waitIdle();
  await expect(app.locator('[data-testid="trace-run"][data-open="false"]')).toHaveCount(1);
  await expect(trace.rowsOfKind('llm')).toHaveCount(2);
  // The tool span links to the chat span that asked for it (joined on tool_call_id).
  await app.getByTestId('trace-link').first().click();
  await expect(trace.drawer.locator('header')).toContainText('chat fake-model');

  // Search narrows to matches (ancestors stay as context).
  await trace.page.getByTestId('trace-search').fill('index.js');
  await expect(trace.rowsOfKind('tool')).toHaveCount(1);
  await trace.page.getByTestId('trace-search').fill('');

  const download = await trace.export('otlp');
  expect(download.suggestedFilename()).toMatch(/\.otlp\.json$/);
  const doc = JSON.parse(await readFile((await download.path())!, 'utf8'));
  const spans = otlpSpans(doc);
  expect(spans.length).toBeGreaterThanOrEqual(5);
  const byTrace = new Map<string, OtlpSpanJson[]>();
  for (const s of spans) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
  expect(byTrace.size).toBe(1);
  for (const group of byTrace.values()) {
    const ids = new Set(group.map((s) => s.spanId));
    expect(group.filter((s) => !s.parentSpanId)).toHaveLength(1);
    for (const s of group) if (s.parentSpanId) expect(ids.has(s.parentSpanId)).toBe(true);
  }
});

/** An OTLP file with `runs` traces of `perRun` spans: a root, tool calls under it, a hook under each tool. */
function bigOtlp(runs: number, perRun: number): string {
  const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');
  const base = 1_700_000_000_000;
  const ns = (ms: number) => `${ms}000000`;
  const spans: unknown[] = [];
  let id = 1;
  for (let r = 0; r < runs; r++) {
    const traceId = hex(r + 1, 32);
    const t0 = base + r * 100_000;
    const root = hex(id++, 16);
    spans.push({
      traceId,
      spanId: root,
      name: 'invoke_agent workbench',
      kind: 1,
      startTimeUnixNano: ns(t0),
      endTimeUnixNano: ns(t0 + perRun * 10),
      attributes: [{ key: 'workbench.span.kind', value: { stringValue: 'agent' } }],
    });
    let tool = root;
    for (let i = 1; i < perRun; i++) {
      const isTool = i % 2 === 1;
      const spanId = hex(id++, 16);
      const start = t0 + i * 10;
      spans.push({
        traceId,
        spanId,
        parentSpanId: isTool ? root : tool,
        name: isTool ? 'execute_tool read_file' : 'hook before_tool_call guard',
        kind: 1,
        startTimeUnixNano: ns(start),
        endTimeUnixNano: ns(start + (isTool ? 9 : 3)),
        attributes: [
          { key: 'workbench.span.kind', value: { stringValue: isTool ? 'tool' : 'hook' } },
        ],
      });
      if (isTool) tool = spanId;
    }
  }
  return JSON.stringify({
    resourceSpans: [
      { resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'e2e' }, spans }] },
    ],
  });
}

test('20,000 imported spans render virtualized (a bounded number of rows in the DOM)', async ({
  app,
}) => {
  const trace = new TracePage(app);
  await trace.open();
  await trace.import('big.otlp.json', bigOtlp(20, 1000));
  await expect(trace.count).toHaveText('20000 spans', { timeout: 20_000 });
  await expect(trace.rows.first()).toBeVisible();
  const inDom = await trace.rows.count();
  expect(inDom).toBeGreaterThan(0);
  expect(inDom).toBeLessThan(200);
  // Scrolling to the end swaps the rendered rows for the last ones, still bounded.
  const firstId = await trace.rows.first().getAttribute('data-span-id');
  await trace.timeline.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(trace.rows.first()).not.toHaveAttribute('data-span-id', firstId!);
  await expect(trace.rows.last()).toBeVisible();
  expect(await trace.rows.count()).toBeLessThan(200);
  // Errors-only on a trace without errors says so instead of an empty box.
  await app.getByTestId('trace-filter-errors').click();
  await expect(app.getByTestId('trace-no-match')).toBeVisible();
});

test('errors are marked and filterable; switching threads loads each thread’s spans; keys zoom', async ({
  app,
  fake,
  chat,
}) => {
  const trace = new TracePage(app);
  await fake.script([
    { toolCalls: [{ name: 'read_file', args: { path: 'does-not-exist.txt' } }] },
    { text: 'That file does not exist.' },
  ]);
  await trace.open();
  await chat.sendNew('Read does-not-exist.txt');
  await chat.waitIdle();
  await expect(app.locator('[data-testid="trace-run"][data-open="false"]')).toHaveCount(1);
  const failed = trace.rowsOfKind('tool');
  await expect(failed).toHaveClass(/error/);
  await app.getByTestId('trace-filter-errors').click();
  await expect(trace.rowsOfKind('llm')).toHaveCount(0);
  await expect(trace.rowsOfKind('tool')).toHaveCount(1);
  await failed.click();
  await expect(app.getByTestId('trace-drawer-status')).toContainText('ERROR');
  await app.getByTestId('trace-filter-errors').click();

  await trace.timeline.focus();
  await app.keyboard.press('+');
  await expect(app.getByTestId('trace-zoom-level')).toHaveText('2×');
  await app.keyboard.press('0');
  await expect(app.getByTestId('trace-zoom-level')).toHaveText('1×');

  // Wheel over the bars zooms around the cursor; dragging pans.
  const track = app.locator('.trace-track').first();
  const box = (await track.boundingBox())!;
  await app.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await app.mouse.wheel(0, -600);
  await expect(app.getByTestId('trace-zoom-level')).not.toHaveText('1×');
  const before = await trace.timeline.getAttribute('data-view');
  await app.mouse.down();
  await app.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 4 });
  await app.mouse.up();
  await expect(trace.timeline).not.toHaveAttribute('data-view', before!);
  await app.keyboard.press('0');

  await app.getByTestId('new-thread').click();
  await expect(app.getByTestId('trace-empty')).toBeVisible();
  await app.getByTestId('thread-item').filter({ hasText: 'does-not-exist' }).first().click();
  await expect(trace.rowsOfKind('tool')).toHaveCount(1);
});
