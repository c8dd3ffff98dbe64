// Names that cannot lie, against the real `holdbay serve` and a server whose tool names lie
// (tests/e2e/names/server.mjs): the list draws each hidden character as a marker and flags
// every name that passes for another (the real `ok_echo` too), the findings are recorded,
// search matches what is drawn, and calling a spoofed tool sends its exact name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHoldbay, launchBrowser, openPage, screenshot } from './support.mjs';
import { call, shown } from './ui.mjs';
import { assertAccessibleInBothSchemes } from './axe.mjs';
import { NAMES, startNamesServer } from './names/server.mjs';

/** How the list draws each tool, in the server's order. */
const DRAWN = {
  real: 'ok_echo',
  zeroWidth: 'ok_⟨U+200B⟩echo',
  trailingJoiner: 'ok_echo⟨U+200D⟩',
  override: '⟨U+202E⟩evil_tool',
  cyrillic: 'ok_\u0435cho',
};
/** The characters that must never reach the page as themselves. */
const HIDDEN = /[\u200B\u200D\u202E]/u;

let holdbay;
let browser;
let names;
before(async () => {
  holdbay = await startHoldbay();
  browser = await launchBrowser();
  names = await startNamesServer();
});
after(async () => {
  await browser?.close();
  holdbay?.stop();
  names?.stop();
});

async function openNames() {
  const opened = await openPage(browser.context, `${holdbay.url}/?server=${encodeURIComponent(names.url)}`);
  await opened.page.waitForSelector('.select-tool', { timeout: 15000 });
  return opened;
}

/** The tool names the list draws now. */
function drawnNames(page) {
  return page.locator('#tools-panel .tool-name').allTextContents();
}

/** The tool item drawn as `drawn` (matched exactly: the markers are no pattern). */
async function toolItem(page, drawn) {
  const index = (await drawnNames(page)).indexOf(drawn);
  assert.ok(index >= 0, `no tool drawn as ${drawn}: ${await drawnNames(page)}`);
  return page.locator('#tools-panel .tool').nth(index);
}

async function flagsOf(item) {
  return item.locator('.name-flag').evaluateAll((flags) => flags.map((flag) => flag.dataset.rule));
}

/** Type into the tool search and wait until the list draws `expected`. */
async function searchFor(page, query, expected) {
  await page.fill('#tool-search', query);
  await page.waitForFunction(
    (want) => JSON.stringify([...document.querySelectorAll('#tools-panel .tool-name')].map((n) => n.textContent)) === want,
    JSON.stringify(expected),
  );
}

