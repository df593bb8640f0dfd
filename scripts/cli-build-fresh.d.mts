/** Types of cli-build-fresh.mjs, for the bench and the tests. */
export function cliBuildFresh(root: string): boolean;
export function newestMtime(dir: string): number;
export const CLI_BUILD_SOURCES: { dirs: string[]; files: string[] };
