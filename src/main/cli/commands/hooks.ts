/**
 * `workbench hooks list|runs|test|replay`: what hooks the pipeline has, how their last runs went, what
 * they did, trying one by hand, and replaying one on the recorded tool calls of past threads.
 * Everything goes through the Workbench's hooks service, the same one the Hooks panel uses.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { HookInfo, HookReplayRow, HookRunRecord } from '../../../shared/types/index.ts';
import type { Workbench } from '../../api/types.ts';
import { isRecord } from '../../user-hooks/json-output.ts';
import { parse, positiveInt } from '../args.ts';
import { withWorkbench } from '../open-workbench.ts';
import { UsageError, type CliCommand, type CliIo } from '../types.ts';

/** The last runs' outcomes, newest first (`ok,error,ok`), `-` for a hook never run. */
function formatHealth(i: HookInfo): string {
  if (i.dialect === 'builtin') return '';
  return i.health?.last.length ? i.health.last.join(',') : '-';
}

function formatInfo(i: HookInfo): string {
  const state = !i.enabled ? 'off' : !i.trusted ? 'untrusted' : i.problem ? 'problem' : 'on';
  const health = formatHealth(i);
  const what = [
    i.events.join(',') || '?',
    i.matcher ? `[${i.matcher}]` : '',
    i.condition ? `if ${i.condition}` : '',
    i.agent ? `(agent ${i.agent})` : '',
    i.skill ? `(skill ${i.skill}${i.once ? ', once' : ''})` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const where = `${i.path ?? i.command ?? ''}${i.sandboxed ? ' (sandboxed)' : ''}${i.persistent ? ' (persistent)' : ''}`;
  const lastError = i.health?.last_error
    ? `\n        last error: ${i.health.last_error.slice(0, 160)}`
    : '';
  return `${state.padEnd(10)}${i.source.padEnd(16)}${i.name.padEnd(28)} ${what.padEnd(30)} ${health.padEnd(26)}${where}${i.problem ? `\n        ! ${i.problem}` : ''}${i.dialect !== 'builtin' ? `\n        id: ${i.id}${i.fail_mode === 'closed' ? '  (fail-closed)' : ''}` : ''}${lastError}`;
}

function formatRun(r: HookRunRecord): string {
  const end = r.timed_out ? 'timeout' : r.signal ? r.signal : `exit ${r.exit_code}`;
  const when = new Date(r.started_at).toISOString().slice(0, 19).replace('T', ' ');
  return `${when}  ${r.event.padEnd(20)}${r.hook_name.padEnd(28)}${end.padEnd(10)}${String(r.duration_ms).padStart(6)} ms  ${r.decision}${r.reason ? `: ${r.reason.slice(0, 80)}` : ''}${r.error ? `  (${r.error.slice(0, 80)})` : ''}`;
}

function formatReplayRow(r: HookReplayRow): string {
  const args = JSON.stringify(r.args);
  return `${r.verdict.padEnd(8)} ${r.thread_id.slice(0, 12).padEnd(13)}${r.tool.padEnd(12)} ${args.length > 70 ? `${args.slice(0, 69)}…` : args.padEnd(70)}${r.reason ? `  ${r.reason.slice(0, 120)}` : ''}`;
}

interface TestOptions {
  name: string;
  event?: string;
  payloadFile?: string;
  workspace: string;
  trust: boolean;
}

async function hooksTest(wb: Workbench, o: TestOptions, io: CliIo): Promise<number> {
  const custom = o.payloadFile
    ? (JSON.parse(await readFile(resolve(io.cwd, o.payloadFile), 'utf8')) as unknown)
    : undefined;
  if (custom !== undefined && !isRecord(custom))
    throw new UsageError('--payload must hold one JSON object');
  const { hooks } = await wb.hooks.list({ workspace: o.workspace, trust: o.trust });
  const target = hooks.find(
    (h) => h.dialect !== 'builtin' && (h.name === o.name || h.id === o.name),
  );
  if (!target) {
    io.stderr(`workbench hooks: no hook named "${o.name}" (see workbench hooks list)\n`);
    return 1;
  }
  if (!target.trusted) {
    io.stderr(
      `workbench hooks: ${o.name} comes from an untrusted workspace; run "workbench trust ${o.workspace}" (or add --trust)\n`,
    );
    return 1;
  }
  if (target.dialect === 'executable' && target.problem) io.stderr(`warning: ${target.problem}\n`);
  const r = await wb.hooks.test({
    workspace: o.workspace,
    id: target.id,
    event: o.event,
    payload: custom !== undefined ? JSON.stringify(custom) : undefined,
    trust: o.trust,
  });
  io.stdout(`hook:      ${o.name} (${target.id})\n`);
  io.stdout(
    `exit code: ${r.exitCode ?? '-'}${r.signal ? `  signal: ${r.signal}` : ''}${r.timedOut ? '  (timed out)' : ''}\n`,
  );
  io.stdout(`duration:  ${r.durationMs} ms\n`);
  if (r.error) io.stdout(`error:     ${r.error}\n`);
  io.stdout(
    `stdout (${r.stdoutBytes} bytes${r.stdoutTruncated ? ', truncated' : ''}):\n${r.stdout}${r.stdout.endsWith('\n') || !r.stdout ? '' : '\n'}`,
  );
  io.stdout(
    `stderr (${r.stderrBytes} bytes${r.stderrTruncated ? ', truncated' : ''}):\n${r.stderr}${r.stderr.endsWith('\n') || !r.stderr ? '' : '\n'}`,
  );
  io.stdout(`read as:   ${r.readAs}\n`);
  return r.readError ? 1 : 0;
}

/** The user hook named `name` (or with that id), or undefined after saying so on stderr. */
async function findUserHook(
  wb: Workbench,
  name: string,
  workspace: string,
  trust: boolean,
  io: CliIo,
): Promise<HookInfo | undefined> {
  const { hooks } = await wb.hooks.list({ workspace, trust });
  const target = hooks.find((h) => h.dialect !== 'builtin' && (h.name === name || h.id === name));
  if (!target) io.stderr(`workbench hooks: no hook named "${name}" (see workbench hooks list)\n`);
  else if (!target.trusted)
    io.stderr(
      `workbench hooks: ${name} comes from an untrusted workspace; run "workbench trust ${workspace}" (or add --trust)\n`,
    );
  return target?.trusted ? target : undefined;
}

interface ReplayOptions {
  name: string;
  event?: string;
  threadId?: string;
  last?: number;
  workspace: string;
  trust: boolean;
  json: boolean;
}

async function hooksReplay(wb: Workbench, o: ReplayOptions, io: CliIo): Promise<number> {
  const target = await findUserHook(wb, o.name, o.workspace, o.trust, io);
  if (!target) return 1;
  const rows = await wb.hooks.replay({
    workspace: o.workspace,
    id: target.id,
    event: o.event,
    threadId: o.threadId,
    last: o.last,
    trust: o.trust,
  });
  if (o.json) {
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const count = (v: HookReplayRow['verdict']) => rows.filter((r) => r.verdict === v).length;
  io.stdout(
    `dry run of ${target.name} (${target.id}) over ${rows.length} recorded call${rows.length === 1 ? '' : 's'}; nothing was applied\n`,
  );
  if (rows.length) io.stdout(`${rows.map(formatReplayRow).join('\n')}\n`);
  io.stdout(
    `would block ${count('block')}, change ${count('rewrite')}, allow ${count('allow')}; failed on ${count('error')}\n`,
  );
  return 0;
}

/** `workbench hooks …`. Contract: exit 0 ok, 1 no such hook / untrusted / unreadable answer, 2 bad usage. */
export const hooksCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(rest, {
    workspace: { type: 'string' },
    json: { type: 'boolean' },
    limit: { type: 'string' },
    event: { type: 'string' },
    payload: { type: 'string' },
    trust: { type: 'boolean' },
    thread: { type: 'string' },
    last: { type: 'string' },
  });
  if (sub !== 'list' && sub !== 'runs' && sub !== 'test' && sub !== 'replay') {
    throw new UsageError(
      'expected "hooks list", "hooks runs", "hooks test NAME --event EVENT" or "hooks replay NAME [--thread ID | --last N]"',
    );
  }
  const name = positionals[0];
  if ((sub === 'test' || sub === 'replay') && !name)
    throw new UsageError(`hooks ${sub} needs a NAME (or id) from "workbench hooks list"`);
  if (values.thread && values.last) throw new UsageError('use --thread ID or --last N, not both');
  const last = positiveInt(values.last, '--last');
  const limit = positiveInt(values.limit, '--limit') ?? 20;
  const workspace = resolve(io.cwd, values.workspace ?? '.');
  const trust = Boolean(values.trust);
  return withWorkbench(io, { workspace }, async (wb) => {
    if (sub === 'runs') {
      const runs = wb.hooks.runs({ limit });
      if (values.json) io.stdout(`${JSON.stringify(runs, null, 2)}\n`);
      else io.stdout(runs.length ? `${runs.map(formatRun).join('\n')}\n` : 'no hook runs yet\n');
      return 0;
    }
    if (sub === 'replay')
      return hooksReplay(
        wb,
        {
          name: name!,
          event: values.event,
          threadId: values.thread,
          last,
          workspace,
          trust,
          json: Boolean(values.json),
        },
        io,
      );
    if (sub === 'test')
      return hooksTest(
        wb,
        { name: name!, event: values.event, payloadFile: values.payload, workspace, trust },
        io,
      );
    const listing = await wb.hooks.list({ workspace, trust });
    if (values.json) io.stdout(`${JSON.stringify(listing.hooks, null, 2)}\n`);
    else {
      if (!listing.trusted && listing.hooks.some((h) => !h.trusted))
        io.stdout(`workspace not trusted: its hooks will not run (workbench trust ${workspace})\n`);
      if (listing.disableAllHooks) io.stdout('disableAllHooks is on: no user hook runs\n');
      io.stdout(
        listing.hooks.length ? `${listing.hooks.map(formatInfo).join('\n')}\n` : 'no hooks\n',
      );
    }
    return 0;
  });
};
