/** Runs the real `workbench` CLI as a child process with a sandboxed home. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { StreamEvent } from '../../src/shared/types/index.ts';

export const BIN = resolve(import.meta.dirname, '../../bin/workbench.mjs');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliEnv {
  home: string;
  workspace: string;
  baseURL?: string;
  extra?: Record<string, string>;
}

/** A fresh WORKBENCH_HOME and workspace folder (real paths). */
export async function sandbox(): Promise<{ home: string; workspace: string }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'wb-')));
  const home = join(root, 'home');
  const workspace = join(root, 'ws');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(home);
  await mkdir(workspace);
  return { home, workspace };
}

/**
 * Turns the command sandbox off in `home`'s settings, for tests of what holds without it (the
 * sandbox has its own tests, and its PID namespace would hide what these tests look for).
 */
export async function withoutSandbox(home: string): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(
    join(home, 'settings.json'),
    JSON.stringify({ sandbox: { mode: 'off', network: false } }),
  );
}

export function cliEnv(env: CliEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: env.home,
    WORKBENCH_HOME: env.home,
    OPENAI_API_KEY: 'sk-test-key',
    ...(env.baseURL ? { OPENAI_BASE_URL: env.baseURL } : {}),
    WORKBENCH_MODEL: 'fake-model',
    ...env.extra,
  };
}

export function spawnCli(args: string[], env: CliEnv): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: env.workspace,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function runCli(args: string[], env: CliEnv, timeoutMs = 30_000): Promise<CliResult> {
  const child = spawnCli(args, env);
  return collect(child, timeoutMs);
}

export function collect(child: ChildProcess, timeoutMs = 30_000): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`CLI timed out after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

/** Parses `--json` output: one StreamEvent per line. */
export function events(stdout: string): StreamEvent[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l): StreamEvent => JSON.parse(l));
}
