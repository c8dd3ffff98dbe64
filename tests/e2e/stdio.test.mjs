// stdio servers through `holdbay serve --stdio`: the FastMCP peer (tests/peers/fastmcp_peer.py)
// run on stdin/stdout and reached by the app at /stdio/peer, as a developer's local server
// is; and a process that crashes, which the app shows plainly.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHoldbay, fastmcpStdioArg, launchBrowser, openPage, screenshot } from './support.mjs';
import { selectTool, fillField, call, shown, confirmActionRound } from './ui.mjs';

let holdbay;
let browser;

before(async () => {
  holdbay = await startHoldbay([
    '--stdio', fastmcpStdioArg('peer'),
    '--stdio', "crash=sh -c 'read message; echo \"leaving now\" >&2; exit 3'",
    '--stdio', "late=sh -c 'read message; echo \"late to leave\" >&2; exit 4'",
  ]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  holdbay?.stop();
});

test('a stdio server through holdbay: its tools, a call, and an MRTR round', async () => {
  const server = `${holdbay.url}/stdio/peer`;
  const { page, errors } = await openPage(browser.context, `${holdbay.url}/?server=${encodeURIComponent(server)}`);
  await page.waitForSelector('.select-tool', { timeout: 30000 });
  const tools = await page.$$eval('.tool-name', (nodes) => nodes.map((n) => n.textContent).sort());
  assert.deepEqual(tools, ['confirm_action', 'deploy', 'echo', 'sleepy']);

  await selectTool(page, 'echo');
  await fillField(page.locator('#call-panel'), 'message', 'over a pipe');
  await call(page);
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /over a pipe/);

  assert.match(await confirmActionRound(page), /confirm_action\(ship it\): confirm=True requestState=round-1:ship it/);
  await screenshot(page, '45-stdio-fastmcp');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a stdio server that crashes: the page says how it ended, and the next try that it is gone', async () => {
  const server = `${holdbay.url}/stdio/crash`;
  const { page } = await openPage(browser.context, `${holdbay.url}/?server=${encodeURIComponent(server)}`);
  const first = await shown(page, '.error-message, .discover-error, [role="alert"]', { timeout: 30000 });
  assert.match(await first.textContent(), /exited with status 3/);
  await page.click('#connect');
  await page.waitForFunction(
    () => /is not running: it exited with status 3/.test(document.body.textContent),
    null,
    { timeout: 30000 },
  );
  await screenshot(page, '46-stdio-crashed');
  await page.close();
});

test('the connection bar lists the stdio servers: state, how one ended, its stderr, Restart and Use', async () => {
  const { page, errors } = await openPage(browser.context, `${holdbay.url}/`);
  const toggle = await shown(page, '.toggle-stdio', { timeout: 30000 });
  assert.match(await toggle.textContent(), /stdio\s*3/);
  await toggle.click();
  const late = await shown(page, '#stdio-menu .stdio-server[data-name="late"]');
  assert.equal(await late.getAttribute('data-state'), 'not started');
  assert.match(await late.locator('.stdio-command').textContent(), /^sh -c 'read message;/);

  // Restart starts it; a connect then meets the process that leaves with status 4.
  await late.locator('.stdio-restart').click();
  await page.waitForSelector('#stdio-menu .stdio-server[data-name="late"][data-state="running"]');
  await page.locator('#stdio-menu .stdio-server[data-name="late"] .stdio-use').click();
  await page.waitForFunction(() => /exited with status 4/.test(document.body.textContent), null, { timeout: 30000 });
  assert.equal(await page.inputValue('#server-url'), `${holdbay.url}/stdio/late`);

  await page.click('.toggle-stdio');
  const ended = await shown(page, '#stdio-menu .stdio-server[data-name="late"][data-state="ended"]');
  assert.match(await ended.locator('.stdio-ended').textContent(), /it exited with status 4/);
  await ended.locator('.stdio-stderr summary').click();
  assert.match(await ended.locator('.stdio-stderr pre').textContent(), /late to leave/);
  await screenshot(page, '47-stdio-menu');

  // Use on a working one connects to it.
  await page.locator('#stdio-menu .stdio-server[data-name="peer"] .stdio-use').click();
  await page.waitForSelector('.select-tool', { timeout: 30000 });
  const tools = await page.$$eval('.tool-name', (nodes) => nodes.map((n) => n.textContent).sort());
  assert.deepEqual(tools, ['confirm_action', 'deploy', 'echo', 'sleepy']);
  assert.deepEqual(errors, []);
  await page.close();
});
