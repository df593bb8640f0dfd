// The CLI's startup snapshot (docs/performance.md#a-lean-start): Node's `--build-snapshot` runs the
// CLI bundled as one CommonJS script with every module `workbench run` needs evaluated, and saves the
// heap as out/cli/workbench.blob; `node --snapshot-blob` then starts with all of it in place instead
// of parsing and evaluating 2 MB of JavaScript. The launchers use the blob only while it is newer than
// every source file and than the Node binary that built it (out/cli/workbench.blob.node names it): a
// blob only loads in the exact Node version that wrote it.
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Built-ins a snapshot may hold. Node cannot snapshot node:http or node:sqlite (the sources load those
// at first use) and warns that child_process, readline, worker_threads… may be out of sync after
// deserialisation: every other built-in is loaded when first used, after the snapshot is deserialised.
const SNAPSHOT_SAFE = new Set([
  'assert',
  'buffer',
  'crypto',
  'events',
  'fs',
  'fs/promises',
  'os',
  'path',
  'stream',
  'string_decoder',
  'url',
  'util',
]);
const builtinNames = new Set(builtinModules.map((m) => m.replace(/^node:/, '')));

// Each deferred built-in becomes an object whose prototype loads the module at the first property
// read: esbuild's CommonJS interop copies own properties only, so nothing is read at evaluation.
const deferredBuiltins = {
  name: 'deferred-node-builtins',
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (!builtinNames.has(name) || SNAPSHOT_SAFE.has(name)) return undefined;
      // The shim's own require() is the real built-in.
      if (args.namespace === 'deferred-node-builtins')
        return { path: `node:${name}`, external: true };
      return { path: name, namespace: 'deferred-node-builtins' };
    });
    b.onLoad({ filter: /.*/, namespace: 'deferred-node-builtins' }, (args) => ({
      contents: `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(`node:${args.path}`)}));
module.exports = Object.create(new Proxy({}, {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
}));`,
      loader: 'js',
    }));
  },
};

// Ends the script: loads the modules `workbench run` needs, then names the CLI as the snapshot's
// main. What a module reads while it loads stays in the snapshot for every later start, so loading
// must not read the environment (process.env is proxied meanwhile) nor draw randomness (Node keeps a
// batch of UUIDs, process-tracking.ts a pool of marker bytes: every start would hand out the same
// ones); either fails the build.
const FOOTER = `{
  const { startupSnapshot } = require('node:v8');
  const crypto = require('node:crypto');
  const cli = module.exports;
  const env = process.env;
  const drawn = ['randomUUID', 'randomBytes', 'randomFillSync'];
  const originals = drawn.map((name) => crypto[name]);
  const read = [];
  process.env = new Proxy(env, {
    get: (target, key) => (read.push('process.env.' + String(key)), Reflect.get(target, key)),
    has: (target, key) => (read.push('process.env.' + String(key)), Reflect.has(target, key)),
    ownKeys: (target) => (read.push('the names in process.env'), Reflect.ownKeys(target)),
  });
  drawn.forEach((name, i) => (crypto[name] = (...args) => (read.push('crypto.' + name + '()'), originals[i](...args))));
  cli.loadForSnapshot().then(() => {
    process.env = env;
    drawn.forEach((name, i) => (crypto[name] = originals[i]));
    if (read.length > 0) {
      process.stderr.write('loading the CLI read ' + [...new Set(read)].join(', ') + '\\n');
      process.exit(1);
    }
  });
  startupSnapshot.setDeserializeMainFunction(() => {
    // Where this start's snapshot is, not where it was built (a copied checkout has its own).
    const at = process.execArgv.findIndex((a) => a === '--snapshot-blob' || a.startsWith('--snapshot-blob='));
    const blob = at < 0 ? undefined : process.execArgv[at].includes('=') ? process.execArgv[at].slice(16) : process.execArgv[at + 1];
    if (blob) {
      const path = require('node:path');
      __wbImportMetaUrl = require('node:url').pathToFileURL(path.join(path.dirname(path.resolve(blob)), 'workbench.mjs')).href;
    }
    cli.runAsProcess(process.argv.slice(1)).then((code) => { process.exitCode = code; });
  });
}`;

/**
 * Builds out/cli/workbench.blob with the running Node (Node 24 or newer, as the launchers need);
 * removes a blob it could not rebuild. Returns why there is no blob, or undefined.
 */
export async function buildCliSnapshot({ build, root, plugins }) {
  const dir = join(root, 'out', 'cli');
  const entry = join(dir, 'snapshot-entry.cjs');
  const blob = join(dir, 'workbench.blob');
  const written = `${blob}.${process.pid}.tmp`;
  // Without the name of its Node no launcher takes the snapshot: not while it is rebuilt, never when
  // the build failed. A whole new one replaces the old in one rename.
  rmSync(`${blob}.node`, { force: true });
  if (Number(process.versions.node.split('.')[0]) < 24) {
    rmSync(blob, { force: true });
    return `Node ${process.version} is older than 24`;
  }
  try {
    await build({
      entryPoints: [join(root, 'src/main/cli/main.ts')],
      outfile: entry,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node24',
      // The snapshot builder runs a plain script: no `module`; import.meta.url as the ESM bundle's
      // beside the snapshot (package-root.ts finds the checkout from it, shell-syntax.ts requires
      // beside it), set again when a start is deserialised.
      define: { 'import.meta.url': '__wbImportMetaUrl' },
      banner: {
        js: `var module = { exports: {} }, exports = module.exports;\nlet __wbImportMetaUrl = ${JSON.stringify(pathToFileURL(join(dir, 'workbench.mjs')).href)};`,
      },
      footer: { js: FOOTER },
      logLevel: 'warning',
      legalComments: 'none',
      // The script's source is part of the snapshot: a third smaller, a start 15 ms faster. Names kept.
      minifyWhitespace: true,
      minifySyntax: true,
      plugins: [deferredBuiltins, ...plugins],
    });
    const r = spawnSync(process.execPath, ['--snapshot-blob', written, '--build-snapshot', entry], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    if (r.status !== 0) {
      rmSync(blob, { force: true });
      return `node --build-snapshot failed: ${(r.stderr || r.stdout || String(r.signal)).trim().split('\n').slice(0, 3).join(' ')}`;
    }
    renameSync(written, blob);
    writeFileSync(`${blob}.node`, `${process.execPath}\n`);
    return undefined;
  } finally {
    rmSync(entry, { force: true });
    rmSync(written, { force: true });
  }
}
