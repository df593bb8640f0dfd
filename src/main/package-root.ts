/**
 * The folder holding the workbench's package.json, found by walking up from this module, so paths
 * like `out/renderer` resolve the same from the TypeScript sources and from the bundled CLI.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'agent-workbench') return (cached = dir);
      } catch {
        // An unreadable manifest is not ours; keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the agent-workbench package root');
    dir = parent;
  }
}
