// What the browser client does for each conformance scenario, through the app's UI only.
// Each driver does what its scenario's mock server grades (read in the suite's source,
// @modelcontextprotocol/conformance 0.2.0-alpha.12), and checks on the page what a user
// would see. `ui` comes from browser-client.mjs. The auth/* drivers live in
// auth-scenarios.mjs.
import { authScenarios, extensionScenarios } from './auth-scenarios.mjs';

/** Call `tool` with `args` typed into the form; the result text. */
async function callWithForm(ui, tool, args = {}) {
  await ui.select(tool);
  await ui.fillForm(args);
  await ui.call();
  return ui.result();
}

/**
 * Read resource `uri` with the Resources tab's Read button; false when this build of the
 * app has no such control (the prompts/resources panels of branch i12-prompts).
 */
async function readResource(ui, uri) {
  await ui.page.click('#tab-resources');
  const button = ui.page.locator(`.resource-item[data-uri="${uri}"] button.read-resource`);
  await ui.page.waitForSelector('.catalog-item, .resource-item', { timeout: 10000 });
  if ((await button.count()) === 0) {
    ui.log('no Read control in the Resources tab of this build: resources/read skipped');
    return false;
  }
  const before = ui.sent.length;
  await button.click();
  await ui.page.waitForSelector(`#resource-reader .read-result, #resource-reader .call-error`, { timeout: 20000 });
  ui.check(`resources/read ${uri} was sent`,
    ui.sent.slice(before).some((b) => b?.method === 'resources/read' && b.params?.uri === uri));
  return true;
}

/** Get prompt `name` with the Prompts tab's Get button; false when this build has none. */
async function getPrompt(ui, name) {
  await ui.page.click('#tab-prompts');
  await ui.page.waitForSelector('.catalog-item, .prompt-pick', { timeout: 10000 });
  const pick = ui.page.locator(`.prompt-pick[data-name="${name}"]`);
  if ((await pick.count()) === 0) {
    ui.log('no Get control in the Prompts tab of this build: prompts/get skipped');
    return false;
  }
  const before = ui.sent.length;
  await pick.click();
  await ui.page.click('#prompt-panel button.get-prompt');
  await ui.page.waitForSelector('#prompt-panel .prompt-result, #prompt-panel .call-error', { timeout: 20000 });
  ui.check(`prompts/get ${name} was sent`,
    ui.sent.slice(before).some((b) => b?.method === 'prompts/get' && b.params?.name === name));
  return true;
}

