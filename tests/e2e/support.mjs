// Shared by the end-to-end tests: start the real `holdbay serve` (and, for the peer tests,
// the FastMCP peer), launch Debian's Chromium, open pages that record every page or console
// error, and write screenshots for people to look at.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const root = resolve(import.meta.dirname, '..', '..');
const binary = process.env.HOLDBAY_BIN ?? join(root, 'target', 'debug', 'holdbay');
const dist = process.env.HOLDBAY_DIST ?? join(root, 'dist');
const peerPython = join(root, '.tools', 'venv-fastmcp', 'bin', 'python');
export const screenshotDir = join(root, 'target', 'e2e-screenshots');

/** Wait until `child` prints a line matching `pattern`; resolves with the match. */
function waitForLine(child, pattern, what) {
  return new Promise((resolveMatch, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${output}`)), 30000);
    const onData = (chunk) => {
      output += chunk;
      const match = output.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolveMatch(match);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${output}`));
    });
  });
}

/** `holdbay serve` on a free loopback port with a throwaway data dir. */
export async function startHoldbay(extraArgs = []) {
  assert.ok(existsSync(binary), `no holdbay binary at ${binary}: run cargo build -p holdbay-server`);
  assert.ok(existsSync(join(dist, 'index.html')), `no app in ${dist}: run trunk build --release`);
  const dataDir = mkdtempSync(join(tmpdir(), 'holdbay-e2e-data-'));
  const child = spawn(binary, ['serve', '--port', '0', '--dist', dist, '--data-dir', dataDir, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const match = await waitForLine(child, /serving (http:\/\/127\.0\.0\.1:\d+)\//, 'holdbay');
  return {
    url: match[1],
    stop() {
      child.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The demo server (`holdbay serve`) and a browser for one test file: started before its
 * tests (then `setup(app)`, if given, in the same hook), stopped after them. `url` and
 * `context` are there once the tests run.
 */
export function demoAndBrowser(setup = async () => {}) {
  let holdbay;
  let browser;
  const app = {
    get url() { return holdbay.url; },
    get context() { return browser.context; },
  };
  before(async () => {
    holdbay = await startHoldbay();
    browser = await launchBrowser();
    await setup(app);
  });
  after(async () => {
    await browser?.close();
    holdbay?.stop();
  });
  return app;
}

/** A free loopback port (closed again before it is handed out). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

/** The FastMCP 4.1.4 + fastmcp-tasks peer (tests/peers/fastmcp_peer.py), on loopback. */
export async function startFastmcpPeer() {
  assert.ok(existsSync(peerPython), `no peer venv at ${peerPython}: run scripts/install-tools.sh`);
  const port = await freePort();
  const child = spawn(peerPython, [join(root, 'tests', 'peers', 'fastmcp_peer.py')], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForLine(child, /Uvicorn running on|Application startup complete/, 'the FastMCP peer');
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill() };
}

/** The `--stdio` argument that runs the Python SDK v2 peer (tests/peers/python_mcp_peer.py,
 * `mcp` 2.3.0 from the FastMCP venv) as `name`. */
export function pythonMcpStdioArg(name = 'python') {
  assert.ok(existsSync(peerPython), `no peer venv at ${peerPython}: run scripts/install-tools.sh`);
  return `${name}='${peerPython}' '${join(root, 'tests', 'peers', 'python_mcp_peer.py')}'`;
}

/** `--stdio NAME=COMMAND` running the FastMCP peer on stdio (through `holdbay serve`). */
export function fastmcpStdioArg(name = 'peer') {
  assert.ok(existsSync(peerPython), `no peer venv at ${peerPython}: run scripts/install-tools.sh`);
  return `${name}='${peerPython}' '${join(root, 'tests', 'peers', 'fastmcp_peer.py')}' stdio`;
}

/** Chromium with a throwaway profile, or with `profile` (kept when the browser closes). */
export async function launchBrowser({ profile: kept } = {}) {
  const profile = kept ?? mkdtempSync(join(tmpdir(), 'holdbay-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 720 },
    acceptDownloads: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    async close() {
      await context.close();
      if (!kept) rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Open `url` and record uncaught page errors and console errors (a wasm panic shows up). */
export async function openPage(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // The browser's own line for a refused fetch is expected where a test provokes one.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) {
      errors.push(`console: ${message.text()}`);
    }
  });
  await page.goto(url);
  return { page, errors };
}

/**
 * Forget what the app keeps in the browser for `baseUrl` (task handles in localStorage, the
 * wire log in IndexedDB), from a page of the same origin that is not the app: the app itself
 * would save its state again as it unloads. Returns that page, for the test to reuse.
 */
export async function clearAppStorage(context, baseUrl) {
  const opened = await openPage(context, `${baseUrl}/relay`);
  await opened.page.evaluate(() => new Promise((resolveDone) => {
    localStorage.clear();
    const request = indexedDB.deleteDatabase('holdbay');
    request.onsuccess = request.onerror = request.onblocked = () => resolveDone();
  }));
  return opened;
}

/**
 * The app at `baseUrl` + `path`, with nothing kept from earlier tests, once `ready` shows
 * (the tool list by default).
 */
export async function openCleanApp(context, baseUrl, { path = '/', ready = '.select-tool' } = {}) {
  const opened = await clearAppStorage(context, baseUrl);
  await opened.page.goto(`${baseUrl}${path}`);
  await opened.page.waitForSelector(ready, { timeout: 15000 });
  return opened;
}

/** Save a full-page screenshot under target/e2e-screenshots/. */
export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: false });
}
