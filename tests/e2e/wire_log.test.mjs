// The wire log against the real `holdbay serve`: JSON-RPC ids and MRTR rounds in its
// columns, a task's notifications as rows, search, Copy as curl (run with the real curl),
// the call history's Re-run, recent servers across a reload, and no 404 on load (the
// favicon). Screenshots in light and dark for people to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { demoAndBrowser, openCleanApp, clearAppStorage, screenshot } from './support.mjs';
import { selectTool, fillField, answerInput, call, shown, waitForTaskStatus, askingCardOf } from './ui.mjs';

const run = promisify(execFile);

const app = demoAndBrowser(async ({ context, url }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
});

const openApp = () => openCleanApp(app.context, app.url);

/** The texts of every match of `selector`, in order. */
const texts = (page, selector) => page.locator(selector).allTextContents();

/** The tools/call requests the page sends, with their JSON bodies. */
function recordCalls(page) {
  const calls = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.headers()['mcp-method'] === 'tools/call') {
      calls.push(JSON.parse(request.postData() ?? '{}'));
    }
  });
  return calls;
}

async function bookTable(page) {
  await selectTool(page, 'book_table');
  await call(page);
  const card = await shown(page, '#call-panel .input-request[data-key="party"]');
  await fillField(card, 'size', '4');
  await fillField(card, 'time', '19:30');
  await answerInput(card, 'accept');
  await shown(page, '#call-panel .call-result');
}

test('book_table: both rounds show their JSON-RPC ids and round numbers; curl repeats one', async () => {
  const { page, errors } = await openApp();
  const sent = recordCalls(page);
  await bookTable(page);
  const rows = page.locator('.wire-entry[data-method="tools/call"]');
  await page.waitForFunction(() => document.querySelectorAll('.wire-entry[data-method="tools/call"] .wire-outcome:not(:empty)').length === 2);
  assert.deepEqual(await rows.locator('.wire-round').allTextContents(), ['round 1', 'round 2']);
  assert.deepEqual(await rows.locator('.wire-outcome').allTextContents(), ['input_required', 'complete']);
  // The ids in the log are the ids on the wire, one per round.
  const ids = await rows.locator('.wire-rpc-id').allTextContents();
  assert.deepEqual(ids, sent.map((body) => `#${body.id}`));
  assert.notEqual(ids[0], ids[1]);
  // Every request of the visit, in order and without gaps: a progress token takes no id.
  assert.deepEqual(await texts(page, '.wire-entry .wire-rpc-id'), ['#1', '#2', '#3', '#4']);

  // Opened: the request and each SSE event of the answer as pretty JSON trees.
  await page.click('.dock-size');
  await rows.nth(1).locator('.wire-summary').click();
  const details = await shown(page, '.wire-details');
  assert.match(await details.locator('.wire-side').first().textContent(), /"requestState"/);
  assert.ok((await details.locator('.json-line').count()) > 10);
  await screenshot(page, '60-wire-log-mrtr-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '61-wire-log-mrtr-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Copy the first round as curl, and run it: the real server answers it.
  await rows.nth(1).locator('.wire-summary').click();
  await rows.nth(0).locator('.wire-summary').click();
  await page.locator('.wire-details .copy-curl').click();
  await shown(page, '.wire-details .copy-status');
  const command = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(command, /^curl -sS -N -X POST 'http:\/\/127\.0\.0\.1:\d+\/mcp'/);
  assert.match(command, /-H 'Mcp-Name: book_table'/);
  const { stdout } = await run('sh', ['-c', `${command} -w '\\nHTTP %{http_code}'`], { timeout: 20000 });
  assert.match(stdout, /\nHTTP 200$/, stdout);
  assert.match(stdout, /input_required/, stdout);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a task\'s notifications show as rows under the exchange that carried them', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'run_pipeline');
  await fillField(page.locator('#call-panel'), 'duration_seconds', '2');
  await call(page);
  const task = await waitForTaskStatus(page, 'run_pipeline', 'input_required');
  const card = await shown(await askingCardOf(page, task), '.input-request[data-key="approve_prod"]');
  await fillField(card, 'approve', 'true');
  await answerInput(card, 'accept');
  await waitForTaskStatus(page, 'run_pipeline', 'completed', 30000);
  const taskId = await page.locator('.wire-entry[data-method="tools/call"] .wire-round').first().textContent();
  const id = taskId.match(/task (\S+)/)?.[1];
  assert.ok(id, taskId);
  const notes = page.locator(`.wire-note[data-method="notifications/tasks"][data-task="${id}"]`);
  await notes.first().waitFor({ timeout: 20000 });
  assert.match(await notes.last().textContent(), /completed/);
  // They arrived on the listen stream: their rows sit under its exchange.
  const carrier = page.locator('.wire-entry', { has: page.locator(`.wire-note[data-method="notifications/tasks"][data-task="${id}"]`) }).first();
  assert.equal(await carrier.getAttribute('data-method'), 'subscriptions/listen');
  assert.deepEqual(errors, []);
  await page.close();
});

