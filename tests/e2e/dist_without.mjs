// The demo server serving a copy of the built app (dist/) without the files whose names start
// with `prefix`: the page of a server that no longer has one of its chunks (rebuilt under
// it, or gone). Registers the file's before/after hooks; `app.holdbay` and `app.browser` are
// set once the tests run.
import { before, after } from 'node:test';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export async function appWithout(prefix) {
  const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
  const copy = mkdtempSync(join(tmpdir(), 'holdbay-dist-'));
  cpSync(dist, copy, { recursive: true });
  const removed = readdirSync(copy).filter((name) => name.startsWith(prefix));
  for (const name of removed) rmSync(join(copy, name));
  // support.mjs reads it when first imported.
  process.env.HOLDBAY_DIST = copy;
  const { startHoldbay, launchBrowser } = await import('./support.mjs');
  const app = { removed, holdbay: null, browser: null };
  before(async () => {
    app.holdbay = await startHoldbay();
    app.browser = await launchBrowser();
  });
  after(async () => {
    await app.browser?.close();
    app.holdbay?.stop();
    rmSync(copy, { recursive: true, force: true });
  });
  return app;
}
