/**
 * Starts the e2e stack as child processes: the fake OpenAI server and `workbench serve` over a temp
 * WORKBENCH_HOME (settings pointing at the fake) and a temp workspace. Used by global-setup and the
 * screenshot script.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface Stack {
  url: string;
  origin: string;
  token: string;
  fakeURL: string;
  home: string;
  workspace: string;
  stop(): Promise<void>;
}

const root = resolve(import.meta.dirname, '../..');
const node = join(root, 'node_modules', '.bin', 'node');

function startProcess(args: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((resolveStart, reject) => {
    const child = spawn(node, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`timed out starting ${args.join(' ')}\n${out}\n${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = out.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolveStart({ child, match });
      }
    });
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (process.env.E2E_DEBUG) process.stderr.write(d);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}\n${out}\n${err}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(t);
      done();
    });
    child.kill('SIGTERM');
  });
}

/** Starts fake LLM + serve; `settings` are merged into the temp home's settings.json. */
export async function startStack(settings: Record<string, unknown> = {}): Promise<Stack> {
  const base = mkdtempSync(join(tmpdir(), 'wb-e2e-'));
  const home = join(base, 'home');
  const workspace = join(base, 'workspace');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'README.md'), '# Demo project\n\nA small workspace for the e2e tests.\n');
  writeFileSync(join(workspace, 'index.js'), 'console.log("hello");\n');
  writeFileSync(join(workspace, 'long.txt'), Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  const fake = await startProcess(['test/helpers/fake-openai-cli.ts', '--port', '0'], {}, /FAKE_OPENAI_URL=(\S+)/);
  const fakeURL = fake.match[1]!;
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ provider: { preset: 'custom', base_url: fakeURL, model: 'fake-model' }, ...settings }, null, 2),
  );
  const env = { WORKBENCH_HOME: home, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', WORKBENCH_MODEL: '' };
  let serve;
  try {
    serve = await startProcess(['bin/workbench.mjs', 'serve', '--port', '0', '--workspace', workspace], env, /(http:\/\/127\.0\.0\.1:\d+)\/\?token=([0-9a-f]{64})/);
  } catch (err) {
    await stopProcess(fake.child);
    throw err;
  }
  const [url, origin, token] = [serve.match[0], serve.match[1]!, serve.match[2]!];
  return {
    url,
    origin,
    token,
    fakeURL,
    home,
    workspace,
    async stop() {
      await Promise.all([stopProcess(serve.child), stopProcess(fake.child)]);
    },
  };
}
