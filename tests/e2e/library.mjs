// How the end-to-end tests operate the Prompts and Resources tabs, in one place, for any
// peer (the demo server, a TypeScript SDK peer, …): every helper takes the names it needs.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { root } from './support.mjs';
import { shown, fillField, answerInput, scrollsSettled, transitionsDone } from './ui.mjs';

export const shotsDir = join(root, 'target', 'shots');

/** Open the Prompts or Resources tab ('prompts' | 'resources' | 'tools'). */
export async function openTab(page, which) {
  await page.click(`#tab-${which}`);
  await page.waitForSelector(`#tab-${which}[aria-selected="true"]`);
}

/** Pick prompt `name` in the Prompts tab; its panel. */
export async function pickPrompt(page, name) {
  await openTab(page, 'prompts');
  await page.click(`.prompt-pick[data-name="${name}"]`);
  return shown(page, `#prompt-panel[data-prompt="${name}"]`);
}

/** The field of argument (or template variable) `name` in `scope`. */
export function argumentInput(scope, name) {
  return scope.locator(`.argument-field[data-argument="${name}"] input.argument-input`);
}

/** Type `value` into argument `name` (as keystrokes, so completions are asked for). */
export async function typeArgument(scope, name, value) {
  const input = argumentInput(scope, name);
  await input.fill('');
  await input.pressSequentially(value, { delay: 30 });
}

/** The suggestion button `value` under argument `name`, once the server offered it. */
export async function suggestion(scope, name, value, timeout = 10000) {
  return shown(scope, `.argument-field[data-argument="${name}"] button.suggestion:text-is("${value}")`, { timeout });
}

/** The suggestions shown under argument `name` right now. */
export async function suggestionsOf(scope, name) {
  return scope.locator(`.argument-field[data-argument="${name}"] button.suggestion`).allTextContents();
}

/** Press Get on the prompt panel. */
export async function getPrompt(page) {
  await page.click('#prompt-panel button.get-prompt');
}

/** The input card `key` of a paused run inside `panel` (a selector). */
export async function inputCard(page, panel, key) {
  return shown(page, `${panel} .input-request[data-key="${key}"]`);
}

/** Fill a paused run's form card with `fields` ({name: value}) and accept it. */
export async function answerForm(card, fields) {
  for (const [name, value] of Object.entries(fields)) {
    await fillField(card, name, value);
  }
  await answerInput(card, 'accept');
}

/** The prompt's messages once complete: [{role, kinds: [...]}]. */
export async function promptMessages(page, scope = '#prompt-panel') {
  await shown(page, `${scope} .prompt-result`);
  return page.locator(`${scope} .prompt-message`).evaluateAll((items) => items.map((item) => ({
    role: item.getAttribute('data-role'),
    text: item.querySelector('.message-content')?.textContent ?? '',
    kinds: [...item.querySelectorAll('.content-text, img.content-image, audio.content-audio, .content-embedded, .content-link')]
      .map((node) => node.classList.contains('content-text') ? 'text'
        : node.classList.contains('content-image') ? 'image'
          : node.classList.contains('content-audio') ? 'audio'
            : node.classList.contains('content-embedded') ? 'resource' : 'resource_link'),
  })));
}

/** Press Read beside resource `uri` in the Resources tab; the reader. */
export async function readResource(page, uri) {
  await openTab(page, 'resources');
  await page.click(`.resource-item[data-uri="${uri}"] button.read-resource`);
  return shown(page, `#resource-reader[data-uri="${uri}"]`);
}

/** Pick the template `uriTemplate` in the Resources tab; its panel. */
export async function pickTemplate(page, uriTemplate) {
  await openTab(page, 'resources');
  await page.click(`.template-pick[data-template="${uriTemplate}"]`);
  return shown(page, `#template-panel[data-template="${uriTemplate}"]`);
}

/** The URI the template panel shows it will read. */
export async function expandedUri(page, expected) {
  if (expected !== undefined) {
    // The URI follows the typing as the page redraws: wait for it (or 5 s) before reading.
    await page.waitForFunction(
      (uri) => document.querySelector('#template-panel .expanded-uri')?.textContent === uri,
      expected, { timeout: 5000 },
    ).catch(() => {});
  }
  return (await page.textContent('#template-panel .expanded-uri')) ?? '';
}

/** Press Read on the template panel; the reader of the expanded URI. */
export async function readTemplate(page) {
  const uri = await expandedUri(page);
  await page.click('#template-panel button.read-template');
  return shown(page, `#resource-reader[data-uri="${uri}"]`);
}

/** The wire log row of `method`, once there. */
export async function wireRow(page, method) {
  return shown(page, `#wire-log .wire-entry[data-method="${method}"]`);
}

/** Screenshots at 1280×720 in light and dark, under target/shots/NAME-{light,dark}.png. */
export async function shots(page, name, scrollTo) {
  mkdirSync(shotsDir, { recursive: true });
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    if (scrollTo) await page.locator(scrollTo).first().scrollIntoViewIfNeeded();
    await scrollsSettled(page);
    await transitionsDone(page);
    await page.screenshot({ path: join(shotsDir, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
