// A server with 10,000 tools (`holdbay serve --fixtures many-tools`: the demo's 13, then
// generated ones, 500 a page): the list counts them all yet draws only a window of rows, keeps
// the height of the whole list, reaches the last tool by scrolling, finds a tool deep in the
// list and opens its call form, and the arrow keys walk from tool to tool past the first
// window. Functional only: bench-tools.mjs measures how fast.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHoldbay, launchBrowser, openCleanApp, screenshot } from './support.mjs';
import { selectTool } from './ui.mjs';
import { assertAccessibleInBothSchemes } from './axe.mjs';

const TOTAL = 10000;
// The last of the fixture's generated tools (crates/server/src/many_tools.rs: 25 services ×
// 20 verbs × 20 objects, in that order, after the demo's 13 tools).
const LAST = 'zendesk_summarize_milestone';
const DEEP = 'zendesk_watch_alert';

let holdbay;
let browser;
before(async () => {
  holdbay = await startHoldbay(['--fixtures', 'many-tools']);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  holdbay?.stop();
});

/** The app on the 10,000-tool server, once every page is listed. */
async function openListed() {
  const opened = await openCleanApp(browser.context, holdbay.url);
  await opened.page.waitForFunction((total) => document.querySelector('#tool-count')?.textContent === String(total)
    && document.querySelector('#tools-panel .tool-list')?.getAttribute('aria-busy') === 'false', TOTAL, { timeout: 60000 });
  return opened;
}

/** The tool rows in the DOM, and the names of those whose name the column shows. */
function drawnRows(page) {
  return page.evaluate(() => {
    const column = document.querySelector('.server-column').getBoundingClientRect();
    const rows = [...document.querySelectorAll('#tools-panel .tool')];
    const inView = rows.filter((row) => {
      const name = row.querySelector('.tool-name').getBoundingClientRect();
      return name.top >= column.top && name.bottom <= column.bottom && name.height > 0;
    });
    return {
      count: rows.length,
      inView: inView.map((row) => row.querySelector('.tool-name').textContent),
      positions: rows.map((row) => Number(row.getAttribute('aria-posinset'))),
    };
  });
}

/** Scroll the tools' column so that `fraction` of it is above (1: the end). */
async function scrollColumn(page, fraction) {
  await page.evaluate((at) => {
    const column = document.querySelector('.server-column');
    column.scrollTop = (column.scrollHeight - column.clientHeight) * at;
  }, fraction);
  // Two frames: the window follows the scroll, then the rows it drew are measured.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

test('10,000 tools are counted, a window of them is drawn, and scrolling reaches the last', async () => {
  const { page, errors } = await openListed();
  const first = await drawnRows(page);
  assert.ok(first.count >= 5 && first.count <= 300, `${first.count} rows in the DOM for ${TOTAL} tools`);
  assert.ok(first.inView.length >= 5, `tools in view: ${first.inView}`);
  assert.equal(first.inView[0], 'book_table', 'the demo tools come first, in server order');
  const setSize = await page.getAttribute('#tools-panel .tool', 'aria-setsize');
  assert.equal(setSize, String(TOTAL), 'each row says how long the list is');
  // The list keeps the height of all its rows, so the scrollbar tells where one is.
  const height = await page.$eval('#tools-panel .tool-list', (list) => list.getBoundingClientRect().height);
  assert.ok(height > TOTAL * 30, `the list is ${height} px tall`);

  await scrollColumn(page, 0.5);
  const middle = await drawnRows(page);
  assert.ok(middle.count <= 300, `${middle.count} rows in the DOM in the middle`);
  assert.ok(middle.inView.length >= 3, `tools in view in the middle: ${middle.inView}`);
  const around = middle.positions[Math.floor(middle.positions.length / 2)];
  assert.ok(around > 3000 && around < 7000, `the middle of the list shows tool #${around}`);
  await screenshot(page, 'many-tools-middle-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'many-tools-middle-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Rows measured on the way can change the list's height: scroll to the end until it holds.
  let end;
  for (let tries = 0; tries < 5; tries += 1) {
    await scrollColumn(page, 1);
    end = await drawnRows(page);
    if (end.inView.includes(LAST)) break;
  }
  assert.ok(end.inView.includes(LAST), `the last tool is not in view at the end: ${end.inView}`);
  assert.equal(Math.max(...end.positions), TOTAL);
  assert.ok(end.count <= 300, `${end.count} rows in the DOM at the end`);
  await assertAccessibleInBothSchemes(page, assert, 'the list scrolled to its end');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a search finds a tool deep in the list, and choosing it opens its call form', async () => {
  const { page, errors } = await openListed();
  await page.fill('#tool-search', DEEP);
  await page.waitForFunction(() => document.querySelector('#tool-count')?.textContent === '1');
  assert.match(await page.locator('#tools-panel h2').textContent(), new RegExp(`of ${TOTAL}`));
  assert.deepEqual(await page.locator('#tools-panel .tool-name').allTextContents(), [DEEP]);
  await selectTool(page, DEEP);
  // Its input schema made the form: an `id` to fill and a `notify` choice.
  await page.waitForSelector('#call-panel [name="id"]');
  assert.equal(await page.locator('#call-panel [name="notify"]').count(), 1);
  assert.equal(await page.getAttribute('#tools-panel .tool.selected .select-tool', 'aria-pressed'), 'true');

  // A broader search: hundreds of matches, still a window of rows.
  await page.fill('#tool-search', 'invoice');
  await page.waitForFunction(() => Number(document.querySelector('#tool-count')?.textContent) > 400);
  const rows = await drawnRows(page);
  assert.ok(rows.count < 300, `${rows.count} rows drawn for a search of hundreds`);
  assert.ok(rows.inView.every((name) => name.includes('invoice')), `${rows.inView}`);
  await screenshot(page, 'many-tools-search-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'many-tools-search-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Emptied, the search gives every tool back.
  await page.fill('#tool-search', '');
  await page.waitForFunction((total) => document.querySelector('#tool-count')?.textContent === String(total), TOTAL);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the arrow keys walk from tool to tool past the first window of rows', async () => {
  const { page, errors } = await openListed();
  const focused = () => page.evaluate(() => {
    const row = document.activeElement?.closest('li.tool');
    return row ? {
      position: Number(row.getAttribute('aria-posinset')),
      name: row.querySelector('.tool-name').textContent,
    } : null;
  });
  const firstWindow = await drawnRows(page);
  const steps = Math.max(...firstWindow.positions) + 5;
  await page.focus('#tools-panel .tool .select-tool');
  assert.equal((await focused()).position, 1);
  for (let step = 1; step <= steps; step += 1) {
    await page.keyboard.press('ArrowDown');
    const now = await focused();
    assert.equal(now?.position, step + 1, `after ${step} × ArrowDown: ${JSON.stringify(now)}`);
  }
  // The focused tool is in view; Enter chooses it.
  const chosen = await focused();
  const inView = await drawnRows(page);
  assert.ok(inView.inView.includes(chosen.name), `${chosen.name} is not in view: ${inView.inView}`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`#call-panel .call-tool:text-is("${chosen.name}")`);
  await page.focus(`#tools-panel .tool[aria-posinset="${chosen.position}"] .select-tool`);
  await page.keyboard.press('ArrowUp');
  assert.equal((await focused()).position, chosen.position - 1);
  // Tab leaves the tool for the next one, as without a window.
  await page.keyboard.press('Tab');
  assert.equal((await focused()).position, chosen.position);
  assert.deepEqual(errors, []);
  await page.close();
});
