/**
 * The hooks panel's service: every hook in pipeline order with its state, on/off per hook (an
 * executable by its `.disable` name, the rest through settings.hook_overrides), fail mode and timeout,
 * "disable all user hooks", recent runs, "Test" with a sample or edited payload, and new hooks from
 * templates (chmod 755), each hook's health (its last runs) and replay against recorded tool calls.
 */
import { chmod, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  HookListing,
  HookScript,
  HookScriptWrite,
  HookTestResult,
} from '../../../shared/ipc/contract.ts';
import type { HookInfo, HookReplayRow, HookRunRecord } from '../../../shared/types/index.ts';
import {
  discoverExecutableHooks,
  listUserHooks,
  loadClaudeHooks,
  pipelineOrder,
  setExecutableHookEnabled,
  type ClaudeHandler,
} from '../../user-hooks/index.ts';
import { CLAUDE_EVENTS, EXECUTABLE_EVENTS } from '../../user-hooks/index.ts';
import { HOOK_TEMPLATES, hookTemplate, type HookTemplateId } from '../../user-hooks/templates.ts';
import { writeFileAtomic } from '../../fs/atomic-write.ts';
import { ALWAYS_ON_HOOKS, builtinHookInfos } from '../build-pipeline.ts';
import {
  defaultEvent,
  runHookTest,
  samplePayload,
  type TestTarget,
} from '../../user-hooks/hook-test.ts';
import { recordedCalls, replayHook } from '../../user-hooks/replay.ts';
import { endHookServersOf } from '../../user-hooks/hook-server.ts';
import { scriptHookInfo } from '../../user-hooks/script-hooks/index.ts';
import { withHealth } from '../../user-hooks/list.ts';
import { loadAgentProfile } from '../../agents/profile.ts';
import { WorkbenchError, errorMessage } from '../../errors.ts';
import type { PanelDeps } from './panel-deps.ts';
import { agentHandlers } from '../../user-hooks/agent-hooks.ts';
import { skillHandlers } from '../../user-hooks/skill-hooks.ts';
import { readHookScript, writeHookScript } from './hook-script.ts';

/** `trust: true` treats the workspace as trusted for that call (`workbench hooks … --trust`). */
export interface HooksService {
  list(args: { workspace: string; trust?: boolean }): Promise<HookListing>;
  setEnabled(args: { workspace: string; id: string; enabled: boolean }): Promise<HookInfo>;
  update(args: {
    workspace: string;
    id: string;
    failMode?: 'open' | 'closed';
    timeoutMs?: number;
  }): Promise<HookInfo>;
  disableAll(args: { workspace: string; disabled: boolean }): Promise<HookListing>;
  runs(args: { hookId?: string; limit?: number }): HookRunRecord[];
  sample(args: {
    workspace: string;
    id: string;
    event?: string;
  }): Promise<{ event: string; payload: string }>;
  /** Contract: refuses built-ins and hooks of an untrusted workspace; a failing hook is a result, not an error. */
  test(args: {
    workspace: string;
    id: string;
    event?: string;
    payload?: string;
    trust?: boolean;
  }): Promise<HookTestResult>;
  /**
   * Runs the hook on the recorded tool calls of one thread, or of the workspace's `last` threads
   * (default 5), as a dry run. Contract: nothing it answers is applied and nothing is recorded.
   */
  replay(args: {
    workspace: string;
    id: string;
    event?: string;
    threadId?: string;
    last?: number;
    trust?: boolean;
  }): Promise<HookReplayRow[]>;
  create(args: {
    workspace: string;
    scope: 'user' | 'workspace';
    name: string;
    template: HookTemplateId;
  }): Promise<HookInfo>;
  /** Contract: only the script of an executable hook this workspace's pipeline lists. */
  readScript(args: { workspace: string; id: string }): Promise<HookScript>;
  /** Contract: as readScript; refuses (status conflict) when the file changed since baseVersion. */
  writeScript(args: {
    workspace: string;
    id: string;
    content: string;
    baseVersion: string;
  }): Promise<HookScriptWrite>;
}

