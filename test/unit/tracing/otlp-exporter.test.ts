import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOtlpHttpExporter, parseRetryAfter } from '../../../src/main/tracing/otlp-exporter.ts';
import type { OtlpTraceRequest } from '../../../src/main/tracing/otlp-types.ts';
import type { SpanRecord } from '../../../src/shared/types/index.ts';

type Reply = { status: number; headers?: Record<string, string> };

interface Stub {
  url: string;
  requests: { path: string; headers: IncomingMessage['headers']; body: OtlpTraceRequest }[];
  close(): Promise<void>;
}

/** A collector stub on port 0: answers from `replies` in order, then 200. */
async function stubCollector(replies: Reply[] = []): Promise<Stub> {
  const requests: Stub['requests'] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const reply = replies.shift() ?? { status: 200 };
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let n = 0;
function span(extra: Partial<SpanRecord> = {}): SpanRecord {
  n++;
  return {
    trace_id: 'a'.repeat(32),
    span_id: n.toString(16).padStart(16, '0'),
    name: `s${n}`,
    kind: 'tool',
    thread_id: 't',
    run_id: 'r',
    start_ms: 1000 + n,
    end_ms: 1001 + n,
    status: { code: 'OK' },
    attributes: { output_preview: 'secret', output_length: 6 },
    events: [],
    ...extra,
  };
}

const stubs: Stub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});

describe('OTLP HTTP exporter', () => {
  it('batches queued spans into POSTs of OTLP JSON to /v1/traces with custom headers, redacting content', async () => {
    const stub = await stubCollector();
    stubs.push(stub);
    const exp = createOtlpHttpExporter({ endpoint: `${stub.url}/`, headers: { authorization: 'Basic x' }, captureContent: false, batchSize: 3, flushMs: 60_000 });
    for (let i = 0; i < 7; i++) exp.enqueue(span());
    await exp.flush();
    expect(stub.requests.map((r) => r.body.resourceSpans[0].scopeSpans[0].spans.length)).toEqual([3, 3, 1]);
    expect(stub.requests[0].path).toBe('/v1/traces');
    expect(stub.requests[0].headers['content-type']).toBe('application/json');
    expect(stub.requests[0].headers.authorization).toBe('Basic x');
    const keys = stub.requests[0].body.resourceSpans[0].scopeSpans[0].spans[0].attributes.map((a) => a.key);
    expect(keys).toContain('output_length');
    expect(keys).not.toContain('output_preview');
    expect(exp.stats()).toMatchObject({ sent: 7, dropped: 0, failed: 0, queued: 0 });
    await exp.shutdown();
  });

  it('keeps the queue bounded: drops the oldest spans and counts them; ignores open spans', async () => {
    const stub = await stubCollector();
    stubs.push(stub);
    const exp = createOtlpHttpExporter({ endpoint: stub.url, captureContent: true, batchSize: 100, maxQueue: 5, flushMs: 60_000 });
    const all = Array.from({ length: 8 }, () => span());
    for (const s of all) exp.enqueue(s);
    exp.enqueue(span({ end_ms: undefined }));
    expect(exp.stats()).toMatchObject({ dropped: 3, queued: 5 });
    await exp.flush();
    const sent = stub.requests.flatMap((r) => r.body.resourceSpans[0].scopeSpans[0].spans.map((s) => s.name));
    expect(sent).toEqual(all.slice(3).map((s) => s.name));
    await exp.shutdown();
    exp.enqueue(span());
    expect(exp.stats().dropped).toBe(4);
  });

  it('retries 503 and 429 honouring Retry-After, then succeeds', async () => {
    const stub = await stubCollector([
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 429, headers: { 'retry-after': '0' } },
    ]);
    stubs.push(stub);
    const exp = createOtlpHttpExporter({ endpoint: stub.url, captureContent: false, retryBaseMs: 60_000, flushMs: 60_000 });
    exp.enqueue(span());
    await exp.flush(); // would take a minute if Retry-After: 0 were ignored
    expect(stub.requests).toHaveLength(3);
    expect(exp.stats()).toMatchObject({ sent: 1, failed: 0 });
    await exp.shutdown();
  });

  it('gives up after maxRetries and does not retry a 415, explaining it', async () => {
    const stub = await stubCollector([{ status: 500 }, { status: 500 }, { status: 415 }]);
    stubs.push(stub);
    const exp = createOtlpHttpExporter({ endpoint: stub.url, captureContent: false, maxRetries: 1, retryBaseMs: 1, flushMs: 60_000 });
    exp.enqueue(span());
    await exp.flush();
    expect(stub.requests).toHaveLength(2);
    expect(exp.stats()).toMatchObject({ sent: 0, failed: 1, lastError: 'HTTP 500' });
    exp.enqueue(span());
    await exp.flush();
    expect(stub.requests).toHaveLength(3);
    expect(exp.stats().failed).toBe(2);
    expect(exp.stats().lastError).toMatch(/415.*protobuf/);
    await exp.shutdown();
  });

  it('never blocks or throws in enqueue, even when the endpoint is unreachable', async () => {
    const exp = createOtlpHttpExporter({ endpoint: 'http://127.0.0.1:1', captureContent: false, maxRetries: 0, flushMs: 60_000 });
    expect(() => exp.enqueue(span())).not.toThrow();
    await expect(exp.flush()).resolves.toBeUndefined();
    expect(exp.stats()).toMatchObject({ failed: 1 });
    expect(exp.stats().lastError).toBeTruthy();
    await exp.shutdown();
  });

  it('sends a full batch on its own, without waiting for the timer', async () => {
    const stub = await stubCollector();
    stubs.push(stub);
    const exp = createOtlpHttpExporter({ endpoint: stub.url, captureContent: false, batchSize: 2, flushMs: 60_000 });
    exp.enqueue(span());
    exp.enqueue(span());
    await expect.poll(() => exp.stats().sent, { timeout: 5000 }).toBe(2);
    await exp.shutdown();
  });

  it('parses Retry-After seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('exporterFromSettings', () => {
  it('is undefined without an endpoint and rejects non-http endpoints', async () => {
    const { exporterFromSettings } = await import('../../../src/main/tracing/exporter-settings.ts');
    expect(exporterFromSettings({ capture_content: false })).toBeUndefined();
    expect(() => exporterFromSettings({ capture_content: false, otlp_endpoint: 'ftp://x' })).toThrow(/must be http/);
    expect(() => exporterFromSettings({ capture_content: false, otlp_endpoint: 'not a url' })).toThrow(/not a URL/);
    const stub = await stubCollector();
    stubs.push(stub);
    const exp = exporterFromSettings({ capture_content: true, otlp_endpoint: stub.url, otlp_headers: { 'x-langfuse-ingestion-version': '4' } }, { flushMs: 60_000 })!;
    exp.enqueue(span());
    await exp.flush();
    expect(stub.requests[0].headers['x-langfuse-ingestion-version']).toBe('4');
    expect(stub.requests[0].body.resourceSpans[0].scopeSpans[0].spans[0].attributes.map((a) => a.key)).toContain('output_preview');
    await exp.shutdown();
  });
});
