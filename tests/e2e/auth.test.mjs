// Signing in to a server behind OAuth, through the page only, against the real demo
// authorization server (`holdbay serve --auth oauth`): the challenge brings up the sign-in
// card, Sign in opens the authorization server's consent page in a window, Allow sends it
// back, and the refused request goes again with the token; a tool that needs more scope
// asks again (a step-up) and keeps its call. A reload keeps the sign-in only when
// "Remember sign-in" was ticked; no token, code, verifier or secret is ever in localStorage
// otherwise, nor in the wire log's export.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startHoldbay, launchBrowser, clearAppStorage, screenshot } from './support.mjs';
import { selectTool, fillField, call, shown } from './ui.mjs';

let holdbay;
let browser;

before(async () => {
  holdbay = await startHoldbay(['--auth', 'oauth']);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  holdbay?.stop();
});

/** Press `button` on the sign-in card and Allow (or `decision`) in the window it opens. */
async function signIn(page, { button = 'button.sign-in', decision = 'allow' } = {}) {
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    page.click(`#sign-in ${button}`),
  ]);
  await popup.waitForSelector(`button[value="${decision}"]`, { timeout: 15000 });
  const consent = await popup.locator('body').innerText();
  // Waited for before the click: the window may close while the click is still settling.
  const closed = popup.waitForEvent('close', { timeout: 15000 });
  await popup.click(`button[value="${decision}"]`);
  await closed;
  return consent;
}

/** Everything in this origin's localStorage, as one string. */
async function storedText(page) {
  return page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
}

/** The wire log's export, as a string. */
async function exportedText(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.wire-export')]);
  return readFileSync(await download.path(), 'utf8');
}

async function callEcho(page, message) {
  await selectTool(page, 'echo');
  await fillField(page.locator('#call-panel'), 'message', message);
  await call(page);
  return (await shown(page, '#call-panel .call-result .content-text')).textContent();
}

/** The tokens this page holds, read from what it sends (never from the page's storage). */
function bearersSent(requests) {
  return requests
    .map((request) => request.headers().authorization)
    .filter((value) => value?.startsWith('Bearer '));
}

