// The first screen is for the tools: at 1280×720 and 1440×900 at least five tool names are in
// view with nothing over them, the dock starts folded and unfolds at the first call, a Call
// button is never under the dock, and a switch to another server is a clean switch (the call
// panel forgets the last server's tool; the wire log labels each row with its server and
// filters by it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHoldbay, launchBrowser, openCleanApp, screenshot } from './support.mjs';
import { call, selectTool, shown } from './ui.mjs';
import { startNamesServer } from './names/server.mjs';

let holdbay;
let browser;
let names;
before(async () => {
  holdbay = await startHoldbay();
  browser = await launchBrowser();
  names = await startNamesServer();
});
after(async () => {
  await browser?.close();
  holdbay?.stop();
  names?.stop();
});

/** The tool names whose whole box is in the viewport and is what the page draws on top there. */
function toolNamesInView(page) {
  return page.$$eval('#tools-panel .tool-name', (nodes) => nodes.filter((node) => {
    const box = node.getBoundingClientRect();
    const inside = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
    if (!inside || box.height === 0) return false;
    const top = document.elementFromPoint(box.left + Math.min(box.width / 2, 20), box.top + box.height / 2);
    return top !== null && (top === node || node.contains(top));
  }).map((node) => node.textContent));
}

/** The element's box is in the viewport, above the dock, and nothing covers its centre. */
async function assertUncovered(page, selector) {
  const verdict = await page.$eval(selector, (node) => {
    const box = node.getBoundingClientRect();
    const dock = document.querySelector('#dock').getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      box: [box.top, box.bottom], dockTop: dock.top,
      aboveDock: box.bottom <= dock.top, inView: box.top >= 0,
      onTop: top !== null && (top === node || node.contains(top)),
    };
  });
  assert.ok(verdict.inView && verdict.aboveDock && verdict.onTop, `${selector} is covered: ${JSON.stringify(verdict)}`);
}

for (const [width, height] of [[1280, 720], [1440, 900]]) {
  test(`at ${width}×${height} the first screen shows five tools and a Call button clear of the dock`, async () => {
    const { page, errors } = await openCleanApp(browser.context, holdbay.url);
    await page.setViewportSize({ width, height });
    await page.waitForSelector('#dock .dock-collapse');
    const scrolls = await page.evaluate(() => document.documentElement.scrollHeight > innerHeight);
    assert.equal(scrolls, false, 'the page itself does not scroll');
    const inView = await toolNamesInView(page);
    assert.ok(inView.length >= 5, `only ${inView.length} tool names in view: ${inView}`);
    // The server card is one line until opened; its facts are one click away.
    const card = page.locator('#discover-panel');
    assert.equal(await card.evaluate((node) => node.open), false);
    assert.match(await page.locator('.server-line').innerText(), /Holdbay demo server/);
    // Nothing of the user's own in the wire log yet: the dock is folded to its tabs.
    assert.equal(await page.getAttribute('#dock .dock-collapse', 'aria-expanded'), 'false');
    await screenshot(page, `05-first-screen-${width}x${height}`);

    await selectTool(page, 'book_table');
    await assertUncovered(page, '#call-panel button.call');
    await call(page);
    // The first call of the page's own unfolds the dock, and the Call button stays clear of it.
    await page.waitForSelector('#dock .dock-collapse[aria-expanded="true"]');
    await shown(page, '#wire-log .wire-entry[data-method="tools/call"]');
    await page.locator('#call-panel button.call').scrollIntoViewIfNeeded();
    await assertUncovered(page, '#call-panel button.call');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the user folding the dock is kept for the next visit', async () => {
  const { page, errors } = await openCleanApp(browser.context, holdbay.url);
  await page.click('#dock-tab-wire');
  assert.equal(await page.getAttribute('#dock .dock-collapse', 'aria-expanded'), 'true');
  await page.reload();
  await page.waitForSelector('.select-tool');
  await page.waitForSelector('#dock .dock-collapse[aria-expanded="true"]');
  await page.click('#dock .dock-collapse');
  await page.reload();
  await page.waitForSelector('#dock .dock-collapse[aria-expanded="false"]');
  await selectTool(page, 'book_table');
  await call(page);
  await shown(page, '#call-panel .input-request[data-key="party"]');
  assert.equal(await page.getAttribute('#dock .dock-collapse', 'aria-expanded'), 'false',
    'a dock the user folded stays folded through a call');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a switch to another server resets the call panel and the wire log labels and filters by server', async () => {
  const { page, errors } = await openCleanApp(browser.context, holdbay.url);
  await selectTool(page, 'book_table');
  await call(page);
  await shown(page, '#wire-log .wire-entry[data-method="tools/call"]');

  // Another server, typed into the connection bar.
  await page.fill('#server-url', names.url);
  await page.press('#server-url', 'Enter');
  await page.waitForSelector('#tools-panel .tool-name:text-is("ok_echo")', { timeout: 15000 });
  const panel = await page.locator('#call-panel').innerText();
  assert.match(panel, /Choose a tool to call it/, `the call panel still shows the last server's tool: ${panel}`);
  assert.equal(await page.locator('#call-panel button.call').count(), 0);

  // Both servers' rows stay, each labelled; the filter shows one server's.
  const demoHost = new URL(holdbay.url).host;
  const namesHost = new URL(names.url).host;
  await page.waitForFunction((host) => [...document.querySelectorAll('#wire-log .wire-server')]
    .some((cell) => cell.textContent.startsWith(host)), namesHost);
  const servers = await page.locator('#wire-log .wire-entry .wire-server').allTextContents();
  assert.ok(servers.some((s) => s.startsWith(demoHost)), `no row of the demo server: ${servers}`);
  assert.ok(servers.some((s) => s.startsWith(namesHost)), `no row of the second server: ${servers}`);
  assert.match(await page.locator('#wire-log .wire-columns').innerText(), /server/i);
  await page.selectOption('#wire-log .wire-filter-server', names.url);
  const filtered = await page.locator('#wire-log .wire-entry .wire-server').allTextContents();
  assert.ok(filtered.length > 0 && filtered.every((s) => s.startsWith(namesHost)), `filtered: ${filtered}`);
  await screenshot(page, '06-server-switch');
  assert.deepEqual(errors, []);
  await page.close();
});