export const scenarios = {
  /** 2025-11-25: the handshake, asked for with era=2025-11-25; the (empty) tool list after it. */
  async initialize(ui) {
    const tools = await ui.tools();
    ui.same('tools listed', tools, []);
    const initialize = ui.sent.find((body) => body?.method === 'initialize');
    ui.check('initialize was sent first', ui.sent[0]?.method === 'initialize',
      JSON.stringify(ui.sent.map((body) => body?.method)));
    ui.same('the version offered', initialize?.params?.protocolVersion, '2025-11-25');
    ui.check('notifications/initialized followed',
      ui.sent.some((body) => body?.method === 'notifications/initialized'));
    const chip = await ui.shown(ui.page, '#era-chip');
    ui.same('the server card says legacy', (await chip.textContent()).trim(), 'legacy');
  },

  /**
   * 2025-11-25: the tool's handler sends elicitation/create on the session's own GET stream
   * (the TypeScript SDK's server.request, not tied to the call); the card above the call is
   * accepted as shown, so every field goes with its default (SEP-1034).
   */
  async 'elicitation-sep1034-client-defaults'(ui) {
    const tools = await ui.tools();
    ui.same('tools listed', tools, ['test_client_elicitation_defaults']);
    await ui.select('test_client_elicitation_defaults');
    await ui.page.click('#call-panel button.call');
    const card = await ui.shown(ui.page, '#session-asks .input-request:not(.answered)');
    await ui.snapshot('session-asks');
    await ui.answerInput(card, 'accept');
    const text = await ui.result();
    const answer = ui.sent.find((body) => typeof body === 'object' && body !== null
      && 'result' in body && !('method' in body));
    ui.same('the defaults sent', answer?.result?.content,
      { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true });
    ui.check('the result shows the elicitation completed', /Elicitation completed/.test(text), text);
  },

  /**
   * 2025-11-25 (SEP-1699): the call's stream closes after its priming event (retry 500 ms)
   * without the answer; the app resumes it with a GET carrying Last-Event-ID after the
   * retry, and the answer comes on that stream.
   */
  async 'sse-retry'(ui) {
    const tools = await ui.tools();
    ui.same('tools listed', tools, ['test_reconnection']);
    const text = await callWithForm(ui, 'test_reconnection');
    ui.check('the answer replayed on the resumed stream is shown',
      /Reconnection test completed successfully/.test(text), text);
  },

  /** add_numbers with two numbers, typed into the form. */
  async tools_call(ui) {
    const tools = await ui.tools();
    ui.same('tools listed', tools, ['add_numbers']);
    const text = await callWithForm(ui, 'add_numbers', { a: 2, b: 3 });
    ui.check('the result shows the sum', /The sum of 2 and 3 is 5/.test(text), text);
    ui.same('arguments sent', ui.callsOf('add_numbers')[0]?.params.arguments, { a: 2, b: 3 });
  },

  /**
   * The first request gets -32022 with data.supported; the app must retry with a supported
   * version, then go on (the mock offers no tools, so discovery is all there is; the
   * tools/list the app sends beside the first discover is dropped).
   */
  async 'request-metadata'(ui) {
    const ok = await ui.discovered();
    ui.check('discovery succeeds after the version retry', ok);
    // tools/list goes out beside the first discover (src/catalog.rs `load`), so the mock
    // refuses whichever of the two reaches it first; the retry is the first request whose
    // method was sent before, and `first` is that earlier one.
    const at = ui.sent.findIndex((b, i) => ui.sent.slice(0, i).some((a) => a?.method === b?.method));
    const retry = at >= 0 ? ui.sent[at] : undefined;
    const first = ui.sent.find((a) => a?.method === retry?.method);
    ui.check('a retry was sent', retry !== undefined && first !== retry,
      JSON.stringify(ui.sent.map((b) => b?.method)));
    if (retry) ui.check('the retry has a new id', retry.id !== first.id);
  },

  /**
   * MRTR: answer the input card of test_mrtr_echo_state (its requestState must come back
   * exactly), call test_mrtr_unrelated while that call is paused (nothing may leak into it),
   * answer test_mrtr_no_state (no requestState may be invented), and call
   * test_mrtr_no_result_type (a result without resultType is complete: no retry).
   */
  async 'sep-2322-client-request-state'(ui) {
    await ui.tools();
    await ui.select('test_mrtr_echo_state');
    await ui.call();
    const card = await ui.card('confirm');
    await ui.fillField(card, 'confirmed', 'true');

    // While echo_state waits for its answer, another tool's call carries nothing of it.
    const unrelated = await callWithForm(ui, 'test_mrtr_unrelated');
    ui.check('test_mrtr_unrelated completes', /unrelated-ok/.test(unrelated), unrelated);

    await ui.select('test_mrtr_echo_state');
    await ui.answerInput(await ui.card('confirm'), 'accept');
    const echoed = await ui.result();
    ui.check('test_mrtr_echo_state completes after one round', /echo-state-ok/.test(echoed), echoed);

    await ui.select('test_mrtr_no_state');
    await ui.call();
    const noState = await ui.card('confirm');
    await ui.fillField(noState, 'confirmed', 'true');
    await ui.answerInput(noState, 'accept');
    const noStateText = await ui.result();
    ui.check('test_mrtr_no_state completes', /no-state-ok/.test(noStateText), noStateText);

    const plain = await callWithForm(ui, 'test_mrtr_no_result_type');
    ui.check('a result without resultType shows as complete',
      /no-result-type-test-ok/.test(plain), plain);
    ui.check('test_mrtr_no_result_type was sent once',
      ui.callsOf('test_mrtr_no_result_type').length === 1);
  },

  /**
   * Mcp-Method on every request and Mcp-Name on tools/call (a hyphenated tool too),
   * resources/read and prompts/get: list everything, call both tools, and read a resource
   * and get the prompt where this build of the app offers it.
   */
  async 'http-standard-headers'(ui) {
    const tools = await ui.tools();
    ui.same('tools listed', [...tools].sort(), ['my-hyphenated-tool', 'test_headers']);
    const first = await callWithForm(ui, 'test_headers');
    ui.check('test_headers completes', /Headers test completed/.test(first), first);
    const second = await callWithForm(ui, 'my-hyphenated-tool');
    ui.check('my-hyphenated-tool completes', /Headers test completed/.test(second), second);
    await readResource(ui, 'file:///path/to/file%20name.txt');
    await getPrompt(ui, 'test_prompt');
    const methods = new Set(ui.sent.map((body) => body?.method));
    for (const method of ['tools/list', 'tools/call', 'resources/list', 'prompts/list']) {
      ui.check(`${method} was sent`, methods.has(method));
    }
  },

  /**
   * Exactly the calls listed in MCP_CONFORMANCE_CONTEXT, with exactly their arguments, typed
   * into the form (`--arguments=form`) or the Raw JSON editor (`--arguments=raw`).
   */
  async 'http-custom-headers'(ui, { context, mode }) {
    const calls = context.toolCalls ?? [];
    ui.check('the context lists calls', calls.length > 0, JSON.stringify(context));
    await ui.tools();
    for (const { name, arguments: args } of calls) {
      await ui.select(name);
      if (mode === 'raw') await ui.fillRaw(args);
      else await ui.fillForm(args);
      await ui.call();
      const text = await ui.result();
      ui.check(`${name} completes`, /Custom headers test completed/.test(text), text);
      const sent = ui.callsOf(name).at(-1)?.params.arguments;
      // Through the form a null the schema does not allow (`verbose` is a boolean) is left
      // out, which the header rule treats alike ("null or not provided").
      const expected = mode === 'form' ? withoutNulls(args) : args;
      ui.same(`${name} arguments (${mode})`, sent, expected);
    }
  },

  /** The app drops the tools whose x-mcp-header is invalid and still calls the valid one. */
  async 'http-invalid-tool-headers'(ui) {
    const tools = await ui.tools();
    ui.same('tools offered', tools, ['valid_tool']);
    const hidden = await ui.page.locator('#hidden-tools li').allInnerTexts();
    ui.check('the left-out tools are explained', hidden.length === 11, hidden.join(' | '));
    const text = await callWithForm(ui, 'valid_tool', { region: 'us-west1' });
    ui.check('valid_tool completes', /Tool call received/.test(text), text);
  },

  /**
   * A network $ref in an inputSchema is never fetched: list the tools and open the tool's
   * form (which renders from that schema). The page must not request the canary URL.
   */
  async 'json-schema-ref-no-deref'(ui) {
    const tools = await ui.tools();
    ui.same('tools listed', tools, ['lookup_user']);
    await ui.select('lookup_user');
    await ui.page.locator('#call-panel [name="id"], #call-panel textarea.arguments-json')
      .first().waitFor({ timeout: 10000 });
    await ui.page.waitForTimeout(1000);
  },

  /**
   * The focal tool's inputSchema, as the app shows it, is passed back verbatim as the
   * `schema` argument of json_schema_echo (typed into the Raw JSON editor).
   */
  async 'json-schema-2020-12-preservation'(ui) {
    const tools = await ui.tools();
    ui.same('tools listed', [...tools].sort(), ['json_schema_2020_12_tool', 'json_schema_echo']);
    await ui.select('json_schema_2020_12_tool');
    const schema = await shownInputSchema(ui, 'json_schema_2020_12_tool');
    await ui.select('json_schema_echo');
    await ui.fillRaw({ schema });
    await ui.call();
    const text = await ui.result();
    ui.check('json_schema_echo completes', /echoed/.test(text), text);
    ui.same('schema sent', ui.callsOf('json_schema_echo')[0]?.params.arguments, { schema });
  },
};