test('spoofed names are drawn with markers and flagged, and their findings are recorded', async () => {
  const { page, errors } = await openNames();
  assert.deepEqual(await drawnNames(page), Object.values(DRAWN));
  const listed = await page.locator('#tools-panel').textContent();
  assert.ok(!HIDDEN.test(listed), 'no hidden character is drawn as itself');
  // The override is a marker: "evil_tool" reads as written, not as "loot_live".
  assert.ok(listed.includes('evil_tool') && !listed.includes('loot_live'), listed);
  assert.equal(await page.locator('#tools-panel .tool-name .name-mark').count(), 3);
  assert.equal(
    await (await toolItem(page, DRAWN.zeroWidth)).locator('.name-mark').getAttribute('title'),
    'U+200B, zero-width',
  );

  // Every name that passes for another is flagged, the real one it passes for too.
  assert.deepEqual(await flagsOf(await toolItem(page, DRAWN.real)), ['name-look-alike']);
  assert.deepEqual(await flagsOf(await toolItem(page, DRAWN.zeroWidth)), ['name-invisible-chars', 'name-look-alike']);
  assert.deepEqual(await flagsOf(await toolItem(page, DRAWN.trailingJoiner)), ['name-invisible-chars', 'name-look-alike']);
  assert.deepEqual(await flagsOf(await toolItem(page, DRAWN.override)), ['name-invisible-chars']);
  assert.deepEqual(await flagsOf(await toolItem(page, DRAWN.cyrillic)), ['name-look-alike', 'name-look-alike']);
  const realFlag = await (await toolItem(page, DRAWN.real)).locator('.name-flag').innerText();
  assert.match(realFlag, /looks like "ok_echo⟨U\+200D⟩" and 2 more/);
  const mix = await (await toolItem(page, DRAWN.cyrillic)).locator('.name-flag').first().innerText();
  assert.match(mix, /mixes Latin and Cyrillic/);

  // The findings list: one per warning, each naming the tool as drawn.
  await page.click('#dock-tab-findings');
  await page.locator('#findings-panel .finding[data-rule="name-invisible-chars"]').first().waitFor();
  const invisible = await page.locator('#findings-panel .finding[data-rule="name-invisible-chars"] .finding-explanation').allTextContents();
  const lookAlike = await page.locator('#findings-panel .finding[data-rule="name-look-alike"] .finding-explanation').allTextContents();
  assert.equal(invisible.length, 3, invisible.join('\n'));
  assert.equal(lookAlike.length, 5, lookAlike.join('\n'));
  assert.ok(invisible.some((said) => said.startsWith('tool "⟨U+202E⟩evil_tool" has characters in its name') && said.includes('U+202E (a bidi control)')), invisible.join('\n'));
  assert.ok(lookAlike.some((said) => said.startsWith('tool "ok_echo" looks like tools "ok_echo⟨U+200D⟩"')), lookAlike.join('\n'));
  assert.ok(lookAlike.some((said) => said.includes('mixes Latin and Cyrillic letters') && said.includes('U+0435')), lookAlike.join('\n'));
  assert.equal(await page.locator('#findings-panel .finding[data-rule^="name-"]').first().getAttribute('data-severity'), 'info');
  assert.ok(!HIDDEN.test(await page.locator('#findings-panel').textContent()), 'the findings quote names as drawn');

  await screenshot(page, '94-names-flagged-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '95-names-flagged-dark');
  await assertAccessibleInBothSchemes(page, assert, 'flagged names and their findings');
  assert.deepEqual(errors, []);
  await page.close();
});

test('search matches the names as they are drawn', async () => {
  const { page, errors } = await openNames();
  // "ok_echo" finds what is drawn so; a spoof drawn otherwise is not found.
  await searchFor(page, 'ok_echo', [DRAWN.real, DRAWN.trailingJoiner]);
  // A marker's text finds the name it is drawn in.
  await searchFor(page, 'U+200B', [DRAWN.zeroWidth]);
  // The real name pasted in finds it too: the query is read as the names are.
  await searchFor(page, NAMES.zeroWidth, [DRAWN.zeroWidth]);
  await searchFor(page, 'loot_live', []);
  await searchFor(page, 'evil_tool', [DRAWN.override]);
  await searchFor(page, '', Object.values(DRAWN));
  assert.deepEqual(errors, []);
  await page.close();
});

test('calling a spoofed tool sends its exact name, and its panel says why it is flagged', async () => {
  const { page, errors } = await openNames();
  await (await toolItem(page, DRAWN.zeroWidth)).locator('.select-tool').click();
  const header = await shown(page, '#call-panel .call-header');
  assert.equal(await header.locator('.call-tool').textContent(), DRAWN.zeroWidth);
  const warnings = await header.locator('.name-warnings li').allTextContents();
  assert.equal(warnings.length, 2, warnings.join('\n'));
  assert.match(warnings[0], /U\+200B \(zero-width\)/);
  assert.match(warnings[1], /looks like tools "ok_echo"/);

  await call(page);
  await shown(page, '#call-panel .result-ok');
  assert.deepEqual(names.calls.map((c) => c.name), [NAMES.zeroWidth], 'the exact name reached the server');
  assert.match(await page.locator('#call-panel .call-outcome').innerText(), /ran U\+006F U\+006B U\+005F U\+200B U\+0065/);
  // The wire log's row names the call as the list draws it.
  const row = page.locator('.wire-entry[data-method="tools/call"]').last();
  await row.waitFor();
  assert.equal(await row.locator('.wire-name').textContent(), DRAWN.zeroWidth);
  assert.ok(!HIDDEN.test(await page.locator('body').innerText()), 'no hidden character anywhere on the page');
  await screenshot(page, '96-names-call');
  assert.deepEqual(errors, []);
  await page.close();
});
