import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { devRendererUrl } from '../../../src/main/electron/renderer-url.ts';

describe('the packaged app', () => {
  it('burns the fuses that close Node and file:// back doors', () => {
    const config = parse(
      readFileSync(resolve(import.meta.dirname, '../../../electron-builder.yml'), 'utf8'),
    ) as {
      electronFuses: Record<string, boolean>;
    };
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('ignores ELECTRON_RENDERER_URL once packaged', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' };
    expect(devRendererUrl(env, true)).toBeUndefined();
    expect(devRendererUrl(env, false)).toBe('http://localhost:5173');
  });

  it('loads a dev server only from this machine', () => {
    expect(
      devRendererUrl({ ELECTRON_RENDERER_URL: 'https://evil.example/' }, false),
    ).toBeUndefined();
    expect(devRendererUrl({ ELECTRON_RENDERER_URL: 'file:///tmp/x.html' }, false)).toBeUndefined();
    expect(devRendererUrl({ ELECTRON_RENDERER_URL: 'not a url' }, false)).toBeUndefined();
    expect(devRendererUrl({}, false)).toBeUndefined();
  });
});
