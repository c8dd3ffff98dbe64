// Benchmark (not a test): a server with 10,000 tools (`holdbay serve --fixtures many-tools`,
// 500 a page through nextCursor) in headless Chromium on loopback. Every run is a fresh
// Chromium process with a fresh profile. Measures, in the page:
//
// - first rows: from the arrival of the first tools/list page (its resource timing
//   `responseEnd`) to the first tool rows painted;
// - whole list: from the arrival of the last page to the count saying 10,000, painted;
// - search: from each keystroke typed into the tool search (the input event's `timeStamp`,
//   so time the event waited for the main thread counts) to the filtered rows painted; and
//   from emptying the search box to the whole list painted again.
//
// "Painted" is a requestAnimationFrame callback after the DOM holds the rows, then one
// message-channel task: that task runs once the frame has been drawn.
//
//   bash scripts/build-app.sh          (the release app in dist/ and the optimised server,
//                                       target/server/holdbay)
//   npm run bench:tools                (in tests/e2e; --runs N, default 7; --throttle R for
//                                       CDP CPU throttling, default 1; --settle MS to type
//                                       that long after the whole list is painted, default 0;
//                                       --fixtures none --total 13: the plain demo server)
//
// Prints a summary and writes target/bench/tools.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..', '..');
// The optimised binary scripts/serve.sh runs, unless HOLDBAY_BIN says otherwise.
process.env.HOLDBAY_BIN ??= join(root, 'target', 'server', 'holdbay');
const { startHoldbay } = await import('./support.mjs');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const RUNS = Number(option('runs', '7'));
// Wait this long after the whole list is painted before typing (default 0: type at once).
const SETTLE_MS = Number(option('settle', '0'));
const THROTTLE = Number(option('throttle', '1'));
const OUT = option('out', join(root, 'target', 'bench', 'tools.json'));
// `--fixtures none --total 13`: the demo server's own 13 tools, one page, for comparison.
const FIXTURES = option('fixtures', 'many-tools');
const TOTAL = Number(option('total', '10000'));
const TIMEOUT = 120000;
/** Typed one key at a time; each key's latency is one sample. */
const QUERIES = ['zendesk_watch_alert', 'invoice', 'delete'];

/**
 * Runs in the page before its own scripts. Notes when each tools/list request is sent (the
 * app fetches a Request whose Mcp-Method header names the method), stamps the first rows
 * and the whole list painted, and each tool-search input's latency to paint.
 */
const PROBE = `(() => {
  const bench = { lists: [], firstRows: null, wholeList: null, inputs: [] };
  window.__bench = bench;
  const realFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (request.headers.get('mcp-method') === 'tools/list') {
      bench.lists.push({ url: request.url, sent: performance.now() });
    }
    return realFetch(input, init);
  };
  const afterPaint = (then) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => then(performance.now());
    channel.port2.postMessage(0);
  });
  let resolveWhole;
  bench.wholePromise = new Promise((resolve) => { resolveWhole = resolve; });
  const check = () => {
    if (bench.firstRows === null && document.querySelector('#tools-panel .select-tool')) {
      bench.firstRows = 'pending';
      afterPaint((at) => { bench.firstRows = at; });
    }
    const count = document.querySelector('#tool-count');
    if (bench.wholeList === null && count && count.textContent.replace(/[^0-9]/g, '') === '${TOTAL}') {
      bench.wholeList = 'pending';
      afterPaint((at) => { bench.wholeList = at; observer.disconnect(); resolveWhole(at); });
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, characterData: true });
  // Capture phase: stamped before the app's own listener runs.
  document.addEventListener('input', (event) => {
    if (event.target.id !== 'tool-search') return;
    const sample = { at: event.timeStamp, value: event.target.value, painted: null, count: null };
    bench.inputs.push(sample);
    afterPaint((at) => {
      sample.painted = at;
      sample.count = document.querySelector('#tool-count')?.textContent ?? null;
      sample.rows = document.querySelectorAll('#tools-panel .select-tool').length;
    });
  }, true);
})();`;

