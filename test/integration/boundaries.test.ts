/**
 * Architecture boundaries: src/shared imports nothing outside itself; only src/main/electron imports
 * 'electron'; the renderer never imports src/main; the core never imports a face (cli/, server/,
 * electron/). And the core loads in plain Node, without Electron.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx|mts)$/.test(name)) out.push(p);
  }
  return out;
}

const importRe =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(importRe)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
}

const rel = (f: string) => relative(root, f);

describe('module boundaries', () => {
  it('src/shared imports only from src/shared (no node:*, electron, react, DOM libraries)', () => {
    const offenders: string[] = [];
    for (const file of sources(join(root, 'src/shared'))) {
      for (const spec of importsOf(file)) {
        const inside =
          spec.startsWith('.') && resolve(dirname(file), spec).startsWith(join(root, 'src/shared'));
        if (!inside && spec !== 'zod') offenders.push(`${rel(file)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("only src/main/electron imports 'electron'", () => {
    const offenders = sources(join(root, 'src'))
      .filter((f) => !rel(f).startsWith('src/main/electron/'))
      .flatMap((f) =>
        importsOf(f)
          .filter((s) => s === 'electron' || s.startsWith('electron/'))
          .map((s) => `${rel(f)} → ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the renderer never imports src/main or Node built-ins', () => {
    const offenders = sources(join(root, 'src/renderer')).flatMap((f) =>
      importsOf(f)
        .filter(
          (s) =>
            s.startsWith('node:') ||
            (s.startsWith('.') && resolve(dirname(f), s).startsWith(join(root, 'src/main'))),
        )
        .map((s) => `${rel(f)} → ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the core never imports a face (src/main/cli, src/main/server, src/main/electron)', () => {
    const faces = ['cli', 'server', 'electron'].map((f) => join(root, 'src/main', f));
    const inFace = (path: string) => faces.some((f) => path === f || path.startsWith(`${f}/`));
    const offenders = sources(join(root, 'src/main'))
      .filter((f) => !inFace(f))
      .flatMap((f) =>
        importsOf(f)
          .filter((s) => s.startsWith('.') && inFace(resolve(dirname(f), s)))
          .map((s) => `${rel(f)} → ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the core service loads in plain Node without Electron', async () => {
    const mod = await import('../../src/main/api/workbench.ts');
    expect(typeof mod.createWorkbench).toBe('function');
  });
});
