/** Provider presets, base-URL normalisation, model listing and the Settings "Test connection". */
import { classifyStatus, scrub, unreachableLine } from './error-mapping.ts';
import { createHttpTransport, HttpTimeoutError, readText } from './http-transport.ts';
import type { HttpResponse, HttpTransport } from './http-transport.ts';
import { abortError, isAbortError } from '../abort.ts';
import { LlmError } from './types.ts';
import { errorMessage } from '../errors.ts';

export type ProviderId =
  'openai' | 'ollama' | 'lmstudio' | 'vllm' | 'llamacpp' | 'openrouter' | 'custom';

/** A known OpenAI-compatible endpoint. */
export interface ProviderPreset {
  id: ProviderId;
  label: string;
  /** '' for custom. */
  baseURL: string;
  /** Runs on this machine (no key needed, probed by `probeLocalProviders`). */
  local: boolean;
  needsKey: boolean;
}

/** The presets offered in Settings, in display order. */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'openai',
    label: 'OpenAI',
    baseURL: 'https://api.openai.com/v1',
    local: false,
    needsKey: true,
  },
  {
    id: 'ollama',
    label: 'Ollama',
    baseURL: 'http://127.0.0.1:11434/v1',
    local: true,
    needsKey: false,
  },
  {
    id: 'lmstudio',
    label: 'LM Studio',
    baseURL: 'http://127.0.0.1:1234/v1',
    local: true,
    needsKey: false,
  },
  { id: 'vllm', label: 'vLLM', baseURL: 'http://127.0.0.1:8000/v1', local: true, needsKey: false },
  {
    id: 'llamacpp',
    label: 'llama.cpp server',
    baseURL: 'http://127.0.0.1:8080/v1',
    local: true,
    needsKey: false,
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    baseURL: 'https://openrouter.ai/api/v1',
    local: false,
    needsKey: true,
  },
  { id: 'custom', label: 'Custom', baseURL: '', local: false, needsKey: false },
];

/** The preset with this id. */
export function getPreset(id: ProviderId): ProviderPreset {
  return (
    PROVIDER_PRESETS.find((p) => p.id === id) ?? PROVIDER_PRESETS[PROVIDER_PRESETS.length - 1]!
  );
}

/**
 * Cleans a user-typed base URL.
 * Contract: trims, adds `http://` when no scheme, strips trailing slashes and a pasted
 * `/chat/completions` or `/models`, and adds the version path when the URL has none (`/v1`, or
 * `/api/v1` for openrouter.ai) — the client needs it or every request 404s. Invalid URLs come back trimmed.
 */
export function normalizeBaseUrl(input: string): string {
  let text = input.trim();
  if (text === '') return '';
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return input.trim();
  }
  let path = url.pathname
    .replace(/\/+$/, '')
    .replace(/\/(chat\/completions|completions|models)$/, '');
  if (path === '') path = url.hostname === 'openrouter.ai' ? '/api/v1' : '/v1';
  return `${url.protocol}//${url.host}${path}`;
}

/** Where and how to reach an endpoint for `listModels` / `testConnection`. */
export interface EndpointOptions {
  baseURL: string;
  apiKey?: string;
  signal?: AbortSignal;
  /** Default 10 000 ms. */
  timeoutMs?: number;
}

// One transport for every listing (Settings, probes): its kept-alive sockets never hold the process.
let transport: HttpTransport | undefined;

/**
 * Lists model ids from `GET <baseURL>/models`, sorted.
 * Contract: rejects with an `LlmError` whose message is one user-facing line without the key;
 * rejects with an AbortError when `signal` aborts.
 */
