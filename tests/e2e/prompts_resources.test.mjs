// Prompts and resources against the real demo server, clicked as a user would: a prompt's
// form with the server's completions, its prompts/get paused for one input round (answered
// through the same card as a tool call's), every content kind, static resources (text and
// blobs), and a template filled in, expanded and read through one input round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoAndBrowser, openCleanApp } from './support.mjs';
import { shown } from './ui.mjs';
import {
  pickPrompt, typeArgument, argumentInput, suggestion, getPrompt, inputCard, answerForm,
  promptMessages, readResource, pickTemplate, expandedUri, readTemplate, wireRow, shots,
} from './library.mjs';

const app = demoAndBrowser();

const openApp = () => openCleanApp(app.context, app.url);

test('draft_note: completions fill the form, prompts/get pauses for the tone, the messages come', async () => {
  const { page, errors } = await openApp();
  const panel = await pickPrompt(page, 'draft_note');
  assert.match(await panel.locator('.argument-field[data-argument="team"]').textContent(), /required/);
  await page.waitForSelector('#prompt-panel button.get-prompt:disabled');
  await typeArgument(panel, 'team', 'd');
  await suggestion(panel, 'team', 'design');
  await suggestion(panel, 'team', 'docs');
  await wireRow(page, 'completion/complete');
  await shots(page, 'prompt-form-suggestion', '#prompt-panel');
  await (await suggestion(panel, 'team', 'docs')).click();
  assert.equal(await argumentInput(panel, 'team').inputValue(), 'docs');
  await typeArgument(panel, 'topic', 'launch');
  await getPrompt(page);

  const card = await inputCard(page, '#prompt-panel', 'tone');
  assert.match(await page.textContent('#prompt-panel .round-counter'), /Round 1/);
  await shown(page, '#prompt-panel .request-state');
  await shots(page, 'prompt-paused', '#prompt-panel .paused-call');

  // The paused get belongs to the session: the scene shows its tray, and it is still
  // paused when the Workbench comes back.
  await page.click('#view-scene');
  await shown(page, '#scene g.tray[data-state="paused"]');
  await page.click('#view-workbench');
  const again = await pickPrompt(page, 'draft_note');
  assert.equal(await argumentInput(again, 'team').inputValue(), 'docs', 'the typed arguments stay');
  await answerForm(await inputCard(page, '#prompt-panel', 'tone'), { tone: 'formal' });

  const messages = await promptMessages(page);
  assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant']);
  assert.match(messages[0].text, /Draft a formal note for the docs team about launch/);
  await wireRow(page, 'prompts/get');
  assert.ok(card, 'the card was shown');
  assert.deepEqual(errors, []);
  await page.close();
});

test('content_tour: every content kind, text as text, and a resource link read on request', async () => {
  const { page, errors } = await openApp();
  await pickPrompt(page, 'content_tour');
  await getPrompt(page);
  const messages = await promptMessages(page);
  assert.deepEqual(messages.map((m) => m.kinds[0]), ['text', 'image', 'audio', 'resource', 'resource_link']);
  assert.match(messages[0].text, /<b>This is text, not HTML.<\/b>/);
  assert.equal(await page.locator('#prompt-panel .prompt-result b').count(), 0, 'no markup from the server');
  const src = await page.getAttribute('#prompt-panel img.content-image', 'src');
  assert.match(src, /^data:image\/png;base64,/);
  assert.match(await page.getAttribute('#prompt-panel audio.content-audio', 'src'), /^data:audio\/wav;base64,/);
  assert.match(await page.textContent('#prompt-panel .content-embedded .resource-text'), /<script>alert/);
  assert.equal(await page.locator('#prompt-panel script').count(), 0);
  assert.equal(await page.textContent('#prompt-panel .content-link .link-uri'), 'demo://logo.png');
  await shots(page, 'prompt-content-kinds', '#prompt-panel .prompt-result');

  await page.click('#prompt-panel .content-link button.read-link');
  const read = await shown(page, '#prompt-panel .link-reader .read-result');
  assert.match(await read.locator('img.content-image').getAttribute('src'), /^data:image\/png;base64,/);
  await wireRow(page, 'resources/read');
  assert.deepEqual(errors, []);
  await page.close();
});

test('static resources: text shown as text, a PNG blob inline, other bytes described', async () => {
  const { page, errors } = await openApp();
  let reader = await readResource(page, 'demo://guide.md');
  await shown(reader, '.read-result');
  assert.match(await reader.locator('.resource-text').textContent(), /# Holdbay guide[\s\S]*<script>alert/);
  assert.equal(await reader.locator('script').count(), 0);

  reader = await readResource(page, 'demo://sample.bin');
  await shown(reader, '.read-result');
  assert.match(await reader.locator('.media-note').textContent(), /binary 8 bytes \(application\/octet-stream\)/);
  assert.equal(await reader.locator('.hex').textContent(), '48 4f 4c 44 42 41 59 00');
  assert.equal(await reader.locator('img').count(), 0);

  reader = await readResource(page, 'demo://logo.png');
  await shown(reader, '.read-result img.content-image');
  await shots(page, 'resource-contents', '#resource-reader');
  assert.deepEqual(errors, []);
  await page.close();
});

test('team notes: a template filled with completions, its URI shown, then a read paused for a reason', async () => {
  const { page, errors } = await openApp();
  const panel = await pickTemplate(page, 'demo://notes/{team}/{day}{?lang}');
  assert.equal(await expandedUri(page, 'demo://notes//'), 'demo://notes//');
  await typeArgument(panel, 'team', 'o');
  await (await suggestion(panel, 'team', 'ops')).click();
  await typeArgument(panel, 'day', 't');
  await suggestion(panel, 'day', 'today');
  await suggestion(panel, 'day', 'tuesday');
  await typeArgument(panel, 'day', 'today');
  await typeArgument(panel, 'lang', 'fr');
  assert.equal(await expandedUri(page, 'demo://notes/ops/today?lang=fr'), 'demo://notes/ops/today?lang=fr');
  await shots(page, 'template-form', '#template-panel');

  const reader = await readTemplate(page);
  const card = await inputCard(page, '#resource-reader', 'reason');
  assert.match(await reader.locator('.round-counter').textContent(), /Round 1/);
  await answerForm(card, { reason: 'weekly review' });
  const result = await shown(reader, '.read-result');
  assert.match(await result.textContent(), /Notes of the ops team, today \(fr\)/);
  assert.match(await result.textContent(), /Read because: weekly review/);
  await shots(page, 'template-read', '#resource-reader');
  assert.deepEqual(errors, []);
  await page.close();
});
