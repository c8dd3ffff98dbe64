// WCAG 2.1 AA in both colour schemes, checked by axe-core (npm `axe-core`, run in the page)
// against the real `holdbay serve`: the workbench after connecting, the scene in the middle
// of a lesson (a paused tray, a form, a latch) and the same lesson's reveal (the inspector
// open on the latch). 0 violations allowed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoAndBrowser, openCleanApp, screenshot } from './support.mjs';
import { shown } from './ui.mjs';
import { violations } from './axe.mjs';

const app = demoAndBrowser();

for (const scheme of ['light', 'dark']) {
  test(`axe-core finds no WCAG 2.1 AA violation in the ${scheme} scheme: workbench, lesson, reveal`, async () => {
    const { page, errors } = await openCleanApp(app.context, app.url);
    await page.emulateMedia({ colorScheme: scheme });
    assert.deepEqual(await violations(page), [], 'the workbench');

    await page.click('#view-scene');
    await page.waitForSelector('#scene svg.scene-svg');
    await page.click('#lessons button.lesson-start[data-lesson="1"]');
    await shown(page, '#scene g.tray[data-state="paused"] g.tag[data-key="party"]');
    await shown(page, '#call-panel .input-request[data-key="party"]');
    assert.deepEqual(await violations(page), [], 'the scene mid-lesson');

    await page.click('#lessons button.lesson-choice[data-correct="true"]');
    await page.click('#lessons button.lesson-reveal');
    await shown(page, '#inspect pre.inspect-json');
    assert.deepEqual(await violations(page), [], 'the reveal');
    await screenshot(page, `92-a11y-reveal-${scheme}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
