// Whether a build is stale, for the bench and the tests, which rebuild before they measure or run it:
// `newestMtime` for any build against its sources (the renderer too), and `cliBuildFresh` for out/cli
// — the CLI bundle and its startup snapshot — by the rule bin/workbench and bin/workbench.mjs follow.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What out/cli is built from: every file under `dirs` and the `files` (bin/workbench lists the same
 * in its `find`).
 */
export const CLI_BUILD_SOURCES = {
  dirs: ['src/main', 'src/shared'],
  files: ['package-lock.json', 'scripts/build-cli.mjs', 'scripts/cli-snapshot.mjs'],
};

/** The newest modification time of any file under `dir` (ms), for "is this build stale?" checks. */
export function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** True when the bundle and the snapshot (with the name of the Node that wrote it) are fresh. */
export function cliBuildFresh(root) {
  const built = ['workbench.mjs', 'workbench.blob', 'workbench.blob.node'].map((f) =>
    join(root, 'out', 'cli', f),
  );
  if (!built.every((f) => existsSync(f))) return false;
  const sources = Math.max(
    ...CLI_BUILD_SOURCES.dirs.map((d) => newestMtime(join(root, d))),
    ...CLI_BUILD_SOURCES.files.map((f) => statSync(join(root, f)).mtimeMs),
  );
  return built.slice(0, 2).every((f) => statSync(f).mtimeMs >= sources);
}
