// The first visit against the real `holdbay serve` and the release build (scripts/build-app.sh):
// index.html paints a static shell that the app takes over (one `.holdbay`, no shell left);
// the tool list is drawn before the dock and the tasks panel are built (within a second when
// the server is slow);
// before the tool list the page asks only for the main wasm and the two discovery requests;
// the dock, the tasks panel, the Scene (one chunk) and the later style sheets (one file) come
// after it; a tool's
// call form, an opened wire-log entry and the prompts tab load their chunks when first shown;
// a repeat visit transfers only index.html and the discovery requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoAndBrowser, openPage, clearAppStorage, screenshot, launchBrowser } from './support.mjs';
import { selectTool } from './ui.mjs';

const app = demoAndBrowser();

const path = (url) => new URL(url).pathname;

/** Every request the page makes, in order: its path and, for /mcp, its Mcp-Method. */
function recordRequests(page) {
  const requests = [];
  // What happened to the MCP requests, in order: `sent <method>`, `answered <method>`.
  requests.events = [];
  const mcpMethod = (request) => request.headers()['mcp-method'] ?? null;
  page.on('request', (request) => {
    requests.push({ path: path(request.url()), mcpMethod: mcpMethod(request) });
    if (mcpMethod(request)) requests.events.push(`sent ${mcpMethod(request)}`);
  });
  page.on('requestfinished', (request) => {
    if (mcpMethod(request)) requests.events.push(`answered ${mcpMethod(request)}`);
  });
  return requests;
}

