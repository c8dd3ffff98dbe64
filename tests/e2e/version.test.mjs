// Protocol versions, end to end: a real 2025-11-25-only server (server-everything
// 2026.8.31) gets the plain legacy message; a server that refuses the first version
// (`holdbay serve --fixtures reject-first-version`) gets exactly one retry and then works; a
// server with no version in common (`--fixtures no-common-version`) has its list shown. After
// each failed connect nothing keeps saying "Listing…".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { root, startHoldbay, launchBrowser, screenshot, freePort } from './support.mjs';

const legacyDir = join(root, 'tests', 'peers', 'legacy');
const everything = join(legacyDir, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const shots = join(root, 'target', 'shots');

let plain;
let browser;

before(async () => {
  plain = await startHoldbay();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  plain?.stop();
});

/** server-everything in its Streamable HTTP mode, held to 127.0.0.1 by the preload. */
async function startLegacyServer() {
  assert.ok(existsSync(everything), `no server-everything in ${legacyDir}: run scripts/install-tools.sh`);
  const port = await freePort();
  const child = spawn(process.execPath, ['--require', join(legacyDir, 'loopback.cjs'), everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise((resolveReady, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start:\n${output}`)), 30000);
    const onData = (chunk) => {
      output += chunk;
      if (/listening on port/.test(output)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server-everything exited with ${code}:\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill() };
}

/** Every POST the page makes to an MCP endpoint, with its answer, in order. */
function recordMcpPosts(page) {
  const posts = [];
  page.on('requestfinished', async (request) => {
    if (request.method() !== 'POST' || !/\/mcp(\?|$)/.test(request.url())) return;
    const entry = { headers: request.headers(), body: JSON.parse(request.postData() ?? 'null') };
    posts.push(entry);
    const response = await request.response();
    entry.status = response?.status();
    entry.answer = await response?.json().catch(() => null);
  });
  return posts;
}

/** Open `url` in a new page that records its MCP POSTs and its page errors from the start. */
async function openRecorded(url) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // The browser's own line for a 4xx answer is expected here.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) {
      errors.push(`console: ${message.text()}`);
    }
  });
  const posts = recordMcpPosts(page);
  await page.goto(url);
  return { page, errors, posts };
}

/** The discover POSTs among `posts`, once `expected` of them are recorded and every recorded
 * answer has been read (or after 5 s): Playwright reports a finished request a little after the
 * page has used its answer. */
async function discoversOf(posts, expected) {
  const discovers = () => posts.filter((post) => post.body?.method === 'server/discover');
  const settled = () => discovers().length >= expected && posts.every((post) => 'answer' in post);
  for (let waited = 0; !settled() && waited < 5000; waited += 50) {
    await new Promise((resolveLater) => setTimeout(resolveLater, 50));
  }
  return discovers();
}

/** Rows of `method` in the wire log, once it lists `expected` of them (a busy log redraws
 * calmly, at most every 300 ms: src/ui/wire_log/mod.rs `CALM_REDRAW_MS`), or as many as it
 * lists after 10 s. */
async function wireRows(page, method, expected) {
  await page.waitForFunction(
    ([name, count]) => [...document.querySelectorAll('.wire-method')]
      .filter((row) => row.textContent === name).length === count,
    [method, expected], { timeout: 10000 },
  ).catch(() => {});
  return page.locator('.wire-method', { hasText: new RegExp(`^${method}$`) }).count();
}

/** No tab of the catalog still says "Listing…", and each says why nothing is listed. */
async function assertNothingListing(page) {
  for (const tab of ['#tab-tools', '#tab-prompts', '#tab-resources']) {
    await page.click(tab);
    const panel = page.locator('.catalog .tab-panel');
    await panel.locator('.error-notice').first().waitFor({ timeout: 10000 });
    const text = await panel.textContent();
    assert.doesNotMatch(text, /Listing/, `${tab}: ${text}`);
  }
  await page.click('#tab-tools');
  assert.equal(await page.locator('.pending').count(), 0, 'nothing is pending');
}

/** The notice's words, and screenshots in the light and the dark scheme. */
async function shoot(page, name) {
  mkdirSync(shots, { recursive: true });
  await page.evaluate(() => document.querySelectorAll('.column').forEach((column) => column.scrollTo(0, 0)));
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(shots, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, name);
}

test('a 2025-11-25 server gets the plain legacy message, and no tab keeps listing', async () => {
  const legacy = await startLegacyServer();
  try {
    const { page, errors, posts } = await openRecorded(`${plain.url}/?server=${encodeURIComponent(legacy.url)}`);
    const notice = page.locator('#version-notice[data-kind="legacy"]');
    await notice.waitFor({ timeout: 20000 });
    const said = await notice.textContent();
    assert.match(said, /This server speaks an older MCP revision/);
    assert.match(said, /MCP 2025-11-25 or earlier/);
    assert.match(said, /Holdbay speaks MCP 2026-07-28/);
    assert.match(said, /upgrade the server, or the MCP SDK it is built on/);
    assert.match(said, /client for the older revision/);
    // The server's own words are a symptom; the page does not present them as the cause.
    const column = await page.locator('.server-column').textContent();
    assert.doesNotMatch(column, /not initialized/i);
    await assertNothingListing(page);
    await shoot(page, '60-version-legacy');
    // One modern request, answered 400 -32000 by the legacy server; nothing is retried.
    const sent = await discoversOf(posts, 1);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].status, 400);
    assert.equal(sent[0].answer?.error?.code, -32000);
    assert.equal(await wireRows(page, 'server/discover', 1), 1);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    legacy.stop();
  }
});

test('a server that refuses the first version gets exactly one retry, then works', async () => {
  const server = await startHoldbay(['--fixtures', 'reject-first-version']);
  try {
    const { page, errors, posts } = await openRecorded(`${server.url}/`);
    await page.waitForSelector('.select-tool', { timeout: 20000 });
    await page.waitForFunction(() => !document.querySelector('.pending'), null, { timeout: 20000 });

    const sent = await discoversOf(posts, 2);
    assert.equal(sent.length, 2, 'one request and exactly one retry');
    const [first, retry] = sent;
    assert.equal(first.status, 400);
    assert.equal(first.answer?.error?.code, -32022);
    assert.deepEqual(first.answer?.error?.data?.supported, ['2026-07-28']);
    assert.equal(retry.status, 200);
    assert.notEqual(retry.body.id, first.body.id, 'the retry is a new request');
    const supported = first.answer.error.data.supported;
    assert.ok(supported.includes(retry.headers['mcp-protocol-version']));
    assert.equal(retry.body.params._meta['io.modelcontextprotocol/protocolVersion'], retry.headers['mcp-protocol-version']);
    // Every later request keeps the negotiated version, and only one was ever refused.
    for (const post of posts.slice(posts.indexOf(retry))) {
      assert.equal(post.headers['mcp-protocol-version'], '2026-07-28');
    }
    assert.equal(posts.filter((post) => post.answer?.error?.code === -32022).length, 1);
    // The wire log shows both exchanges.
    assert.equal(await wireRows(page, 'server/discover', 2), 2);
    assert.ok(await page.locator('.tool-name').count() > 0, 'the tools are listed');
    await shoot(page, '62-version-retry');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.stop();
  }
});

test('a server with no version in common has its supported list shown', async () => {
  const server = await startHoldbay(['--fixtures', 'no-common-version']);
  try {
    const { page, errors, posts } = await openRecorded(`${server.url}/`);
    const notice = page.locator('#version-notice[data-kind="no-common-version"]');
    await notice.waitFor({ timeout: 20000 });
    const said = await notice.textContent();
    assert.match(said, /No protocol version in common/);
    const listed = await page.locator('#server-supported-versions .chip').allTextContents();
    assert.deepEqual(listed, ['2025-06-18', '2025-11-25']);
    assert.deepEqual(await page.locator('#client-versions .chip').allTextContents(), ['2026-07-28']);
    await assertNothingListing(page);
    await shoot(page, '61-version-no-common');
    // No common version: no retry.
    assert.equal((await discoversOf(posts, 1)).length, 1);
    assert.equal(await wireRows(page, 'server/discover', 1), 1);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.stop();
  }
});
