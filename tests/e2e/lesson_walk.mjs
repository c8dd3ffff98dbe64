// The twelve lessons as a learner takes them, one function a lesson: each starts its lesson
// from the lesson list, does what its steps say in the call and tasks panels, checks the scene
// for the states the lesson claims, and ends with its question answered and the answer
// revealed. `lessons_in_a_row*.test.mjs` take them all in order in one page; the helpers are
// shared with the other scene tests in lessons.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openCleanApp, screenshot as screenshotAs } from './support.mjs';
import {
  fillField, answerInput, shown, askingCardOf, recordMcpRequests, scrollsSettled, transitionsDone,
} from './ui.mjs';
import { violations } from './axe.mjs';

/** The colour scheme the walk is in: screenshots are named by it, and a check that looks at
 * both schemes puts this one back. */
let walkScheme = 'light';

/** Walk in `scheme` from now on (the page's media emulation is the caller's). */
export function setWalkScheme(scheme) {
  walkScheme = scheme;
}

/** A screenshot named for the walk's scheme (light keeps the plain name). */
export function screenshot(page, name) {
  return screenshotAs(page, walkScheme === 'light' ? name : `${name}-${walkScheme}`);
}

/** No axe-core violation in the dark scheme nor in the light one; the walk's scheme is put
 * back after. */
async function assertAccessibleInBothSchemes(page, moment) {
  for (const scheme of ['dark', 'light']) {
    await page.emulateMedia({ colorScheme: scheme });
    assert.deepEqual(await violations(page), [], `${moment}, ${scheme} scheme`);
  }
  await page.emulateMedia({ colorScheme: walkScheme });
}

export async function startLesson(page, number) {
  await page.click(`#lessons button.lesson-start[data-lesson="${number}"]`);
  await shown(page, `#lessons .lesson[data-lesson="${number}"]`);
  // Whatever the lesson before left (a reveal that went back in time, a part selected and
  // inspected), this one starts live with nothing chosen.
  assert.notEqual(await page.getAttribute('#scene', 'data-replay'), 'true', `lesson ${number} starts live`);
  assert.equal(await page.locator('#scene .selected, #scene .cartridge-highlight').count(), 0, `lesson ${number}: nothing selected`);
  assert.equal(await page.locator('#inspect pre.inspect-json').count(), 0, `lesson ${number}: the inspector is empty`);
  await assertOneScreen(page, `lesson ${number} started`);
  await screenshot(page, `lesson-${String(number).padStart(2, '0')}-start`);
}

/** At 1280×720 the lesson, the scene and the evidence share one screen: the page itself
 * never scrolls (the lesson and the call scroll in their own regions). */
export async function assertOneScreen(page, moment) {
  const { scrolls, height, culprits } = await page.evaluate(() => {
    // Whatever reaches below the window: an element no scrolling region holds, or one
    // placed absolutely (its box can escape the region it sits in).
    const held = (element) => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(parent).overflowY)) return true;
      }
      return false;
    };
    const culprits = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().bottom > window.innerHeight + 1)
      .filter((e) => !held(e) || ['absolute', 'fixed'].includes(getComputedStyle(e).position))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${e.textContent.slice(0, 30)}"`);
    return {
      scrolls: document.scrollingElement.scrollHeight,
      height: window.innerHeight,
      culprits,
    };
  });
  assert.ok(
    scrolls <= height,
    `${moment}: the page scrolls (${scrolls} px > ${height} px): ${culprits.join(', ')}`,
  );
}

/** How much of `selector` is really on screen: inside the viewport and inside every
 * scrolling ancestor (an element scrolled out of its region does not count). */
export function visibleHeight(page, selector) {
  return page.evaluate((selector) => {
    const element = document.querySelector(selector);
    if (!element) return -1;
    let { top, bottom } = element.getBoundingClientRect();
    top = Math.max(top, 0);
    bottom = Math.min(bottom, window.innerHeight);
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent).overflowY;
      if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') {
        const frame = parent.getBoundingClientRect();
        top = Math.max(top, frame.top);
        bottom = Math.min(bottom, frame.bottom);
      }
    }
    return Math.round(bottom - top);
  }, selector);
}

/** Pick the right answer, reveal it, and return what the inspector then shows. The answer,
 * the part it names and the inspector are all in view, with no page scroll. */
export async function answerAndReveal(page, { wrongFirst = false } = {}) {
  const question = await shown(page, '#lessons .lesson-question');
  const lessonNumber = await page.getAttribute('#lessons .lesson', 'data-lesson');
  const mark = `#lessons button.lesson-start[data-lesson="${lessonNumber}"]`;
  if (wrongFirst) {
    // A wrong first answer: told so, not done yet; the reveal after it still counts.
    await question.locator('button.lesson-choice[data-correct="false"]').first().click();
    await shown(page, '#lessons .lesson-feedback[data-correct="false"]');
    assert.equal(await page.locator(`${mark}.done`).count(), 0, 'a wrong answer is not done');
  } else {
    await question.locator('button.lesson-choice[data-correct="true"]').click();
  }
  await page.click('#lessons button.lesson-reveal');
  // The lesson's done mark: on its button in the list, large enough to see.
  await shown(page, `${mark}.done`);
  const tick = await page.locator(`${mark} .lesson-done`).boundingBox();
  assert.ok(tick && tick.width >= 14 && tick.height >= 14, `lesson ${lessonNumber}'s done mark is drawn: ${JSON.stringify(tick)}`);
  await shown(page, '#lessons .lesson-answer');
  const evidence = await inspected(page);
  await scrollsSettled(page); // the answer's scroll into view
  await assertOneScreen(page, 'the reveal');
  // The scene marks the part with .selected (a cartridge: the magazine's highlight).
  const named = '#scene .selected, #scene .cartridge-highlight';
  for (const selector of ['#lessons .lesson-answer', named, '#inspect .inspect-role']) {
    const seen = await visibleHeight(page, selector);
    assert.ok(seen >= 12, `after the reveal, ${selector} is not in view (${seen} px visible)`);
  }
  const lesson = await page.getAttribute('#lessons .lesson', 'data-lesson');
  await assertLabelsFit(page, `lesson ${lesson}'s reveal`);
  await assertAccessibleInBothSchemes(page, `lesson ${lesson}'s reveal`);
  await screenshot(page, `lesson-${lesson.padStart(2, '0')}-reveal`);
  return evidence;
}

