// Prints the check counts of one scenario run: node count-checks.mjs RESULTS_DIR
// (the suite writes RESULTS_DIR/<run>/checks.json). Exits 3 when no check was recorded,
// so a scenario the suite skipped as a whole (or a misspelt name) does not pass silently.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
let runs = [];
let recorded = 0;
try {
  runs = readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory());
} catch {
  // No results: the suite failed before running the scenario.
}
for (const run of runs) {
  let checks = [];
  try {
    checks = JSON.parse(readFileSync(join(dir, run, 'checks.json'), 'utf8'));
  } catch {
    continue;
  }
  for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  recorded += checks.length;
}
console.log(
  `${counts.SUCCESS} passed, ${counts.FAILURE} failed, ${counts.WARNING} warnings, ` +
    `${counts.SKIPPED} skipped`,
);
if (recorded === 0) process.exitCode = 3;
