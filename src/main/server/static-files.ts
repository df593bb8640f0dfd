/** Serves the built renderer (`out/renderer`): MIME types, no path traversal, SPA fallback. */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { ServerResponse } from 'node:http';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** The MIME type of a file name (application/octet-stream when unknown). */
export function mimeOf(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Resolves a URL path inside `root`.
 * Contract: returns undefined for anything that would leave `root` (`..`, encoded `%2e%2e`, NUL,
 * backslashes, symlinks pointing out).
 */
export async function resolveStatic(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((s) => s === '..' || s === '.')) return undefined;
  const rootReal = await realpath(root).catch(() => resolve(root));
  const candidate = join(rootReal, ...segments);
  if (candidate !== rootReal && !candidate.startsWith(rootReal + sep)) return undefined;
  try {
    // realpath catches symlinks pointing out; inside an asar archive (packaged app) it may be
    // unsupported, and the lexical check above already holds there.
    const real = await realpath(candidate).catch(() => candidate);
    if (real !== rootReal && !real.startsWith(rootReal + sep)) return undefined;
    const info = await stat(real);
    if (info.isDirectory()) return resolveStatic(root, `${urlPath.replace(/\/$/, '')}/index.html`);
    return info.isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Streams `file` with its MIME type and the given extra headers. */
export function sendFile(res: ServerResponse, file: string, headers: Record<string, string>): void {
  const cache = file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
  res.writeHead(200, { 'content-type': mimeOf(file), 'cache-control': cache, ...headers });
  createReadStream(file).pipe(res);
}
