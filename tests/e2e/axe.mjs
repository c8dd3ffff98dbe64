// axe-core (npm `axe-core`, pinned in package.json) run inside the page: the WCAG 2.1 A and
// AA rules, in whichever colour scheme the page shows now.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The violations axe-core finds in the page now, one line per rule and element. */
export async function violations(page) {
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

/** No violation in the light scheme nor in the dark one; the page is left light. */
export async function assertAccessibleInBothSchemes(page, assert, moment) {
  for (const scheme of ['dark', 'light']) {
    await page.emulateMedia({ colorScheme: scheme });
    assert.deepEqual(await violations(page), [], `${moment}, ${scheme} scheme`);
  }
}
