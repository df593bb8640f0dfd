/** Public surface of the tools folder: the workspace guard and the tool factories. */
import type { Tool } from './types.ts';
import { createLsTool } from './ls.ts';
import { createReadFileTool } from './read-file.ts';
import { createWriteFileTool, type FileChangeListener } from './write-file.ts';
import { createEditFileTool } from './edit-file.ts';
import { createGlobTool } from './glob.ts';
import { createGrepTool, type GrepToolOptions } from './grep.ts';
import { createExecuteTool, type ExecuteToolOptions } from './execute.ts';

export { createWorkspace, isInside } from './path-guard.ts';
export { defineTool, toolOutput } from './types.ts';
export { createLsTool } from './ls.ts';
export { createReadFileTool } from './read-file.ts';
export { createWriteFileTool, type FileChangeListener } from './write-file.ts';
export { createEditFileTool } from './edit-file.ts';
export { createGlobTool } from './glob.ts';
export { createGrepTool, type GrepToolOptions } from './grep.ts';
export { createExecuteTool, type ExecuteToolOptions } from './execute.ts';
export { createWriteTodosTool, validateTodos } from './write-todos.ts';
export { runInProcessGroup, groupAlive, type GroupRunOptions, type GroupRunResult } from './process-group.ts';

/** Options of createFilesystemTools. */
export interface FilesystemToolsOptions {
  /** Told about every file written or edited (the hook passes `ctx.recordFile`). */
  onFileChange?: FileChangeListener;
  grep?: GrepToolOptions;
  execute?: ExecuteToolOptions;
}

/**
 * The seven workspace tools: ls, read_file, write_file, edit_file, glob, grep, execute. A new tool is
 * its own file plus one line here; its definition carries its policy (docs/tools.md).
 */
export function createFilesystemTools(opts: FilesystemToolsOptions = {}): Tool[] {
  return [
    createLsTool(),
    createReadFileTool(),
    createWriteFileTool({ onFileChange: opts.onFileChange }),
    createEditFileTool({ onFileChange: opts.onFileChange }),
    createGlobTool(),
    createGrepTool(opts.grep),
    createExecuteTool(opts.execute),
  ];
}
