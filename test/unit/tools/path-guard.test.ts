import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspace, isInside } from '../../../src/main/tools/path-guard.ts';
import { createWriteFileTool } from '../../../src/main/tools/write-file.ts';
import { createReadFileTool } from '../../../src/main/tools/read-file.ts';
import { PathOutsideWorkspaceError } from '../../../src/main/tools/workspace.ts';
import { exists, run, tempWorkspace, type TempWorkspace } from './helpers.ts';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

const outsideError = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(PathOutsideWorkspaceError);

describe('workspace path guard', () => {
  it('resolves relative and absolute paths inside the root', async () => {
    expect(t.ws.root).toBe(t.root);
    expect(await t.ws.resolve('a/b.txt')).toBe(path.join(t.root, 'a/b.txt'));
    expect(await t.ws.resolve(path.join(t.root, 'x'))).toBe(path.join(t.root, 'x'));
    expect(await t.ws.resolve('.')).toBe(t.root);
    expect(await t.ws.resolve('a/../b')).toBe(path.join(t.root, 'b'));
  });

  it('denies dotdot, absolute elsewhere and sibling prefixes', async () => {
    await outsideError(t.ws.resolve('../outside/x'));
    await outsideError(t.ws.resolve('../../etc/passwd'));
    await outsideError(t.ws.resolve('/etc/passwd'));
    await outsideError(t.ws.resolve(path.join(t.base, 'proj-evil', 'x')));
    await outsideError(t.ws.resolve('../proj-evil/x'));
    await expect(t.ws.resolve('/etc/passwd')).rejects.toThrow('path outside workspace');
  });

  it('takes the real folder of a workspace opened through a symlink, and refuses one that is gone', async () => {
    const link = path.join(t.base, 'proj-link');
    await fs.symlink(t.root, link);
    const viaLink = await createWorkspace(link);
    expect(viaLink.root).toBe(t.root);
    expect(await viaLink.resolve(path.join(link, 'a.txt'))).toBe(path.join(t.root, 'a.txt'));
    await expect(createWorkspace(path.join(t.base, 'no-such-project'))).rejects.toThrow(/ENOENT/);
  });

  it('keeps ~, $HOME and %2e literal, inside the root', async () => {
    expect(await t.ws.resolve('~/.ssh/id_rsa')).toBe(path.join(t.root, '~/.ssh/id_rsa'));
    expect(await t.ws.resolve('$HOME/.aws/credentials')).toBe(path.join(t.root, '$HOME/.aws/credentials'));
    expect(await t.ws.resolve('%2e%2e/%2e%2e/etc/passwd')).toBe(path.join(t.root, '%2e%2e/%2e%2e/etc/passwd'));
  });

  it('rejects NUL bytes and empty paths', async () => {
    await expect(t.ws.resolve('a\u0000b')).rejects.toThrow(/NUL/);
    await expect(t.ws.resolve('')).rejects.toThrow(/empty/);
  });

  it('denies a symlink pointing out, for reads and writes', async () => {
    await fs.writeFile(path.join(t.outside, 'secret'), 'x');
    await fs.symlink(t.outside, path.join(t.root, 'link'));
    await outsideError(t.ws.resolve('link/secret', 'read'));
    await outsideError(t.ws.resolve('link/new.txt', 'write'));
    const r = await run(createReadFileTool(), { path: 'link/secret' }, t.ctx);
    expect(r).toEqual({ ok: false, text: 'path outside workspace' });
  });

  it('denies a dangling symlink pointing out and creates nothing outside', async () => {
    const target = path.join(t.outside, 'sub', 'new.txt');
    await fs.symlink(target, path.join(t.root, 'out'));
    await outsideError(t.ws.resolve('out'));
    const r = await run(createWriteFileTool(), { path: 'out', content: 'pwned' }, t.ctx);
    expect(r).toEqual({ ok: false, text: 'path outside workspace' });
    expect(await exists(path.join(t.outside, 'sub'))).toBe(false);
  });

  it('denies a new file under a symlinked parent dir before any mkdir', async () => {
    await fs.symlink(t.outside, path.join(t.root, 'linkdir'));
    const r = await run(createWriteFileTool(), { path: 'linkdir/a/b/c.txt', content: 'x' }, t.ctx);
    expect(r).toEqual({ ok: false, text: 'path outside workspace' });
    expect(await fs.readdir(t.outside)).toEqual([]);
  });

  it('allows in-repo relative symlinks and resolves chains', async () => {
    await fs.mkdir(path.join(t.root, 'packages/pkg'), { recursive: true });
    await fs.mkdir(path.join(t.root, 'node_modules'));
    await fs.symlink('../packages/pkg', path.join(t.root, 'node_modules/pkg'));
    await fs.symlink('node_modules/pkg', path.join(t.root, 'chain'));
    expect(await t.ws.resolve('node_modules/pkg/index.js')).toBe(path.join(t.root, 'packages/pkg/index.js'));
    expect(await t.ws.resolve('chain/x')).toBe(path.join(t.root, 'packages/pkg/x'));
    // a dangling in-repo link resolves to where the write would land
    await fs.symlink('later/file.txt', path.join(t.root, 'dangling-in'));
    expect(await t.ws.resolve('dangling-in')).toBe(path.join(t.root, 'later/file.txt'));
  });

  it('reports a symlink loop as an error, not a crash', async () => {
    await fs.symlink('b', path.join(t.root, 'a'));
    await fs.symlink('a', path.join(t.root, 'b'));
    await expect(t.ws.resolve('a/x')).rejects.toThrow(/symlink loop/);
  });

  it('allows reads, never writes, under an extra read root', async () => {
    t.ws.addReadRoot(t.outside);
    expect(await t.ws.resolve(path.join(t.outside, 'SKILL.md'), 'read')).toBe(path.join(t.outside, 'SKILL.md'));
    await outsideError(t.ws.resolve(path.join(t.outside, 'SKILL.md'), 'write'));
    await outsideError(t.ws.resolve(path.join(t.base, 'proj-evil', 'x'), 'read'));
  });

  it('displays root-relative paths', async () => {
    expect(t.ws.display(path.join(t.root, 'src/a.ts'))).toBe('src/a.ts');
    expect(t.ws.display(t.root)).toBe('.');
    expect(t.ws.display(path.join(t.base, 'proj-evil/x'))).toBe(path.join(t.base, 'proj-evil/x'));
  });

  it('uses the real path of the root', async () => {
    await fs.symlink(t.root, path.join(t.base, 'alias'));
    const ws = await createWorkspace(path.join(t.base, 'alias'));
    expect(ws.root).toBe(t.root);
    expect(await ws.resolve(path.join(t.base, 'alias', 'f'))).toBe(path.join(t.root, 'f'));
  });

  it('isInside compares with a trailing separator', () => {
    expect(isInside('/ws/proj-evil/x', '/ws/proj')).toBe(false);
    expect(isInside('/ws/proj/x', '/ws/proj')).toBe(true);
    expect(isInside('/ws/proj', '/ws/proj')).toBe(true);
  });
});
