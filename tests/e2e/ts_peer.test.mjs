// The same user flows against a server on the official TypeScript SDK v2
// (@modelcontextprotocol/server 2.4.0, tests/peers/ts/server.mjs). It sends no CORS
// headers, so the app is opened with `&relay=1` and every request goes through holdbay's
// relay: a plain call, one and two MRTR rounds, a decline, URL-mode consent; then a prompt
// and a resource template that each pause for input (MRTR on prompts/get and
// resources/read) and the static resources.
//
// The peer's packages are installed by scripts/install-tools.sh (npm ci in tests/peers/ts);
// without them every test here fails and says so: nothing is skipped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHoldbay, launchBrowser, openCleanApp, screenshot, root } from './support.mjs';
import { selectTool, fillField, answerInput, call, shown } from './ui.mjs';
import * as library from './library.mjs';

const peerDir = join(root, 'tests', 'peers', 'ts');

/** The TS SDK v2 peer on a free loopback port (PORT=0); resolves with its /mcp URL. */
function startTsPeer() {
  const child = spawn(process.execPath, [join(peerDir, 'server.mjs')], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolveUrl, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the TS peer did not start:\n${output}`)), 20000);
    const onData = (chunk) => {
      output += chunk;
      const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      if (match) {
        clearTimeout(timer);
        resolveUrl({ url: match[1], stop: () => child.kill() });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the TS peer exited with ${code}:\n${output}`));
    });
  });
}

let holdbay;
let peer;
let browser;

