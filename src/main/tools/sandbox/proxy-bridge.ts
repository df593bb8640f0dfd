/**
 * The bridge a proxied sandbox starts ahead of the command (domain-proxy.ts): inside the sandbox's
 * own network namespace it listens on its loopback, relays each connection to the workbench's proxy
 * socket bound into the sandbox, runs the command and ends with its exit status. It is a Node script
 * given to `node -e`, so it needs no file of ours in the sandbox (a packaged app has no sources).
 */
import { which } from './detect.ts';

/** The bridge; its arguments are `SOCKET PORT PROGRAM [ARGS...]`. CommonJS, as `node -e` runs it. */
const BRIDGE_SOURCE = `
const { spawn } = require('node:child_process');
const net = require('node:net');
const os = require('node:os');
const [socketPath, port, program, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  const drop = () => { client.destroy(); upstream.destroy(); };
  client.on('error', drop);
  upstream.on('error', drop);
  client.pipe(upstream);
  upstream.pipe(client);
});
server.on('error', (err) => {
  process.stderr.write('workbench sandbox: the network proxy could not start: ' + err.message + '\\n');
  process.exit(126);
});
server.listen(Number(port), '127.0.0.1', () => {
  const { ELECTRON_RUN_AS_NODE, ...env } = process.env;
  const child = spawn(program, args, { stdio: 'inherit', env });
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('error', (err) => {
    process.stderr.write('workbench sandbox: ' + program + ': ' + err.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
});
`;

/**
 * The Node that runs the bridge: the workbench's own, or, in the desktop app (Electron, which does
 * not run as Node), the first `node` on PATH; undefined when there is none.
 */
export function bridgeNode(): string | undefined {
  return process.versions.electron ? which('node') : process.execPath;
}

/** The bridge's command line before its arguments. */
export function bridgeCommand(node: string): string[] {
  return [node, '-e', BRIDGE_SOURCE, '--'];
}
