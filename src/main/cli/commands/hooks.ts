/**
 * `workbench hooks list|runs|test`: what hooks the pipeline has, what they did, and trying one by hand.
 * Built-in hooks come from a provider (the pipeline factory's `builtinHookInfos` by default).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { HookInfo, HookRunRecord, WorkbenchSettings } from '../../../shared/types/index.ts';
import { loadClaudeHooks } from '../../user-hooks/claude-config.ts';
import { isRecord } from '../../user-hooks/json-output.ts';
import { listUserHooks } from '../../user-hooks/list.ts';
import { defaultEvent, runHookTest, samplePayload, type TestTarget } from '../../user-hooks/hook-test.ts';
import { discoverSeedHooks } from '../../user-hooks/executable-discovery.ts';
import { createTrustStore } from '../../user-hooks/trust-store.ts';
import { createSettingsStore } from '../../store/settings-store.ts';
import { homePaths, resolveHome } from '../../store/paths.ts';
import type { Database } from '../../store/types.ts';
import { parse, positiveInt } from '../args.ts';
import { UsageError, type CliCommand, type CliIo } from '../types.ts';

/** Built-in hooks in pipeline order; the entry named `user-hooks` marks where user hooks go. */
export type BuiltinHookProvider = (settings: WorkbenchSettings) => HookInfo[] | Promise<HookInfo[]>;

/** Default provider: the pipeline factory's list, loaded lazily; none if it cannot load. */
const defaultBuiltins: BuiltinHookProvider = async (settings) => {
  try {
    const mod = (await import('../../api/build-pipeline.ts')) as { builtinHookInfos?: (s: WorkbenchSettings) => HookInfo[] };
    return mod.builtinHookInfos?.(settings) ?? [];
  } catch {
    return [];
  }
};

async function openDb(home: string): Promise<Database> {
  // Lazy: `hooks list` and `hooks test` need no database.
  const { openDatabase } = await import('../../store/index.ts');
  return openDatabase(homePaths(home).db);
}

/** Every hook in pipeline order: built-ins with the user hooks in place of the `user-hooks` entry. */
export function pipelineOrder(builtins: HookInfo[], user: HookInfo[]): HookInfo[] {
  const at = builtins.findIndex((b) => b.name === 'user-hooks');
  if (at < 0) return [...builtins, ...user];
  return [...builtins.slice(0, at + 1), ...user, ...builtins.slice(at + 1)];
}

function formatInfo(i: HookInfo): string {
  const state = !i.enabled ? 'off' : !i.trusted ? 'untrusted' : i.problem ? 'problem' : 'on';
  const what = [i.events.join(',') || '?', i.matcher ? `[${i.matcher}]` : ''].filter(Boolean).join(' ');
  const where = i.path ?? i.command ?? '';
  return `${state.padEnd(10)}${i.source.padEnd(16)}${i.name.padEnd(28)} ${what.padEnd(30)} ${where}${i.problem ? `\n        ! ${i.problem}` : ''}${i.dialect !== 'builtin' ? `\n        id: ${i.id}` : ''}`;
}

function formatRun(r: HookRunRecord): string {
  const end = r.timed_out ? 'timeout' : r.signal ? r.signal : `exit ${r.exit_code}`;
  const when = new Date(r.started_at).toISOString().slice(0, 19).replace('T', ' ');
  return `${when}  ${r.event.padEnd(20)}${r.hook_name.padEnd(28)}${end.padEnd(10)}${String(r.duration_ms).padStart(6)} ms  ${r.decision}${r.reason ? `: ${r.reason.slice(0, 80)}` : ''}${r.error ? `  (${r.error.slice(0, 80)})` : ''}`;
}