test('sign in through the consent page, call, step up for deploy, reload with Remember', async () => {
  const opened = await clearAppStorage(browser.context, holdbay.url);
  const page = opened.page;
  const errors = opened.errors;
  const mcp = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/mcp') mcp.push(request);
  });
  await page.goto(`${holdbay.url}/`);

  // The challenge: the card says what the server asked and what Holdbay will do.
  const card = await shown(page, '#sign-in');
  assert.equal(await card.getAttribute('data-step-up'), 'false');
  const why = await card.locator('.sign-in-why').innerText();
  assert.match(why, /401/);
  assert.match(why, /mcp:tools/);
  assert.match(await card.locator('.sign-in-plan').innerText(), /oauth-protected-resource/);
  await screenshot(page, 'auth-challenge');

  // Remember, then sign in: the consent page names the client and the scope.
  await page.click('.toggle-headers');
  await page.check('#auth-remember');
  await page.click('.toggle-headers');
  const consent = await signIn(page);
  assert.match(consent, /mcp:tools/);
  await shown(page, '.auth-status[data-state="signed-in"]');
  const status = await page.locator('.auth-status').innerText();
  assert.match(status, new RegExp(`Signed in at ${holdbay.url}`));
  assert.match(status, /registered dynamically/);
  await shown(page, '.select-tool');
  assert.equal(await page.locator('#sign-in').count(), 0, 'the card is gone once signed in');

  // The flow's exchanges are in the wire log, in order, and the retried requests carry the token.
  const methods = await page.$$eval('.wire-entry', (rows) => rows.map((row) => row.dataset.method));
  for (const label of ['oauth: resource metadata', 'oauth: server metadata', 'oauth: register',
    'oauth: authorize', 'oauth: callback', 'oauth: token']) {
    assert.ok(methods.includes(label), `${label} in ${methods.join(', ')}`);
  }
  assert.ok(bearersSent(mcp).length > 0, 'MCP requests carry Authorization: Bearer');

  assert.equal(await callEcho(page, 'after sign-in'), 'after sign-in');
  await screenshot(page, 'auth-signed-in');

  // deploy needs mcp:admin: a step-up, then the same call goes on (its first round asks).
  await selectTool(page, 'deploy');
  await call(page);
  const stepUp = await shown(page, '#sign-in[data-step-up="true"]');
  assert.match(await stepUp.locator('.sign-in-why').innerText(), /403.*mcp:admin/s);
  const again = await signIn(page, { button: 'button.sign-in' });
  assert.match(again, /mcp:admin/);
  await shown(page, '#call-panel .input-request', { timeout: 20000 });
  assert.match(await page.locator('.auth-status').innerText(), /mcp:admin/);

  // Remembered: the token is in localStorage (the user asked), never in the export.
  const bearer = bearersSent(mcp).at(-1).slice('Bearer '.length);
  assert.ok((await storedText(page)).includes(bearer), 'remembered in localStorage');
  const exported = await exportedText(page);
  assert.ok(!exported.includes(bearer), 'the export holds no token');
  assert.ok(!/"code_verifier=[^‹]/.test(exported) && !/code=[A-Za-z0-9_-]{16}/.test(exported),
    'the export holds no code or verifier');

  // Reload: the sign-in is back without a consent page.
  const before = mcp.length;
  await page.reload();
  await shown(page, '.select-tool');
  await shown(page, '.auth-status[data-state="signed-in"]');
  assert.equal(await page.locator('#sign-in').count(), 0);
  assert.ok(bearersSent(mcp.slice(before)).length > 0);

  // Sign out forgets it here and in storage.
  await page.click('.sign-out');
  assert.ok(!(await storedText(page)).includes(bearer), 'signed out: forgotten');
  assert.deepEqual(errors, []);
  await page.close();
});

test('without Remember a reload asks again, and nothing of the sign-in is stored', async () => {
  const opened = await clearAppStorage(browser.context, holdbay.url);
  const page = opened.page;
  const bearers = [];
  page.on('request', (request) => {
    const value = request.headers().authorization;
    if (value?.startsWith('Bearer ')) bearers.push(value.slice('Bearer '.length));
  });
  await page.goto(`${holdbay.url}/`);
  await shown(page, '#sign-in');
  await signIn(page);
  await shown(page, '.select-tool');
  assert.equal(await callEcho(page, 'not remembered'), 'not remembered');
  const token = bearers.at(-1);
  assert.ok(token, 'a token was sent');

  const stored = await storedText(page);
  assert.ok(!stored.includes(token), 'no token in localStorage');
  for (const secret of ['access_token', 'refresh_token', 'client_secret', 'code_verifier', 'sign-in']) {
    assert.ok(!stored.includes(secret), `no ${secret} in localStorage: ${stored.slice(0, 400)}`);
  }
  const exported = await exportedText(page);
  assert.ok(!exported.includes(token), 'the export holds no token');

  await page.reload();
  await shown(page, '#sign-in');
  assert.equal(await page.locator('.auth-status').count(), 0, 'not signed in after the reload');
  assert.deepEqual(opened.errors, []);
  await page.close();
});

test('Deny at the consent page is said plainly, and Sign in works after it', async () => {
  const opened = await clearAppStorage(browser.context, holdbay.url);
  const page = opened.page;
  await page.goto(`${holdbay.url}/`);
  await shown(page, '#sign-in');
  await signIn(page, { decision: 'deny' });
  const error = await shown(page, '#sign-in .sign-in-error');
  assert.match(await error.innerText(), /authorization server ended the sign-in: access_denied/);
  await screenshot(page, 'auth-denied');
  await signIn(page);
  await shown(page, '.select-tool');
  assert.deepEqual(opened.errors, []);
  await page.close();
});
