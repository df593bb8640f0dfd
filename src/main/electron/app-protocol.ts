/** Serves the built renderer from `app://workbench/` so the app has a real, checkable origin. */
import type { Protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { contentSecurityPolicy } from '../server/server.ts';
import { mimeOf, resolveStatic } from '../server/static-files.ts';
import { APP_SCHEME } from './sender-guard.ts';

/** Must run before `app.whenReady()`. */
export function registerAppScheme(protocol: Protocol): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Handles `app://workbench/<path>` from `rendererDir` (no traversal, SPA fallback). */
export function handleAppScheme(protocol: Protocol, rendererDir: string): void {
  const csp = contentSecurityPolicy('');
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = (await resolveStatic(rendererDir, url.pathname)) ?? (/\.[a-z0-9]+$/i.test(url.pathname) ? undefined : await resolveStatic(rendererDir, '/index.html'));
    if (!file) return new Response('not found', { status: 404 });
    return new Response(await readFile(file), { headers: { 'content-type': mimeOf(file), 'content-security-policy': csp } });
  });
}