async function hooksTest(name: string, event: string | undefined, payloadFile: string | undefined, ws: string, home: string, settings: WorkbenchSettings, trusted: boolean, io: CliIo): Promise<number> {
  const custom = payloadFile ? (JSON.parse(await readFile(resolve(io.cwd, payloadFile), 'utf8')) as unknown) : undefined;
  if (custom !== undefined && !isRecord(custom)) throw new UsageError('--payload must hold one JSON object');
  const seed = (await discoverSeedHooks({ workspace: ws, home, trusted })).filter((e) => e.name === name || e.id === name);
  const claude = (await loadClaudeHooks({ workspace: ws, home, trusted, settings })).handlers.filter((h) => (h.name === name || h.id === name) && !h.problem);
  const target = seed[0] ?? claude[0];
  if (!target) {
    io.stderr(`workbench hooks: no hook named "${name}" (see workbench hooks list)\n`);
    return 1;
  }
  if (!target.trusted) {
    io.stderr(`workbench hooks: ${name} comes from an untrusted workspace; run "workbench trust ${ws}" (or add --trust)\n`);
    return 1;
  }
  const t: TestTarget = seed[0] ? { dialect: 'seed', entry: seed[0] } : { dialect: 'claude', handler: claude[0] };
  if (t.dialect === 'seed' && t.entry.problem) io.stderr(`warning: ${t.entry.problem}\n`);
  const ev = event ?? defaultEvent(t);
  if (!ev) throw new UsageError(`--event is required: ${name} did not tell its type`);
  const payload = custom !== undefined ? JSON.stringify(custom) : samplePayload(t, ev, ws);
  let db: Database | undefined;
  try {
    db = await openDb(home);
  } catch {
    db = undefined;
  }
  let r;
  try {
    r = await runHookTest(t, { event: ev, payload, workspace: ws, settings, hookRuns: db?.hookRuns });
  } finally {
    db?.close();
  }
  io.stdout(`hook:      ${name} (${target.id})\n`);
  io.stdout(`exit code: ${r.exitCode ?? '-'}${r.signal ? `  signal: ${r.signal}` : ''}${r.timedOut ? '  (timed out)' : ''}\n`);
  io.stdout(`duration:  ${r.durationMs} ms\n`);
  if (r.error) io.stdout(`error:     ${r.error}\n`);
  io.stdout(`stdout (${r.stdoutBytes} bytes${r.stdoutTruncated ? ', truncated' : ''}):\n${r.stdout}${r.stdout.endsWith('\n') || !r.stdout ? '' : '\n'}`);
  io.stdout(`stderr (${r.stderrBytes} bytes${r.stderrTruncated ? ', truncated' : ''}):\n${r.stderr}${r.stderr.endsWith('\n') || !r.stderr ? '' : '\n'}`);
  io.stdout(`read as:   ${r.readAs}\n`);
  return r.readError ? 1 : 0;
}

/** Builds the `hooks` command; `builtins` supplies the built-in part of `hooks list`. */
export function createHooksCommand(opts: { builtins?: BuiltinHookProvider } = {}): CliCommand {
  const builtins = opts.builtins ?? defaultBuiltins;
  return async (argv, io) => {
    const [sub, ...rest] = argv;
    const { values, positionals } = parse(rest, {
      workspace: { type: 'string' },
      json: { type: 'boolean' },
      limit: { type: 'string' },
      event: { type: 'string' },
      payload: { type: 'string' },
      trust: { type: 'boolean' },
    });
    const home = resolveHome(io.env);
    const ws = resolve(io.cwd, values.workspace ?? '.');
    const settings = createSettingsStore(home).get();
    const trusted = Boolean(values.trust) || createTrustStore(home).isTrusted(ws);
    if (sub === 'list') {
      const user = await listUserHooks({ workspace: ws, home, settings, trusted });
      const all = pipelineOrder(await builtins(settings), user);
      if (values.json) io.stdout(`${JSON.stringify(all, null, 2)}\n`);
      else {
        if (!trusted && user.some((u) => !u.trusted)) io.stdout(`workspace not trusted: its hooks will not run (workbench trust ${ws})\n`);
        if (settings.disableAllHooks) io.stdout('disableAllHooks is on: no user hook runs\n');
        io.stdout(all.length ? `${all.map(formatInfo).join('\n')}\n` : 'no hooks\n');
      }
      return 0;
    }
    if (sub === 'runs') {
      const db = await openDb(home);
      try {
        const runs = db.hookRuns.recent({ limit: positiveInt(values.limit, '--limit') ?? 20 });
        if (values.json) io.stdout(`${JSON.stringify(runs, null, 2)}\n`);
        else io.stdout(runs.length ? `${runs.map(formatRun).join('\n')}\n` : 'no hook runs yet\n');
      } finally {
        db.close();
      }
      return 0;
    }
    if (sub === 'test') {
      const name = positionals[0];
      if (!name) throw new UsageError('hooks test needs a NAME (or id) from "workbench hooks list"');
      return hooksTest(name, values.event, values.payload, ws, home, settings, trusted, io);
    }
    throw new UsageError('expected "hooks list", "hooks runs" or "hooks test NAME --event EVENT"');
  };
}

/** `workbench hooks …` with the default built-in provider. */
export const hooksCommand: CliCommand = createHooksCommand();
