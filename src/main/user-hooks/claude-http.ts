/**
 * Claude Code's `http` handlers (docs/hooks.md, "http handlers"): the hook's input is POSTed as JSON
 * to the handler's `url` and the answer is read as a command handler's stdout would be. A 2xx with an
 * empty body is success, a 2xx with a JSON object is its verdict; any other answer (another status,
 * a body that is not JSON, no connection, the timeout) is a non-blocking error, so an http hook
 * blocks only through its JSON. Redirects are not followed. Header values may name environment
 * variables (`$TOKEN`, `${TOKEN}`), resolved only when the handler lists them in `allowedEnvVars`
 * (and the settings' `httpHookAllowedEnvVars`, where set, allow them too).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isRecord } from './json-output.ts';
import {
  STDOUT_CAP_BYTES,
  hookProcessResult,
  type HookProcessResult,
  type HookProcessSpec,
} from './runner.ts';
import { blockedAddress } from './http-address-guard.ts';
import { hookConnection } from './http-hook-proxy.ts';
import { starToSource } from '../tools/glob-pattern.ts';
import { redactSecrets } from '../secrets/redaction.ts';

/** What an http handler sends where. */
export interface HttpTarget {
  url: string;
  headers: Record<string, string>;
  /** The variables its headers may name, already narrowed by the settings' `httpHookAllowedEnvVars`. */
  allowedEnvVars: string[];
}

/** The settings' limits on http handlers (managed settings' alone when they set them). */
export interface HttpHookPolicy {
  /** `allowedHttpHookUrls`: patterns with `*`; absent: any URL. */
  urls?: { patterns: string[]; from: string };
  /** `httpHookAllowedEnvVars`; absent: whatever a handler lists. */
  envVars?: string[];
}

/** Where a settings file stands for the policy. */
export interface PolicySource {
  path: string;
  data: unknown;
  managed: boolean;
}

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : undefined;

/**
 * The policy of the settings files (each trusted file's lists merge, as Claude Code merges arrays
 * across its settings); a list in the managed settings is the administrator's and stands alone.
 */
export function httpHookPolicy(files: readonly PolicySource[]): HttpHookPolicy {
  const pick = (key: string): { list: string[]; from: string } | undefined => {
    const managed = files.find((f) => f.managed && isRecord(f.data) && strings(f.data[key]));
    if (managed)
      return { list: strings((managed.data as Record<string, unknown>)[key])!, from: managed.path };
    const setting = files.filter((f) => isRecord(f.data) && strings(f.data[key]));
    if (setting.length === 0) return undefined;
    return {
      list: setting.flatMap((f) => strings((f.data as Record<string, unknown>)[key])!),
      from: setting.map((f) => f.path).join(', '),
    };
  };
  const urls = pick('allowedHttpHookUrls');
  const envVars = pick('httpHookAllowedEnvVars');
  return {
    ...(urls ? { urls: { patterns: urls.list, from: urls.from } } : {}),
    ...(envVars ? { envVars: envVars.list } : {}),
  };
}

