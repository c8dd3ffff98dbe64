// The scene against the real `holdbay serve`, beyond the lessons themselves (those are taken
// in a row, as a learner does, by lessons_in_a_row*.test.mjs): ten tasks in the magazine, a
// replay of an exported log drawing the same scene, reduced motion and the keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { demoAndBrowser, openCleanApp, screenshot } from './support.mjs';
import { fillField, answerInput, shown } from './ui.mjs';
import {
  assertLabelsFit, inspected, openScene, part, sceneSummary, startLesson,
} from './lesson_walk.mjs';

const app = demoAndBrowser();

test('ten tasks in the magazine stay legible: signs, words, badges inside their cells', async () => {
  const { page, errors } = await openScene(app);
  await startLesson(page, 7);
  // Lesson 7's last step starts flaky_job as a task; ten of them fill five rows.
  const flaky = page.locator('#lessons button.lesson-step-run').first();
  for (let started = 1; started <= 10; started += 1) {
    await flaky.click();
    await page.waitForFunction((n) => document.querySelectorAll('#scene g.cartridge').length >= n, started, { timeout: 20000 });
  }
  await page.waitForFunction(
    () => document.querySelectorAll('#scene g.cartridge[data-status="failed"]').length >= 9,
    null,
    { timeout: 30000 },
  );
  const cells = await page.evaluate(() => [...document.querySelectorAll('#scene g.cartridge')].map((cell) => ({
    status: cell.dataset.status,
    sign: cell.querySelector('.lamp-glyph')?.textContent,
    words: cell.querySelector('.cartridge-message')?.textContent ?? '',
  })));
  for (const cell of cells.filter((c) => c.status === 'failed')) {
    assert.equal(cell.sign, '✕', 'a failed lamp carries its sign');
    assert.match(cell.words, /^failed: flaky_job failed/, 'and its word, with the current message');
  }
  await assertLabelsFit(page, 'ten tasks');
  await screenshot(page, '5d-magazine-ten-tasks');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a replay of an exported wire log draws the same final scene', async () => {
  const { page, errors } = await openScene(app);
  await startLesson(page, 1);
  const card = await shown(page, '#call-panel .input-request[data-key="party"]');
  await fillField(card, 'size', '4');
  await answerInput(card, 'accept');
  await part(page, 'g.tray[data-state="done"]');
  // Lesson 6 starts the scene anew: lesson 1's tray goes to the Earlier strip, and the
  // replay (an import is shown whole) draws both scenes' parts.
  const lessonOne = await sceneSummary(page);
  await startLesson(page, 6);
  const working = await part(page, 'g.cartridge[data-status="working"]');
  const taskId = await working.getAttribute('data-task-id');
  await (await shown(page, `.task-row[data-task-id="${taskId}"] .task-cancel`)).click();
  await part(page, `g.cartridge[data-task-id="${taskId}"][data-sealed="true"]`, 30000);
  const live = await sceneSummary(page);
  // A lesson folds the dock to its tab bar: Show opens it again.
  const dockToggle = page.locator('#dock .dock-collapse');
  assert.equal(await dockToggle.getAttribute('aria-expanded'), 'false', 'the lesson folded the dock');
  await dockToggle.click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.wire-export')]);
  const exported = readFileSync(await download.path(), 'utf8');
  await page.close();

  const { page: replay, errors: replayErrors } = await openScene(app);
  await replay.setInputFiles('.wire-import', { name: 'session.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
  await shown(replay, '#scene[data-replay="true"]');
  await shown(replay, `#scene g.cartridge[data-task-id="${taskId}"][data-sealed="true"]`);
  // (The bay orders its trays by state, so the two are compared as sets.)
  const sorted = (summary) => Object.fromEntries(Object.entries(summary).map(([kind, parts]) => [kind, [...parts].sort()]));
  const whole = {
    trays: [...lessonOne.trays, ...live.trays],
    latches: [...lessonOne.latches, ...live.latches],
    cartridges: [...lessonOne.cartridges, ...live.cartridges],
  };
  assert.deepEqual(sorted(await sceneSummary(replay)), sorted(whole));

  // Scrubbing back to the first event shows the session's beginning.
  await replay.locator('#timeline-scrub').fill('0');
  await replay.waitForFunction(() => document.querySelectorAll('#scene g.cartridge').length === 0);
  await screenshot(replay, '59-replay-scrubbed-to-start');
  await replay.click('#timeline-live');
  await shown(replay, `#scene g.cartridge[data-task-id="${taskId}"]`);
  assert.deepEqual(errors, []);
  assert.deepEqual(replayErrors, []);
  await replay.close();
});

test('with reduced motion nothing moves, and the scene is usable from the keyboard', async () => {
  const { page, errors } = await openScene(app);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await startLesson(page, 1);
  const tray = await part(page, 'g.tray[data-state="paused"]');
  const moving = await page.evaluate(() => document.getAnimations()
    .filter((animation) => animation.effect?.target?.closest?.('#scene') && animation.playState === 'running')
    .length);
  assert.equal(moving, 0, 'no animation runs in the scene');
  // The narration says it in words.
  await shown(page, '#scene-narration li:has-text("pauses in the holding bay")');

  // From the view switch, one key press skips the lesson and the call.
  await page.focus('#view-scene');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip-to-scene');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  assert.match(
    await page.evaluate(() => document.activeElement?.getAttribute('class') ?? ''),
    /scene-reset|flight|tray|latch|tag|cartridge|magazine|timeline/,
    'the next Tab lands in the scene (its Reset control first)',
  );
  assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('#scene'))));
  await tray.focus();
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#inspect pre.inspect-json').count(), 0, 'Escape clears');
  await page.keyboard.press('Enter');
  const { role, json } = await inspected(page);
  assert.match(role, /tray/i);
  assert.equal(json.params.arguments.restaurant, 'Chez Holdbay', 'the tray shows the request as sent, its arguments the workpiece');
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.getAttribute('class') ?? '');
  assert.match(focused, /latch|tag|round|tray|cartridge|magazine|flight/, `focus moved to a scene part: ${focused}`);
  await screenshot(page, '60-scene-reduced-motion-keyboard');
  assert.deepEqual(errors, []);
  await page.close();
});