test('search narrows the log; the history re-runs a call with the same arguments', async () => {
  const { page, errors } = await openApp();
  const sent = recordCalls(page);
  await selectTool(page, 'echo');
  await fillField(page.locator('#call-panel'), 'message', 'Line one, with "quotes"');
  await call(page);
  await shown(page, '#call-panel .call-result');
  await bookTable(page);

  await page.click('.dock-size');
  const all = await page.locator('.wire-entry').count();
  await page.fill('#wire-search', 'quotes');
  await page.waitForFunction((n) => document.querySelectorAll('.wire-entry').length < n, all);
  const names = await texts(page, '.wire-entry .wire-name');
  assert.ok(names.length >= 1 && names.every((name) => name === 'echo'), names.join());
  // Text inside a body: the answer the second round of book_table carried.
  await page.fill('#wire-search', 'book_table 19:30');
  await page.waitForFunction((n) => document.querySelectorAll('.wire-entry').length < n, all);
  const rounds = await texts(page, '.wire-entry .wire-round');
  assert.ok(rounds.includes('round 2'), rounds.join());
  assert.ok(!(await texts(page, '.wire-entry .wire-name')).includes('echo'));
  await page.locator('.wire-entry[data-round="2"] .wire-summary').click();
  await shown(page, '.wire-details');
  await screenshot(page, '62-wire-log-search-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '63-wire-log-search-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.fill('#wire-search', '');

  await page.click('#dock-tab-history');
  const echo = await shown(page, '.history-row[data-tool="echo"]');
  assert.match(await echo.locator('.history-arguments').textContent(), /Line one/);
  assert.match(await echo.locator('.history-outcome').textContent(), /complete/);
  assert.match(await page.locator('.history-row[data-tool="book_table"] .history-outcome').textContent(), /complete \(round 2\)/);
  await screenshot(page, '64-call-history-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '65-call-history-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  const before = sent.length;
  await echo.locator('.history-rerun').click();
  await page.waitForFunction(() => document.querySelectorAll('.history-row[data-tool="echo"]').length === 2);
  assert.equal(sent.length, before + 1);
  const first = sent.find((body) => body.params.name === 'echo');
  const again = sent[sent.length - 1];
  assert.equal(again.params.name, 'echo');
  assert.deepEqual(again.params.arguments, first.params.arguments);
  assert.notEqual(again.id, first.id);
  // The form shows the tool with those arguments.
  await shown(page, '#call-panel .call-tool:text-is("echo")');
  await shown(page, '#call-panel .call-result');
  assert.deepEqual(errors, []);
  await page.close();
});

test('recent servers survive a reload, without headers; nothing on load is a 404', async () => {
  const cleaner = await clearAppStorage(app.context, app.url);
  await cleaner.page.close();
  const page = await app.context.newPage();
  const missing = [];
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(app.url);
  await page.waitForSelector('.select-tool', { timeout: 15000 });
  const own = `${app.url}/mcp`;
  // Connect to a second server (through the relay, with a header not to remember), then
  // back to our own.
  const other = 'http://127.0.0.1:9/mcp';
  await page.fill('#server-url', other);
  await page.check('#route-relay');
  await page.click('.toggle-headers');
  await page.click('.add-header');
  await page.fill('.header-name', 'Authorization');
  await page.fill('.header-value', 'Bearer not-to-be-kept');
  await page.click('#connect');
  await page.waitForFunction((url) => document.querySelector('#endpoint-url')?.textContent === url, other);
  await page.reload();
  await page.waitForSelector('#connection-bar');
  const kept = await page.evaluate(() => localStorage.getItem('holdbay/recent-servers'));
  assert.ok(!kept.includes('not-to-be-kept') && !kept.includes('Authorization'), kept);
  await page.click('.toggle-recent');
  // The page URL names the other server now, so the reload went back to it: newest first.
  assert.deepEqual(await texts(page, '.recent-server .recent-connect'), [other, own]);
  assert.equal(await page.locator(`.recent-server[data-server="${other}"] .chip.relayed`).count(), 1);
  assert.equal(await page.locator('#recent-servers option').count(), 2);
  await screenshot(page, '66-recent-servers-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '67-recent-servers-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  // Back to our own server in one click, with its route.
  await page.click(`.recent-server[data-server="${own}"] .recent-connect`);
  await page.waitForSelector('.select-tool', { timeout: 15000 });
  assert.equal(await page.textContent('#endpoint-url'), own);
  // Removing one.
  await page.click('.toggle-recent');
  await page.click(`.recent-server[data-server="${other}"] .recent-forget`);
  assert.deepEqual(await texts(page, '.recent-server .recent-connect'), [own]);

  // The favicon: declared by the page, and /favicon.ico answers too.
  const icon = await page.getAttribute('link[rel="icon"]', 'href');
  assert.ok(icon, 'the page declares an icon');
  const favicon = await page.evaluate(async () => {
    const response = await fetch('/favicon.ico');
    return { status: response.status, type: response.headers.get('content-type') };
  });
  assert.deepEqual(favicon, { status: 200, type: 'image/svg+xml' });
  assert.deepEqual(missing, []);
  assert.deepEqual(errors, []);
  await page.close();
});
