// A page whose server no longer has one of its chunks (the app rebuilt under it, the server
// gone): the release build fetches the engine-work chunk at the first call; when that fetch
// fails, the call ends with an error that says so, the page keeps working (no panic), and the
// next call tries again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appWithout } from './dist_without.mjs';

// The served app: a copy of dist/ without that chunk.
const app = await appWithout('split_engine_work-');
const { removed } = app;
const { openPage, clearAppStorage, screenshot } = await import('./support.mjs');
const { selectTool, fillField, call, shown } = await import('./ui.mjs');
const { assertAccessibleInBothSchemes } = await import('./axe.mjs');

test('a call whose chunk cannot be fetched fails with that reason, and the page lives on', async () => {
  assert.ok(removed.some((name) => name.endsWith('.wasm')), `the build has an engine-work chunk: ${removed}`);
  await clearAppStorage(app.browser.context, app.holdbay.url);
  const { page, errors } = await openPage(app.browser.context, `${app.holdbay.url}/`);
  await page.waitForSelector('.tool-name', { timeout: 15000 });
  await selectTool(page, 'echo');
  await fillField(page.locator('#call-panel'), 'message', 'hello');
  await call(page);
  const failure = await shown(page, '#call-panel .call-error');
  assert.match(await failure.innerText(), /could not fetch part of its own code/);
  await screenshot(page, '93-chunk-missing');
  // The error is read in both colour schemes (contrast, roles), and seen in the dark one too.
  await assertAccessibleInBothSchemes(page, assert, 'a call whose code could not be fetched');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '93-chunk-missing-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  // No panic: the page still answers, and a second call tries the fetch again.
  await call(page);
  await shown(page, '#call-panel .call-error');
  await selectTool(page, 'book_table');
  // The only console errors are the loader's own report of the failed fetch.
  const unexpected = errors.filter((line) => !/split|chunk|wasm|module/i.test(line));
  assert.deepEqual(unexpected, []);
  await page.close();
});
