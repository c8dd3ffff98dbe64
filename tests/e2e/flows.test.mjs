// The user flows of the full client against the real `holdbay serve`, clicked as a user
// would: input rounds, URL consent, tasks with an approval gate, cancel, failure, progress
// and Stop, a reload mid-task, and the wire log export. Every step also checks that the
// page logged no error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { demoAndBrowser, openCleanApp, screenshot } from './support.mjs';
import { selectTool, fillField, answerInput, call, shown, waitForTaskStatus, askingCardOf } from './ui.mjs';

const app = demoAndBrowser();

const openApp = () => openCleanApp(app.context, app.url);

test('book_table: a form round, then the confirmation', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'book_table');
  await call(page);
  const card = await shown(page, '#call-panel .input-request[data-key="party"]');
  assert.match(await page.textContent('#call-panel .round-counter'), /1/);
  await fillField(card, 'size', '6');
  await fillField(card, 'time', '21:00');
  await screenshot(page, '10-book-table-form');
  await answerInput(card, 'accept');
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /Booked a table for 6 at Chez Holdbay, 21:00/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('deploy: two rounds, then a decline ends "not deployed"', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'deploy');
  await call(page);
  let card = await shown(page, '#call-panel .input-request[data-key="region"]');
  await fillField(card, 'region', 'eu-production');
  await answerInput(card, 'accept');
  card = await shown(page, '#call-panel .input-request[data-key="approve_production"]');
  assert.match(await page.textContent('#call-panel .round-counter'), /2/);
  await screenshot(page, '11-deploy-second-round');
  await answerInput(card, 'decline');
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /Not deployed/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('endless_questions: the client stops at its round bound', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'endless_questions');
  await call(page);
  for (let round = 1; round <= 10; round += 1) {
    const card = await shown(page, `#call-panel .input-request[data-key="question_${round}"]`);
    await fillField(card, 'sure', 'true');
    await answerInput(card, 'accept');
  }
  const error = await shown(page, '#call-panel .call-error');
  assert.match(await error.textContent(), /10 rounds/);
  await screenshot(page, '12-endless-questions-bound');
  assert.deepEqual(errors, []);
  await page.close();
});

test('connect_account: consent first, the page opens only then, and the call completes', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'connect_account');
  await call(page);
  const pagesBefore = app.context.pages().length;
  const card = await shown(page, '#call-panel .input-request[data-key="consent"]');
  assert.equal(app.context.pages().length, pagesBefore, 'nothing opened before consent');
  assert.match(await card.textContent(), /127\.0\.0\.1/);
  await screenshot(page, '13-url-consent');
  await card.locator('.url-consent').click();
  const [consentPage] = await Promise.all([
    app.context.waitForEvent('page'),
    card.locator('.open-page').click(),
  ]);
  await consentPage.waitForLoadState();
  assert.match(consentPage.url(), /\/consent\//);
  await consentPage.click('button[value="allow"]');
  await consentPage.waitForSelector('text=You allowed');
  await consentPage.close();
  await card.locator('.consent-finished').click();
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /Connected your Example Cloud account/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('run_pipeline: a task that stops at the approval gate, answered through tasks/update', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'run_pipeline');
  await fillField(page.locator('#call-panel'), 'duration_seconds', '3');
  await call(page);
  const task = await waitForTaskStatus(page, 'run_pipeline', 'input_required');
  const card = await shown(await askingCardOf(page, task), '.input-request[data-key="approve_prod"]');
  await screenshot(page, '20-task-approval-gate');
  await fillField(card, 'approve', 'true');
  await answerInput(card, 'accept');
  const done = await waitForTaskStatus(page, 'run_pipeline', 'completed');
  assert.match(await done.locator('.task-result').textContent(), /production/);
  await screenshot(page, '21-task-completed');
  assert.deepEqual(errors, []);
  await page.close();
});

test('bulk_import: cancel is a request, and the task ends cancelled', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'bulk_import');
  await fillField(page.locator('#call-panel'), 'duration_seconds', '30');
  await call(page);
  const task = await waitForTaskStatus(page, 'bulk_import', 'working');
  assert.match(await task.textContent(), /request/i, 'the UI says cancel is only a request');
  await task.locator('.task-cancel').click();
  await waitForTaskStatus(page, 'bulk_import', 'cancelled');
  assert.deepEqual(errors, []);
  await page.close();
});

test('flaky_job: the task fails with its JSON-RPC error', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'flaky_job');
  await fillField(page.locator('#call-panel'), 'seconds', '0.5');
  await call(page);
  const task = await waitForTaskStatus(page, 'flaky_job', 'failed');
  assert.match(await task.locator('.task-error').textContent(), /-32603|flaky_job failed/);
  await screenshot(page, '22-task-failed');
  assert.deepEqual(errors, []);
  await page.close();
});

test('slow_report: progress while it streams, and Stop aborts it', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'slow_report');
  await fillField(page.locator('#call-panel'), 'seconds', '30');
  await call(page);
  await shown(page, '#call-panel .progress');
  await screenshot(page, '14-progress');
  await page.click('#call-panel .stop');
  await shown(page, '#call-panel >> text=Stopped');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a reload in the middle of run_pipeline resumes polling and completes', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'run_pipeline');
  await fillField(page.locator('#call-panel'), 'duration_seconds', '4');
  await fillField(page.locator('#call-panel'), 'target', 'staging');
  await call(page);
  await waitForTaskStatus(page, 'run_pipeline', 'working');
  await page.reload();
  await shown(page, '.select-tool', { timeout: 15000 });
  await waitForTaskStatus(page, 'run_pipeline', 'completed', 30000);
  await screenshot(page, '23-task-after-reload');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the wire log exports a JSON file that parses', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'quick_sum');
  await call(page);
  await shown(page, '#call-panel .call-result');
  await screenshot(page, '30-wire-log');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('.wire-export'),
  ]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(exported.format, 'holdbay-wire-log');
  const methods = exported.entries.map((entry) => entry.method);
  assert.ok(methods.includes('server/discover') && methods.includes('tools/call'), methods.join());
  assert.deepEqual(errors, []);
  await page.close();
});
