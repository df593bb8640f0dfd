import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

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
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      chunkSizeWarningLimit: 8000,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
