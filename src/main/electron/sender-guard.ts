/** Pure checks for IPC senders and external links (unit-tested without Electron). */

/** The origin the app's renderer is served from (custom protocol, see app-protocol.ts). */
export const APP_SCHEME = 'app';
const APP_HOST = 'workbench';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Minimal shape of Electron's WebFrameMain used by the guard. */
export interface FrameLike {
  url: string;
  parent?: FrameLike | null;
}

/** True when `url` belongs to one of `origins` (exact origin match; `null`/opaque never passes). */
export function isAppUrl(url: string, origins: readonly string[]): boolean {
  try {
    const u = new URL(url);
    const origin = u.protocol === `${APP_SCHEME}:` ? `${u.protocol}//${u.host}` : u.origin;
    return origin !== 'null' && origins.includes(origin);
  } catch {
    return false;
  }
}

/**
 * True when an IPC message comes from the app's main frame at the app origin.
 * Contract: a missing frame, a sub-frame (iframe) or another origin fails.
 */
export function isTrustedSender(frame: FrameLike | null | undefined, mainFrame: FrameLike | null | undefined, origins: readonly string[]): boolean {
  if (!frame || !mainFrame || frame !== mainFrame) return false;
  if (frame.parent) return false;
  return isAppUrl(frame.url, origins);
}

/** Only https: links leave the app (after the user confirms). */
export function isAllowedExternal(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