export async function listModels(opts: EndpointOptions): Promise<string[]> {
  const baseURL = normalizeBaseUrl(opts.baseURL);
  const ctx = { baseURL, apiKey: opts.apiKey };
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctrl.abort();
  }, timeoutMs);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': 'agent-workbench',
  };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  let status: number;
  let text: string;
  try {
    let res: HttpResponse;
    try {
      transport ??= createHttpTransport();
      res = await transport.send({
        method: 'GET',
        url: `${baseURL}/models`,
        headers,
        signal: ctrl.signal,
        timeoutMs,
      });
    } catch (err) {
      if (opts.signal?.aborted) throw abortError(opts.signal);
      if (timedOut || err instanceof HttpTimeoutError)
        throw classifyStatus(408, undefined, ctx).error;
      throw new LlmError('unreachable', scrub(unreachableLine(err, baseURL), opts.apiKey));
    }
    status = res.status;
    const destroy = () => res.body.destroy();
    ctrl.signal.addEventListener('abort', destroy, { once: true });
    text = await readText(res.body, status >= 200 && status < 300 ? Infinity : 64 * 1024);
    if (opts.signal?.aborted) throw abortError(opts.signal);
    if (timedOut) throw classifyStatus(408, undefined, ctx).error;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
  if (status < 200 || status > 299) throw classifyStatus(status, messageOf(text), ctx).error;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new LlmError(
      'bad_request',
      `${baseURL}/models did not answer JSON — is this an OpenAI-compatible endpoint?`,
    );
  }
  return extractIds(body).sort();
}

/** The outcome of "Test connection". */
export type ConnectionResult =
  | { ok: true; models: number; modelIds: string[]; message: string }
  | { ok: false; message: string };

/**
 * Checks an endpoint by listing its models.
 * Contract: never rejects (except AbortError); `message` is plain language, e.g.
 * "Nothing is listening at http://127.0.0.1:11434 — is Ollama running?".
 */
export async function testConnection(opts: EndpointOptions): Promise<ConnectionResult> {
  const baseURL = normalizeBaseUrl(opts.baseURL);
  try {
    const ids = await listModels({ ...opts, baseURL });
    const count = ids.length === 1 ? '1 model' : `${ids.length} models`;
    return {
      ok: true,
      models: ids.length,
      modelIds: ids,
      message:
        ids.length === 0
          ? `Connected to ${baseURL}, but it lists no models.`
          : `Connected to ${baseURL} — ${count} available.`,
    };
  } catch (err) {
    if (isAbortError(err)) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'unreachable' && /connection refused/.test((err as Error).message)) {
      const preset = PROVIDER_PRESETS.find((p) => p.local && sameOrigin(p.baseURL, baseURL));
      const origin = originOf(baseURL);
      const hint = preset ? ` — is ${preset.label} running?` : ' — is the server running?';
      return { ok: false, message: `Nothing is listening at ${origin}${hint}` };
    }
    const why = errorMessage(err);
    return { ok: false, message: scrub(why, opts.apiKey) };
  }
}

/** One local server found (or not) by `probeLocalProviders`. */
export interface ProbeResult {
  id: ProviderId | string;
  label: string;
  baseURL: string;
  ok: boolean;
  models?: string[];
}

/**
 * Checks the local presets' ports in parallel with a short timeout (default 800 ms).
 * Contract: never rejects; `targets` overrides which endpoints are probed (tests).
 */
export async function probeLocalProviders(
  opts: {
    timeoutMs?: number;
    targets?: Array<{ id: string; label: string; baseURL: string }>;
  } = {},
): Promise<ProbeResult[]> {
  const targets =
    opts.targets ?? PROVIDER_PRESETS.filter((p) => p.id === 'ollama' || p.id === 'lmstudio');
  return Promise.all(
    targets.map(async (t): Promise<ProbeResult> => {
      try {
        const models = await listModels({
          baseURL: t.baseURL,
          timeoutMs: opts.timeoutMs ?? 800,
        });
        return { id: t.id, label: t.label, baseURL: t.baseURL, ok: true, models };
      } catch {
        return { id: t.id, label: t.label, baseURL: t.baseURL, ok: false };
      }
    }),
  );
}

function extractIds(body: unknown): string[] {
  const data =
    (body as { data?: unknown; models?: unknown })?.data ?? (body as { models?: unknown })?.models;
  if (!Array.isArray(data)) return [];
  return data
    .map((m: unknown) =>
      typeof m === 'string'
        ? m
        : ((m as { id?: unknown; name?: unknown })?.id ?? (m as { name?: unknown })?.name),
    )
    .filter((id): id is string => typeof id === 'string');
}

function messageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim() ? text.trim().slice(0, 200) : undefined;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function sameOrigin(a: string, b: string): boolean {
  const norm = (u: string) => originOf(u).replace('//localhost', '//127.0.0.1');
  return norm(a) === norm(b);
}