/** A handler's http fields as a target, or why it cannot run. */
export function parseHttpHandler(
  h: Record<string, unknown>,
  policy: HttpHookPolicy,
): HttpTarget | string {
  if (typeof h.url !== 'string' || h.url.trim() === '')
    return 'an http handler needs a "url" string';
  let url: URL;
  try {
    url = new URL(h.url);
  } catch {
    return `"url" is not a URL: ${h.url}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `"url" must be http or https: ${h.url}`;
  if (
    h.headers !== undefined &&
    (!isRecord(h.headers) || Object.values(h.headers).some((v) => typeof v !== 'string'))
  )
    return '"headers" must be an object of strings';
  const listed = h.allowedEnvVars === undefined ? [] : strings(h.allowedEnvVars);
  if (!listed) return '"allowedEnvVars" must be an array of variable names';
  if (h.sandbox !== undefined)
    return '"sandbox" is for command handlers: an http handler runs no process';
  const { envVars } = policy;
  return {
    url: h.url,
    headers: (h.headers as Record<string, string> | undefined) ?? {},
    allowedEnvVars: envVars ? listed.filter((n) => envVars.includes(n)) : listed,
  };
}

/** Why the settings' `allowedHttpHookUrls` keep a handler from `url`; undefined when they do not. */
export function refusedHttpUrl(url: string, policy: HttpHookPolicy): string | undefined {
  const { urls } = policy;
  if (!urls || urls.patterns.some((p) => new RegExp(`^${starToSource(p)}$`).test(url)))
    return undefined;
  return `blocked: ${url} is not in "allowedHttpHookUrls" (${urls.from})`;
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * The headers with their variables filled in: a listed one from `variables`, anything else empty,
 * as Claude Code does. The model's API key is never sent, whatever names it.
 */
export function resolveHeaders(
  target: HttpTarget,
  variables: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const value = (name: string) => {
    const v = target.allowedEnvVars.includes(name) ? (variables[name] ?? '') : '';
    return name === 'OPENAI_API_KEY' || redactSecrets(v) !== v ? '' : v;
  };
  return Object.fromEntries(
    Object.entries(target.headers).map(([k, v]) => [
      k,
      v.replace(VARIABLE, (_, braced, bare) => value(braced ?? bare)),
    ]),
  );
}

/**
 * POSTs `spec.stdin` to the handler and reports the answer as a process result: a 2xx with an
 * empty or JSON-object body as exit 0 with the body as stdout; any other answer, no connection or a
 * refused address as `error` (`http_error`). Contract: never rejects.
 */
export function postHttpHook(
  target: HttpTarget,
  spec: HookProcessSpec,
  variables: Readonly<Record<string, string | undefined>>,
): Promise<HookProcessResult> {
  const started = performance.now();
  const body = spec.stdin ?? '';
  return new Promise((resolve) => {
    let settled = false;
    let req: ReturnType<typeof httpRequest> | undefined;
    const timer = setTimeout(() => {
      finish({ timedOut: true });
      req?.destroy();
    }, spec.timeoutMs);
    function onAbort() {
      finish({ error: 'cancelled' });
      req?.destroy();
    }
    function finish(r: Partial<HookProcessResult>) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      resolve(hookProcessResult(started, r));
    }
    const url = new URL(target.url);
    const refused = blockedAddress(url.hostname);
    if (refused)
      return finish({ error: `not sent to ${target.url}: ${refused}`, errorType: 'http_error' });
    try {
      const headers = {
        ...resolveHeaders(target, variables),
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      };
      req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        headers,
        ...hookConnection(url, variables),
      });
    } catch (err) {
      return finish({
        error: `not sent to ${target.url}: ${(err as Error).message}`,
        errorType: 'http_error',
      });
    }
    if (spec.signal?.aborted) return onAbort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) =>
      finish({ error: `could not reach ${target.url}: ${err.message}`, errorType: 'http_error' }),
    );
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= STDOUT_CAP_BYTES) return void chunks.push(chunk);
        // A flood is cut off here, not read to its end.
        finish({ exitCode: 0, stdoutBytes: bytes, stdoutTruncated: true });
        req?.destroy();
      });
      res.on('error', (err) =>
        finish({
          error: `the answer from ${target.url} broke off: ${err.message}`,
          errorType: 'http_error',
        }),
      );
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        const read = { stdoutBytes: bytes };
        const statusLine = `HTTP ${status} ${res.statusMessage ?? ''}`.trim();
        if (status < 200 || status > 299) {
          const firstLine = text.trim().split('\n')[0]!.slice(0, 300);
          return finish({
            ...read,
            stdout: text,
            error: `${target.url} answered ${statusLine}${firstLine ? `: ${firstLine}` : ''}`,
            errorType: 'http_error',
          });
        }
        const trimmed = text.replace(/^\uFEFF/, '').trim();
        if (trimmed !== '' && !trimmed.startsWith('{')) {
          return finish({
            ...read,
            stdout: text,
            error: `${target.url} answered ${statusLine} with a body that is not a JSON object`,
            errorType: 'http_error',
          });
        }
        finish({ ...read, exitCode: 0, stdout: text });
      });
    });
    req.end(body);
  });
}
