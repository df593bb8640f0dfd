/**
 * Times SQLite COMMITs (where synchronous=FULL pays its fsync) by wrapping DatabaseSync#exec in this
 * process, so a figure can say how much of a round is the disk and how much is our code.
 */
import { DatabaseSync } from 'node:sqlite';

export const commits = { count: 0, ms: 0 };
const exec = DatabaseSync.prototype.exec;
DatabaseSync.prototype.exec = function (this: DatabaseSync, sql: string) {
  if (sql !== 'COMMIT') return exec.call(this, sql);
  const t0 = performance.now();
  try {
    return exec.call(this, sql);
  } finally {
    commits.count++;
    commits.ms += performance.now() - t0;
  }
};
