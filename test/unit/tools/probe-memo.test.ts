import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeRemembered, rememberProbe } from '../../../src/main/tools/sandbox/probe-memo.ts';

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'wb-probe-memo-'));
  const program = join(dir, 'bwrap');
  await writeFile(program, '#!/bin/sh\n');
  return { dir, program, memo: join(dir, 'home', 'sandbox-probe.json') };
}

describe('the remembered sandbox probe', () => {
  it('is trusted for the same bwrap under the same conditions, and kept private', async () => {
    const { program, memo } = await setup();
    expect(probeRemembered(memo, program)).toBe(false);
    await rememberProbe(memo, program);
    expect(probeRemembered(memo, program)).toBe(true);
    expect((await stat(memo)).mode & 0o777).toBe(0o600);
  });

  it('is not trusted once bwrap changed, or for another bwrap', async () => {
    const { dir, program, memo } = await setup();
    await rememberProbe(memo, program);
    const other = join(dir, 'other-bwrap');
    await writeFile(other, '#!/bin/sh\n');
    expect(probeRemembered(memo, other)).toBe(false);
    await writeFile(program, '#!/bin/sh\n# upgraded\n');
    expect(probeRemembered(memo, program)).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'is not trusted after a reboot (another boot id)',
    async () => {
      const { program, memo } = await setup();
      await rememberProbe(memo, program);
      const recorded = JSON.parse(await readFile(memo, 'utf8')) as { conditions: string };
      // The same memo as written on another boot: only the boot id differs.
      const conditions = JSON.parse(recorded.conditions) as unknown[];
      const bootAt = conditions.findIndex(
        (c) => typeof c === 'string' && /^[0-9a-f-]{36}$/.test(c),
      );
      expect(bootAt).toBeGreaterThan(0);
      conditions[bootAt] = '00000000-0000-0000-0000-000000000000';
      await writeFile(memo, JSON.stringify({ conditions: JSON.stringify(conditions) }));
      expect(probeRemembered(memo, program)).toBe(false);
    },
  );

  it('ignores a memo that is garbage, empty or missing', async () => {
    const { program, memo, dir } = await setup();
    expect(probeRemembered(join(dir, 'missing.json'), program)).toBe(false);
    await rememberProbe(memo, program);
    for (const text of ['', 'not json', '{"conditions": 42}', 'null', '[]']) {
      await writeFile(memo, text);
      expect(probeRemembered(memo, program)).toBe(false);
    }
  });
});
