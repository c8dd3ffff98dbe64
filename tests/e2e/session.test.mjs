// The client's state lives in the session, not in a view, against the real `holdbay serve`:
// a paused call and the arguments typed so far survive switching views both ways and are
// finished from the same card (the scene's tray stays the same logical request); a task
// asking for two inputs is answered with one Submit in one tasks/update; and a reload keeps
// the wire log, so the timeline still tells the restored task's story.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoAndBrowser, openCleanApp, screenshot } from './support.mjs';
import { selectTool, fillField, answerInput, call, shown, waitForTaskStatus, askingCardOf, recordMcpRequests } from './ui.mjs';

const app = demoAndBrowser();

/** The app with nothing kept from earlier tests, in `view`. */
function openApp(view = 'workbench') {
  return view === 'scene'
    ? openCleanApp(app.context, app.url, { path: '/?view=scene', ready: '#scene svg.scene-svg' })
    : openCleanApp(app.context, app.url);
}

async function switchTo(page, view) {
  await page.click(`#view-${view}`);
  await page.waitForSelector(view === 'scene' ? '#scene svg.scene-svg' : '.select-tool');
}

test('a call paused in the Workbench survives Scene and back, typed arguments too, and completes from its card', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'book_table');
  await fillField(page.locator('#call-panel .arguments-editor'), 'restaurant', 'Le Latch');
  await call(page);
  await shown(page, '#call-panel .input-request[data-key="party"]');

  await switchTo(page, 'scene');
  await shown(page, '#call-panel .input-request[data-key="party"]');
  const tray = await shown(page, '#scene g.tray[data-state="paused"][data-occupied="true"]');
  const trayId = await tray.getAttribute('data-tray');
  await screenshot(page, '70-paused-call-in-scene');

  await switchTo(page, 'workbench');
  assert.equal(
    await page.locator('#call-panel .arguments-editor [name="restaurant"]').inputValue(),
    'Le Latch',
    'the arguments typed before the switch are still there',
  );
  const card = await shown(page, '#call-panel .input-request[data-key="party"]');
  assert.match(await page.textContent('#call-panel .round-counter'), /Round 1/);
  await fillField(card, 'size', '4');
  await fillField(card, 'time', '19:30');
  await answerInput(card, 'accept');
  const result = await shown(page, '#call-panel .call-result');
  assert.match(await result.textContent(), /Booked a table for 4 at Le Latch, 19:30/);

  await switchTo(page, 'scene');
  await shown(page, `#scene g.tray[data-tray="${trayId}"][data-state="done"][data-rounds="2"]`);
  assert.equal(await page.locator('#scene g.tray[data-state="abandoned"]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a call paused in the Scene survives the Workbench and back, and completes from its card', async () => {
  const { page, errors } = await openApp('scene');
  await page.click('#lessons button.lesson-start[data-lesson="1"]');
  await shown(page, '#call-panel .input-request[data-key="party"]');
  const tray = await shown(page, '#scene g.tray[data-state="paused"][data-occupied="true"]');
  const trayId = await tray.getAttribute('data-tray');

  await switchTo(page, 'workbench');
  await shown(page, '#call-panel .input-request[data-key="party"]');
  assert.match(await page.textContent('#call-panel .call-tool'), /book_table/);

  await switchTo(page, 'scene');
  const card = await shown(page, '#call-panel .input-request[data-key="party"]');
  await shown(page, `#scene g.tray[data-tray="${trayId}"][data-state="paused"]`);
  await fillField(card, 'size', '6');
  await fillField(card, 'time', '21:00');
  await answerInput(card, 'accept');
  await shown(page, '#call-panel .call-result');
  await shown(page, `#scene g.tray[data-tray="${trayId}"][data-state="done"][data-rounds="2"]`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a task asking for two inputs is answered with one Submit, in one tasks/update carrying both keys', async () => {
  const { page, errors } = await openApp();
  const sent = recordMcpRequests(page);
  await selectTool(page, 'plan_migration');
  await fillField(page.locator('#call-panel'), 'duration_seconds', '1');
  await call(page);
  const task = await waitForTaskStatus(page, 'plan_migration', 'input_required');
  const form = await shown(await askingCardOf(page, task), 'form.task-inputs.gathered');
  const windowCard = await shown(form, '.input-request[data-key="window"]');
  const rollbackCard = await shown(form, '.input-request[data-key="rollback"]');
  await fillField(windowCard, 'window', 'sunday');
  await fillField(rollbackCard, 'tested', 'true');
  await screenshot(page, '71-two-inputs-one-submit');
  assert.equal(sent.filter((body) => body.method === 'tasks/update').length, 0, 'nothing sent before Submit');
  await form.locator('button.submit-answers').click();

  const done = await waitForTaskStatus(page, 'plan_migration', 'completed', 30000);
  assert.match(await done.locator('.task-result').textContent(), /Migration scheduled for Sunday/);
  const updates = sent.filter((body) => body.method === 'tasks/update');
  assert.equal(updates.length, 1, `one tasks/update, got ${updates.length}`);
  assert.deepEqual(Object.keys(updates[0].params.inputResponses).sort(), ['rollback', 'window']);
  assert.equal(updates[0].params.inputResponses.window.action, 'accept');
  assert.equal(updates[0].params.inputResponses.rollback.content.tested, true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a reload keeps the wire log, and the timeline still shows the restored task from its call', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'run_pipeline');
  await fillField(page.locator('#call-panel'), 'duration_seconds', '4');
  await fillField(page.locator('#call-panel'), 'target', 'staging');
  await call(page);
  const working = await waitForTaskStatus(page, 'run_pipeline', 'working');
  const taskId = await working.getAttribute('data-task-id');
  await shown(page, '#wire-log .wire-entry[data-method="tools/call"]');

  await page.reload();
  await shown(page, '.select-tool', { timeout: 15000 });
  // The exchanges from before the reload are back in the wire log.
  await shown(page, '#wire-log .wire-entry[data-method="tools/call"]');
  await shown(page, '#wire-log .wire-entry[data-method="server/discover"]');

  await switchTo(page, 'scene');
  await shown(page, `#scene g.cartridge[data-task-id="${taskId}"][data-restored="true"]`);
  await shown(page, `#scene g.cartridge[data-task-id="${taskId}"][data-status="completed"][data-sealed="true"]`, {
    timeout: 30000,
  });
  // A row's accessible name is its text: time, lanes (visually hidden) and label.
  const labels = await page.locator('#timeline .timeline-event').evaluateAll((rows) =>
    rows.map((row) => row.textContent));
  const called = labels.findIndex((label) => /tools\/call run_pipeline/.test(label));
  const detached = labels.findIndex((label) => label.includes(`task ${taskId}`));
  const reloaded = labels.findIndex((label) => /reload/i.test(label));
  assert.ok(called >= 0, `the call before the reload is in the timeline: ${labels.join(' | ')}`);
  assert.ok(detached > called, 'then the task it became');
  assert.ok(reloaded > detached, 'then the reload');
  await screenshot(page, '72-timeline-after-reload');
  assert.deepEqual(errors, []);
  await page.close();
});

test('switching views during Play while animation frames run late (a busy tab) raises no error', async () => {
  const { page, errors } = await openApp();
  await selectTool(page, 'echo');
  await fillField(page.locator('#call-panel'), 'message', 'hello');
  await call(page);
  await shown(page, '#call-panel .call-result');
  await call(page);
  await shown(page, '#call-panel .call-result');
  // A busy or backgrounded tab draws its next frame late: here every frame comes 400 ms
  // late, so a callback the timeline asked for runs after the view switch has disposed it.
  await page.evaluate(() => {
    window.requestAnimationFrame = (callback) =>
      setTimeout(() => callback(performance.now()), 400);
  });
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 12; i += 1) {
    await page.click('#view-scene');
    const play = page.locator('#timeline-play');
    await play.waitFor({ timeout: 10000 });
    if ((await play.getAttribute('aria-pressed')) !== 'true') await play.click();
    // About time: the switches land before, during and after the late frames.
    await pause(50 + 10 * i);
    await page.click('#view-workbench');
    await page.waitForSelector('.select-tool');
    await pause(450);
  }
  assert.deepEqual(errors, []);
  // The page is alive: a further call completes.
  await call(page);
  await shown(page, '#call-panel .call-result');
  assert.deepEqual(errors, []);
  await page.close();
});

test('switching views 50 times in a row, during Play, a paused call and a stream, raises no error', async () => {
  const { page, errors } = await openApp();
  // Something for the timeline to play: a complete call and a paused one.
  await selectTool(page, 'echo');
  await fillField(page.locator('#call-panel'), 'message', 'hello');
  await call(page);
  await shown(page, '#call-panel .call-result');
  await selectTool(page, 'book_table');
  await call(page);
  await shown(page, '#call-panel .input-request[data-key="party"]');
  // About time: the switches land at jittered moments of Play, the pause and the stream.
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  // A jitter from 0 to 200 ms, the same every run.
  let seed = 7;
  const jitter = () => {
    seed = (seed * 48271) % 2147483647;
    return seed % 200;
  };
  // During Play (pressed again each time the scene is back) and with the call paused.
  for (let i = 0; i < 50; i += 1) {
    await page.click('#view-scene');
    const play = page.locator('#timeline-play');
    await play.waitFor({ timeout: 10000 });
    if ((await play.getAttribute('aria-pressed')) !== 'true') await play.click();
    await pause(jitter());
    await page.click('#view-workbench');
    await pause(jitter());
  }
  // During a stream: slow_report sends progress for 4 s while the views switch.
  await page.waitForSelector('.select-tool');
  await selectTool(page, 'slow_report');
  await fillField(page.locator('#call-panel'), 'seconds', '4');
  await call(page);
  await shown(page, '#call-panel .progress', { timeout: 10000 });
  for (let i = 0; i < 50; i += 1) {
    await page.click(i % 2 === 0 ? '#view-scene' : '#view-workbench');
    await pause(jitter() / 4);
  }
  await switchTo(page, 'workbench');
  await shown(page, '#call-panel .call-result', { timeout: 20000 });
  // The paused call is still where it was left, in the session.
  await selectTool(page, 'book_table');
  await shown(page, '#call-panel .input-request[data-key="party"]');
  assert.deepEqual(errors, []);
  await page.close();
});