before(async () => {
  // Checked before anything starts, so a missing install fails every test with this message.
  assert.ok(existsSync(join(peerDir, 'node_modules', '@modelcontextprotocol', 'server')),
    'the TS peer is not installed: run scripts/install-tools.sh (npm ci in tests/peers/ts)');
  [holdbay, peer] = await Promise.all([startHoldbay(), startTsPeer()]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  peer?.stop();
  holdbay?.stop();
});

const openPeer = () => openCleanApp(browser.context, holdbay.url, {
  path: `/?server=${encodeURIComponent(peer.url)}&relay=1`,
  ready: '.select-tool',
});

test('TS SDK v2: discovery through the relay names the peer and its tools', async () => {
  const { page, errors } = await openPeer();
  assert.match(await page.textContent('#discover-panel'), /holdbay-ts-peer/);
  await shown(page, '.connection-status .chip.relayed');
  const tools = await page.$$eval('.tool-name', (nodes) => nodes.map((n) => n.textContent).sort());
  assert.deepEqual(tools, ['confirm_action', 'echo', 'link_account', 'plan_trip']);
  // The dock is built after the tool list is drawn (the after-first-screen chunk), so its
  // entries are waited for, not counted the moment the tools appear.
  const relayed = await page.waitForFunction(() => document.querySelectorAll('#dock .wire-entry').length >= 2,
    null, { timeout: 15000 }).then(() => true, () => false);
  assert.ok(relayed, 'discovery and the lists are in the wire log');
  await screenshot(page, '45-ts-peer-discover');
  assert.deepEqual(errors, []);
  await page.close();
});

test('TS SDK v2: a plain call', async () => {
  const { page, errors } = await openPeer();
  await selectTool(page, 'echo');
  await fillField(page.locator('#call-panel'), 'message', 'hello from Holdbay');
  await call(page);
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /hello from Holdbay/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('TS SDK v2: one MRTR round (a form), the signed state echoed, then the result', async () => {
  const { page, errors } = await openPeer();
  await selectTool(page, 'confirm_action');
  await fillField(page.locator('#call-panel'), 'action', 'ship it');
  await call(page);
  const card = await shown(page, '#call-panel .input-request[data-key="confirm"]');
  assert.match(await page.textContent('#call-panel .request-state'), /^v1\./);
  await fillField(card, 'confirm', 'true');
  await answerInput(card, 'accept');
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /confirm_action\(ship it\): confirm=true \(state of round 1 verified\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('TS SDK v2: two MRTR rounds, each retry carrying only its own answer', async () => {
  const { page, errors } = await openPeer();
  const retries = [];
  page.on('request', (request) => {
    const body = request.method() === 'POST' ? request.postDataJSON() : null;
    if (body?.params?.name === 'plan_trip' && body.params.inputResponses) retries.push(body.params);
  });
  await selectTool(page, 'plan_trip');
  await fillField(page.locator('#call-panel'), 'destination', 'Oslo');
  await call(page);
  let card = await shown(page, '#call-panel .input-request[data-key="dates"]');
  await fillField(card, 'dates', '12–19 May');
  await answerInput(card, 'accept');
  card = await shown(page, '#call-panel .input-request[data-key="budget"]:not(.answered)');
  assert.match(await page.textContent('#call-panel .round-counter'), /2/);
  await screenshot(page, '46-ts-peer-second-round');
  await fillField(card, 'budget', '1500');
  await answerInput(card, 'accept');
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /Trip to Oslo on 12–19 May within 1500 EUR \(planned in 2 rounds\)/);
  assert.deepEqual(retries.map((params) => Object.keys(params.inputResponses)), [['dates'], ['budget']]);
  assert.notEqual(retries[0].requestState, retries[1].requestState);
  assert.deepEqual(errors, []);
  await page.close();
});

test('TS SDK v2: declining the first round ends the call with the server\'s answer', async () => {
  const { page, errors } = await openPeer();
  await selectTool(page, 'plan_trip');
  await fillField(page.locator('#call-panel'), 'destination', 'Bergen');
  await call(page);
  const card = await shown(page, '#call-panel .input-request[data-key="dates"]');
  await answerInput(card, 'decline');
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /No trip to Bergen: decline/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('TS SDK v2: URL-mode consent on the peer\'s own page, then the call completes', async () => {
  const { page, errors } = await openPeer();
  await selectTool(page, 'link_account');
  await fillField(page.locator('#call-panel'), 'service', 'GitHub');
  await call(page);
  const pagesBefore = browser.context.pages().length;
  const card = await shown(page, '#call-panel .input-request[data-key="consent"]');
  assert.equal(browser.context.pages().length, pagesBefore, 'nothing opened before consent');
  assert.match(await card.textContent(), /127\.0\.0\.1/);
  await card.locator('.url-consent').click();
  const [consentPage] = await Promise.all([
    browser.context.waitForEvent('page'),
    card.locator('.open-page').click(),
  ]);
  await consentPage.waitForLoadState();
  assert.match(consentPage.url(), /\/consent\//);
  await consentPage.click('button[value="allow"]');
  await consentPage.waitForSelector('text=You allowed');
  await consentPage.close();
  await card.locator('.consent-finished').click();
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /Linked your GitHub account/);
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- Prompts and resources (the Prompts and Resources tabs, through tests/e2e/library.mjs) --

test('TS SDK v2: get a prompt that asks for input first (MRTR on prompts/get)', async () => {
  const { page, errors } = await openPeer();
  const panel = await library.pickPrompt(page, 'release_notes');
  await library.typeArgument(panel, 'version', '1.2');
  await library.getPrompt(page);
  const card = await library.inputCard(page, '#prompt-panel', 'tone');
  await library.answerForm(card, { tone: 'casual' });
  const messages = await library.promptMessages(page);
  assert.deepEqual(messages.map((m) => m.role), ['user']);
  assert.match(messages[0].text, /Write casual release notes for version 1\.2\./);
  await screenshot(page, '47-ts-peer-prompt');
  assert.deepEqual(errors, []);
  await page.close();
});

test('TS SDK v2: read the static resources (text and blob)', async () => {
  const { page, errors } = await openPeer();
  let reader = await library.readResource(page, 'peer://readme');
  await shown(reader, '.read-result');
  assert.match(await reader.locator('.resource-text').textContent(), /# holdbay TS peer/);
  reader = await library.readResource(page, 'peer://logo.png');
  await shown(reader, '.read-result img.content-image');
  assert.deepEqual(errors, []);
  await page.close();
});

test('TS SDK v2: fill a resource template, then confirm access (MRTR on resources/read)', async () => {
  const { page, errors } = await openPeer();
  const panel = await library.pickTemplate(page, 'peer://reports/{quarter}');
  await library.typeArgument(panel, 'quarter', 'Q3');
  assert.equal(await library.expandedUri(page, 'peer://reports/Q3'), 'peer://reports/Q3');
  const reader = await library.readTemplate(page);
  const card = await library.inputCard(page, '#resource-reader', 'access');
  await library.answerForm(card, { access: 'true' });
  const result = await shown(reader, '.read-result');
  assert.match(await result.textContent(), /Report Q3: revenue up 12 %\./);
  await screenshot(page, '48-ts-peer-resource-template');
  assert.deepEqual(errors, []);
  await page.close();
});
