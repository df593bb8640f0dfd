/**
 * The serve-mode key store: `OPENAI_API_KEY` from the environment, or a key the user typed in Settings,
 * kept in memory and in `$WORKBENCH_HOME/secrets.json` (mode 0600, plain text — protected only by file
 * permissions; the desktop app encrypts with the OS keychain through Electron safeStorage instead).
 * The key is never sent back to the browser.
 */
import { rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretPort } from '../api/handlers.ts';
import { writeFileAtomic } from '../fs/atomic-write.ts';

/** Creates the serve-mode SecretPort for `home`; `envKey` wins until the user types another key. */
export function createFileSecrets(home: string, envKey?: string): SecretPort & { readonly path: string } {
  const path = join(home, 'secrets.json');
  let fileKey: string | undefined;
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { openai_api_key?: unknown };
    if (typeof parsed.openai_api_key === 'string' && parsed.openai_api_key) fileKey = parsed.openai_api_key;
  } catch {
    // no file yet (or unreadable): no stored key
  }
  let typed = fileKey;
  return {
    path,
    get: () => typed ?? (envKey || undefined),
    storage: () => (typed ? 'server-file' : envKey ? 'env' : 'none'),
    warning: () =>
      typed ? `The key is stored unencrypted in ${path} (mode 0600). The desktop app uses the OS keychain instead.` : undefined,
    async set(apiKey) {
      if (!apiKey) {
        typed = undefined;
        await rm(path, { force: true });
        return;
      }
      await writeFileAtomic(path, `${JSON.stringify({ openai_api_key: apiKey })}\n`, { mode: 0o600 });
      typed = apiKey;
    },
  };
}
