/**
 * A scripted OpenAI-compatible endpoint that times the client from the outside: it answers each chat
 * request with one `read_file` call (SSE, as the fake server streams it) until `rounds` calls were
 * made, then with "done", and records when each request arrived and when each response ended
 * (`performance.now()` in this process). The client gap of a round is the time from the end of one
 * response to the arrival of the next request: the client's stream handling, the tool, hooks, the
 * store and building the next request — everything the model does not do.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildChunks } from '../../test/helpers/fake-openai-script.ts';
import { READ_PATH } from './workspace-files.ts';

export interface GapServer {
  baseURL: string;
  /** Starts a new run: `rounds` answers calling `tool` (default `read_file`), then text. */
  reset(rounds: number, tool?: string): void;
  /** Gaps (ms) between each response's end and the next request's arrival, in order. */
  gaps(): number[];
  requests(): number;
  /** TCP connections opened since the last reset (1 when the client keeps its connection alive). */
  connections(): number;
  /** Size of the last request's body. */
  lastRequestBytes(): number;
  close(): Promise<void>;
}

export async function startGapServer(): Promise<GapServer> {
  let rounds = 0;
  let toolName = 'read_file';
  let arrivals: number[] = [];
  let ends: number[] = [];
  let lastBytes = 0;
  const server = createServer((req, res) => {
    const arrived = performance.now();
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object":"list","data":[{"id":"fake-model","object":"model"}]}');
      return;
    }
    let bytes = 0;
    req.on('data', (d: Buffer) => (bytes += d.length));
    req.on('end', () => {
      lastBytes = bytes;
      arrivals.push(arrived);
      const n = arrivals.length;
      const turn =
        n <= rounds
          ? { toolCalls: [{ id: `call_${n}`, name: toolName, args: { path: READ_PATH } }] }
          : { text: 'done' };
      const chunks = buildChunks(turn, { model: 'fake-model', id: `c${n}`, withUsage: true });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(
        `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`,
        () => ends.push(performance.now()),
      );
    });
  });
  let connections = 0;
  server.on('connection', () => void connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    reset(r, tool = 'read_file') {
      rounds = r;
      toolName = tool;
      connections = 0;
      arrivals = [];
      ends = [];
    },
    gaps: () => ends.slice(0, arrivals.length - 1).map((end, i) => arrivals[i + 1]! - end),
    requests: () => arrivals.length,
    lastRequestBytes: () => lastBytes,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
