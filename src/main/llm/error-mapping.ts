/** Turns HTTP / network failures into one user-facing `LlmError` line (never containing the key). */
import { HttpTimeoutError } from './http-transport.ts';
import { LlmError } from './types.ts';
import { errorMessage } from '../errors.ts';

/** What the retry loop needs to know about a failure that happened before the stream started. */
export interface ClassifiedError {
  error: LlmError;
  retryable: boolean;
  /** Server-requested delay from `Retry-After` / `retry-after-ms`. */
  retryAfterHeaders?: { get(name: string): string | null };
}

/** Context for the messages: where we were talking to, what model, which secret to scrub. */
export interface ErrorContext {
  baseURL: string;
  model?: string;
  apiKey?: string;
}

/**
 * Classifies an error thrown before any chunk arrived.
 * Contract: 429, 5xx, connection errors and timeouts are retryable; everything else is not.
 */
export function classifyError(err: unknown, ctx: ErrorContext): ClassifiedError {
  if (err instanceof HttpTimeoutError) {
    return { error: mk(ctx, 'timeout', `${ctx.baseURL} did not answer in time`), retryable: true };
  }
  if (networkCode(err))
    return { error: mk(ctx, 'unreachable', unreachableLine(err, ctx.baseURL)), retryable: true };
  return { error: mk(ctx, 'unknown', `model call failed: ${errorMessage(err)}`), retryable: false };
}

/**
 * The `error.message` of an OpenAI-style JSON error body, if there is one.
 * Contract: anything else (not JSON, no such field) gives `undefined`.
 */
export function serverMessage(body: string): string | undefined {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } } | null)?.error?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** Classifies an HTTP status with the server's own message (also used by `listModels`). */
export function classifyStatus(
  status: number,
  message: string | undefined,
  ctx: ErrorContext,
  headers?: { get(name: string): string | null },
): ClassifiedError {
  const detail = message ? `: ${message}` : '';
  if (status === 401 || status === 403) {
    // The server's text is left out on purpose: OpenAI echoes part of the key in it.
    return {
      error: mk(
        ctx,
        'unauthorized',
        `the endpoint rejected the API key (${status}) — check it in Settings`,
        status,
      ),
      retryable: false,
    };
  }
  if (status === 404) {
    if (ctx.model && /model/i.test(message ?? '')) {
      return {
        error: mk(
          ctx,
          'model_not_found',
          `model '${ctx.model}' not found at ${ctx.baseURL}`,
          status,
        ),
        retryable: false,
      };
    }
    return {
      error: mk(
        ctx,
        'bad_request',
        `${ctx.baseURL} answered 404${detail} — check the base URL (it usually ends in /v1)`,
        status,
      ),
      retryable: false,
    };
  }
  if (status === 429) {
    return {
      error: mk(ctx, 'rate_limited', `rate limited by ${ctx.baseURL} (429)${detail}`, status),
      retryable: true,
      retryAfterHeaders: headers,
    };
  }
  if (status >= 500) {
    return {
      error: mk(
        ctx,
        'server_error',
        `${ctx.baseURL} had a server error (${status})${detail}`,
        status,
      ),
      retryable: true,
      retryAfterHeaders: headers,
    };
  }
  if (status === 408) {
    return {
      error: mk(ctx, 'timeout', `${ctx.baseURL} timed out (408)`, status),
      retryable: true,
      retryAfterHeaders: headers,
    };
  }
  return {
    error: mk(ctx, 'bad_request', `the endpoint rejected the request (${status})${detail}`, status),
    retryable: false,
  };
}

/** The plain-language "nothing there" line, naming the network error. */
export function unreachableLine(err: unknown, baseURL: string): string {
  const code = networkCode(err);
  if (code === 'ECONNREFUSED') return `cannot reach ${baseURL}: connection refused`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `cannot reach ${baseURL}: host not found`;
  if (code === 'ECONNRESET') return `cannot reach ${baseURL}: connection reset`;
  if (code) return `cannot reach ${baseURL}: ${code}`;
  return `cannot reach ${baseURL}`;
}

/** Finds a Node network error code (ECONNREFUSED…) anywhere in an error's `cause` chain. */
export function networkCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 6 && cur && typeof cur === 'object'; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    const nested = (cur as { errors?: unknown[] }).errors; // AggregateError from happy-eyeballs
    if (Array.isArray(nested) && nested.length > 0) {
      const inner = networkCode(nested[0]);
      if (inner) return inner;
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function mk(ctx: ErrorContext, code: LlmError['code'], line: string, status?: number): LlmError {
  return new LlmError(code, scrub(oneLine(line), ctx.apiKey), status);
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? flat.slice(0, 297) + '...' : flat;
}

/** Removes the API key from any text that might be shown or logged. */
export function scrub(text: string, apiKey: string | undefined): string {
  if (!apiKey || apiKey.length < 4) return text;
  return text.split(apiKey).join('***');
}
