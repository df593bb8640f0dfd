/**
 * The runtime list of every IPC channel and event name. The preload and the socket server accept only
 * these; kept free of zod so the sandboxed preload bundle stays tiny.
 */

/** Every `domain.verb` invoke channel, in contract order. */
export const INVOKE_CHANNELS = [
  'app.info',
  'app.openTraceWindow',
  'threads.list',
  'threads.get',
  'threads.create',
  'threads.rename',
  'threads.delete',
  'chat.send',
  'chat.cancel',
  'chat.approve',
  'chat.answerElicitation',
  'chat.running',
  'chat.resume',
  'threads.setMetadata',
  'recipes.list',
  'workspace.current',
  'workspace.open',
  'workspace.recent',
  'trust.status',
  'trust.set',
  'mcp.list',
  'mcp.set',
  'mcp.restart',
  'settings.get',
  'settings.update',
  'settings.setApiKey',
  'providers.presets',
  'providers.models',
  'providers.test',
  'providers.probe',
  'todos.get',
  'trace.list',
  'trace.export',
  'trace.import',
  'trace.hookRun',
  'memory.read',
  'memory.write',
  'memory.effective',
  'agents.list',
  'agents.read',
  'agents.validate',
  'agents.save',
  'agents.readScript',
  'agents.writeScript',
  'agents.createScript',
  'skills.list',
  'skills.read',
  'skills.create',
  'skills.save',
  'skills.delete',
  'skills.setEnabled',
  'hooks.list',
  'hooks.setEnabled',
  'hooks.update',
  'hooks.disableAll',
  'hooks.runs',
  'hooks.sample',
  'hooks.test',
  'hooks.replay',
  'hooks.create',
  'hooks.readScript',
  'hooks.writeScript',
  'threads.fork',
  'threads.compact',
  'threads.context',
  'checkpoints.list',
  'checkpoints.diff',
  'checkpoints.revert',
  'checkpoints.proposed',
  'workspace.files',
] as const;

/** Every event the main side pushes to the renderer. */
export const EVENT_CHANNELS = ['agent.event', 'app.command'] as const;

export type InvokeChannel = (typeof INVOKE_CHANNELS)[number];
export type EventChannel = (typeof EVENT_CHANNELS)[number];

const invokeSet: ReadonlySet<string> = new Set(INVOKE_CHANNELS);
const eventSet: ReadonlySet<string> = new Set(EVENT_CHANNELS);

/** True when `name` is a contract invoke channel (own name, not a prototype key). */
export function isInvokeChannel(name: unknown): name is InvokeChannel {
  return typeof name === 'string' && invokeSet.has(name);
}

/** True when `name` is a contract event channel. */
export function isEventChannel(name: unknown): name is EventChannel {
  return typeof name === 'string' && eventSet.has(name);
}

/** The Electron ipcMain channel an invoke channel travels on (one namespace for the app). */
export const IPC_PREFIX = 'wb:';
