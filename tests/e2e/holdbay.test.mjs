// The app's first screen against the real `holdbay serve`: discovery, tools, and errors
// shown on the page rather than a blank page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoAndBrowser, openPage, screenshot } from './support.mjs';

const app = demoAndBrowser();

const open = (path) => openPage(app.context, `${app.url}${path}`);

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
    'endless_questions', 'flaky_job', 'format_note', 'plan_migration', 'quick_sum',
    'run_pipeline', 'slow_report', 'summarize_folder',
  ]);
  const descriptions = await page.$$eval('.tool-description', (nodes) => nodes.length);
  assert.equal(descriptions, tools.length);
  await screenshot(page, '01-discover-and-tools');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an unreachable server is reported on the page, not a blank page', async () => {
  // Port 9 on loopback: nothing listens there, so fetch itself fails.
  const { page, errors } = await open('/?server=http://127.0.0.1:9/mcp');
  const message = await page.waitForSelector('.error-message', { timeout: 15000 });
  assert.match(await message.textContent(), /Could not reach http:\/\/127\.0\.0\.1:9\/mcp/);
  assert.equal(await page.$('#discover-panel'), null);
  await screenshot(page, '02-unreachable');
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
