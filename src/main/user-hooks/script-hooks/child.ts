/**
 * The script child's entry (docs/agents.md#script-hooks-create--next): reads one call line from stdin,
 * loads the user's script (TypeScript by Node's type stripping), calls its Create or Next with the
 * ctx shim and writes the result line. Runs in its own process, never in the workbench.
 */
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createScriptContext } from './ctx-shim.ts';
import type { ScriptCall, ScriptNote } from './protocol.ts';

const post = (note: ScriptNote): void => {
  process.stdout.write(`${JSON.stringify(note)}\n`);
};

// stdout carries only the protocol: the script's console output goes to stderr (kept in hook_runs).
console.log = console.error;
console.info = console.error;
console.debug = console.error;

async function readCall(): Promise<ScriptCall> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return JSON.parse(text) as ScriptCall;
}

/**
 * The script and the `.ts` files it imports are ES modules whatever the nearest package.json says: in
 * a folder whose package.json has `"type": "commonjs"`, `export function Create` would not load.
 */
function loadTypeScriptAsModules(): void {
  registerHooks({
    load(url, context, nextLoad) {
      if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) {
        return nextLoad(url, context);
      }
      const source = readFileSync(fileURLToPath(url));
      return { format: 'module-typescript', source, shortCircuit: true };
    },
  });
}

async function main(): Promise<void> {
  loadTypeScriptAsModules();
  const call = await readCall();
  const url = pathToFileURL(call.script).href;
  const mod = (await import(url)) as Record<string, unknown>;
  const fallback = mod.default as Record<string, unknown> | undefined;
  const fn = mod[call.fn] ?? fallback?.[call.fn];
  if (typeof fn !== 'function') {
    post({ t: 'result', value: null, absent: true });
    return;
  }
  const ctx = createScriptContext(call.ctx, post);
  const value: unknown = await (fn as (...args: unknown[]) => unknown)(ctx, ...call.args);
  post({ t: 'result', value: value ?? null });
}

main().catch((err: unknown) => {
  post({ t: 'error', message: err instanceof Error ? err.message : String(err) });
});
