// The same user flows against a third-party server: a FastMCP 4.1.4 + fastmcp-tasks 4.1.4
// peer (tests/peers/fastmcp_peer.py), reached directly (it sends CORS headers).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHoldbay, startFastmcpPeer, launchBrowser, openPage, screenshot } from './support.mjs';
import { selectTool, fillField, answerInput, call, shown, confirmActionRound, waitForTaskStatus, askingCardOf } from './ui.mjs';

let holdbay;
let peer;
let browser;

before(async () => {
  [holdbay, peer] = await Promise.all([startHoldbay(), startFastmcpPeer()]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  peer?.stop();
  holdbay?.stop();
});

async function openPeer() {
  const opened = await openPage(browser.context, `${holdbay.url}/?server=${encodeURIComponent(peer.url)}`);
  await opened.page.waitForSelector('.select-tool', { timeout: 20000 });
  return opened;
}

test('FastMCP: discovery names the peer and its tools', async () => {
  const { page, errors } = await openPeer();
  const tools = await page.$$eval('.tool-name', (nodes) => nodes.map((n) => n.textContent).sort());
  assert.deepEqual(tools, ['confirm_action', 'deploy', 'echo', 'sleepy']);
  await screenshot(page, '40-fastmcp-discover');
  assert.deepEqual(errors, []);
  await page.close();
});

test('FastMCP: an MRTR round through the form, then the result', async () => {
  const { page, errors } = await openPeer();
  assert.match(await confirmActionRound(page), /confirm_action\(ship it\): confirm=True requestState=round-1:ship it/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('FastMCP: a task that asks for input, answered through tasks/update', async () => {
  const { page, errors } = await openPeer();
  await selectTool(page, 'deploy');
  await fillField(page.locator('#call-panel'), 'env', 'staging');
  await call(page);
  const task = await waitForTaskStatus(page, 'deploy', 'input_required', 30000);
  await screenshot(page, '41-fastmcp-task-input');
  const card = (await askingCardOf(page, task)).locator('.input-request').first();
  await fillField(card, 'approved', 'true');
  await answerInput(card, 'accept');
  const done = await waitForTaskStatus(page, 'deploy', 'completed', 40000);
  assert.match(await done.locator('.task-result').textContent(), /deployed to staging/);
  assert.deepEqual(errors, []);
  await page.close();
});
