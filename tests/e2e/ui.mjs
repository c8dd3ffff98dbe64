// How the end-to-end tests operate the app's panels, in one place.
/** Pick a tool in the tools panel. */
export async function selectTool(page, name) {
  const tool = page.locator('.tool', { has: page.locator('.tool-name', { hasText: new RegExp(`^${name}$`) }) });
  await tool.locator('.select-tool').click();
  await page.waitForSelector(`#call-panel .call-tool:text-is("${name}")`);
}

/** Set a form field by its `name`, whatever control the form chose for it. */
export async function fillField(scope, name, value) {
  const field = scope.locator(`[name="${name}"]`).first();
  const tag = await field.evaluate((node) => node.tagName.toLowerCase());
  const type = await field.evaluate((node) => node.getAttribute('type') ?? '');
  if (tag === 'select') {
    await field.selectOption(value);
  } else if (type === 'checkbox') {
    if (value === 'true') await field.check();
    else await field.uncheck();
  } else if (type === 'radio') {
    await scope.locator(`[name="${name}"][value="${value}"]`).check();
  } else {
    await field.fill(value);
  }
}

/** Press accept, decline or cancel on an input request card. */
export async function answerInput(card, action) {
  await card.locator(`button.${action}`).click();
}

/** The first element in `scope` (a page or a locator) matching `selector`, once visible. */
export async function shown(scope, selector, options = {}) {
  const found = scope.locator(selector).first();
  await found.waitFor({ timeout: options.timeout ?? 20000 });
  return found;
}

/**
 * Wait until nothing on the page scrolls any more: every scroll position the same two
 * animation frames in a row (a smooth scroll into view has ended).
 */
export async function scrollsSettled(page) {
  await page.waitForFunction(async () => {
    const positions = () => [document.scrollingElement, ...document.querySelectorAll('*')]
      .map((element) => (element ? `${element.scrollTop},${element.scrollLeft}` : ''))
      .join(';');
    const frame = () => new Promise((resolveFrame) => requestAnimationFrame(resolveFrame));
    let before = positions();
    for (;;) {
      await frame();
      const now = positions();
      if (now === before) return true;
      before = now;
    }
  }, null, { timeout: 10000 });
}

/** Wait until every CSS transition has ended (after a change of colour scheme, say). */
export async function transitionsDone(page) {
  await page.waitForFunction(() => document.getAnimations()
    .filter((animation) => animation instanceof CSSTransition)
    .every((animation) => animation.playState === 'finished'), null, { timeout: 10000 });
}

/** Press Call. */
export async function call(page) {
  await page.click('#call-panel button.call');
}

/** The task row of `tool` once it shows `status`. */
export async function waitForTaskStatus(page, tool, status, timeout = 20000) {
  return shown(page, `.task-row[data-status="${status}"]:has-text("${tool}")`, { timeout });
}

/** Where the task of `taskRow` (a task row) is answered: its card above the call, which
 * the row points to. */
export async function askingCardOf(page, taskRow) {
  await shown(taskRow, '.task-asks-above');
  const taskId = await taskRow.getAttribute('data-task-id');
  return shown(page, `#task-asking .task-asking[data-task-id="${taskId}"]`);
}

/** Every JSON-RPC request the page POSTs to a server's `/mcp`, parsed, in order. */
export function recordMcpRequests(page) {
  const sent = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/mcp')) {
      const body = JSON.parse(request.postData() ?? 'null');
      if (body?.method) sent.push(body);
    }
  });
  return sent;
}

/**
 * The FastMCP peer's MRTR round (tests/peers/fastmcp_peer.py): call `confirm_action`, answer
 * its form, and return the result shown after the retry.
 */
export async function confirmActionRound(page, action = 'ship it') {
  await selectTool(page, 'confirm_action');
  await fillField(page.locator('#call-panel'), 'action', action);
  await call(page);
  const card = await shown(page, '#call-panel .input-request[data-key="confirm"]');
  await fillField(card, 'confirm', 'true');
  await answerInput(card, 'accept');
  return (await shown(page, '#call-panel .call-result')).textContent();
}
