/**
 * The files `Read(…)` and `Edit(…)` deny rules and `sandbox.filesystem` deny lists cover, as a
 * sandbox holds them: bubblewrap and seatbelt take paths, not patterns, so a pattern is turned into
 * the paths it covers now — one path when it names one, the matching files and folders of the
 * workspace when it has wildcards or matches a name at any depth (`.env`). A wildcard pattern
 * elsewhere (`~/**\/*.pem`) cannot be listed without walking the whole disk: it is reported, not
 * hidden. The allow lists pass through as paths.
 */
import { realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { entriesIfAny } from '../fs/list-if-any.ts';
import { globToSource, hasGlobMagic } from '../tools/glob-pattern.ts';
import { isInside } from '../tools/path-guard.ts';
import { rulePathPattern, type RuleWhere } from '../user-hooks/claude-rules.ts';
import type { SandboxPaths } from '../tools/sandbox/index.ts';
import type { PermissionRule } from './permission-rules.ts';
import type { SandboxPathEntry } from './claude-sandbox-settings.ts';

/** Entries of the workspace looked at per command, at most. */
const MAX_ENTRIES = 50_000;
/** Paths one command is kept from, at most (each is a mount). */
const MAX_PATHS = 2_000;
/** Folders a walk does not enter: a pattern that means them names them (`.git/config`). */
const NOT_ENTERED = new Set(['.git', 'node_modules']);
const WRITE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

type Target = { kind: 'path'; path: string } | { kind: 'walk'; regex: RegExp } | { kind: 'none' };

/** How a rule's pattern becomes paths. */
function targetOf(spec: string, where: RuleWhere): Target {
  const p = rulePathPattern(spec, where);
  if (!p) return { kind: 'none' };
  // `dir/**` and `dir/*` cover the folder: hiding the folder covers them; `~/**` covers home.
  const folder = p.pattern === '**' ? '' : p.pattern.replace(/\/\*\*?$/, '');
  const named = !hasGlobMagic(folder);
  if (p.base !== where.workspace)
    return named && join(p.base, folder) !== '/'
      ? { kind: 'path', path: join(p.base, folder) }
      : { kind: 'none' };
  if (named && !p.anywhere) return { kind: 'path', path: join(p.base, folder) };
  return { kind: 'walk', regex: p.regex };
}

/** How a `sandbox.filesystem` deny entry (absolute) becomes paths: a pattern is walked in the workspace. */
function entryTarget(path: string, workspace: string): Target {
  if (!hasGlobMagic(path)) return { kind: 'path', path };
  if (!isInside(path, workspace)) return { kind: 'none' };
  return { kind: 'walk', regex: new RegExp(`^${globToSource(relative(workspace, path))}$`) };
}

/** A deny rule a sandbox can hold, with the access it denies. */
interface SandboxRule {
  rule: PermissionRule;
  spec: string;
  access: 'read' | 'write';
}

/** What a sandbox holds from commands, from a rule or a deny list. */
interface Held {
  access: 'read' | 'write';
  target: Target;
  untrusted?: true;
}

/** The deny rules a sandbox can hold: `Read(…)` ones for reading, `Edit(…)` (and `Write(…)`) ones for writing. */
function sandboxRules(rules: readonly PermissionRule[]): SandboxRule[] {
  return rules.flatMap((r): SandboxRule[] => {
    const spec = r.rule.specifier;
    if (r.behavior !== 'deny' || spec === undefined || spec === '*') return [];
    if (r.rule.tool === 'Read') return [{ rule: r, spec, access: 'read' }];
    if (WRITE_TOOLS.has(r.rule.tool)) return [{ rule: r, spec, access: 'write' }];
    return [];
  });
}

/** The workspace's files and folders (relative, `/`-separated) one of `regexes` matches; a matching folder is not entered. */
function walkMatches(
  root: string,
  regexes: readonly RegExp[],
): { found: Map<RegExp, string[]>; complete: boolean } {
  const found = new Map<RegExp, string[]>(regexes.map((r) => [r, []]));
  const queue: string[] = [''];
  let seen = 0;
  for (let next = 0; next < queue.length && seen < MAX_ENTRIES; next++) {
    const dir = queue[next]!;
    for (const e of entriesIfAny(join(root, dir))) {
      if (++seen > MAX_ENTRIES) break;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      const hits = regexes.filter((r) => r.test(rel));
      for (const r of hits) found.get(r)!.push(join(root, rel));
      if (hits.length === 0 && e.isDirectory() && !NOT_ENTERED.has(e.name)) queue.push(rel);
    }
  }
  return { found, complete: seen <= MAX_ENTRIES };
}

/** Whether `path`, links followed, lies in `workspace` (a missing path does not). */
function realInside(path: string, workspace: string): boolean {
  try {
    return isInside(realpathSync(path), workspace);
  } catch {
    return false;
  }
}

/**
 * How the commands of a run find the paths `rules` and the `sandbox.filesystem` `entries` keep from
 * them or open to them, looked up at each command.
 * Contract: undefined when neither names a path a sandbox can hold.
 */
export function sandboxPathsFinder(
  rules: readonly PermissionRule[],
  where: RuleWhere,
  entries: readonly SandboxPathEntry[] = [],
): (() => SandboxPaths) | undefined {
  const targets: Held[] = [
    ...sandboxRules(rules).map((r) => ({
      access: r.access,
      target: targetOf(r.spec, where),
      ...(r.rule.untrusted ? { untrusted: true as const } : {}),
    })),
    ...entries.flatMap((e): Held[] =>
      e.list === 'denyRead' || e.list === 'denyWrite'
        ? [
            {
              access: e.list === 'denyRead' ? 'read' : 'write',
              target: entryTarget(e.path, where.workspace),
              ...(e.untrusted ? { untrusted: true as const } : {}),
            },
          ]
        : [],
    ),
  ];
  const allowed = (list: SandboxPathEntry['list']) =>
    entries.filter((e) => e.list === list).map((e) => e.path);
  const allowedRead = allowed('allowRead');
  const allowedWrite = allowed('allowWrite');
  const opens = allowedRead.length + allowedWrite.length > 0;
  if (!opens && !targets.some((t) => t.target.kind !== 'none')) return undefined;
  return () => {
    const regexes = targets.flatMap((t) => (t.target.kind === 'walk' ? [t.target.regex] : []));
    const walked = regexes.length ? walkMatches(where.workspace, regexes) : undefined;
    const out = { read: new Set<string>(), write: new Set<string>() };
    for (const t of targets) {
      const paths =
        t.target.kind === 'path'
          ? [t.target.path]
          : t.target.kind === 'walk'
            ? (walked?.found.get(t.target.regex) ?? [])
            : [];
      for (const p of paths)
        if (!t.untrusted || realInside(p, where.workspace)) out[t.access].add(p);
    }
    const limits = [
      ...(walked?.complete === false
        ? [
            `the sandbox looked for the files your permission rules cover among the workspace's first ${MAX_ENTRIES} entries only`,
          ]
        : []),
      ...(out.read.size + out.write.size > MAX_PATHS
        ? [
            `the sandbox held ${MAX_PATHS} of the ${out.read.size + out.write.size} paths your permission rules cover from this command, not the rest`,
          ]
        : []),
    ];
    const read = [...out.read].slice(0, MAX_PATHS);
    const write = [...out.write].slice(0, MAX_PATHS - read.length);
    return {
      deniedRead: read,
      deniedWrite: write,
      ...(opens ? { allowedRead, allowedWrite } : {}),
      ...(limits.length ? { limits } : {}),
    };
  };
}

/** The deny rules whose files a sandboxed command is not kept from (a wildcard pattern outside the workspace). */
export function rulesNotInSandbox(
  rules: readonly PermissionRule[],
  where: RuleWhere,
): PermissionRule[] {
  return sandboxRules(rules)
    .filter((r) => r.access === 'read' && targetOf(r.spec, where).kind === 'none')
    .map((r) => r.rule);
}
