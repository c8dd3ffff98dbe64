// WCAG 2.1 AA in both colour schemes, checked by axe-core (npm `axe-core`, run in the page)
// against the real `holdbay serve`: the workbench after connecting, the scene in the middle
// of a lesson (a paused tray, a form, a latch) and the same lesson's reveal (the inspector
// open on the latch). 0 violations allowed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { demoAndBrowser, openCleanApp, screenshot } from './support.mjs';
import { shown } from './ui.mjs';

const app = demoAndBrowser();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The violations axe-core finds in the page now, one line per rule and element. */
async function violations(page) {
  // Evaluated through the DevTools protocol, so the page's CSP (own script only) allows it.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.flatMap((violation) =>
      violation.nodes.slice(0, 4).map((node) => `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary.replace(/\s+/g, ' ')}`));
  });
}

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
