/**
 * One strict zod schema per invoke channel: the arguments object. Unknown keys, wrong types and
 * oversized strings are rejected before any handler runs, so a
 * compromised renderer cannot smuggle extra fields or huge payloads into the main process.
 */
import { z } from 'zod';
import type { InvokeChannel } from './channels.ts';

const Id = z.string().min(1).max(200);
const Path = z.string().min(1).max(4096);
const Title = z.string().max(500);
const Text = z.string().max(200_000);
const Url = z.string().min(1).max(2048);
const Key = z.string().max(4096);
const Empty = z.strictObject({});
const Scope = z.enum(['user', 'workspace']);
const McpName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const HookId = z.string().min(1).max(1000);
/** What the composer may choose for a run, on a send as on a resume. */
const RunChoices = {
  agent: z.string().min(1).max(64).optional(),
  model: z.string().min(1).max(500).optional(),
  approvalMode: z.enum(['ask', 'auto-edit', 'auto']).optional(),
};
const ProviderId = z.enum(['openai', 'ollama', 'lmstudio', 'vllm', 'llamacpp', 'openrouter', 'custom']);

/** What a revert or diff is about: one tool call, one file (optionally within a run) or one run. */
const RevertTarget = { toolCallId: Id.optional(), path: Path.optional(), runId: Id.optional() };

const SettingsPatch = z.strictObject({
  provider: z
    .strictObject({ preset: ProviderId.optional(), base_url: z.string().max(2048).optional(), model: z.string().max(500).optional() })
    .optional(),
  approval_mode: z.enum(['ask', 'auto-edit', 'auto']).optional(),
  theme: z.enum(['light', 'dark', 'system']).optional(),
  max_iterations: z.number().int().min(1).max(500).optional(),
  disableAllHooks: z.boolean().optional(),
  sandbox: z.strictObject({ mode: z.enum(['auto', 'required', 'off']).optional(), network: z.boolean().optional() }).optional(),
});

