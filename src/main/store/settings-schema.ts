/** zod schema of settings.json; loose objects so keys from newer builds or plugins survive a round trip. */
import { z } from 'zod';
import { mcpOverrideSchema, mcpServerConfigSchema } from '../mcp/config.ts';

const hookOverride = z.looseObject({
  enabled: z.boolean().optional(),
  fail_mode: z.enum(['open', 'closed']).optional(),
  timeout_ms: z.number().int().positive().optional(),
  sandbox: z.boolean().optional(),
  persistent: z.boolean().optional(),
});

/** Validates a full (already merged) WorkbenchSettings. */
export const settingsSchema = z.looseObject({
  provider: z.looseObject({
    preset: z.enum(['openai', 'ollama', 'lmstudio', 'vllm', 'llamacpp', 'openrouter', 'custom']),
    base_url: z.string().url(),
    model: z.string().min(1),
  }),
  approval_mode: z.enum(['ask', 'auto-edit', 'auto']),
  theme: z.enum(['light', 'dark', 'system']),
  max_iterations: z.number().int().min(1).max(1000),
  max_parallel_tools: z.number().int().min(1).max(64),
  max_subagent_depth: z.number().int().min(0).max(10).optional(),
  disableAllHooks: z.boolean(),
  hook_overrides: z.record(z.string(), hookOverride),
  tracing: z.looseObject({
    capture_content: z.boolean(),
    otlp_endpoint: z.string().optional(),
    otlp_headers: z.record(z.string(), z.string()).optional(),
  }),
  recent_workspaces: z.array(z.string()),
  disabled_skills: z.array(z.string()),
  sandbox: z.looseObject({ mode: z.enum(['auto', 'required', 'off']), network: z.boolean() }),
  allow_hard_links: z.boolean(),
  webhooks: z
    .array(
      z.looseObject({
        on: z.array(z.string().min(1)).min(1),
        url: z.string().url(),
        secret: z.string().optional(),
      }),
    )
    .optional(),
  mcp_servers: z.record(z.string(), mcpServerConfigSchema),
  mcp_overrides: z.record(z.string(), mcpOverrideSchema),
  http_tools: z.array(z.looseObject({ name: z.string().min(1), url: z.string().min(1) })),
});

/** Keys that look like a secret's field name (`api_key`, `apiKey`, `openai-api-key`, `x-api-key`). */
export function isApiKeyField(key: string): boolean {
  return key
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .endsWith('apikey');
}

/** Dotted paths of every api-key-looking field in `value`. */
export function findApiKeyFields(value: unknown, prefix = ''): string[] {
  if (!isPlainObject(value)) return [];
  const found: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isApiKeyField(k)) found.push(path);
    found.push(...findApiKeyFields(v, path));
  }
  return found;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Deep merge: objects merge key by key, arrays and scalars replace, `undefined` in the patch is
 * ignored. Neither input is mutated.
 */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch))
    return (patch === undefined ? base : patch) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k], v) : v;
  }
  return out as T;
}
