/** Makes sure out/renderer holds a build at least as new as src/renderer (builds with electron-vite if not). */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { newestMtime } from '../../scripts/cli-build-fresh.mjs';

/** Returns the renderer folder, or an error text when there is no renderer or the build fails. */
export function ensureRenderer(
  root: string,
  log: (m: string) => void,
): { dir: string } | { error: string } {
  const src = path.join(root, 'src/renderer');
  const dir = path.join(root, 'out/renderer');
  if (!existsSync(path.join(src, 'index.html')))
    return { error: 'renderer not built yet (no src/renderer/index.html)' };
  const index = path.join(dir, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newestMtime(src)) return { dir };
  log('building the renderer (electron-vite build)…');
  const r = spawnSync(path.join(root, 'node_modules/.bin/electron-vite'), ['build'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0 || !existsSync(index))
    return {
      error: `electron-vite build failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`,
    };
  return { dir };
}