/** Argument schemas by channel. */
export const ARG_SCHEMAS = {
  'app.info': Empty,
  'app.openTraceWindow': z.strictObject({ threadId: Id }),
  'threads.list': z.strictObject({ workspace: Path.optional(), search: z.string().max(500).optional() }),
  'threads.get': z.strictObject({ threadId: Id }),
  'threads.create': z.strictObject({ workspace: Path.optional(), title: Title.optional() }),
  'threads.rename': z.strictObject({ threadId: Id, title: Title.min(1) }),
  'threads.delete': z.strictObject({ threadId: Id }),
  'chat.send': z.strictObject({
    threadId: Id.optional(),
    text: Text.min(1),
    workspace: Path.optional(),
    ...RunChoices,
  }),
  'chat.cancel': z.strictObject({ threadId: Id }),
  'chat.approve': z.strictObject({ approvalId: Id, decision: z.enum(['allow_once', 'allow_network', 'allow_thread', 'deny']) }),
  'chat.answerElicitation': z.strictObject({
    elicitationId: Id,
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z
      .record(z.string().max(200), z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(1000)]))
      .optional(),
  }),
  'chat.running': Empty,
  'chat.resume': z.strictObject({ threadId: Id, ...RunChoices }),
  'threads.setMetadata': z.strictObject({
    threadId: Id,
    set: z.record(z.string().min(1).max(100), z.string().max(2000)).optional(),
    remove: z.array(z.string().min(1).max(100)).max(100).optional(),
  }),
  'recipes.list': Empty,
  'workspace.current': Empty,
  'workspace.open': z.strictObject({ path: Path.optional() }),
  'workspace.recent': Empty,
  'trust.status': z.strictObject({ workspace: Path }),
  'trust.set': z.strictObject({ workspace: Path, trusted: z.boolean() }),
  'mcp.list': z.strictObject({ workspace: Path.optional() }),
  'mcp.set': z.strictObject({
    workspace: Path.optional(),
    server: McpName,
    enabled: z.boolean().optional(),
    read_only: z.boolean().optional(),
    tool: z.strictObject({ name: z.string().min(1).max(500), enabled: z.boolean() }).optional(),
  }),
  'mcp.restart': z.strictObject({ workspace: Path.optional(), server: McpName }),
  'settings.get': Empty,
  'settings.update': z.strictObject({ patch: SettingsPatch }),
  'settings.setApiKey': z.strictObject({ apiKey: Key.nullable() }),
  'providers.presets': Empty,
  'providers.models': z.strictObject({ baseURL: Url, apiKey: Key.optional() }),
  'providers.test': z.strictObject({
    baseURL: Url,
    apiKey: Key.optional(),
    model: z.string().max(500).optional(),
  }),
  'providers.probe': Empty,
  'todos.get': z.strictObject({ threadId: Id }),
  'trace.list': z.strictObject({ threadId: Id }),
  'trace.export': z.strictObject({ threadId: Id, format: z.enum(['otlp', 'chrome']) }),
  'trace.import': z.strictObject({ content: z.string().max(20_000_000), name: z.string().max(300).optional() }),
  'trace.hookRun': z.strictObject({ threadId: Id, spanId: Id }),
  'memory.read': z.strictObject({ scope: Scope }),
  'memory.write': z.strictObject({ scope: Scope, content: Text, baseVersion: z.string().max(200) }),
  'memory.effective': z.strictObject({ threadId: Id.optional() }),
  'agents.list': Empty,
  'agents.read': z.strictObject({ path: Path }),
  'agents.validate': z.strictObject({ content: Text, path: Path.optional() }),
  'agents.save': z.strictObject({
    content: Text,
    path: Path.optional(),
    scope: Scope.optional(),
    name: z.string().min(1).max(64).optional(),
    baseVersion: z.string().max(200),
  }),
  'agents.readScript': z.strictObject({ name: z.string().min(1).max(64) }),
  'agents.writeScript': z.strictObject({
    name: z.string().min(1).max(64),
    content: z.string().max(1_000_000),
    baseVersion: z.string().max(200),
  }),
  'agents.createScript': z.strictObject({ name: z.string().min(1).max(64) }),
  'skills.list': Empty,
  'skills.read': z.strictObject({ path: Path }),
  'skills.create': z.strictObject({ scope: Scope, name: z.string().min(1).max(64), description: z.string().max(1024) }),
  'skills.save': z.strictObject({ path: Path, content: Text, baseVersion: z.string().max(200) }),
  'skills.delete': z.strictObject({ path: Path }),
  'skills.setEnabled': z.strictObject({ name: z.string().min(1).max(64), enabled: z.boolean() }),
  'hooks.list': Empty,
  'hooks.setEnabled': z.strictObject({ id: HookId, enabled: z.boolean() }),
  'hooks.update': z.strictObject({
    id: HookId,
    failMode: z.enum(['open', 'closed']).optional(),
    timeoutMs: z.number().int().min(100).max(3_600_000).optional(),
  }),
  'hooks.disableAll': z.strictObject({ disabled: z.boolean() }),
  'hooks.runs': z.strictObject({ hookId: z.string().max(1000).optional(), limit: z.number().int().min(1).max(5000).optional() }),
  'hooks.sample': z.strictObject({ id: HookId, event: z.string().min(1).max(100).optional() }),
  'hooks.test': z.strictObject({ id: HookId, event: z.string().min(1).max(100).optional(), payload: z.string().max(1_000_000).optional() }),
  'hooks.replay': z.strictObject({
    id: HookId,
    event: z.string().min(1).max(100).optional(),
    threadId: Id.optional(),
    last: z.number().int().min(1).max(100).optional(),
  }),
  'hooks.readScript': z.strictObject({ id: HookId }),
  'hooks.writeScript': z.strictObject({
    id: HookId,
    content: z.string().max(1_000_000),
    baseVersion: z.string().max(100),
  }),
  'hooks.create': z.strictObject({
    scope: Scope,
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'letters, digits, dot, dash and underscore'),
    template: z.enum([
      'audit-logger',
      'guardrail',
      'follow-up',
      'persistent-shell',
      'persistent-python',
      'persistent-node',
    ]),
  }),
  'threads.fork': z.strictObject({ threadId: Id, upTo: z.number().int().min(0).max(10_000_000) }),
  'threads.compact': z.strictObject({ threadId: Id }),
  'threads.context': z.strictObject({ threadId: Id }),
  'checkpoints.list': z.strictObject({ threadId: Id }),
  'checkpoints.diff': z.strictObject({ threadId: Id, ...RevertTarget }),
  'checkpoints.revert': z.strictObject({ threadId: Id, ...RevertTarget, force: z.boolean().optional() }),
  'checkpoints.proposed': z.strictObject({ threadId: Id, approvalId: Id }),
  'workspace.files': z.strictObject({ query: z.string().max(500) }),
} as const satisfies Record<InvokeChannel, z.ZodType>;

export type ArgSchemas = typeof ARG_SCHEMAS;
