/**
 * Runs the fake OpenAI server as a process (Playwright webServer, screenshots, manual runs):
 *   node test/helpers/fake-openai-cli.ts [--port N] [--script file.json] [--api-key KEY]
 * The script file is either an array of turns or `{script?, rules?: [{match, flags?, turns}], models?, apiKey?}`.
 * Prints `FAKE_OPENAI_URL=http://127.0.0.1:N/v1` on stdout and serves until SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFakeOpenAi } from './fake-openai-server.ts';
import type { FakeOpenAiOptions } from './fake-openai-server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    script: { type: 'string' },
    'api-key': { type: 'string' },
  },
});

let opts: FakeOpenAiOptions = {};
if (values.script) {
  const parsed = JSON.parse(readFileSync(values.script, 'utf8')) as unknown;
  opts = Array.isArray(parsed) ? { script: parsed } : (parsed as FakeOpenAiOptions);
}
if (values['api-key']) opts.apiKey = values['api-key'];
opts.port = Number(values.port);

const server = await startFakeOpenAi(opts);
process.stdout.write(`FAKE_OPENAI_URL=${server.baseURL}\n`);

const stop = () => {
  // close() waits for idle keep-alive sockets to go; never let that keep a stopped fake alive.
  setTimeout(() => process.exit(0), 500).unref();
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
