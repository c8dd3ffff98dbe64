// The time a sign-in costs, against the demo authorization server on loopback
// (`holdbay serve --auth oauth`), through the real UI in a fresh profile per run: from the
// 401 that challenged the connect to the retried request that carried the token, split at
// the user's part (the consent page, answered by the script at once):
//   before consent: the 401's answer → the consent page asked for (discovery, registration,
//     the auth chunk's fetch, the window);
//   after consent: the consent's answer → the first MCP request with a Bearer token (the
//     callback page, the token request, the retry).
// Not a test: a benchmark, reported in docs/benchmarks.md.
//
//   cd tests/e2e && node bench-auth.mjs [--runs 9]
import { startHoldbay, launchBrowser } from './support.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--runs');
const runs = at >= 0 ? Number(args[at + 1]) : 9;

const holdbay = await startHoldbay(['--auth', 'oauth']);
const rows = [];
try {
  for (let run = 0; run < runs; run += 1) {
    const browser = await launchBrowser();
    try {
      const times = {};
      const context = browser.context;
      const page = context.pages()[0] ?? (await context.newPage());
      const stamp = (name) => { times[name] ??= performance.now(); };
      context.on('response', (response) => {
        const url = new URL(response.url());
        if (url.pathname === '/mcp' && response.status() === 401) stamp('challenged');
        if (url.pathname === '/oauth/authorize' && response.request().method() === 'POST') stamp('consented');
      });
      context.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/oauth/authorize' && request.method() === 'GET') stamp('consentAsked');
        if (url.pathname === '/mcp' && request.headers().authorization?.startsWith('Bearer ')) stamp('retried');
      });
      await page.goto(`${holdbay.url}/`);
      await page.waitForSelector('#sign-in button.sign-in', { timeout: 20000 });
      const [popup] = await Promise.all([context.waitForEvent('page'), page.click('#sign-in button.sign-in')]);
      await popup.click('button[value="allow"]', { timeout: 20000 });
      await page.waitForSelector('.select-tool', { timeout: 20000 });
      const before = times.consentAsked - times.challenged;
      const after = times.retried - times.consented;
      rows.push({ before, after });
      console.log(`run ${run + 1}: before consent ${before.toFixed(0)} ms (click included), after consent ${after.toFixed(0)} ms`);
    } finally {
      await browser.close();
    }
  }
} finally {
  holdbay.stop();
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
console.log(`median of ${rows.length}: before consent ${median(rows.map((r) => r.before)).toFixed(0)} ms, after consent ${median(rows.map((r) => r.after)).toFixed(0)} ms`);