/** Awaits a promise of the page through one CDP evaluate (no Playwright polling in the page). */
async function awaitInPage(cdp, expression) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${expression} not settled within ${TIMEOUT} ms`)), TIMEOUT);
  });
  try {
    const answer = await Promise.race([
      cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }),
      timeout,
    ]);
    return answer.result.value;
  } finally {
    clearTimeout(timer);
  }
}

/** Each tools/list request's resource timing (matched by when it was sent). */
function listTimings() {
  const entries = performance.getEntriesByType('resource');
  return window.__bench.lists.map((list) => {
    const entry = entries
      .filter((e) => e.name === list.url && e.startTime >= list.sent - 1)
      .sort((a, b) => a.startTime - b.startTime)[0];
    return {
      sent: list.sent,
      responseEnd: entry?.responseEnd ?? null,
      bytes: entry?.encodedBodySize ?? null,
      decodedBytes: entry?.decodedBodySize ?? null,
    };
  });
}

const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Types `text` one key at a time, waiting for each key's rows to be painted. */
async function typeMeasured(page, text) {
  for (const key of text) {
    const before = await page.evaluate(() => window.__bench.inputs.length);
    await page.keyboard.type(key);
    await page.waitForFunction((n) => window.__bench.inputs.length > n
      && window.__bench.inputs.at(-1).painted !== null, before, { timeout: TIMEOUT, polling: 'raf' });
  }
}

async function clearMeasured(page) {
  const before = await page.evaluate(() => window.__bench.inputs.length);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.waitForFunction((n) => window.__bench.inputs.length > n
    && window.__bench.inputs.at(-1).painted !== null, before, { timeout: TIMEOUT, polling: 'raf' });
}

/** One run: a fresh process and profile; the list, then the searches. */
async function run(url) {
  const profile = mkdtempSync(join(tmpdir(), 'bench-tools-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: chromiumArgs,
  });
  const page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.addInitScript({ content: PROBE });
    const cdp = await context.newCDPSession(page);
    if (THROTTLE > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT });
    await awaitInPage(cdp, 'window.__bench.wholePromise');
    await page.waitForFunction(() => typeof window.__bench.firstRows === 'number', null, { timeout: TIMEOUT });
    const lists = await page.evaluate(listTimings);
    const { firstRows, wholeList } = await page.evaluate(() => window.__bench);
    const domRows = await page.locator('#tools-panel .select-tool').count();

    if (SETTLE_MS > 0) await page.waitForTimeout(SETTLE_MS);
    await page.click('#tool-search');
    const searches = [];
    for (const query of QUERIES) {
      const from = await page.evaluate(() => window.__bench.inputs.length);
      await typeMeasured(page, query);
      await clearMeasured(page);
      const samples = (await page.evaluate(() => window.__bench.inputs)).slice(from);
      searches.push({
        query,
        keys: samples.slice(0, -1).map((s) => ({ value: s.value, ms: s.painted - s.at, count: s.count, rows: s.rows })),
        clear: { ms: samples.at(-1).painted - samples.at(-1).at, count: samples.at(-1).count },
      });
    }
    return {
      pages: lists.length,
      firstPageArrived: lists[0]?.responseEnd ?? null,
      lastPageArrived: lists.at(-1)?.responseEnd ?? null,
      firstRowsPainted: firstRows,
      wholeListPainted: wholeList,
      firstRowsMs: firstRows - lists[0].responseEnd,
      wholeListMs: wholeList - lists.at(-1).responseEnd,
      domRows,
      bytes: lists.reduce((sum, list) => sum + (list.bytes ?? 0), 0),
      decodedBytes: lists.reduce((sum, list) => sum + (list.decodedBytes ?? 0), 0),
      searches,
      errors,
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function percentile(values, p) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p + 0.5))];
}
const stats = (values) => ({
  n: values.length, p50: percentile(values, 0.5), p95: percentile(values, 0.95), max: percentile(values, 1),
});

async function chromiumVersion() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: chromiumArgs,
  });
  const version = browser.version();
  await browser.close();
  return version;
}

const holdbay = await startHoldbay(FIXTURES === 'none' ? [] : ['--fixtures', FIXTURES]);
const loadBefore = loadavg();
const runs = [];
try {
  // One untimed run first: the OS file cache holds Chromium and the app for every timed run.
  await run(`${holdbay.url}/`);
  for (let at = 0; at < RUNS; at += 1) {
    const result = await run(`${holdbay.url}/`);
    runs.push(result);
    const keys = result.searches.flatMap((s) => s.keys.map((k) => k.ms));
    process.stderr.write(`run ${at + 1}: first rows ${result.firstRowsMs.toFixed(0)} ms after page 1 arrived `
      + `(${result.firstRowsPainted.toFixed(0)} ms from navigation), whole list ${result.wholeListMs.toFixed(0)} ms `
      + `after page ${result.pages} arrived, ${result.domRows} rows in the DOM, `
      + `search keys p50 ${percentile(keys, 0.5).toFixed(1)} ms max ${percentile(keys, 1).toFixed(1)} ms\n`);
  }
} finally {
  holdbay.stop();
}

const keys = runs.flatMap((r) => r.searches.flatMap((s) => s.keys.map((k) => k.ms)));
const report = {
  date: new Date().toISOString(),
  runs: RUNS,
  throttle: THROTTLE,
  settleMs: SETTLE_MS,
  fixtures: FIXTURES,
  tools: TOTAL,
  holdbayBinary: process.env.HOLDBAY_BIN,
  machine: {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    chromium: await chromiumVersion(),
    loadAverage: { before: loadBefore[0], after: loadavg()[0] },
  },
  firstRowsMs: stats(runs.map((r) => r.firstRowsMs)),
  firstRowsFromNavigationMs: stats(runs.map((r) => r.firstRowsPainted)),
  wholeListMs: stats(runs.map((r) => r.wholeListMs)),
  wholeListFromNavigationMs: stats(runs.map((r) => r.wholeListPainted)),
  searchKeyMs: stats(keys),
  searchClearMs: stats(runs.flatMap((r) => r.searches.map((s) => s.clear.ms))),
  domRows: stats(runs.map((r) => r.domRows)),
  pages: runs[0]?.pages,
  listBytes: runs[0]?.bytes,
  listDecodedBytes: runs[0]?.decodedBytes,
  pageErrors: runs.reduce((sum, r) => sum + r.errors.length, 0),
  detail: runs,
};
mkdirSync(join(OUT, '..'), { recursive: true });
writeFileSync(OUT, JSON.stringify(report, null, 2));

const f = (s) => `p50 ${s.p50?.toFixed(1)} ms, p95 ${s.p95?.toFixed(1)} ms, max ${s.max?.toFixed(1)} ms (n=${s.n})`;
console.log([
  `tools bench: ${RUNS} runs, fresh Chromium process and profile each (${report.machine.cpus} CPUs, `
    + `Chromium ${report.machine.chromium}, CPU throttle ${THROTTLE}x, load average `
    + `${report.machine.loadAverage.before.toFixed(1)} → ${report.machine.loadAverage.after.toFixed(1)})`,
  `${TOTAL} tools (--fixtures ${FIXTURES}), tools/list: ${report.pages} pages, ${(report.listDecodedBytes / 1e6).toFixed(2)} MB of JSON `
    + `(${(report.listBytes / 1e6).toFixed(2)} MB compressed on the wire)`,
  `first rows painted after page 1 arrived: ${f(report.firstRowsMs)}`,
  `  (from navigation: ${f(report.firstRowsFromNavigationMs)})`,
  `${TOTAL} counted and painted after the last page arrived: ${f(report.wholeListMs)}`,
  `  (from navigation: ${f(report.wholeListFromNavigationMs)})`,
  `rows in the DOM with the whole list: ${f(report.domRows).replaceAll(' ms', '')}`,
  `search, each key to its rows painted${SETTLE_MS ? ` (typed ${SETTLE_MS} ms after the list)` : ''}: ${f(report.searchKeyMs)}`,
  `search emptied to the whole list painted: ${f(report.searchClearMs)}`,
  `page errors: ${report.pageErrors}`,
  `written to ${OUT}`,
].join('\n'));
