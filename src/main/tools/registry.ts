/** Tools available to one run: registered by hooks in `beforeAgent`, rebuilt every run. */
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
      parameters: t.inputSchema ? { ...t.inputSchema } : toJsonSchema(t.parameters),
    }));
    return this.schemaCache;
  }
}

function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
