/** The demo MCP server (test/fixtures/mcp/demo-server.mjs) over Streamable HTTP, as a child process on port 0. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

export const DEMO_MCP_SERVER = resolve(import.meta.dirname, '../fixtures/mcp/demo-server.mjs');

export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

export async function startMcpHttpServer(): Promise<McpHttpServer> {
  const child = spawn(process.execPath, [DEMO_MCP_SERVER, '--http'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const port = await new Promise<number>((done, fail) => {
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) done(Number(m[1]));
    });
    child.once('exit', (code) => fail(new Error(`demo MCP server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      if (child.exitCode !== null) return;
      child.kill();
      await once(child, 'exit');
    },
  };
}
