// Authorization servers that get it wrong, through the page only: a small node server on
// 127.0.0.1 plays an MCP server behind OAuth and its authorization server, broken one way
// per path (`/<fault>/mcp`), reached through the relay as a server without CORS would be.
// Each fault must end the sign-in with a plain message on the card that names the party at
// fault, lose nothing (the card stays, Sign in can be pressed again), and never panic.
// The demo authorization server (`holdbay serve --auth oauth`) plays the expired refresh
// token: it really expires.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { startHoldbay, launchBrowser, clearAppStorage, screenshot } from './support.mjs';
import { shown } from './ui.mjs';

const TEN_MB = 10 * 1024 * 1024;

/** The broken server and authorization server, one fault per first path segment. */
function brokenAuthServer() {
  const server = createServer((req, res) => {
    const url = new URL(req.url, `http://${req.headers.host}`);
    const base = `http://${req.headers.host}`;
    const json = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const parts = url.pathname.split('/').filter(Boolean);
    const wellKnown = parts[0] === '.well-known';
    const fault = wellKnown ? parts[2] : parts[0];
    const issuer = `${base}/${fault}`;
    if (!wellKnown && parts[1] === 'mcp') {
      res.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/${fault}/mcp", scope="mcp:basic"`,
      });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'sign in' } }));
      return;
    }
    if (wellKnown && parts[1] === 'oauth-protected-resource') {
      return json(200, { resource: `${base}/${fault}/mcp`, authorization_servers: [issuer] });
    }
    if (wellKnown && parts[1] === 'oauth-authorization-server') {
      if (fault === 'html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>Login</title><p>Welcome to our portal</p>');
        return;
      }
      if (fault === 'huge') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"issuer":"${issuer}","padding":"${'x'.repeat(TEN_MB)}"}`);
        return;
      }
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (parts[1] === 'register') {
      return json(201, { client_id: `client-${fault}`, token_endpoint_auth_method: 'none' });
    }
    if (parts[1] === 'authorize') {
      const back = new URL(url.searchParams.get('redirect_uri'));
      back.searchParams.set('code', 'one-time-code-123');
      back.searchParams.set('state', url.searchParams.get('state'));
      back.searchParams.set('iss', fault === 'wrong-iss' ? 'https://evil.example.com' : issuer);
      res.writeHead(302, { location: back.href });
      res.end();
      return;
    }
    if (parts[1] === 'token') {
      if (fault === 'no-token') return json(200, { token_type: 'Bearer', expires_in: 3600 });
      return json(200, { access_token: 'test-token', token_type: 'Bearer', expires_in: 3600 });
    }
    res.writeHead(404);
    res.end();
  });
  return new Promise((resolveServer) => {
    server.listen(0, '127.0.0.1', () => {
      resolveServer({ url: `http://127.0.0.1:${server.address().port}`, stop: () => server.close() });
    });
  });
}

let holdbay;
let expiring;
let broken;
let browser;

before(async () => {
  [holdbay, expiring, broken] = await Promise.all([
    startHoldbay(),
    startHoldbay(['--auth', 'oauth', '--auth-token-lifetime', '1', '--auth-refresh-lifetime', '2']),
    brokenAuthServer(),
  ]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  holdbay?.stop();
  expiring?.stop();
  broken?.stop();
});

/** Open the app at the broken server's `fault`, press Sign in; the card's error text. */
async function signInFails(fault) {
  const opened = await clearAppStorage(browser.context, holdbay.url);
  const page = opened.page;
  await page.goto(`${holdbay.url}/?server=${encodeURIComponent(`${broken.url}/${fault}/mcp`)}&relay=1`);
  await shown(page, '#sign-in button.sign-in');
  await page.click('#sign-in button.sign-in');
  const error = await shown(page, '#sign-in .sign-in-error', { timeout: 30000 });
  const text = await error.innerText();
  await screenshot(page, `auth-hostile-${fault}`);
  // Nothing lost: the card stays and can be tried again; no panic, no console error.
  assert.equal(await page.locator('#sign-in button.sign-in').isEnabled(), true);
  assert.deepEqual(opened.errors, []);
  await page.close();
  return text;
}

test('an authorization server whose metadata is an HTML page is named as such', async () => {
  const text = await signInFails('html');
  assert.match(text, /authorization server's metadata at .*\/\.well-known\/oauth-authorization-server\/html is invalid/);
  assert.match(text, /not JSON/);
});

test('a 10 MB metadata document is refused at the bound, not downloaded whole', async () => {
  const text = await signInFails('huge');
  assert.match(text, /authorization server/);
  assert.match(text, /over the client's bound of 262144/);
});

test('an iss that is not the issuer ends the sign-in before any token request', async () => {
  const text = await signInFails('wrong-iss');
  assert.match(text, /https:\/\/evil\.example\.com/);
  assert.match(text, /iss/);
});

test('a token response without access_token is named as the authorization server\'s', async () => {
  const text = await signInFails('no-token');
  assert.match(text, /authorization server's token response is invalid/);
  assert.match(text, /access_token/);
});

test('an expired refresh token asks for a new sign-in, saying why', async () => {
  const opened = await clearAppStorage(browser.context, expiring.url);
  const page = opened.page;
  await page.goto(`${expiring.url}/`);
  await shown(page, '#sign-in');
  await page.click('.toggle-headers');
  await page.check('#auth-remember');
  await page.click('.toggle-headers');
  const [popup] = await Promise.all([page.context().waitForEvent('page'), page.click('#sign-in button.sign-in')]);
  await popup.click('button[value="allow"]', { timeout: 15000 });
  await shown(page, '.auth-status[data-state="signed-in"]');
  // About time: the token (1 s) and the refresh token (2 s) both expire; the reload's
  // connect is refused.
  await page.waitForTimeout(2500);
  await page.reload();
  const error = await shown(page, '#sign-in .sign-in-error', { timeout: 20000 });
  assert.match(await error.innerText(), /authorization server no longer accepts the refresh token \(invalid_grant\)/);
  // The refused refresh is in the wire log (its export: the rows on screen are a window).
  // The reload's connect made every exchange of this page, so the dock stays folded until asked.
  await page.click('#dock-tab-wire');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.wire-export')]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const refresh = exported.entries.filter((entry) => entry.method === 'oauth: refresh');
  assert.ok(refresh.length > 0 && refresh.at(-1).status === 400,
    exported.entries.map((entry) => `${entry.method} ${entry.status}`).join(', '));
  assert.ok(!refresh.at(-1).requestBody.includes('refresh_token=') || refresh.at(-1).requestBody.includes('refresh_token=%E2%80%B9redacted'),
    `the refresh token is redacted: ${refresh.at(-1).requestBody}`);
  await screenshot(page, 'auth-hostile-expired-refresh');
  assert.deepEqual(opened.errors, []);
  await page.close();
});
