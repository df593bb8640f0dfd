/**
 * `workbench serve [--host 127.0.0.1] [--port N] [--workspace DIR]`: the renderer in a browser,
 * talking to the core over an authenticated loopback socket. Runs until SIGINT/SIGTERM.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createWorkbench } from '../../api/workbench.ts';
import { resolveHome } from '../../store/paths.ts';
import { startServer } from '../../server/server.ts';
import { createFileSecrets } from '../../server/secrets-file.ts';
import { packageRoot } from '../../package-root.ts';
import { parse } from '../args.ts';
import { UsageError, type CliCommand } from '../types.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const repoRoot = packageRoot();

function version(): string {
  try {
    return (JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** The `serve` command module. */
export const serveCommand: CliCommand = async (argv, io) => {
  const { values } = parse(argv, {
    host: { type: 'string' },
    port: { type: 'string' },
    workspace: { type: 'string' },
    'renderer-dir': { type: 'string' },
  });
  const host = values.host ?? '127.0.0.1';
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port needs 0..65535, got "${values.port}"`);
  const rendererDir = resolve(io.cwd, values['renderer-dir'] ?? resolve(repoRoot, 'out/renderer'));
  if (!existsSync(resolve(rendererDir, 'index.html'))) {
    io.stderr(`workbench serve: no built renderer in ${rendererDir}; run \`npm run build\` first (or \`npm run serve\`)\n`);
    return 1;
  }
  if (!LOOPBACK.has(host)) {
    io.stderr(`workbench serve: WARNING: listening on ${host} exposes the agent (files, commands) to the network; anyone with the URL's token can use it\n`);
  }
  const home = resolveHome(io.env);
  const secrets = createFileSecrets(home, io.env.OPENAI_API_KEY || undefined);
  // A workspace that is not a folder rejects with a WorkbenchError: main() exits 2 with its message.
  const workbench = await createWorkbench({
    home,
    workspace: resolve(io.cwd, values.workspace ?? '.'),
    apiKey: secrets.get(),
    baseURL: io.env.OPENAI_BASE_URL || undefined,
    model: io.env.WORKBENCH_MODEL || undefined,
    followFeed: true,
    env: io.env,
  });
  const server = await startServer({
    workbench,
    host,
    port,
    rendererDir,
    secrets,
    version: version(),
    envOverrides: { baseURL: io.env.OPENAI_BASE_URL || undefined, model: io.env.WORKBENCH_MODEL || undefined },
  });
  io.stdout(`Workbench is serving ${workbench.workspace}\nOpen this URL (it carries the access token):\n  ${server.url}\n`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  await workbench.close();
  return 0;
};
