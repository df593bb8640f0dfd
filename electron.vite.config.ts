import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

// The built page also carries its CSP as a meta tag (defence in depth under the server/protocol
// headers); dev builds skip it because React refresh injects an inline preamble.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; " +
  "font-src 'self' data:; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";
const cspMeta: Plugin = {
  name: 'workbench-csp-meta',
  apply: 'build',
  transformIndexHtml: (html) => html.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`),
};

// main: ESM out/main/index.js (package.json "main"); preload: CommonJS, because a sandboxed preload
// cannot be an ES module (toolchain.md pitfall 6); renderer: React app rooted at src/renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve('src/main/electron/main.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { preload: resolve('src/main/electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react(), cspMeta],
    build: {
      outDir: 'out/renderer',
      chunkSizeWarningLimit: 8000,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
