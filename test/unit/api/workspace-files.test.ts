/** The composer's `@` completion: workspace files and folders, .gitignore and node_modules left out. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listWorkspaceFiles } from '../../../src/main/api/workspace-files.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ws-files-'));
  for (const dir of ['src/lib', 'node_modules/pkg', 'build'])
    mkdirSync(join(root, dir), { recursive: true });
  for (const file of [
    'src/lib/util.ts',
    'src/main.ts',
    'node_modules/pkg/index.js',
    'build/out.js',
    'README.md',
  ])
    writeFileSync(join(root, file), '');
  writeFileSync(join(root, '.gitignore'), 'build/\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('listWorkspaceFiles', () => {
  it('lists files and the folders holding them, names starting with the query first', async () => {
    expect(await listWorkspaceFiles(root, 'lib')).toEqual(['src/lib/', 'src/lib/util.ts']);
    expect(await listWorkspaceFiles(root, 'src')).toEqual([
      'src/',
      'src/lib/',
      'src/main.ts',
      'src/lib/util.ts',
    ]);
  });

  it('leaves out ignored files and node_modules', async () => {
    expect(await listWorkspaceFiles(root, '')).toEqual(
      expect.not.arrayContaining(['build/', 'build/out.js', 'node_modules/pkg/index.js']),
    );
    expect(await listWorkspaceFiles(root, 'js')).toEqual([]);
  });
});
