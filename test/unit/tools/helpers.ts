/** Temp workspaces for tool tests: <tmp>/proj (the root), <tmp>/outside and <tmp>/proj-evil next to it. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWorkspace } from '../../../src/main/tools/path-guard.ts';
import { toolOutput, type Tool, type ToolContext } from '../../../src/main/tools/types.ts';
import { parseToolArgs } from '../../../src/main/tools/call-policy.ts';
import type { Workspace } from '../../../src/main/tools/workspace.ts';

export interface TempWorkspace {
  base: string;
  root: string;
  outside: string;
  ws: Workspace;
  ctx: ToolContext;
  controller: AbortController;
  cleanup(): Promise<void>;
}

export async function tempWorkspace(): Promise<TempWorkspace> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wb-tools-')));
  const root = path.join(base, 'proj');
  const outside = path.join(base, 'outside');
  await fs.mkdir(root);
  await fs.mkdir(outside);
  await fs.mkdir(path.join(base, 'proj-evil'));
  const ws = await createWorkspace(root);
  const controller = new AbortController();
  const ctx: ToolContext = {
    callId: 'call_1',
    workspace: ws,
    signal: controller.signal,
    state: { thread_id: 't', messages: [], todos: [], files: {} },
  };
  return { base, root, outside, ws, ctx, controller, cleanup: () => fs.rm(base, { recursive: true, force: true }) };
}

/** Writes files given as {relative path: content} under `dir`. */
export async function writeTree(dir: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  }
}

/** Runs a tool as dispatch does (arguments validated first) and returns its output or the error message. */
export async function run(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<{ ok: boolean; text: string }> {
  const parsed = parseToolArgs(tool, args);
  if (!parsed.ok) return { ok: false, text: `invalid arguments for ${tool.name}: ${parsed.issues}` };
  try {
    return { ok: true, text: toolOutput(await tool.execute(parsed.args, ctx)).content };
  } catch (err) {
    return { ok: false, text: (err as Error).message };
  }
}

export async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}
