// Starts the real `holdbay serve` (the binary cargo built) on a free loopback port with the
// release app from dist/, then drives Debian's Chromium through it with Playwright.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..', '..');
const binary = process.env.HOLDBAY_BIN ?? join(root, 'target', 'debug', 'holdbay');
const dist = process.env.HOLDBAY_DIST ?? join(root, 'dist');

let server;
let dataDir;
let baseUrl;
let browser;
let profile;

function startServer() {
  return new Promise((resolveUrl, reject) => {
    dataDir = mkdtempSync(join(tmpdir(), 'holdbay-e2e-data-'));
    const child = spawn(binary, ['serve', '--port', '0', '--dist', dist, '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`holdbay did not start:\n${output}`)), 15000);
    const onData = (chunk) => {
      output += chunk;
      const match = output.match(/serving (http:\/\/127\.0\.0\.1:\d+)\//);
      if (match) {
        clearTimeout(timer);
        resolveUrl({ child, url: match[1] });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`holdbay exited with ${code}:\n${output}`));
    });
  });
}

before(async () => {
  assert.ok(existsSync(binary), `no holdbay binary at ${binary}: run cargo build -p holdbay-server`);
  assert.ok(existsSync(join(dist, 'index.html')), `no app in ${dist}: run trunk build --release`);
  const started = await startServer();
  server = started.child;
  baseUrl = started.url;
  profile = mkdtempSync(join(tmpdir(), 'holdbay-e2e-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Open `path` and collect uncaught page errors (a wasm panic shows up here). */
async function open(path) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${baseUrl}${path}`);
  return { page, errors };
}

test('the page shows the demo server and its tools from the real /mcp endpoint', async () => {
  const { page, errors } = await open('/');
  await page.waitForSelector('#tools-panel', { timeout: 15000 });

  assert.equal(await page.textContent('#server-name'), 'Holdbay demo server');
  assert.match(await page.textContent('#server-version'), /^\d+\.\d+\.\d+$/);
  assert.equal(await page.textContent('#supported-versions'), '2026-07-28');
  assert.match(await page.textContent('#capabilities'), /tools/);
  const tools = await page.$$eval('.tool-name', (nodes) => nodes.map((n) => n.textContent));
  assert.deepEqual(tools.sort(), [
    'book_table', 'bulk_import', 'connect_account', 'deploy', 'echo',
    'endless_questions', 'flaky_job', 'quick_sum', 'run_pipeline', 'slow_report',
  ]);
  const descriptions = await page.$$eval('.tool-description', (nodes) => nodes.length);
  assert.equal(descriptions, tools.length);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an unreachable server is reported on the page, not a blank page', async () => {
  // Port 9 on loopback: nothing listens there, so fetch itself fails.
  const { page, errors } = await open('/?server=http://127.0.0.1:9/mcp');
  const message = await page.waitForSelector('.error-message', { timeout: 15000 });
  assert.match(await message.textContent(), /Could not reach http:\/\/127\.0\.0\.1:9\/mcp/);
  assert.equal(await page.$('#discover-panel'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an HTTP error status from the server is named on the page', async () => {
  // The app's own origin serves files, not MCP: a POST there is refused with an HTTP status.
  const { page, errors } = await open(`/?server=${encodeURIComponent('/index.html')}`);
  const message = await page.waitForSelector('.error-message', { timeout: 15000 });
  assert.match(await message.textContent(), /HTTP 4\d\d/);
  assert.deepEqual(errors, []);
  await page.close();
});
