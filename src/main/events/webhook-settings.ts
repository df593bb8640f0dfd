/**
 * The configured webhooks for the feed recorder, which asks at every flush (each tick with run
 * events, e.g. every hook's end): the settings file is read again only when it changed (inode, size
 * or mtime), so an edit still applies at the next flush without a read and a parse per flush.
 */
import { statSync } from 'node:fs';
import type { WebhookSettings } from '../../shared/types/index.ts';
import type { SettingsStore } from '../store/settings-store.ts';

/** Contract: returns what `store.get().webhooks` would return now. */
export function webhooksFrom(
  store: Pick<SettingsStore, 'path' | 'get'>,
): () => readonly WebhookSettings[] {
  let seen: string | undefined;
  let hooks: readonly WebhookSettings[] = [];
  return () => {
    let version: string;
    try {
      const st = statSync(store.path, { throwIfNoEntry: false });
      version = st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'none';
    } catch {
      return store.get().webhooks ?? [];
    }
    if (version !== seen) {
      hooks = store.get().webhooks ?? [];
      seen = version;
    }
    return hooks;
  };
}