test('index.html carries a static shell, and the app replaces it without leaving it behind', async () => {
  const response = await fetch(`${app.url}/`);
  const html = await response.text();
  assert.match(html, /id="shell"/, 'the shell is in index.html');
  assert.match(html, /Connecting…/);
  // The shell is painted before any script: no script tag comes before it in the body.
  const body = html.slice(html.indexOf('<body'));
  assert.ok(!/<script/.test(body.slice(0, body.indexOf('id="shell"'))));

  await clearAppStorage(app.context, app.url);
  const { page, errors } = await openPage(app.context, `${app.url}/`);
  await page.waitForSelector('.tool-name', { timeout: 15000 });
  assert.equal(await page.locator('#shell').count(), 0, 'the shell is gone');
  assert.equal(await page.locator('.holdbay').count(), 1, 'one app frame');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Installed before the page's scripts: when each selector first matched, in page time. */
const FIRST_SEEN = `(() => {
  window.__firstSeen = {};
  const watched = ['.tool-name', '#dock', '#tasks-panel', 'aside.dock'];
  const check = () => {
    for (const selector of watched) {
      if (window.__firstSeen[selector] === undefined && document.querySelector(selector)) {
        window.__firstSeen[selector] = performance.now();
      }
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;

test('the tool list is drawn before the dock and the tasks panel are built; a slow server gets its wire log first', async () => {
  await clearAppStorage(app.context, app.url);
  const { page, errors } = await openPage(app.context, 'about:blank');
  await page.addInitScript({ content: FIRST_SEEN });
  await page.goto(`${app.url}/`);
  // The dock starts folded on a first visit (the first screen is for the tools): its rows
  // are built all the same.
  await page.waitForSelector('#dock .wire-entry', { state: 'attached', timeout: 15000 });
  await page.waitForSelector('#tasks-panel', { timeout: 15000 });
  const seen = await page.evaluate(() => window.__firstSeen);
  assert.ok(seen['.tool-name'] <= seen['#dock'], `tool list ${seen['.tool-name']} ms, dock ${seen['#dock']} ms`);
  assert.ok(seen['.tool-name'] <= seen['#tasks-panel'], `tool list ${seen['.tool-name']}, tasks ${seen['#tasks-panel']}`);
  assert.ok(seen['aside.dock'] < seen['#dock'], 'the shell\'s dock frame stood in until then');
  // Both exchanges are in the wire log built after them: nothing was missed.
  assert.equal(await page.locator('#dock .wire-entry').count(), 2);
  await page.close();

  // A server slow to answer: the dock does not wait for it.
  await clearAppStorage(app.context, app.url);
  const slow = await openPage(app.context, 'about:blank');
  await slow.page.addInitScript({ content: FIRST_SEEN });
  await slow.page.route('**/mcp', async (route) => {
    // About time: the server answers 3 s late.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue();
  });
  await slow.page.goto(`${app.url}/`);
  await slow.page.waitForSelector('.tool-name', { timeout: 20000 });
  const slowSeen = await slow.page.evaluate(() => window.__firstSeen);
  assert.ok(slowSeen['#dock'] < slowSeen['.tool-name'], `dock ${slowSeen['#dock']} ms, tool list ${slowSeen['.tool-name']} ms`);
  assert.deepEqual([...errors, ...slow.errors], []);
  await slow.page.close();
});

test('the first screen loads one wasm module and sends only server/discover and tools/list', async () => {
  await clearAppStorage(app.context, app.url);
  const page = await app.context.newPage();
  await page.addInitScript({ content: FIRST_SEEN });
  const requests = recordRequests(page);
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // The console stays quiet on a first load (no preload or integrity warnings).
  const warnings = [];
  page.on('console', (message) => {
    if (['warning', 'error'].includes(message.type())) warnings.push(message.text());
  });
  await page.goto(`${app.url}/`);
  await page.waitForSelector('.tool-name', { timeout: 15000 });
  await page.waitForSelector('#dock', { timeout: 15000 });
  // Everything the first load fetches (and might warn about) has been fetched.
  await page.waitForLoadState('networkidle');
  assert.deepEqual(warnings, [], 'nothing in the console on a first load');
  // What the page fetched, by when it started (page time), against when the tool list showed.
  const { toolList, fetched } = await page.evaluate(() => ({
    toolList: window.__firstSeen['.tool-name'],
    fetched: performance.getEntriesByType('resource')
      .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
  }));
  const wasmBefore = fetched.filter((r) => r.path.endsWith('.wasm') && r.start < toolList).map((r) => r.path);
  assert.equal(wasmBefore.length, 1, `one wasm before the tool list: ${wasmBefore.join(', ')}`);
  assert.deepEqual(fetched.filter((r) => r.path.endsWith('.css')).filter((r) => r.start < toolList), [],
    'no style sheet is fetched before the tool list (the first screen\'s are in index.html)');
  // The rest of the app comes after it: the dock's chunk (with the Scene) and the later style
  // sheets, one file (the dock's, the tasks', the forms', the Scene's).
  const later = fetched.filter((r) => r.start >= toolList).map((r) => r.path);
  assert.ok(later.some((p) => p.startsWith('/split_after_first_screen-')), `after the tool list: ${later.join(', ')}`);
  assert.deepEqual(later.filter((p) => p.endsWith('.css')).map((p) => p.replace(/-[0-9a-f]+\.css$/, '')), ['/later'],
    `the later style sheets: ${later.join(', ')}`);
  // The dock is styled by them once it shows (wire.css lays out the wire log's toolbar).
  assert.equal(await page.locator('.toolbar-gap').first().evaluate((el) => getComputedStyle(el).flexGrow), '1',
    'wire.css applies to the dock');
  const methods = requests.filter((r) => r.path === '/mcp').map((r) => r.mcpMethod);
  assert.deepEqual(methods, ['server/discover', 'tools/list']);
  // Both go out together: the tool list does not wait for discovery's round trip.
  const events = requests.events;
  assert.ok(events.indexOf('sent tools/list') < events.indexOf('answered server/discover'),
    `tools/list was sent before server/discover was answered: ${events.join(', ')}`);

  // The prompts tab lists the prompts when first opened, from its own chunk.
  await page.click('#tab-prompts');
  await page.getByText('draft_note').first().waitFor({ timeout: 10000 });
  assert.ok(requests.some((r) => r.mcpMethod === 'prompts/list'));

  // A tool's form: a chunk fetched on demand; the Scene: here already, and styled.
  await page.click('#tab-tools');
  const before = requests.filter((r) => r.path.endsWith('.wasm')).length;
  await selectTool(page, 'book_table');
  await page.waitForSelector('#call-panel button.call', { timeout: 10000 });
  // forms.css applies to the form as soon as it shows.
  assert.equal(await page.locator('#call-panel .form-host').first().evaluate((el) => getComputedStyle(el).display), 'grid',
    'forms.css applies to the call form');
  await page.click('#view-scene');
  await page.waitForSelector('.scene-main svg', { timeout: 10000 });
  const after = requests.filter((r) => r.path.endsWith('.wasm')).length;
  assert.ok(after > before, `chunks were fetched for the form (${before} → ${after})`);
  // The Scene's own style sheet applies (scene.css contains the conveyor's painting).
  const contain = await page.locator('.conveyor').first().evaluate((el) => getComputedStyle(el).contain);
  assert.match(contain, /paint/, 'scene.css applies to the scene');
  // An opened wire-log entry (the JSON viewer) renders too.
  await page.click('#view-workbench');
  await page.locator('.wire-summary').first().click();
  await page.waitForSelector('.wire-details', { timeout: 10000 });
  assert.deepEqual(errors, []);
  await screenshot(page, '80-cold-start-chunks-loaded');
  await page.close();
});

test('a repeat visit transfers only index.html and the two discovery requests', async (t) => {
  // A browser of its own: an HTTP cache that only this first visit filled (the other tests'
  // chunks would hide a chunk the repeat visit fetches, e.g. to decode the kept wire log).
  const browser = await launchBrowser();
  t.after(() => browser.close());
  // A whole first visit: the tool list, then the rest of the app that follows it.
  const first = await browser.context.newPage();
  await first.goto(`${app.url}/`);
  await first.waitForSelector('.tool-name', { timeout: 15000 });
  await first.waitForSelector('#dock', { timeout: 15000 });
  await first.waitForLoadState('networkidle');
  await first.close();

  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.enable');
  const fromNetwork = new Map();
  const urls = new Map();
  cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request));
  cdp.on('Network.responseReceived', (event) => {
    if (!event.response.fromDiskCache && !event.response.fromMemoryCache && !event.response.fromPrefetchCache) {
      fromNetwork.set(event.requestId, { path: path(event.response.url), status: event.response.status });
    }
  });
  await page.goto(`${app.url}/`);
  await page.waitForSelector('.tool-name', { timeout: 15000 });
  await page.waitForLoadState('networkidle');
  const transferred = [...fromNetwork.entries()].map(([id, r]) => {
    const headers = Object.entries(urls.get(id)?.headers ?? {});
    const method = headers.find(([name]) => name.toLowerCase() === 'mcp-method')?.[1];
    return method ? `${r.path} ${method}` : r.path;
  });
  assert.deepEqual(transferred.sort(), ['/', '/mcp server/discover', '/mcp tools/list'].sort(),
    `from the network: ${transferred.join(', ')}`);
  await page.close();
});