scenarios['http-custom-headers'].variants = ['form', 'raw'];
Object.assign(scenarios, authScenarios, extensionScenarios);

function withoutNulls(args) {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
}

/**
 * The inputSchema of `tool` as the app shows it: the call panel's schema view when this
 * build has one, else the tools/list answer in the wire log.
 */
async function shownInputSchema(ui, tool) {
  const view = ui.page.locator('#call-panel .input-schema pre, #call-panel .input-schema code').first();
  if ((await view.count()) > 0) {
    ui.log('reading the inputSchema from the call panel');
    // The schema view is a closed <details>: open it as a user would, then read it.
    const details = ui.page.locator('#call-panel details.input-schema').first();
    if (!(await details.evaluate((element) => element.open))) {
      await details.locator('summary').first().click();
    }
    return JSON.parse(await view.innerText());
  }
  ui.log('reading the inputSchema from the wire log');
  const entry = ui.page.locator('.wire-entry[data-method="tools/list"]').first();
  await entry.locator('.wire-summary').click();
  const body = await entry.locator('.wire-side').nth(1).locator('pre').first().innerText();
  const answer = JSON.parse(body.replace(/^(event|id|data): ?/gm, ''));
  const found = answer.result.tools.find((t) => t.name === tool);
  if (!found) throw new Error(`${tool} is not in the tools/list answer`);
  await entry.locator('.wire-summary').click();
  return found.inputSchema;
}
