// A copy of the built app (dist/) without the files whose names start with `prefix`: the
// page of a server that no longer has one of its chunks (rebuilt under it, or gone). Served
// by setting HOLDBAY_DIST to it before support.mjs is imported.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function distWithout(prefix) {
  const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
  const copy = mkdtempSync(join(tmpdir(), 'holdbay-dist-'));
  cpSync(dist, copy, { recursive: true });
  const removed = readdirSync(copy).filter((name) => name.startsWith(prefix));
  for (const name of removed) rmSync(join(copy, name));
  return { copy, removed, remove: () => rmSync(copy, { recursive: true, force: true }) };
}
