/** The desktop workflow parses and runs what the repository actually has: scripts, spec and builder targets. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '../../..');
const workflow = parse(readFileSync(join(root, '.github/workflows/desktop.yml'), 'utf8')) as {
  on: Record<string, unknown>;
  jobs: Record<
    string,
    {
      'runs-on': string;
      strategy?: { matrix: { include: Array<{ os: string; target: string }> } };
      steps: Array<{ run?: string; uses?: string }>;
    }
  >;
};
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const runs = (job: string) => workflow.jobs[job]!.steps.flatMap((s) => (s.run ? [s.run] : []));

describe('.github/workflows/desktop.yml', () => {
  it('runs on pushes and pull requests', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
  });

  it('every npm script it runs exists in package.json', () => {
    const all = Object.keys(workflow.jobs).flatMap(runs);
    const scripts = all.flatMap((r) => [...r.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!));
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(pkg.scripts).toHaveProperty(s);
  });

  it('runs the Electron e2e spec under xvfb after fetching the Electron binary', () => {
    const steps = runs('electron-e2e');
    const spec = steps.find((r) => r.includes('playwright test'));
    expect(spec).toMatch(/^xvfb-run .*npx playwright test test\/e2e\/electron\.spec\.ts$/);
    expect(existsSync(join(root, 'test/e2e/electron.spec.ts'))).toBe(true);
    expect(steps.indexOf('node node_modules/electron/install.js')).toBeLessThan(
      steps.indexOf(spec!),
    );
  });

  it('builds installers on Linux, macOS and Windows with electron-builder', () => {
    const job = workflow.jobs['installers']!;
    const matrix = job.strategy!.matrix.include;
    expect(matrix.map((m) => m.os).sort()).toEqual([
      'macos-latest',
      'ubuntu-latest',
      'windows-latest',
    ]);
    expect(matrix.map((m) => m.target).sort()).toEqual(['--linux', '--mac', '--win']);
    expect(runs('installers')).toContain(
      'npx electron-builder ${{ matrix.target }} --publish never',
    );
    expect(existsSync(join(root, 'electron-builder.yml'))).toBe(true);
  });
});
