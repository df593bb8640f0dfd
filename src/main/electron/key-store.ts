/**
 * The desktop key store: the API key encrypted with Electron safeStorage (OS keychain) in
 * `$WORKBENCH_HOME/key.enc`. Warns when Linux falls back to `basic_text` (no secret service):
 * then the file is only obfuscated. The key never goes to the renderer.
 */
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SafeStorage } from 'electron';
import type { SecretPort } from '../api/handlers.ts';

/** Creates the SecretPort over safeStorage; `envKey` is used when nothing is stored. */
export function createSafeStorageSecrets(safeStorage: SafeStorage, home: string, envKey?: string): SecretPort {
  const path = join(home, 'key.enc');
  const backend = () => (process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os');
  let key: string | undefined;
  try {
    if (safeStorage.isEncryptionAvailable()) key = safeStorage.decryptString(readFileSync(path));
  } catch {
    key = undefined; // no file, or encrypted by another keychain: ask again
  }
  return {
    get: () => key ?? envKey,
    storage: () => (key ? (backend() === 'basic_text' ? 'basic-text' : 'safe-storage') : envKey ? 'env' : 'none'),
    warning: () =>
      backend() === 'basic_text'
        ? 'No OS keychain (Secret Service / KWallet) was found, so the saved key is only obfuscated on disk. Prefer the OPENAI_API_KEY environment variable.'
        : undefined,
    async set(apiKey) {
      if (!apiKey) {
        key = undefined;
        rmSync(path, { force: true });
        return;
      }
      if (!safeStorage.isEncryptionAvailable()) throw new Error('the OS keychain is not available; set OPENAI_API_KEY instead');
      const tmp = `${path}.tmp`;
      writeFileSync(tmp, safeStorage.encryptString(apiKey), { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, path);
      key = apiKey;
    },
  };
}