/** Every label of the scene is legible where it is drawn: at least 11 px on screen, inside
 * its drawing, and inside the badge it sits on (a tag, an offer, a lamp's caption). */
export async function assertLabelsFit(page, moment) {
  const problems = await page.evaluate(() => {
    const found = [];
    const badges = '.tag, .task-offer, .workpiece, .cancel-ask, .kept-by-server';
    for (const text of document.querySelectorAll('#scene svg text')) {
      const box = text.getBoundingClientRect();
      if (box.width === 0 || getComputedStyle(text).visibility === 'hidden') continue;
      const name = `${text.parentElement.getAttribute('class') ?? 'svg'} "${text.textContent.slice(0, 30)}"`;
      const size = parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a;
      if (size < 10.95) found.push(`${name} is ${size.toFixed(1)} px`);
      const drawing = text.ownerSVGElement.getBoundingClientRect();
      if (box.left < drawing.left - 1 || box.right > drawing.right + 1) found.push(`${name} leaves its drawing`);
      const badge = text.parentElement.matches(badges)
        && [...text.parentElement.children].find((shape) => ['rect', 'path'].includes(shape.tagName));
      if (badge) {
        const frame = badge.getBoundingClientRect();
        if (box.left < frame.left - 1 || box.right > frame.right + 1) found.push(`${name} spills out of its badge`);
      }
    }
    // No cell or tray is cut by the edge of its drawing.
    for (const frame of document.querySelectorAll('#scene rect.cell, #scene rect.tray-frame')) {
      const box = frame.getBoundingClientRect();
      const drawing = frame.ownerSVGElement.getBoundingClientRect();
      if (box.width > 0 && (box.left < drawing.left - 0.5 || box.right > drawing.right + 0.5)) {
        found.push(`${frame.getAttribute('class')} is cut by its drawing's edge`);
      }
    }
    // No drawing is clipped by the scene's edge (a magazine column cut off).
    const scene = document.querySelector('#scene').getBoundingClientRect();
    for (const svg of document.querySelectorAll('#scene svg')) {
      const box = svg.getBoundingClientRect();
      if (box.width > 0 && (box.left < scene.left - 1 || box.right > scene.right + 1)) {
        found.push(`svg.${svg.getAttribute('class')} overflows the scene`);
      }
    }
    return found;
  });
  assert.deepEqual(problems, [], `${moment}: labels that do not fit`);
}

/** The inspector's role line and its JSON, parsed. */
export async function inspected(page) {
  await shown(page, '#inspect pre.inspect-json');
  const role = (await page.textContent('#inspect .inspect-role')).trim();
  const json = JSON.parse(await page.textContent('#inspect pre.inspect-json'));
  return { role, json };
}

/** Click a scene part (SVG groups take clicks like any element). */
export async function inspect(page, selector) {
  await page.locator(selector).first().click();
  return inspected(page);
}

/** Wait for a scene element, however long the server's work takes. */
export function part(page, selector, timeout = 20000) {
  return shown(page, `#scene ${selector}`, { timeout });
}

/** The app in the Scene view with nothing stored from earlier tests, tools loaded. */
export async function openScene(app) {
  const opened = await openCleanApp(app.context, app.url);
  await opened.page.click('#view-scene');
  await opened.page.waitForSelector('#scene svg.scene-svg');
  assert.match(opened.page.url(), /view=scene/);
  return opened;
}

/** What the scene shows, in a comparable form. */
export async function sceneSummary(page) {
  return page.evaluate(() => ({
    trays: [...document.querySelectorAll('#scene g.tray')].map((tray) =>
      `${tray.dataset.state}/${tray.dataset.rounds}/${tray.dataset.occupied}`),
    latches: [...document.querySelectorAll('#scene g.latch')].map((latch) =>
      `${latch.dataset.latch}/${latch.dataset.changed}`),
    cartridges: [...document.querySelectorAll('#scene g.cartridge')].map((cartridge) =>
      `${cartridge.dataset.taskId}/${cartridge.dataset.status}/${cartridge.dataset.sealed}`),
  }));
}

/** Light and dark screenshots of `page` now; the walk's scheme is put back after. */
async function screenshotBothSchemes(page, name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await transitionsDone(page);
    await screenshotAs(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: walkScheme });
}

/** Every response of the sign-in's parties (the protected endpoint, the well-known
 * documents, the authorization server, the callback), popups included, in order. */
function recordAuthTraffic(context) {
  const seen = [];
  const pending = [];
  const onResponse = (response) => {
    const url = new URL(response.url());
    const path = url.pathname;
    if (!(path === '/protected/mcp' || path.startsWith('/.well-known/') || path.startsWith('/oauth/'))) return;
    const request = response.request();
    const entry = { method: request.method(), path, status: response.status() };
    seen.push(entry);
    pending.push((async () => {
      const headers = await request.allHeaders();
      entry.bearer = /^Bearer \S+/.test(headers.authorization ?? '');
      entry.wwwAuthenticate = (await response.allHeaders())['www-authenticate'] ?? null;
      try {
        const body = JSON.parse(request.postData() ?? 'null');
        entry.rpc = body?.method ?? null;
        entry.tool = body?.params?.name ?? null;
      } catch {
        entry.rpc = null;
      }
      if (path === '/oauth/token' && response.status() === 200) {
        entry.accessToken = (await response.json()).access_token;
      }
    })().catch(() => {}));
  };
  context.on('response', onResponse);
  return {
    seen,
    async settled() { await Promise.all(pending); return seen; },
    /** Wait (up to 20 s) until an entry matches `matches`. */
    async until(matches, what) {
      for (let waited = 0; waited < 20000; waited += 100) {
        await Promise.all(pending);
        if (seen.some(matches)) return;
        await new Promise((resolveLater) => setTimeout(resolveLater, 100));
      }
      assert.fail(`no ${what} in 20 s`);
    },
    stop() { context.off('response', onResponse); },
  };
}

