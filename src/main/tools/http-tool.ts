/**
 * HTTP tools (docs/tools.md#http-tools): a tool defined in agent.yaml or settings whose calls POST
 * `{ tool_call_id, name, args }` to a URL; the JSON or text answer is the result. Calls ask for
 * approval like writes. 429 and 503 are retryable (honouring Retry-After), other 4xx cancel retries,
 * other failures are retryable; an answer `{ "error": …, "error_kind": …, "snooze_seconds": … }`
 * names its own kind.
 */
import { z } from 'zod';
import { defineTool, ToolError, type Tool } from './types.ts';
import { toolErrorFrom } from './error-kind.ts';
import { expandAll, expandVars } from '../env/expand-vars.ts';
import { isAbortError } from '../abort.ts';

/** Default deadline of one call. */
export const HTTP_TOOL_TIMEOUT_MS = 30_000;
/** Default cap of an answer's body; longer answers are cut with a marker. */
export const HTTP_TOOL_MAX_BYTES = 1024 * 1024;

/** One `http_tools` entry of agent.yaml or settings. */
export const httpToolConfigSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - (at most 64)'),
    description: z.string().min(1),
    /** JSON Schema of the arguments, sent to the model as is. */
    parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
    url: z.string().regex(/^https?:\/\//, 'an http:// or https:// URL'),
    timeout_ms: z.number().int().positive().max(600_000).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    max_response_bytes: z.number().int().positive().optional(),
  })
  .strict();
export type HttpToolConfig = z.infer<typeof httpToolConfigSchema>;

const argsSchema = z.record(z.string(), z.unknown());

/** A tool calling `config.url`. Contract: `${VAR}` in url and headers is expanded at each call. */
export function createHttpTool(config: HttpToolConfig, fetchImpl: typeof fetch = fetch): Tool {
  const timeoutMs = config.timeout_ms ?? HTTP_TOOL_TIMEOUT_MS;
  const maxBytes = config.max_response_bytes ?? HTTP_TOOL_MAX_BYTES;
  return defineTool({
    name: config.name,
    description: config.description,
    parameters: argsSchema,
    inputSchema: config.parameters,
    effects: () => ({ writes: [] }),
    preview: (args) => `POST ${config.url}\n${JSON.stringify(args, null, 2)}`,
    async execute(args, ctx) {
      const url = expandVars(config.url).value;
      const headers = expandAll(config.headers ?? {}).value;
      const deadline = AbortSignal.timeout(timeoutMs);
      let res: Response;
      try {
        res = await fetchImpl(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ tool_call_id: ctx.callId, name: config.name, args }),
          signal: AbortSignal.any([ctx.signal, deadline]),
        });
      } catch (err) {
        throw failure(err, deadline, ctx.signal, timeoutMs);
      }
      let body: string;
      try {
        body = await readCapped(res, maxBytes);
      } catch (err) {
        throw failure(err, deadline, ctx.signal, timeoutMs);
      }
      if (!res.ok) throw statusError(res, body);
      return answer(body, res.headers.get('content-type') ?? '');
    },
  });
}

function failure(err: unknown, deadline: AbortSignal, run: AbortSignal, timeoutMs: number): Error {
  if (run.aborted) return err instanceof Error ? err : new Error(String(err));
  if (deadline.aborted) return new ToolError(`no answer within ${timeoutMs} ms`, 'retryable');
  if (isAbortError(err)) return err;
  return new ToolError(`request failed: ${(err as Error).message}`, 'retryable');
}

/** The body as text, cut after `maxBytes` with a marker naming the cap. */
async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes));
      return `${text}\n... (answer cut at ${maxBytes} bytes)`;
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** 429/503: retryable after Retry-After; other 4xx: cancel; the rest: retryable. */
function statusError(res: Response, body: string): ToolError {
  const message = `HTTP ${res.status}${body ? `: ${body.slice(0, 500)}` : ''}`;
  if (res.status === 429 || res.status === 503) {
    return new ToolError(message, 'retryable', retryAfterMs(res.headers.get('retry-after')));
  }
  if (res.status >= 400 && res.status < 500) return new ToolError(message, 'cancel');
  return new ToolError(message, 'retryable');
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A 2xx answer: text as is; JSON pretty-printed, or a ToolError when it is an error answer. */
function answer(body: string, contentType: string): string {
  if (!contentType.includes('json')) return body;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body;
  }
  const error = errorAnswer(json);
  if (error) throw error;
  return typeof json === 'string' ? json : JSON.stringify(json, null, 2);
}

/** A JSON error answer `{ error, error_kind?, snooze_seconds? }` as a ToolError; undefined otherwise. */
function errorAnswer(json: unknown): ToolError | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const o = json as Record<string, unknown>;
  return typeof o.error === 'string' ? toolErrorFrom(o.error, o) : undefined;
}
