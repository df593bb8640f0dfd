/** The host's Unix sockets the sandbox hides from commands: which are found, which stay. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hostSocketPaths,
  userRuntimeDirs,
} from '../../../../src/main/tools/sandbox/host-sockets.ts';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'wb-run-')));
const servers: net.Server[] = [];
const listen = (rel: string) =>
  new Promise<void>((resolve) => {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    const server = net.createServer().listen(join(root, rel), () => resolve());
    servers.push(server);
  });

beforeAll(async () => {
  for (const rel of [
    'user/1000/bus',
    'docker.sock',
    'app/deep/control.sock',
    'systemd/journal/socket',
    'nscd/socket',
    'app/deep/deeper/too-deep.sock',
  ])
    await listen(rel);
  writeFileSync(join(root, 'plain.txt'), 'x');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(root, { recursive: true, force: true });
});

describe('hostSocketPaths', () => {
  it("hides the user's runtime folder whole and every other socket it finds, but the log and name-lookup ones", () => {
    const found = hostSocketPaths({
      runtimeDirs: [join(root, 'user/1000'), join(root, 'user/missing')],
      roots: [root],
    });
    expect(found.filter((p) => p.startsWith(root))).toEqual([
      join(root, 'user/1000'),
      join(root, 'docker.sock'),
      join(root, 'app/deep/control.sock'),
    ]);
  });

  it('takes only runtime folders under /run, so a stray XDG_RUNTIME_DIR never hides the home folder or /', () => {
    const uid = process.getuid!();
    expect(userRuntimeDirs({ XDG_RUNTIME_DIR: '/run/user/4242' })).toEqual([
      '/run/user/4242',
      `/run/user/${uid}`,
    ]);
    expect(userRuntimeDirs({ XDG_RUNTIME_DIR: '/' })).toEqual([`/run/user/${uid}`]);
    expect(userRuntimeDirs({ XDG_RUNTIME_DIR: '/home/me' })).toEqual([`/run/user/${uid}`]);
    expect(userRuntimeDirs({ XDG_RUNTIME_DIR: 'run/user/1' })).toEqual([`/run/user/${uid}`]);
  });
});
