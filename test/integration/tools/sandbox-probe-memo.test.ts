/**
 * bubblewrap's probe, remembered in the workbench home: a second `workbench run` starts no probe
 * process and still says its commands are sandboxed; a changed bwrap is probed again.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/main/tools/sandbox/index.ts';
import { startFakeOpenAi } from '../../helpers/fake-openai-server.ts';
import { runCli, sandbox } from '../../helpers/run-cli.ts';

const availability = await detectSandbox();
const bwrap =
  availability.available && availability.engine === 'bubblewrap' ? availability.program : undefined;

describe.skipIf(!bwrap)('the remembered sandbox probe', () => {
  it('spares the next run the probe, until bwrap changes', async () => {
    const { home, workspace } = await sandbox();
    // A bwrap on PATH that logs every start, then is the real one.
    const bin = join(home, '..', 'bin');
    await mkdir(bin);
    const log = join(home, '..', 'bwrap.log');
    const wrapper = join(bin, 'bwrap');
    const writeWrapper = (note: string) =>
      writeFile(wrapper, `#!/bin/sh\n# ${note}\necho started >> '${log}'\nexec '${bwrap}' "$@"\n`);
    await writeWrapper('first');
    await chmod(wrapper, 0o755);
    await writeFile(log, '');
    const fake = await startFakeOpenAi({
      script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
    });
    try {
      const env = {
        home,
        workspace,
        baseURL: fake.baseURL,
        extra: { PATH: `${bin}:${process.env.PATH}` },
      };
      const starts = async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean).length;

      const first = await runCli(['run', 'hello'], env);
      expect(first.code).toBe(0);
      expect(first.stderr).toContain('commands: sandboxed (bubblewrap');
      expect(await starts()).toBe(1);

      const second = await runCli(['run', 'hello again'], env);
      expect(second.code).toBe(0);
      expect(second.stderr).toContain('commands: sandboxed (bubblewrap');
      expect(await starts()).toBe(1);

      await writeWrapper('upgraded');
      const third = await runCli(['run', 'and again'], env);
      expect(third.code).toBe(0);
      expect(await starts()).toBe(2);
    } finally {
      await fake.close();
    }
  });
});