/** The positions of `steps` (predicates) in `seen`, each after the one before; fails naming
 * the first step not found in order. */
function inOrder(seen, steps, moment) {
  let from = 0;
  return steps.map(([label, matches]) => {
    const at = seen.findIndex((entry, index) => index >= from && matches(entry));
    assert.ok(at >= 0, `${moment}: no ${label} after #${from} in ${JSON.stringify(seen.map((e) => `${e.method} ${e.path} ${e.status}${e.rpc ? ` ${e.rpc}` : ''}`))}`);
    from = at + 1;
    return at;
  });
}

/** Press the sign-in card's button, Allow on the consent page the popup shows, and wait for
 * the popup to hand the answer back and close. Returns the consent page's text. */
async function signInThroughPopup(page, app, screenshotName) {
  const card = await shown(page, '#sign-in');
  const [popup] = await Promise.all([
    app.context.waitForEvent('page'),
    card.locator('button.sign-in').click(),
  ]);
  await popup.waitForSelector('button[value="allow"]', { timeout: 20000 });
  await popup.setViewportSize({ width: 1280, height: 720 });
  const consent = await popup.textContent('body');
  await screenshotBothSchemes(popup, screenshotName);
  const closed = popup.waitForEvent('close', { timeout: 20000 });
  await popup.click('button[value="allow"]');
  await closed;
  return consent;
}

