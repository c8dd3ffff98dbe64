// A page whose server no longer has its after-first-screen chunk (the dock, the tasks panel
// and the Scene, fetched once the tool list is drawn): the first screen still works, and
// the dock, the tasks panel and the Scene say why they are missing instead of panicking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appWithout } from './dist_without.mjs';

// The served app: a copy of dist/ without that chunk.
const app = await appWithout('split_after_first_screen-');
const { removed } = app;
const { openPage, clearAppStorage, screenshot } = await import('./support.mjs');
const { selectTool, shown } = await import('./ui.mjs');
const { assertAccessibleInBothSchemes } = await import('./axe.mjs');

test('without the after-first-screen chunk the tool list works and the later panels say why', async () => {
  assert.ok(removed.some((name) => name.endsWith('.wasm')), `the build has that chunk: ${removed}`);
  await clearAppStorage(app.browser.context, app.holdbay.url);
  const { page, errors } = await openPage(app.browser.context, `${app.holdbay.url}/`);
  await page.waitForSelector('.tool-name', { timeout: 15000 });
  const why = /could not fetch part of its own code/;
  assert.match(await (await shown(page, '.dock .error-notice')).innerText(), why);
  assert.match(await (await shown(page, '.tasks-column .error-notice')).innerText(), why);
  // The first screen lives on: a tool can still be chosen and its form shown.
  await selectTool(page, 'echo');
  await shown(page, '#call-panel button.call');
  await page.click('#view-scene');
  assert.match(await (await shown(page, '.scene-view .error-notice')).innerText(), why);
  await screenshot(page, '94-later-chunk-missing');
  await assertAccessibleInBothSchemes(page, assert, 'the Scene whose code could not be fetched');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '94-later-chunk-missing-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  // The only console errors are the loader's own report of the failed fetch.
  const unexpected = errors.filter((line) => !/split|chunk|wasm|module/i.test(line));
  assert.deepEqual(unexpected, []);
  await page.close();
});
