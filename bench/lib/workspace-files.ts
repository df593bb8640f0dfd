/** The source file the scripted model asks read_file for: ~4 KB, 100 lines of TypeScript. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const READ_PATH = 'src/router.ts';

export function writeReadTarget(workspace: string): void {
  const lines: string[] = [];
  for (let i = 0; i < 100; i++)
    lines.push(
      `export const route${i} = (req: Request): string => table.get('/path/${i}') ?? 'none';`,
    );
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  writeFileSync(path.join(workspace, READ_PATH), `${lines.join('\n')}\n`);
}
