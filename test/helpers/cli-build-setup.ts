/**
 * Vitest global setup of the integration tests: rebuilds out/cli (the CLI bundle and its startup
 * snapshot) when a source file is newer, before any test starts a CLI — the tests then run what an
 * installed `workbench` runs. A failed build leaves the launchers on the sources; the launcher's own
 * tests (cli-launcher.test.ts) say so.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { cliBuildFresh } from '../../scripts/cli-build-fresh.mjs';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  if (cliBuildFresh(root)) return;
  spawnSync(process.execPath, [path.join(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
}
