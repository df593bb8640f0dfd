/** Runs one benchmark group as its own process: parses the common flags and prints its result as JSON. */
import type { GroupResult } from './stats.ts';

export interface GroupContext {
  /** `--quick`: sizes scaled down 10× (and fewer runs) for development on a shared machine. */
  quick: boolean;
  /** Scales a size for quick mode (10× smaller, at least `min`). */
  size(full: number, min?: number): number;
  /** Progress line on stderr (hidden with --json unless --verbose). */
  log(message: string): void;
}

/** Parses argv, runs `body`, writes the GroupResult to stdout as one JSON line; exits non-zero only on a crash. */
export async function runGroup(
  name: string,
  body: (ctx: GroupContext) => Promise<Omit<GroupResult, 'group' | 'quick'>>,
): Promise<void> {
  const argv = process.argv.slice(2);
  const quick = argv.includes('--quick');
  const verbose = argv.includes('--verbose');
  const ctx: GroupContext = {
    quick,
    size: (full, min = 1) => (quick ? Math.max(min, Math.round(full / 10)) : full),
    log: (message) => {
      if (verbose) process.stderr.write(`  [${name}] ${message}\n`);
    },
  };
  try {
    const result = await body(ctx);
    process.stdout.write(`${JSON.stringify({ group: name, quick, ...result })}\n`);
  } catch (err) {
    process.stderr.write(
      `[${name}] crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  }
}
