/** settings.json under $WORKBENCH_HOME: read merged over defaults, written atomically, never with an API key. */
import { copyFileSync, existsSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, type WorkbenchSettings } from '../../shared/types/index.ts';
import { versionOf, writeFileAtomic } from '../fs/atomic-write.ts';
import { namesIfAny } from '../fs/list-if-any.ts';
import { homePaths } from './paths.ts';
import { deepMerge, findApiKeyFields, isPlainObject, settingsSchema } from './settings-schema.ts';

/** A partial settings object; nested objects may be partial too. */
export type SettingsPatch = { [K in keyof WorkbenchSettings]?: unknown } & Record<string, unknown>;

export interface SettingsStore {
  readonly path: string;
  /** Current settings over DEFAULT_SETTINGS. Contract: never throws for a bad file; see diagnostics(). */
  get(): WorkbenchSettings;
  /**
   * Deep-merges `patch`, validates and writes atomically. Contract: rejects (file untouched) a patch
   * with an api-key-looking field or an invalid value, and a file changed on disk mid-update (ConflictError).
   */
  update(patch: SettingsPatch): Promise<WorkbenchSettings>;
  /** Problems found by the last get()/update(): corrupt JSON (and where it was backed up), invalid fields. */
  diagnostics(): string[];
}

/** Removes temp files a crash left between write and rename (writeFileAtomic names them `.settings.json.<hex>.tmp`). */
function removeStrayTemps(home: string): void {
  for (const name of namesIfAny(home)) {
    if (/^\.settings\.json\.[0-9a-f]+\.tmp$/.test(name)) {
      try {
        unlinkSync(join(home, name));
      } catch {
        // Another process may have renamed or removed it first; nothing to clean.
      }
    }
  }
}

/** Creates the store for `<home>/settings.json`. Contract: stray temp files of an interrupted save are removed. */
export function createSettingsStore(home: string): SettingsStore {
  const path = homePaths(home).settings;
  removeStrayTemps(home);
  let diagnostics: string[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  let last: { raw: string | null; settings: WorkbenchSettings; problems: string[] } | undefined;

  function readRaw(): string | null {
    try {
      return readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Keeps a copy of a corrupt file (once per distinct content) so a later update never loses it. */
  function backUp(raw: string): string {
    const backup = `${path}.corrupt-${versionOf(raw)}`;
    if (!existsSync(backup)) copyFileSync(path, backup);
    return backup;
  }

  /** Parses and validates; invalid top-level fields fall back to their defaults, reported. */
  function resolve(raw: string | null): { settings: WorkbenchSettings; problems: string[] } {
    const problems: string[] = [];
    if (raw === null || raw.trim() === '')
      return { settings: structuredClone(DEFAULT_SETTINGS), problems };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.replace(/^\uFEFF/, ''));
    } catch (err) {
      parsed = undefined;
      problems.push(
        `${path}: not valid JSON (${(err as Error).message}); using defaults, copy kept at ${backUp(raw)}`,
      );
    }
    if (parsed !== undefined && !isPlainObject(parsed)) {
      problems.push(`${path}: expected a JSON object; using defaults, copy kept at ${backUp(raw)}`);
      parsed = undefined;
    }
    if (isPlainObject(parsed)) renameLegacyHookIds(parsed);
    const merged = deepMerge(structuredClone(DEFAULT_SETTINGS), parsed ?? {}) as unknown as Record<
      string,
      unknown
    >;
    const result = settingsSchema.safeParse(merged);
    if (!result.success) {
      const bad = new Set(result.error.issues.map((i) => String(i.path[0])));
      const backup = backUp(raw);
      for (const key of bad) {
        problems.push(
          `${path}: invalid "${key}", using the default (copy of the file kept at ${backup})`,
        );
        merged[key] = structuredClone(
          (DEFAULT_SETTINGS as unknown as Record<string, unknown>)[key],
        );
      }
    }
    return { settings: merged as unknown as WorkbenchSettings, problems };
  }

  async function doUpdate(patch: SettingsPatch): Promise<WorkbenchSettings> {
    const secrets = findApiKeyFields(patch);
    if (secrets.length > 0) {
      throw new Error(
        `settings.json never stores API keys (refused: ${secrets.join(', ')}); use the key store or OPENAI_API_KEY`,
      );
    }
    const raw = readRaw();
    const { settings, problems } = resolve(raw);
    const next = deepMerge(settings, patch);
    const result = settingsSchema.safeParse(next);
    if (!result.success) {
      throw new Error(
        `invalid settings: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    // The expected version makes a concurrent external edit a ConflictError instead of a silent overwrite.
    await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`, {
      expectedVersion: versionOf(raw),
    });
    diagnostics = problems;
    return next;
  }

  return {
    path,
    get() {
      // Read on every call so an edit applies at once; parsing and validating only when it changed
      // (the feed reads the webhooks at each flush, several times a round).
      const raw = readRaw();
      if (last?.raw !== raw) last = { raw, ...resolve(raw) };
      diagnostics = last.problems;
      return structuredClone(last.settings);
    },
    update(patch) {
      const run = queue.then(() => doUpdate(patch));
      queue = run.catch(() => undefined);
      return run;
    },
    diagnostics: () => [...diagnostics],
  };
}

/**
 * Executable hooks were once listed as `seed:<scope>:<name>`; their overrides (on/off, fail mode,
 * timeout) keep applying under today's `executable:<scope>:<name>` ids.
 */
function renameLegacyHookIds(parsed: Record<string, unknown>): void {
  const overrides = parsed.hook_overrides;
  if (!isPlainObject(overrides)) return;
  for (const id of Object.keys(overrides)) {
    if (!id.startsWith('seed:')) continue;
    const renamed = `executable:${id.slice('seed:'.length)}`;
    if (!(renamed in overrides)) overrides[renamed] = overrides[id];
    delete overrides[id];
  }
}
