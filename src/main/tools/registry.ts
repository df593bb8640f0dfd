/** Tools available to one run: registered by hooks in `beforeAgent` (an MCP server's kept current), rebuilt every run. */
import { z } from 'zod';
import type { ToolSchema } from '../llm/types.ts';
import type { Tool } from './types.ts';

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private schemaCache: ToolSchema[] | undefined;

  register(tool: Tool): void {
    this.tools.set(tool.name, tool);
    this.schemaCache = undefined;
  }

  /** Removes a tool (an MCP server's that the server no longer lists). */
  unregister(name: string): void {
    if (this.tools.delete(name)) this.schemaCache = undefined;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  /** JSON Schemas as the model sees them; computed once per registry. */
  schemas(): ToolSchema[] {
    this.schemaCache ??= this.list().map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.inputSchema ? { ...t.inputSchema } : toolJsonSchema(t.parameters),
    }));
    return this.schemaCache;
  }
}

// A schema converts once per process: the built-in tools' schemas are module constants, converted
// while the CLI's startup snapshot is built (cli/main.ts loadForSnapshot). Never mutated.
const converted = new WeakMap<z.ZodType, Record<string, unknown>>();

/** A tool's parameters as JSON Schema (input side, no `$schema`), as the model sees them. */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let json = converted.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    delete json.$schema;
    converted.set(schema, json);
  }
  return json;
}
