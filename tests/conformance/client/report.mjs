// One client scenario run's verdict, from the suite's own files:
//   node report.mjs RESULTS_DIR
// prints the check counts, then each FAILURE or WARNING as `id: message`. Exits 3 when no
// check was recorded (the scenario did not run), 1 when any check failed or warned.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
const bad = [];
let recorded = 0;
// The suite writes <dir>/<scenario>-<time>/checks.json; an auth/* scenario's name makes
// that <dir>/auth/<name>-<time>/, so look at every depth.
function runDirs(at) {
  let names = [];
  try {
    names = readdirSync(at);
  } catch {
    return []; // No results: the suite failed before the scenario ran.
  }
  const dirs = names.map((name) => join(at, name)).filter((path) => statSync(path).isDirectory());
  return [...dirs, ...dirs.flatMap(runDirs)];
}
for (const run of runDirs(dir)) {
  let checks = [];
  try {
    checks = JSON.parse(readFileSync(join(run, 'checks.json'), 'utf8'));
  } catch {
    continue;
  }
  for (const check of checks) {
    counts[check.status] = (counts[check.status] ?? 0) + 1;
    if (check.status === 'FAILURE' || check.status === 'WARNING') {
      const why = check.errorMessage ?? check.details?.message ?? check.description;
      bad.push(`${check.status} ${check.id} (${check.name}): ${why}`);
    }
  }
  recorded += checks.length;
}
console.log(
  `${counts.SUCCESS} passed, ${counts.FAILURE} failed, ${counts.WARNING} warnings, ` +
    `${counts.SKIPPED} skipped`,
);
for (const line of bad) console.log(`    ${line}`);
if (recorded === 0) process.exitCode = 3;
else if (bad.length > 0) process.exitCode = 1;