/** The lessons, in order: `run({ page, app })` takes one from its Start to its reveal. */
export const LESSON_WALKS = [
  {
    number: 1,
    title: 'a paused request waits in a tray and the latch goes back unchanged',
    async run({ page, app }) {
      await startLesson(page, 1);
      const tray = await part(page, 'g.tray[data-state="paused"][data-occupied="true"]');
      await part(page, 'g.tag[data-key="party"][data-mode="form"]');
      const latch = await tray.locator('g.latch[data-round="1"]').getAttribute('data-latch');
      assert.ok(latch && latch.length > 16, `a sealed requestState arrived: ${latch}`);
      await screenshot(page, '50-lesson-1-paused-tray');

      const card = await shown(page, '#call-panel .input-request[data-key="party"]');
      // The lesson list is one Tab stop: from it, Tab reaches the lesson's own controls and
      // then the form, never the other lessons' buttons.
      await page.focus('#lessons button.lesson-start[data-lesson="1"]');
      const stops = [];
      for (let press = 0; press < 30; press += 1) {
        await page.keyboard.press('Tab');
        const at = await page.evaluate(() => {
          const focused = document.activeElement;
          return {
            inForm: Boolean(focused?.closest('#call-panel .input-request')),
            name: `${focused?.tagName.toLowerCase()}.${[...(focused?.classList ?? [])].join('.')}`,
          };
        });
        stops.push(at.name);
        if (at.inForm) break;
      }
      assert.ok(stops.length <= 16, `Tab stops from the lesson list to lesson 1's form: ${stops.join(', ')}`);
      assert.ok(stops.every((stop) => !stop.includes('lesson-start')), `no other lesson on the way: ${stops.join(', ')}`);
      // The form comes before the latch's tamper button in tab order: the lesson's next step.
      assert.ok(
        await card.evaluate((form) => Boolean(form.compareDocumentPosition(document.querySelector('#call-panel .tamper-latch'))
          & Node.DOCUMENT_POSITION_FOLLOWING)),
        'the form precedes "Tamper with the latch"',
      );
      await fillField(card, 'size', '6');
      await fillField(card, 'time', '21:00');
      await answerInput(card, 'accept');
      await shown(page, '#call-panel .call-result');
      // Accept went away with the form: the focus stays in the call panel, not on the page.
      const focusKept = await page.waitForFunction(
        () => document.activeElement !== document.body && Boolean(document.activeElement?.closest('#call-panel')),
        null, { timeout: 5000 },
      ).then(() => true, () => false);
      assert.ok(focusKept, `focus after Accept: ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}`);
      await part(page, 'g.tray[data-state="done"][data-occupied="false"][data-rounds="2"]');
      assert.equal(await page.locator('#scene g.latch[data-changed="true"]').count(), 0);

      const shownLatch = await inspect(page, `#scene g.latch[data-round="1"]`);
      assert.equal(shownLatch.json.received, latch);
      assert.equal(shownLatch.json.sentBack, latch, 'the retry carried the latch unchanged');

      const revealed = await answerAndReveal(page);
      assert.match(revealed.role, /latch/i);
      assert.equal(revealed.json.received, revealed.json.sentBack);
      await screenshot(page, '51-lesson-1-latch-inspected');
    },
  },
  {
    number: 2,
    title: 'rounds stack up, and the bound stops a server that keeps asking',
    async run({ page, app }) {
      await startLesson(page, 2);
      let card = await shown(page, '#call-panel .input-request[data-key="region"]');
      await fillField(card, 'region', 'eu-production');
      await answerInput(card, 'accept');
      card = await shown(page, '#call-panel .input-request[data-key="approve_production"]');
      await part(page, 'g.tray[data-state="paused"][data-rounds="2"] g.round[data-round="2"]');
      await answerInput(card, 'decline');
      await part(page, 'g.tray[data-state="done"][data-rounds="3"]');

      await page.locator('#lessons button.lesson-step-run').first().click();
      for (let round = 1; round <= 10; round += 1) {
        const question = await shown(page, `#call-panel .input-request[data-key="question_${round}"]`);
        await fillField(question, 'sure', 'true');
        await answerInput(question, 'accept');
      }
      await shown(page, '#call-panel .call-error');
      const bounded = await part(page, 'g.tray[data-state="bound_reached"][data-rounds="10"]');
      assert.equal(await bounded.locator('.round-bound').getAttribute('data-max'), '10');
      assert.equal(await bounded.locator('.round-bound').getAttribute('data-reached'), 'true');
      await screenshot(page, '52-lesson-2-round-bound');
      const revealed = await answerAndReveal(page, { wrongFirst: true });
      assert.equal(revealed.json.params.name, 'endless_questions', 'the tray shows the request it stands for');
      assert.match(await page.textContent('#inspect .inspect-facts'), /Rounds: 10 of at most 10; the server asked again/);
    },
  },
  {
    number: 3,
    title: 'the secret goes through URL mode, with consent first',
    async run({ page, app }) {
      await startLesson(page, 3);
      await part(page, 'g.tray[data-state="paused"] g.tag[data-key="consent"][data-mode="url"]');
      const card = await shown(page, '#call-panel .input-request[data-key="consent"]');
      await card.locator('.url-consent').click();
      const [consentPage] = await Promise.all([
        app.context.waitForEvent('page'),
        card.locator('.open-page').click(),
      ]);
      await consentPage.waitForLoadState();
      await consentPage.click('button[value="allow"]');
      await consentPage.waitForSelector('text=You allowed');
      await consentPage.close();
      await card.locator('.consent-finished').click();
      await part(page, 'g.tray[data-state="done"][data-occupied="false"]');
      const revealed = await answerAndReveal(page);
      assert.equal(revealed.json.method, 'elicitation/create');
      assert.equal(revealed.json.params.mode, 'url');
      assert.equal(revealed.json.params.requestedSchema, undefined, 'no form field for the secret');
      await screenshot(page, '53-lesson-3-url-tag');
    },
  },
  {
    number: 4,
    title: 'the server decides: run_pipeline detaches a task, quick_sum answers at once',
    async run({ page, app }) {
      const sent = recordMcpRequests(page);
      await startLesson(page, 4);
      const detached = await part(page, 'g.tray[data-state="detached"]');
      assert.equal(await detached.getAttribute('data-occupied'), 'false');
      const cartridge = await part(page, 'g.cartridge[data-status="working"][data-sealed="false"]');
      const taskId = await cartridge.getAttribute('data-task-id');
      // The demo server pushes the task's snapshots: the row says so, with the server's own
      // pollIntervalMs beside the client's safety poll (not "poll every 1m").
      const following = page.locator(`.task-row[data-task-id="${taskId}"] .task-poll`);
      await page.waitForFunction(
        (selector) => /^pushed on the listen stream/.test(document.querySelector(selector)?.textContent ?? ''),
        `.task-row[data-task-id="${taskId}"] .task-poll`,
        { timeout: 15000 },
      );
      assert.match(
        await following.textContent(),
        /^pushed on the listen stream \(the server's pollIntervalMs is \d+ (ms|s); one safety poll every 1 min\)$/,
      );

      await page.locator('#lessons button.lesson-step-run').first().click();
      await shown(page, '#call-panel .call-result');
      await part(page, 'g.tray[data-state="done"]');
      assert.equal(await page.locator('#scene g.cartridge').count(), 1, 'quick_sum made no task');
      const calls = sent.filter((body) => body.method === 'tools/call');
      assert.deepEqual(calls.map((body) => body.params.name), ['run_pipeline', 'quick_sum']);
      for (const body of calls) {
        const capabilities = body.params._meta['io.modelcontextprotocol/clientCapabilities'];
        assert.ok(capabilities.extensions['io.modelcontextprotocol/tasks'], 'both declared the extension');
      }
      const offers = await page.locator('#scene g.tray[data-state="done"] g.task-offer').count();
      assert.ok(offers >= 1, 'the tray draws the task the request offered');
      const revealed = await answerAndReveal(page);
      assert.deepEqual(revealed.json.params.arguments, { numbers: [1, 2, 3] }, 'the quick_sum tray is shown');
      const declared = revealed.json.params._meta['io.modelcontextprotocol/clientCapabilities'];
      assert.ok(declared.extensions['io.modelcontextprotocol/tasks'], 'the inspector shows the declaration');
      assert.match(
        await page.textContent('#inspect .inspect-facts'),
        /declared the tasks extension .*offered a task, and the server answered directly anyway\./,
      );

      await part(page, `g.cartridge[data-task-id="${taskId}"][data-status="completed"][data-sealed="true"]`, 30000);
      const lamp = page.locator(`#scene g.cartridge[data-task-id="${taskId}"] .lamp`);
      assert.equal(await lamp.getAttribute('data-status'), 'completed');
      assert.equal(await following.textContent(), 'polling over');
      // Each snapshot is narrated with the way it came, and the inspector counts them.
      const narrated = await page.textContent('#scene-narration');
      assert.match(narrated, /ended completed: .*\((pushed on the listen stream, no poll|polled with tasks\/get)\)\./);
      const sealed = await inspect(page, `#scene g.cartridge[data-task-id="${taskId}"]`);
      const facts = await page.textContent('#inspect .inspect-facts');
      const counted = /^Snapshots so far: (\d+) polled, (\d+) pushed; the newest came from .*; the server's pollIntervalMs is (\d+)\.$/.exec(facts);
      assert.ok(counted, facts);
      assert.ok(Number(counted[2]) >= 1, 'the demo server pushed at least one snapshot');
      assert.equal(Number(counted[3]), sealed.json.pollIntervalMs, 'the interval the JSON says');
      await screenshot(page, '54-lesson-4-task-sealed');
    },
  },
  {
    number: 5,
    title: 'a task asks for input and the client answers with tasks/update',
    async run({ page, app }) {
      await startLesson(page, 5);
      await part(page, 'g.cartridge[data-status="working"]');
      // A paused request beside the task: the two ways of waiting for input, side by side.
      await page.locator('#lessons button.lesson-step-run').first().click();
      const form = await shown(page, '#call-panel .input-request[data-key="party"]');
      await part(page, 'g.tray[data-state="paused"] g.latch');
      const waiting = await part(page, 'g.cartridge[data-status="input_required"]', 30000);
      const taskId = await waiting.getAttribute('data-task-id');
      await part(page, `g.cartridge[data-task-id="${taskId}"] g.tag[data-key="approve_prod"]`);
      await screenshot(page, '55-lesson-5-task-input');
      const row = await shown(page, `.task-row[data-task-id="${taskId}"]`);
      const card = await shown(await askingCardOf(page, row), '.input-request[data-key="approve_prod"]');
      await fillField(card, 'approve', 'true');
      await answerInput(card, 'accept');
      await fillField(form, 'size', '4');
      await fillField(form, 'time', '19:30');
      await answerInput(form, 'accept');
      await shown(page, '#call-panel .call-result');
      await part(page, `g.cartridge[data-task-id="${taskId}"][data-status="completed"][data-sealed="true"]`, 30000);
      const revealed = await answerAndReveal(page);
      const update = revealed.json.request ?? revealed.json;
      assert.equal(update.method, 'tasks/update');
      assert.equal(update.params.taskId, taskId);
      assert.ok(update.params.inputResponses.approve_prod, 'keyed as the task asked');
    },
  },
  {
    number: 6,
    title: 'cancel is a request; the acknowledgement promises nothing, the lamp tells',
    async run({ page, app }) {
      await startLesson(page, 6);
      const working = await part(page, 'g.cartridge[data-status="working"]');
      const taskId = await working.getAttribute('data-task-id');
      await (await shown(page, `.task-row[data-task-id="${taskId}"] .task-cancel`)).click();
      const ask = await part(page, `g.cartridge[data-task-id="${taskId}"] g.cancel-ask[data-acknowledged="true"]`);
      await part(page, `g.cartridge[data-task-id="${taskId}"][data-status="cancelled"][data-sealed="true"]`, 30000);
      assert.equal(await ask.getAttribute('data-outcome'), 'cancelled');
      await screenshot(page, '56-lesson-6-cancel-outcome');
      const revealed = await answerAndReveal(page);
      assert.equal(revealed.json.taskId, taskId);
      assert.equal(revealed.json.status, 'cancelled');
    },
  },
  {
    number: 7,
    title: 'the task handle survives a reload and its cartridge re-enters',
    async run({ page, app }) {
      await startLesson(page, 7);
      const working = await part(page, 'g.cartridge[data-status="working"]');
      const taskId = await working.getAttribute('data-task-id');
      assert.equal(await working.getAttribute('data-restored'), 'false');
      await page.reload();
      await shown(page, '#lessons .lesson[data-lesson="7"]', { timeout: 15000 });
      const restored = await part(page, `g.cartridge[data-task-id="${taskId}"][data-restored="true"]`, 15000);
      assert.ok(['working', 'completed'].includes(await restored.getAttribute('data-status')));
      await screenshot(page, '57-lesson-7-restored');
      // Scrubbing after the reload: once the task is in the scene (created before the reload,
      // or restored after it), every later position still shows it.
      const positions = Number(await page.getAttribute('#timeline-scrub', 'max')) + 1;
      const drawn = [];
      for (let position = 0; position < positions; position += 1) {
        await page.locator('#timeline-scrub').fill(String(position));
        // About time: the magazine redraws at most every 250 ms, and a position that draws
        // no cartridge has nothing else to wait for.
        await page.waitForTimeout(350);
        drawn.push(await page.locator(`#scene g.cartridge[data-task-id="${taskId}"]`).count());
      }
      const first = drawn.indexOf(1);
      assert.ok(first >= 0, `the task is drawn at some position: ${drawn.join('')}`);
      assert.ok(drawn.slice(first).every((count) => count === 1), `the task stays once drawn: ${drawn.join('')}`);
      await page.click('#timeline-live');
      await part(page, `g.cartridge[data-task-id="${taskId}"][data-status="completed"][data-sealed="true"]`, 45000);
      // A failed task is terminal too: flaky_job ends failed, sealed, its error in the snapshot.
      await page.locator('#lessons button.lesson-step-run').first().click();
      const failed = await part(page, 'g.cartridge[data-status="failed"][data-sealed="true"]', 30000);
      const failedSnapshot = await inspect(page, `#scene g.cartridge[data-task-id="${await failed.getAttribute('data-task-id')}"]`);
      assert.equal(failedSnapshot.json.status, 'failed');
      assert.match(JSON.stringify(failedSnapshot.json), /flaky_job failed/);
      const revealed = await answerAndReveal(page);
      assert.equal(revealed.json.taskId, taskId);
      assert.equal(revealed.json.status, 'completed');
    },
  },
  {
    number: 8,
    title: 'a tampered latch is visible and the server refuses it',
    async run({ page, app }) {
      await startLesson(page, 8);
      const card = await shown(page, '#call-panel .input-request[data-key="party"]');
      await page.click('#call-panel button.tamper-latch');
      await shown(page, '#call-panel .tamper-after');
      await fillField(card, 'size', '4');
      await fillField(card, 'time', '19:30');
      await answerInput(card, 'accept');
      await shown(page, '#call-panel .tamper-refused');
      await part(page, 'g.tray[data-state="error"][data-occupied="false"]');
      const latch = await part(page, 'g.latch[data-changed="true"]');
      await latch.click();
      const { json } = await inspected(page);
      assert.notEqual(json.sentBack, json.received, 'the latch that went back is not the one received');
      await screenshot(page, '58-lesson-8-tampered-latch');
      const revealed = await answerAndReveal(page);
      assert.notEqual(revealed.json.sentBack, revealed.json.received);
    },
  },
  {
    number: 9,
    title: 'progress fills the tray on the request\'s own stream, and Stop closes it',
    async run({ page, app }) {
      const sent = recordMcpRequests(page);
      await startLesson(page, 9);
      await part(page, 'g.tray[data-state="in_flight"] g.tray-progress');
      // The bar moves with the notifications: wait for the second one (1 of 6 sections done).
      await page.waitForFunction(
        () => Number(document.querySelector('#scene g.tray-progress')?.dataset.permille ?? 0) >= 166,
        null,
        { timeout: 15000 },
      );
      assert.match(await page.textContent('#scene g.tray-progress text'), /^\d of 6 · [A-Z]/);
      const request = sent.find((body) => body.method === 'tools/call');
      assert.ok(request.params._meta.progressToken !== undefined, 'the request carried a progressToken');
      const declared = request.params._meta['io.modelcontextprotocol/clientCapabilities'];
      assert.equal(declared?.extensions?.['io.modelcontextprotocol/tasks'], undefined, 'no task offered');
      await assertOneScreen(page, 'lesson 9 in progress');
      await screenshot(page, '5a-lesson-9-progress');

      await page.click('#call-panel button.stop');
      await part(page, 'g.tray[data-state="stopped"][data-occupied="false"] g.tray-progress');
      await shown(page, '#call-panel .call-stopped');
      assert.equal(await page.locator('#call-panel .call-result').count(), 0, 'no result after Stop');
      assert.match(await page.textContent('#scene-narration'), /closing the stream is the cancellation/);
      assert.equal(sent.filter((body) => body.method === 'tools/call').length, 1, 'nothing else was sent');
      const revealed = await answerAndReveal(page);
      assert.match(revealed.role, /^Tray/);
      assert.deepEqual(revealed.json.params.arguments, { seconds: 20 }, 'the stopped slow_report tray');
      await screenshot(page, '5b-lesson-9-stopped');
    },
  },
  {
    number: 10,
    title: 'roots and sampling it never declared are declined in a shape the server reads',
    async run({ page, app }) {
      const sent = recordMcpRequests(page);
      await startLesson(page, 10);
      await part(page, 'g.tray[data-state="paused"]');
      await part(page, 'g.tag[data-key="workspace"][data-kind="roots/list"]');
      await part(page, 'g.tag[data-key="summary"][data-kind="sampling/createMessage"]');
      for (const key of ['workspace', 'summary']) {
        const card = await shown(page, `#call-panel .input-request[data-key="${key}"]`);
        assert.equal((await card.locator('.input-kind').textContent()).trim(), 'Deprecated');
      }
      await screenshot(page, '5c-lesson-10-asked');
      for (const key of ['workspace', 'summary']) {
        await answerInput(page.locator(`#call-panel .input-request[data-key="${key}"]`), 'decline');
      }
      const result = await shown(page, '#call-panel .call-result');
      const text = await result.textContent();
      assert.match(text, /roots\/list came back empty/);
      assert.match(text, /refused sampling\/createMessage \(error -32601/);
      assert.match(text, /set no io\.modelcontextprotocol\/logLevel/);
      await part(page, 'g.tray[data-state="done"][data-rounds="2"]');
      const calls = sent.filter((body) => body.method === 'tools/call');
      assert.equal(calls.length, 2, 'the first call and one retry');
      const declared = calls[0].params._meta['io.modelcontextprotocol/clientCapabilities'];
      assert.equal(declared.roots, undefined, 'roots never declared');
      assert.equal(declared.sampling, undefined, 'sampling never declared');
      assert.equal(calls[0].params._meta['io.modelcontextprotocol/logLevel'], undefined, 'no log level asked');
      const revealed = await answerAndReveal(page);
      const retry = revealed.json.request;
      assert.deepEqual(retry.params.inputResponses.workspace, { roots: [] });
      assert.equal(retry.params.inputResponses.summary.code, -32601);
      assert.deepEqual(retry, calls[1], 'the inspector shows the retry that went out');
      // The retry was on the conveyor only for a moment: the reveal went back to it.
      assert.equal(await page.getAttribute('#scene', 'data-replay'), 'true');
      assert.equal(await page.locator('#scene g.flight.selected').count(), 1, 'the retry is drawn, selected');
    },
  },
  {
    number: 11,
    title: 'a 401 challenge, discovery, consent, the retry with a token, and the step-up on deploy',
    async run({ page, app }) {
      const traffic = recordAuthTraffic(app.context);
      await startLesson(page, 11);
      const origin = new URL(app.url).origin;
      const protectedUrl = `${origin}/protected/mcp`;

      // 1. The challenge: server/discover of /protected/mcp gets 401, and the card says so.
      const card = await shown(page, '#sign-in[data-step-up="false"]');
      assert.match(await card.locator('.sign-in-why').textContent(), /401/);
      assert.match(await card.locator('button.sign-in').textContent(), /^\s*Sign in\s*$/);
      assert.equal(await page.textContent('#endpoint-url'), protectedUrl, 'Start connected to the protected endpoint');
      assert.match(page.url(), /server=.*protected%2Fmcp/);
      await assertOneScreen(page, 'lesson 11, the challenge');
      await assertAccessibleInBothSchemes(page, 'lesson 11, the sign-in card beside the lesson');
      await screenshotBothSchemes(page, 'lesson-11-1-challenge');

      // 2-3. Sign in: discovery, then the demo authorization server's consent page: Allow.
      const consent = await signInThroughPopup(page, app, 'lesson-11-3-consent');
      assert.match(consent, /protected\/mcp/, 'the consent page names the resource');
      assert.match(consent, /mcp:tools/);

      // 4. The retry with the token: the tools load.
      const status = await shown(page, '.auth-status[data-state="signed-in"]');
      assert.match(await status.textContent(), /mcp:tools/);
      await traffic.until((e) => e.path === '/protected/mcp' && e.rpc === 'tools/list' && e.status === 200 && e.bearer, 'the tools listed with the token');
      await assertOneScreen(page, 'lesson 11, signed in');
      await screenshotBothSchemes(page, 'lesson-11-4-signed-in');
      let seen = await traffic.settled();
      const first = inOrder(seen, [
        ['the 401 challenge', (e) => e.path === '/protected/mcp' && e.status === 401 && e.rpc === 'server/discover' && !e.bearer],
        ['the resource metadata', (e) => e.path === '/.well-known/oauth-protected-resource/protected/mcp' && e.status === 200],
        ['the authorization server metadata', (e) => /^\/\.well-known\/(oauth-authorization-server|openid-configuration)$/.test(e.path) && e.status === 200],
        ['the consent page', (e) => e.method === 'GET' && e.path === '/oauth/authorize' && e.status === 200],
        ['Allow', (e) => e.method === 'POST' && e.path === '/oauth/authorize' && e.status === 303],
        ['the callback', (e) => e.path === '/oauth/callback'],
        ['the token', (e) => e.path === '/oauth/token' && e.status === 200],
        ['the retry with the token', (e) => e.path === '/protected/mcp' && e.rpc === 'server/discover' && e.bearer && e.status === 200],
      ], 'the first sign-in');
      assert.equal(
        seen[first[0]].wwwAuthenticate,
        `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/protected/mcp", scope="mcp:tools"`,
      );
      assert.ok(
        seen.slice(first[7]).filter((e) => e.path === '/protected/mcp').every((e) => e.bearer),
        'every later request carries the token',
      );

      // 5. The step-up: deploy needs mcp:admin.
      await page.locator('#lessons button.lesson-step-run[data-step="5"]').click();
      const stepUp = await shown(page, '#sign-in[data-step-up="true"]');
      assert.match(await stepUp.locator('button.sign-in').textContent(), /Sign in again/);
      assert.match(await stepUp.locator('.sign-in-why').textContent(), /mcp:admin/);
      await assertOneScreen(page, 'lesson 11, the step-up');
      await assertLabelsFit(page, 'lesson 11, the step-up');
      await screenshotBothSchemes(page, 'lesson-11-5-step-up');
      const adminConsent = await signInThroughPopup(page, app, 'lesson-11-5-consent-admin');
      assert.match(adminConsent, /mcp:admin/);
      // The same call goes again with the new token, and deploy asks its questions.
      let question = await shown(page, '#call-panel .input-request[data-key="region"]');
      await screenshotBothSchemes(page, 'lesson-11-6-deploy-retried');
      await fillField(question, 'region', 'eu-production');
      await answerInput(question, 'accept');
      question = await shown(page, '#call-panel .input-request[data-key="approve_production"]');
      await answerInput(question, 'decline');
      await part(page, 'g.tray[data-state="done"]');
      assert.match(await page.textContent('.auth-status[data-state="signed-in"]'), /mcp:admin/);
      seen = await traffic.settled();
      const second = inOrder(seen.slice(first[7]), [
        ['deploy refused for its scope', (e) => e.rpc === 'tools/call' && e.tool === 'deploy' && e.status === 403 && e.bearer],
        ['the second consent', (e) => e.method === 'POST' && e.path === '/oauth/authorize' && e.status === 303],
        ['the second token', (e) => e.path === '/oauth/token' && e.status === 200],
        ['deploy again, with the new token', (e) => e.rpc === 'tools/call' && e.tool === 'deploy' && e.status === 200 && e.bearer],
      ], 'the step-up');
      const refused = seen.slice(first[7])[second[0]];
      assert.match(refused.wwwAuthenticate, /error="insufficient_scope"/);
      assert.match(refused.wwwAuthenticate, /scope="mcp:tools mcp:admin"/);
      traffic.stop();

      // The wire log has the authorization exchanges as rows, with no token in them.
      const dockToggle = page.locator('#dock .dock-collapse');
      await dockToggle.click();
      for (const label of ['oauth: resource metadata', 'oauth: server metadata', 'oauth: authorize', 'oauth: callback', 'oauth: token']) {
        await shown(page, `.wire-entry[data-method="${label}"]`);
      }
      assert.ok(await page.locator('.wire-entry[data-method="oauth: token"]').count() >= 2, 'two token exchanges');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('.wire-export')]);
      const exported = readFileSync(await download.path(), 'utf8');
      for (const token of seen.filter((e) => e.accessToken).map((e) => e.accessToken)) {
        assert.ok(!exported.includes(token), 'no access token in the exported wire log');
      }
      await dockToggle.click();

      const revealed = await answerAndReveal(page);
      assert.match(revealed.role, /tools\/call deploy/);
      assert.equal(revealed.json.request.params.name, 'deploy');
      assert.match(await page.textContent('#lessons .lesson-reveal-status'), /refused with 403/);
      assert.equal(await page.locator('#scene g.flight.selected').count(), 1, 'the refused call is drawn, selected');
      await screenshotBothSchemes(page, 'lesson-11-7-reveal');
    },
  },
  {
    number: 12,
    title: 'the same booking in a held 2025-11-25 session (the server asks on the open call) and with MRTR\'s latch',
    async run({ page, app }) {
      const origin = new URL(app.url).origin;
      // Every POST to an MCP endpoint, answers to the server included (they have no method).
      const posts = [];
      const onRequest = (request) => {
        if (request.method() === 'POST' && /\/mcp$/.test(request.url())) {
          posts.push({ path: new URL(request.url()).pathname, body: JSON.parse(request.postData() ?? 'null') });
        }
      };
      page.on('request', onRequest);
      await startLesson(page, 12);

      // 1. The 2025-11-25 endpoint: initialize opens a session, drawn as a held line.
      await part(page, 'g.held-session.open');
      assert.equal(await page.textContent('#endpoint-url'), `${origin}/legacy/mcp`, 'Start connected to the legacy endpoint');
      assert.ok(posts.some((p) => p.path === '/legacy/mcp' && p.body?.method === 'initialize'), 'initialize went to /legacy/mcp');

      // 2. book_table: the call goes out once and the server asks on its open stream.
      await page.locator('#lessons button.lesson-step-run[data-step="2"]').click();
      await part(page, 'g.tray[data-state="held"][data-in-session="true"]');
      await part(page, 'g.server-ask[data-answered="false"]');
      await part(page, 'g.tray[data-in-session="true"] g.tag');
      assert.equal(await page.locator('#scene g.tray[data-in-session="true"] g.latch').count(), 0, 'no latch: the server keeps the call');
      await assertOneScreen(page, 'lesson 12, the server asks');
      await assertLabelsFit(page, 'lesson 12, the server asks');
      await screenshotBothSchemes(page, 'lesson-12-2-server-asks');
      const card = await shown(page, '#call-panel .server-asks .input-request');
      await fillField(card, 'size', '6');
      await fillField(card, 'time', '19:30');
      await answerInput(card, 'accept');
      await part(page, 'g.tray[data-state="done"][data-in-session="true"]');
      const legacyCalls = posts.filter((p) => p.path === '/legacy/mcp' && p.body?.method === 'tools/call');
      assert.equal(legacyCalls.length, 1, 'the legacy call went out once, never retried');
      const answered = posts.find((p) => p.path === '/legacy/mcp' && p.body?.result?.action === 'accept');
      assert.ok(answered && answered.body.method === undefined, 'the answer is a JSON-RPC response in a POST of its own');
      assert.match(await page.textContent('#scene g.held-session'), /1 from the server/);

      // 3-4. The same booking on /mcp: no session, a latch, a retry.
      // /mcp's tools listed: the call of step 4 needs them.
      const listed = page.waitForResponse((response) => new URL(response.url()).pathname === '/mcp'
        && JSON.parse(response.request().postData() ?? 'null')?.method === 'tools/list' && response.status() === 200);
      await page.locator('#lessons button.lesson-step-run[data-step="3"]').click();
      await page.waitForFunction((url) => document.querySelector('#endpoint-url')?.textContent === url, `${origin}/mcp`);
      await listed;
      assert.equal(await page.locator('#scene g.held-session.open').count(), 0, 'no session on /mcp');
      await page.locator('#lessons button.lesson-step-run[data-step="4"]').click();
      await part(page, 'g.tray[data-state="paused"][data-in-session="false"] g.latch');
      await assertOneScreen(page, 'lesson 12, the latch');
      await assertLabelsFit(page, 'lesson 12, the latch');
      await screenshotBothSchemes(page, 'lesson-12-4-latch');
      const form = await shown(page, '#call-panel .input-request[data-key="party"]');
      await fillField(form, 'size', '6');
      await fillField(form, 'time', '21:00');
      await answerInput(form, 'accept');
      await part(page, 'g.tray[data-state="done"][data-in-session="false"][data-rounds="2"]');
      // The two ways, side by side in the bay.
      assert.equal(await page.locator('#scene g.tray[data-in-session="true"]').count(), 1);
      assert.equal(await page.locator('#scene g.tray[data-in-session="false"]').count(), 1);
      const modern = posts.filter((p) => p.path === '/mcp' && p.body?.method === 'tools/call');
      assert.equal(modern.length, 2, 'the first round and its retry');
      assert.ok(modern[1].body.params.requestState, 'the retry carried the latch back');
      page.off('request', onRequest);

      const revealed = await answerAndReveal(page);
      assert.match(revealed.role, /^Request \d+ from the server$/);
      assert.equal(revealed.json.fromServer.method, 'elicitation/create');
      assert.equal(revealed.json.clientAnswer.id, revealed.json.fromServer.id, 'the answer carries the request\'s id');
      assert.equal(revealed.json.clientAnswer.result.action, 'accept');
      assert.match(await page.textContent('#lessons .lesson-reveal-status'), /the server's own request on the open book_table call/);
      assert.equal(await page.locator('#scene g.server-ask.selected').count(), 1, 'the server\'s request is drawn, selected');
      await screenshotBothSchemes(page, 'lesson-12-5-reveal');
    },
  },
];

/**
 * All the lessons in order in one page of `app` (from `demoAndBrowser`), in `scheme`, as a
 * learner takes them: one page, never reloaded but where lesson 7 asks; then the recap, its
 * answers, and its link back to lesson 1's reveal.
 */
export async function walkAllLessons(app, scheme) {
  setWalkScheme(scheme);
  const { page, errors } = await openScene(app);
  await page.emulateMedia({ colorScheme: scheme });
  for (const lesson of LESSON_WALKS) {
    try {
      await lesson.run({ page, app });
    } catch (failure) {
      await screenshot(page, `failed-in-lesson-${lesson.number}`).catch(() => {});
      throw failure;
    }
    assert.deepEqual(errors, [], `page errors by the end of lesson ${lesson.number}`);
  }

  // The recap after the last lesson: every lesson done, its question and right answer.
  await page.click('#lessons .lesson-to-recap');
  const recap = await shown(page, '#lessons .lesson-recap');
  await assertOneScreen(page, 'the recap');
  const items = await recap.locator('.recap-item').evaluateAll((nodes) => nodes.map((node) => ({
    lesson: node.dataset.lesson,
    done: node.classList.contains('done'),
    question: node.querySelector('.recap-question')?.textContent ?? '',
    answer: node.querySelector('.recap-answer')?.textContent.replace(/^Answer:\s*/, '') ?? '',
  })));
  assert.deepEqual(items.map((item) => item.lesson), LESSON_WALKS.map((lesson) => String(lesson.number)));
  for (const item of items) {
    assert.ok(item.done, `lesson ${item.lesson} is done in the recap`);
    assert.ok(item.question.endsWith('?'), `lesson ${item.lesson}'s question: ${item.question}`);
    assert.ok(item.answer.length > 10, `lesson ${item.lesson}'s answer: ${item.answer}`);
  }
  assert.match(items[0].answer, /requestState exactly as received/);
  await assertAccessibleInBothSchemes(page, 'the recap');
  await screenshot(page, 'lessons-recap');

  // Its link goes back to lesson 1's reveal: the answer shown, the latch (now on the earlier
  // strip) selected and inspected, nothing run again.
  const sentAfter = recordMcpRequests(page);
  await recap.locator('.recap-item[data-lesson="1"] .recap-review').click();
  await shown(page, '#lessons .lesson[data-lesson="1"] .lesson-answer');
  assert.equal(await page.getAttribute('#lessons .lesson-reveal-status', 'data-found'), 'true');
  const { role, json } = await inspected(page);
  assert.match(role, /latch/i);
  assert.equal(json.received, json.sentBack);
  await shown(page, '#scene .earlier-part.selected');
  assert.equal(await page.locator('#scene .earlier-part.selected').count(), 1, 'the earlier strip marks its tray');
  assert.notEqual(await page.getAttribute('#scene', 'data-replay'), 'true', 'the link shows the scene as it is now');
  const onStrip = await page.evaluate(() => {
    const strip = document.querySelector('#scene .earlier').getBoundingClientRect();
    const part = document.querySelector('#scene .earlier-part.selected').getBoundingClientRect();
    return part.left >= strip.left - 1 && part.right <= strip.right + 1;
  });
  assert.ok(onStrip, 'the marked tray is on the visible part of the strip');
  // About time: nothing is sent, even a moment later.
  await page.waitForTimeout(300);
  assert.deepEqual(sentAfter.map((body) => body.method), [], 'the link ran nothing');
  await screenshot(page, 'lessons-recap-link');
  assert.deepEqual(errors, []);
  await page.close();
}
