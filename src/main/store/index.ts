/** Public surface of the storage layer. */
export type { CompactionSummary, Database, HookRunStore, SpanStore, ThreadStore } from './types.ts';
export { ConflictError, readTextOrNull, versionOf, writeFileAtomic } from '../fs/atomic-write.ts';
export { homePaths, resolveHome, type HomePaths } from './paths.ts';
export { openDatabase, type OpenDatabaseOptions, type SqliteDatabase } from './database.ts';
export { SCHEMA_VERSION, migrate, schemaVersion } from './schema.ts';
export { createTransactionRunner, type TransactionRunner } from './transaction.ts';
export {
  createThreadStore,
  newThreadId,
  type SqliteThreadStore,
  type ThreadStoreOptions,
} from './thread-store.ts';
export { ThreadCache } from './thread-cache.ts';
export { INTERRUPTED_TOOL_RESULT, orphanToolResults, titleFrom } from './thread-rows.ts';
export { createSpanStore } from './span-store.ts';
export { createRunStore, type RunRecord, type RunStore } from './run-store.ts';
export { createEventStore, type EventStore, type NewFeedEvent } from './event-store.ts';
export { createWebhookStore, type WebhookDelivery, type WebhookStore } from './webhook-store.ts';
export { createLeaseStore, type LeaseHolder, type LeaseStore } from './lease-store.ts';
export { HOOK_OUTPUT_CAP, capOutput, createHookRunStore } from './hook-run-store.ts';
export { createSettingsStore, type SettingsPatch, type SettingsStore } from './settings-store.ts';
export { deepMerge, findApiKeyFields, isApiKeyField, settingsSchema } from './settings-schema.ts';
