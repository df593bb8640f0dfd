/** Every regular file below `dir`, recursively: what a test greps for a secret that must not be there. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(p)));
    else if (entry.isFile()) out.push(p);
  }
  return out;
}
