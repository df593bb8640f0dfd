export type * from './messages.ts';
export type * from './events.ts';
export type * from './spans.ts';
export type * from './hooks.ts';
export type * from './settings.ts';
export type * from './feed.ts';
export type * from './mcp.ts';
export { DEFAULT_SETTINGS } from './settings.ts';
export type * from './checkpoints.ts';
