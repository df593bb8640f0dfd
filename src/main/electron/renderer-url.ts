/**
 * Where the window loads the UI from. `electron-vite dev` sets ELECTRON_RENDERER_URL to its dev
 * server; a packaged app ignores it, so an environment variable can never point the installed app
 * (and its IPC bridge) at another page. docs/security.md.
 */

/**
 * The dev server URL to load, or undefined for the bundled UI.
 * Contract: undefined whenever `isPackaged`, or when the value is not an http(s) URL on this machine.
 */
export function devRendererUrl(env: NodeJS.ProcessEnv, isPackaged: boolean): string | undefined {
  const raw = env.ELECTRON_RENDERER_URL;
  if (isPackaged || !raw) return undefined;
  try {
    const url = new URL(raw);
    const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    return (url.protocol === 'http:' || url.protocol === 'https:') && local ? raw : undefined;
  } catch {
    return undefined;
  }
}
