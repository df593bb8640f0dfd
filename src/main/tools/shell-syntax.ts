/**
 * The shell parser the command policy reads commands with: mvdan/sh (the parser behind shfmt), in its
 * JavaScript build `mvdan-sh`, giving a full bash syntax tree synchronously. Loaded on first use
 * (about 0.1 s) so runs that never check a command do not pay for it.
 */
import { createRequire } from 'node:module';

/** A syntax tree node as mvdan-sh hands it out; fields are read by node type (see `nodeType`). */
export type ShNode = Record<string, unknown> & { readonly __shNode?: never };

interface SyntaxApi {
  NewParser(): { Parse(src: string, name: string): ShNode };
  NodeType(node: ShNode): string;
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
}

let api: SyntaxApi | undefined;

function syntax(): SyntaxApi {
  if (!api) {
    const load = createRequire(import.meta.url);
    api = (load('mvdan-sh') as { syntax: SyntaxApi }).syntax;
  }
  return api;
}

/**
 * Parses a command as bash.
 * Contract: returns the File node, or undefined when the text is not valid bash (never throws).
 */
export function parseShell(command: string): ShNode | undefined {
  try {
    return syntax().NewParser().Parse(command, '');
  } catch {
    return undefined;
  }
}

/** The node's type name (`CallExpr`, `Word`, `Lit`, `CmdSubst`…), as mvdan/sh's syntax package names it. */
export function nodeType(node: ShNode): string {
  return syntax().NodeType(node);
}

/** Every node under `root`, in source order (a node before its children). */
export function walkShell(root: ShNode, visit: (node: ShNode) => void): void {
  syntax().Walk(root, (node) => {
    if (node) visit(node);
    return true;
  });
}

/**
 * Where a node starts and ends in the source, as one key. mvdan-sh hands out a fresh object each
 * time a field is read, so nodes are told apart by position, never by identity.
 */
export function nodeKey(node: ShNode): string {
  return nodeOffsets(node).join(':');
}

/** Where a node starts and ends, as byte offsets into the parsed source (UTF-8). */
export function nodeOffsets(node: ShNode): [number, number] {
  const pos = (node.Pos as () => { Offset(): number })();
  const end = (node.End as () => { Offset(): number })();
  return [pos.Offset(), end.Offset()];
}

/** A node's list field (Stmts, Args, Parts, Redirs…) as an array; absent lists are empty. */
export function list(node: ShNode | null | undefined, field: string): ShNode[] {
  const value = node?.[field] as Iterable<ShNode> | null | undefined;
  return value ? [...value] : [];
}

/** A node's child node field (Cmd, X, Y, Word…), or undefined. */
export function child(node: ShNode | null | undefined, field: string): ShNode | undefined {
  const value = node?.[field];
  return value ? (value as ShNode) : undefined;
}

/** The operator codes mvdan/sh uses for redirections and binary commands (checked by tests). */
export const SH_OP = {
  andStmt: 10,
  orStmt: 11,
  pipe: 12,
  pipeAll: 13,
  redirOut: 54,
  appOut: 55,
  redirIn: 56,
  rdrInOut: 57,
  dplIn: 58,
  dplOut: 59,
  clbOut: 60,
  hdoc: 61,
  dashHdoc: 62,
  wordHdoc: 63,
  rdrAll: 64,
  appAll: 65,
  paramTransform: 84,
} as const;

/** Redirection targets that are not files (`2>/dev/null`, `>/dev/stderr`). */
export const NOT_A_FILE = /^\/dev\/(null|stdout|stderr|tty|fd\/[0-9]+)$/;

const WRITING_REDIRECTS: readonly number[] = [
  SH_OP.redirOut,
  SH_OP.appOut,
  SH_OP.rdrInOut,
  SH_OP.clbOut,
  SH_OP.rdrAll,
  SH_OP.appAll,
  SH_OP.dplOut,
];

/**
 * What a redirection with operator `op` does to the file `target` names: `>`, `>>`, `>|`, `&>`,
 * `<>` and `>&name` write it, `<` and `<>` read it; `2>&1` and `<&-` name no file.
 */
export function redirectAccess(op: number, target: string): { writes: boolean; reads: boolean } {
  const dup = op === SH_OP.dplOut || op === SH_OP.dplIn;
  if (dup && /^([0-9]+-?|-)$/.test(target)) return { writes: false, reads: false };
  return {
    writes: WRITING_REDIRECTS.includes(op),
    reads: op === SH_OP.redirIn || op === SH_OP.rdrInOut,
  };
}
