// The app's own surface is the app's: pages on other loopback origins (another address,
// another port) cannot drive `/mcp` or use the relay of `holdbay serve`, while the app's own
// page still lists tools, calls one through /mcp, and reaches another server through the
// relay (with the relay token of the page it was served).
//
// Two real pages that are not the app's, served by small node servers on
// http://127.0.0.2:<port>/ and http://127.0.0.1:<another port>/, fetch from Chromium. A
// second `holdbay serve` started with `--allow-origin` for the first of those pages is the
// control (the same fetch from the same page does work where that page is allowed, so a
// refusal here is the policy, not the test's mechanics), and is also the MCP server the app
// page reaches through the relay.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { startHoldbay, launchBrowser, openPage, openCleanApp, screenshot } from './support.mjs';
import { selectTool, fillField, call, shown } from './ui.mjs';

/** A page that is not the app, served on `host` (any free port). */
function foreignPage(host) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>not the app</title><p>another page on this machine</p>');
  });
  return new Promise((resolvePage, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      resolvePage({ origin: `http://${host}:${server.address().port}`, stop: () => server.close() });
    });
  });
}

let holdbay;
let allowing;
let pages;
let browser;

before(async () => {
  const [away, beside] = await Promise.all([foreignPage('127.0.0.2'), foreignPage('127.0.0.1')]);
  pages = { away, beside };
  [holdbay, allowing] = await Promise.all([
    startHoldbay(),
    startHoldbay(['--allow-origin', away.origin]),
  ]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  holdbay?.stop();
  allowing?.stop();
  pages?.away.stop();
  pages?.beside.stop();
});

/**
 * From the page at `origin`, in the browser: a tools/call of `echo` to `mcp`, a relayed
 * server/discover through `relay` (any token the page could make up), and a `text/plain`
 * POST to `mcp` (no preflight: the request itself reaches the server). Each comes back as
 * `{ status, text }` or `{ rejected: message }`.
 */
async function fetchFrom(origin, { mcp, relay }) {
  const { page, errors } = await openPage(browser.context, `${origin}/`);
  const results = await page.evaluate(async ({ mcp, relay }) => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'not-the-app', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = (method, name) => ({
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(name ? { 'Mcp-Name': name } : {}),
    });
    const attempt = async (url, init) => {
      try {
        const response = await fetch(url, init);
        return { status: response.status, text: await response.text() };
      } catch (error) {
        return { rejected: String(error) };
      }
    };
    return {
      call: await attempt(mcp, {
        method: 'POST',
        headers: headers('tools/call', 'echo'),
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call',
          params: { name: 'echo', arguments: { message: 'from another page' }, _meta: meta } }),
      }),
      relayed: await attempt(relay, {
        method: 'POST',
        headers: { ...headers('server/discover'), 'X-Holdbay-Relay-Token': 'a-guess-0123456789' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta } }),
      }),
      simple: await attempt(mcp, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta } }),
      }),
    };
  }, { mcp, relay });
  await page.close();
  // The page's own console shows the browser's CORS refusals; nothing else may go wrong.
  assert.deepEqual(errors.filter((error) => !/CORS|Access-Control|Failed to fetch/.test(error)), []);
  return results;
}

const endpoints = (server, target) => ({
  mcp: `${server.url}/mcp`,
  relay: `${server.url}/relay?target=${encodeURIComponent(target)}`,
});

/** Refused: the fetch rejected (the browser saw no CORS grant), or the server said 403. */
function assertRefused(result, what) {
  assert.ok(result.rejected !== undefined || result.status === 403,
    `${what} was answered: ${JSON.stringify(result)}`);
  assert.ok(!(result.text ?? '').includes('from another page'), `${what}: the call ran`);
}

test('pages on another loopback address or port cannot call /mcp or use the relay', async () => {
  for (const page of [pages.away, pages.beside]) {
    const results = await fetchFrom(page.origin, endpoints(holdbay, `${allowing.url}/mcp`));
    assertRefused(results.call, `${page.origin}: tools/call on /mcp`);
    assertRefused(results.relayed, `${page.origin}: the relay`);
    assertRefused(results.simple, `${page.origin}: a simple POST to /mcp`);
  }
});

test('the same fetches work from a page that --allow-origin names, except the relay without its token', async () => {
  const results = await fetchFrom(pages.away.origin, endpoints(allowing, `${holdbay.url}/mcp`));
  assert.equal(results.call.status, 200, JSON.stringify(results.call));
  assert.match(results.call.text, /from another page/);
  // Allowed in, but the page cannot know this launch's token: the relay says so, readably.
  assert.equal(results.relayed.status, 403, JSON.stringify(results.relayed));
  assert.match(results.relayed.text, /X-Holdbay-Relay-Token/);
  // Allowed for one page only: the page beside it is still refused.
  const beside = await fetchFrom(pages.beside.origin, endpoints(allowing, `${holdbay.url}/mcp`));
  assertRefused(beside.call, `${pages.beside.origin}: tools/call on the allowing server`);
});

/** Call `echo` with `message` in the open app; resolves with the result's text. */
async function callEcho(page, message) {
  await selectTool(page, 'echo');
  await fillField(page.locator('#call-panel'), 'message', message);
  await call(page);
  const result = await shown(page, '#call-panel .call-result .content-text');
  return result.textContent();
}

test('the app page lists tools and calls one through /mcp', async () => {
  const { page, errors } = await openCleanApp(browser.context, holdbay.url);
  const tools = await page.$$eval('.tool-name', (nodes) => nodes.map((n) => n.textContent));
  assert.ok(tools.includes('echo'), tools.join(', '));
  assert.equal(await callEcho(page, 'from the app'), 'from the app');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the app page reaches another server through the relay with its own token, kept nowhere', async () => {
  const { page, errors } = await openCleanApp(browser.context, holdbay.url, {
    path: `/?server=${encodeURIComponent(`${allowing.url}/mcp`)}&relay=1`,
  });
  await shown(page, '.connection-status .chip.relayed');
  assert.equal(await callEcho(page, 'through the relay'), 'through the relay');
  const token = await page.evaluate(() =>
    document.querySelector('meta[name="holdbay-relay-token"]')?.getAttribute('content'));
  assert.match(token ?? '', /^[0-9a-f]{64}$/, 'the page carries this launch\'s token');
  // The token lives in the page only: not in localStorage, and the wire log withholds it.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.ok(!stored.includes(token), 'the relay token is in localStorage');
  await screenshot(page, '95-cross-origin-relay');
  await page.locator('#dock .wire-entry .wire-summary').last().click();
  const details = await shown(page, '#dock .wire-details');
  const shownText = await details.textContent();
  assert.match(shownText, /X-Holdbay-Relay-Token/i);
  assert.ok(!shownText.includes(token), 'the wire log shows the relay token');
  assert.deepEqual(errors, []);
  await page.close();
});
