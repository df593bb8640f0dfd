import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextIfFile } from '../../../src/main/fs/read-text-if-file.ts';
import { readMcpFile } from '../../../src/main/mcp/config.ts';

describe('reading an optional config file', () => {
  it('gives the text of a file, nothing for a missing one or a folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wb-optional-'));
    await writeFile(join(dir, 'settings.json'), '{"a":1}');
    await mkdir(join(dir, 'folder.json'));
    expect(await readTextIfFile(join(dir, 'settings.json'))).toBe('{"a":1}');
    expect(await readTextIfFile(join(dir, 'missing.json'))).toBeUndefined();
    expect(await readTextIfFile(join(dir, 'settings.json', 'below'))).toBeUndefined();
    expect(await readTextIfFile(join(dir, 'folder.json'))).toBeUndefined();
  });

  it.runIf(process.platform !== 'win32')(
    'never waits on a FIFO planted by a repository',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'wb-optional-'));
      execFileSync('mkfifo', [join(dir, '.mcp.json'), join(dir, 'settings.json')]);
      expect(await readTextIfFile(join(dir, 'settings.json'))).toBeUndefined();
      expect(await readMcpFile(join(dir, '.mcp.json'))).toBe(
        `${join(dir, '.mcp.json')}: not a regular file`,
      );
    },
  );
});