/** Creates the hooks service. */
export function createHooksService(deps: PanelDeps): HooksService {
  const trusted = (workspace: string, trust?: boolean) =>
    Boolean(trust) || deps.trust.isTrusted(workspace);
  const all = async (workspace: string, trust?: boolean): Promise<HookInfo[]> => {
    const settings = deps.settings.get();
    const isTrusted = trusted(workspace, trust);
    const [user, { profile }] = await Promise.all([
      listUserHooks({
        workspace,
        home: deps.home,
        settings,
        trusted: isTrusted,
        hookRuns: deps.hookRuns,
      }),
      loadAgentProfile(workspace, { trusted: isTrusted }),
    ]);
    const script = scriptHookInfo({ profile, workspace, trusted: isTrusted, settings });
    const scripts =
      script && deps.hookRuns ? withHealth([script], deps.hookRuns) : script ? [script] : [];
    return pipelineOrder(builtinHookInfos(settings), [...user, ...scripts]);
  };
  const find = async (workspace: string, id: string): Promise<HookInfo> => {
    const info = (await all(workspace)).find((h) => h.id === id);
    if (!info) throw new WorkbenchError('not_found', `no hook with id ${id}`);
    return info;
  };
  const listing = async (workspace: string, trust?: boolean): Promise<HookListing> => ({
    hooks: await all(workspace, trust),
    disableAllHooks: deps.settings.get().disableAllHooks,
    workspace,
    trusted: trusted(workspace, trust),
    templates: HOOK_TEMPLATES.map((t) => ({ id: t.id, label: t.label, event: t.event })),
    events: { executable: [...EXECUTABLE_EVENTS], claude: [...CLAUDE_EVENTS] },
  });
  const override = (
    id: string,
    patch: { enabled?: boolean; fail_mode?: 'open' | 'closed'; timeout_ms?: number },
  ) =>
    deps.settings.update({
      hook_overrides: { [id]: { ...deps.settings.get().hook_overrides[id], ...patch } },
    });
  const target = async (workspace: string, id: string, trust?: boolean): Promise<TestTarget> => {
    const settings = deps.settings.get();
    const isTrusted = trusted(workspace, trust);
    const executable = (
      await discoverExecutableHooks({ workspace, home: deps.home, trusted: isTrusted, settings })
    ).find((e) => e.id === id);
    const o = { workspace, home: deps.home, trusted: isTrusted, settings };
    const runnable = (h: ClaudeHandler) => h.id === id && !h.problem;
    // An agent's handlers are looked up only when the settings' hold no such hook.
    const claude = executable
      ? undefined
      : ((await loadClaudeHooks(o)).handlers.find(runnable) ??
        (await agentHandlers(o)).map((a) => a.handler).find(runnable) ??
        (await skillHandlers(o)).find(runnable));
    if (!executable && !claude) {
      throw new WorkbenchError(
        id.startsWith('builtin:') ? 'invalid_args' : 'not_found',
        id.startsWith('builtin:')
          ? 'built-in hooks run inside the workbench and cannot be tested alone'
          : `no runnable hook with id ${id}`,
      );
    }
    if (!(executable ?? claude)!.trusted)
      throw new WorkbenchError(
        'forbidden',
        `${id} comes from an untrusted workspace; trust the workspace first`,
      );
    return executable
      ? { dialect: 'executable', entry: executable }
      : { dialect: 'claude', handler: claude! };
  };
  const eventOf = (t: TestTarget, event?: string): string => {
    const ev = event ?? defaultEvent(t);
    if (!ev)
      throw new WorkbenchError('invalid_args', 'this hook did not tell its event; choose one');
    return ev;
  };

  return {
    list: (a) => listing(a.workspace, a.trust),
    async setEnabled(a) {
      const info = await find(a.workspace, a.id);
      if (ALWAYS_ON_HOOKS.has(a.id))
        throw new WorkbenchError(
          'invalid_args',
          'approval is a safety policy and stays on (use approval mode "auto" instead)',
        );
      if (info.dialect === 'executable' && info.path) {
        await setExecutableHookEnabled(info.path, a.enabled).catch((err: unknown) => {
          throw new WorkbenchError('conflict', errorMessage(err));
        });
        const file = info.path;
        if (!a.enabled) endHookServersOf((hookFile) => hookFile === file);
        // An old settings override would keep a renamed-back hook off: clear it.
        if (a.enabled && deps.settings.get().hook_overrides[a.id]?.enabled === false)
          await override(a.id, { enabled: true });
      } else {
        await override(a.id, { enabled: a.enabled });
      }
      return find(a.workspace, a.id);
    },
    async update(a) {
      const info = await find(a.workspace, a.id);
      if (info.dialect === 'builtin')
        throw new WorkbenchError('invalid_args', 'built-in hooks have no fail mode or timeout');
      await override(a.id, {
        ...(a.failMode ? { fail_mode: a.failMode } : {}),
        ...(a.timeoutMs ? { timeout_ms: a.timeoutMs } : {}),
      });
      return find(a.workspace, a.id);
    },
    async disableAll(a) {
      await deps.settings.update({ disableAllHooks: a.disabled });
      return listing(a.workspace);
    },
    runs: (a) => deps.hookRuns?.recent({ hookId: a.hookId, limit: a.limit ?? 200 }) ?? [],
    async sample(a) {
      const t = await target(a.workspace, a.id);
      const event = eventOf(t, a.event);
      return { event, payload: samplePayload(t, event, a.workspace) };
    },
    async test(a) {
      const t = await target(a.workspace, a.id, a.trust);
      const event = eventOf(t, a.event);
      const payload = a.payload ?? samplePayload(t, event, a.workspace);
      try {
        const parsed: unknown = JSON.parse(payload);
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
          throw new Error('not an object');
      } catch {
        throw new WorkbenchError('invalid_args', 'the payload must be one JSON object');
      }
      return runHookTest(t, {
        event,
        payload,
        workspace: a.workspace,
        settings: deps.settings.get(),
        home: deps.home,
        hookRuns: deps.hookRuns,
        runner: deps.handlerRunner?.(),
      });
    },
    async replay(a) {
      const t = await target(a.workspace, a.id, a.trust);
      const threads = deps.threads;
      if (!threads) throw new WorkbenchError('invalid_args', 'no thread store to replay from');
      if (a.threadId && !threads.get(a.threadId))
        throw new WorkbenchError('not_found', `no thread ${a.threadId}`);
      const ids = a.threadId
        ? [a.threadId]
        : threads
            .list({ workspace: a.workspace, limit: a.last ?? 5 })
            .map((s) => s.thread_id)
            .reverse();
      return replayHook(t, {
        calls: recordedCalls(threads, ids),
        event: eventOf(t, a.event),
        workspace: a.workspace,
        home: deps.home,
        settings: deps.settings.get(),
        runner: deps.handlerRunner?.(),
      });
    },
    async create(a) {
      const dir =
        a.scope === 'workspace'
          ? join(a.workspace, '.workbench', 'hooks')
          : join(deps.home, 'hooks');
      const path = join(dir, a.name);
      const taken = await Promise.all(
        [path, `${path}.disable`].map((p) =>
          stat(p).then(
            () => true,
            () => false,
          ),
        ),
      );
      if (taken.some(Boolean)) throw new WorkbenchError('conflict', `${path} already exists`);
      const t = hookTemplate(a.template);
      await writeFileAtomic(path, t.render({ auditLog: join(deps.home, 'audit.log') }), {
        expectedVersion: '',
      });
      await chmod(path, 0o755);
      return find(a.workspace, `executable:${a.scope}:${a.name}`);
    },
    async readScript(a) {
      return readHookScript(await find(a.workspace, a.id));
    },
    async writeScript(a) {
      return writeHookScript(await find(a.workspace, a.id), a.content, a.baseVersion);
    },
  };
}
