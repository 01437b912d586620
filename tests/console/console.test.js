// The operator console in a real browser (headless Debian Chromium) against a real daemon:
// sign-in, live approvals (rendered as text, decided with a click), grants, recent
// decisions with their filter, the policy status with a broken file, a rotated token, and
// a tokenless daemon. Screenshots of each state go to target/console-screenshots/; with
// HOOKGATE_UPDATE_SCREENSHOT=1 the README's docs/console.png is rewritten too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  client, execCall, launchBrowser, repo, scratch, shots, startDaemon, until, writePolicy,
} from './harness.js';

const TOKEN = 'console-browser-token';
const POLICY = `version: "1"
hooks:
  - name: rm-guard
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "rm\\\\s+-rf" }
    onFailure: { action: block, message: "Blocked: no recursive rm" }
    action: block
  - name: deploy-approval
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "deploy|<script>" }
    action: require_approval
    risk: high
    timeoutMs: 600000
    description: production changes need a human
  - name: namespace-delete
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "kubectl delete n" }
    action: require_approval
    risk: critical
    timeoutMs: 900000
    allowedDecisions: [approve, deny]
    description: deleting a namespace cannot be undone
`;
// The same policy with \`blok\` at 7:13: schema-invalid.
const BROKEN = POLICY.replace('    action: block\n', '    action: blok\n');
// Quoted, so that it is a valid shell line: unquoted, `<script>` and a trailing `>` are
// redirections and bash refuses the line, which the policy would then block as unreadable.
const XSS = `deploy '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'`;

let dir;
let daemon;
let api;
let browser;
let page;

const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
const card = (text) => page.locator('#approvals article', { hasText: text });
const pageText = () => page.evaluate(() => document.documentElement.textContent);

before(async () => {
  dir = scratch(POLICY);
  daemon = await startDaemon(dir, { token: TOKEN });
  api = client(daemon, TOKEN);
  browser = await launchBrowser();
  page = await browser.context.newPage();
});

after(async () => {
  await browser?.close();
  await daemon?.stop();
});

test('a wrong token sees "wrong token" and no data', async () => {
  // Data the page must not show: a pending approval and a few decisions.
  const ask = await api('POST', '/v1/evaluate', execCall('deploy billing-v2'));
  assert.equal(ask.body.decision, 'ask');
  assert.equal((await api('POST', '/v1/evaluate', execCall('rm -rf /var/lib'))).body.decision, 'block');
  assert.equal((await api('POST', '/v1/evaluate', execCall('ls -la'))).body.decision, 'allow');

  await page.goto(`${daemon.url}/`);
  await page.locator('#login-form').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#app').isHidden(), true);
  await shot('1-login');

  await page.fill('#token', 'not-the-token');
  await page.click('#login-form button[type=submit]');
  await until(async () => (await page.textContent('#login-error')) === 'wrong token', '"wrong token"');
  assert.equal(await page.locator('#login-error').isVisible(), true);
  assert.equal(await page.locator('#app').isHidden(), true);
  const text = await pageText();
  for (const data of ['billing-v2', 'rm -rf', 'rm-guard', 'apr_', 'sha256:', 'deploy-approval']) {
    assert.ok(!text.includes(data), `the page shows ${data} to a wrong token`);
  }
  assert.equal(await page.locator('#approvals article, #decisions tr, #grants tr').count(), 0);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('hookgate.token')), null);
  await shot('2-wrong-token');
});

test('the right token signs in, for this tab only', async () => {
  await page.fill('#token', TOKEN);
  await page.click('#login-form button[type=submit]');
  await page.locator('#app').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#login').isHidden(), true);
  await card('deploy billing-v2').waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem('hookgate.token')), TOKEN);
  // A reload keeps the tab signed in; another tab is not.
  await page.reload();
  await card('deploy billing-v2').waitFor();
  assert.equal(await page.locator('#login').isHidden(), true);
  const other = await browser.context.newPage();
  await other.goto(`${daemon.url}/`);
  await other.locator('#login-form').waitFor({ state: 'visible' });
  assert.equal(await other.locator('#approvals article').count(), 0);
  await other.close();
});

let waiting;

test('a pending approval appears live and its command renders as text', async () => {
  // Started from Node and left waiting for a human.
  waiting = fetch(`${daemon.url}/v1/evaluate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(execCall(XSS, { session: 'agent:main:xss', wait: true })),
  }).then(async (res) => ({ at: Date.now(), status: res.status, body: await res.json() }));

  const xss = card('window.__xss');
  await xss.waitFor({ timeout: 8000 });
  assert.equal(await xss.locator('pre.command').textContent(), XSS);
  assert.equal(await page.getByText(XSS, { exact: true }).first().isVisible(), true);
  assert.equal(await xss.locator('.tool').textContent(), 'exec');
  assert.equal(await xss.locator('.badge').textContent(), 'high');
  assert.match(await xss.textContent(), /agent:main:xss/);
  assert.match(await xss.textContent(), /production changes need a human/);
  assert.match(await xss.locator('.left').textContent(), /^\d+:\d\d$/);
  const before = await xss.locator('.left').textContent();
  await until(async () => (await xss.locator('.left').textContent()) !== before, 'the countdown to move');
  // Exactly the buttons the request allows (all four by default), and the pattern prefilled.
  assert.deepEqual(await xss.locator('button').allTextContents(),
    ['Approve', 'Deny', 'Approve for session', 'Always approve']);
  assert.equal(await xss.locator('input.pattern').inputValue(), `exec:${XSS}`);
  // Nothing of it ran or was parsed as markup.
  assert.equal(await page.evaluate(() => typeof window.__xss), 'undefined');
  assert.equal(await page.locator('#app img, #app script').count(), 0);
  assert.deepEqual(browser.seen.dialogs, []);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  await shot('3-pending-approval');
});

test('a request offers only the decisions its hook allows; deny removes it', async () => {
  const ask = await api('POST', '/v1/evaluate', execCall('kubectl delete namespace scratch'));
  assert.equal(ask.body.decision, 'ask');
  assert.deepEqual(ask.body.approval.allowedDecisions, ['approve', 'deny']);
  const scratchCard = card('kubectl delete namespace scratch');
  await scratchCard.waitFor();
  assert.deepEqual(await scratchCard.locator('button').allTextContents(), ['Approve', 'Deny']);
  assert.equal(await scratchCard.locator('input.pattern').count(), 0);
  assert.equal(await scratchCard.locator('.badge').textContent(), 'critical');
  await scratchCard.getByRole('button', { name: 'Deny' }).click();
  await scratchCard.waitFor({ state: 'detached', timeout: 3000 });
  const pending = (await api('GET', '/v1/approvals')).body.pending;
  assert.ok(!pending.some((p) => p.id === ask.body.approval.id), JSON.stringify(pending));
  const last = (await api('GET', '/v1/approvals/history')).body.history.at(-1);
  assert.equal(last.decision, 'deny');
  assert.equal(last.by, 'console');
});

test('control and bidi characters in a command are shown as escapes', async () => {
  const ask = await api('POST', '/v1/evaluate', execCall('deploy \u001b[2J\u001b]0;title\u0007 \u202etxt.exe'));
  assert.equal(ask.body.decision, 'ask');
  const shown = 'deploy \\x1b[2J\\x1b]0;title\\x07 \\u{202e}txt.exe';
  const trojan = card(shown);
  await trojan.waitFor();
  assert.equal(await trojan.locator('pre.command').textContent(), shown);
  assert.doesNotMatch(await pageText(), /[\u001b\u0007\u202e]/);
  await trojan.getByRole('button', { name: 'Deny' }).click();
  await trojan.waitFor({ state: 'detached', timeout: 3000 });
});

test('clicking approve answers the waiting evaluate within a second', async () => {
  const xss = card('window.__xss');
  const clicked = Date.now();
  await xss.getByRole('button', { name: 'Approve', exact: true }).click();
  const answer = await waiting;
  assert.equal(answer.status, 200);
  assert.equal(answer.body.decision, 'allow', JSON.stringify(answer.body));
  assert.ok(answer.at - clicked < 1000, `answered ${answer.at - clicked} ms after the click`);
  await xss.waitFor({ state: 'detached', timeout: 3000 });
  const history = await api('GET', '/v1/approvals/history');
  assert.equal(history.body.history.at(-1).by, 'console');
  assert.equal(history.body.history.at(-1).decision, 'approve');
  // The decided call shows up in the recent decisions, as text too.
  const row = page.locator('#decisions tr', { hasText: 'window.__xss' });
  await row.waitFor({ timeout: 5000 });
  assert.equal(await row.locator('td.subject').textContent(), XSS);
  assert.equal(await page.evaluate(() => typeof window.__xss), 'undefined');
  await shot('4-approved');
});

test('always approve with an edited pattern creates a grant, and revoke removes it', async () => {
  const ask = await api('POST', '/v1/evaluate', execCall('deploy staging web-1'));
  assert.equal(ask.body.decision, 'ask');
  const staging = card('deploy staging web-1');
  await staging.waitFor();
  await staging.locator('input.pattern').fill('exec:deploy staging *');
  await staging.getByRole('button', { name: 'Always approve' }).click();
  await staging.waitFor({ state: 'detached', timeout: 3000 });

  const row = page.locator('#grants tr', { hasText: 'exec:deploy staging *' });
  await row.waitFor({ timeout: 5000 });
  assert.match(await row.textContent(), /always/);
  assert.match(await row.textContent(), /console/);
  const grants = (await api('GET', '/v1/grants')).body.grants;
  const grant = grants.find((g) => g.pattern === 'exec:deploy staging *');
  assert.ok(grant, JSON.stringify(grants));
  assert.equal(grant.kind, 'always');
  // The grant works: a matching call no longer asks.
  assert.equal((await api('POST', '/v1/evaluate', execCall('deploy staging web-2'))).body.decision, 'allow');
  await shot('5-grants');

  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.waitFor({ state: 'detached', timeout: 3000 });
  const after = (await api('GET', '/v1/grants')).body.grants;
  assert.ok(!after.some((g) => g.id === grant.id), JSON.stringify(after));
  assert.equal((await api('POST', '/v1/evaluate', execCall('deploy staging web-3'))).body.decision, 'ask');
});

test('recent decisions update live and filter by decision', async () => {
  const live = `echo live-${Date.now()}`;
  await api('POST', '/v1/evaluate', execCall(live));
  const liveRow = page.locator('#decisions tr', { hasText: live });
  await liveRow.waitFor({ timeout: 5000 });
  assert.match(await liveRow.textContent(), /allow/);

  const block = page.locator('#decisions tr', { hasText: 'rm -rf /var/lib' });
  await block.waitFor();
  const cells = await block.locator('td').allTextContents();
  assert.equal(cells[1], 'turn:tool:pre');
  assert.equal(cells[2], 'exec');
  assert.equal(cells[4], 'block');
  assert.equal(cells[5], 'rm-guard');
  assert.equal(cells[6], 'Blocked: no recursive rm');
  assert.match(cells[7], /^\d+\.\d{3} ms$/);
  assert.match(cells[0], /^\d\d:\d\d:\d\d$/);

  const verdicts = () => page.locator('#decisions tr td:nth-child(5)').allTextContents();
  for (const verdict of ['block', 'allow', 'ask']) {
    await page.click(`[data-filter="${verdict}"]`);
    const shown = await until(async () => {
      const v = await verdicts();
      return v.length > 0 && v.every((x) => x === verdict) && v;
    }, `only ${verdict} rows`);
    const server = (await api('GET', `/v1/decisions?decision=${verdict}&limit=500`)).body.decisions;
    assert.equal(shown.length, server.length, `${verdict}: page and API agree`);
    if (verdict === 'block') await shot('6-decisions-block');
  }
  await page.click('[data-filter=""]');
  const all = await until(async () => {
    const v = new Set(await verdicts());
    return v.has('allow') && v.has('block') && v.has('ask') && v;
  }, 'every kind of row');
  assert.equal(all.size, 3);
  await shot('6-decisions');
});

test('a broken policy shows its error with line and column, and reload reports it', async () => {
  writePolicy(dir, BROKEN);
  const problems = page.locator('#status-problems');
  await until(async () => /line 7, column 13/.test(await problems.textContent()), 'the reload error in the status panel');
  assert.match(await problems.textContent(), /HOOKS\.yaml line 7, column 13: unknown action `blok`/);
  assert.match(await problems.textContent(), /not in force/);
  assert.equal(await page.textContent('#healthy'), 'reload failed');

  await page.click('#reload');
  await until(async () => /^Reload failed/.test(await page.textContent('#reload-result')), 'the reload outcome');
  assert.match(await page.textContent('#reload-diagnostics'), /line 7, column 13/);
  assert.match(await page.textContent('#reload-diagnostics'), /blok/);
  await shot('7-broken-policy');

  writePolicy(dir, POLICY);
  await until(async () => (await page.textContent('#healthy')) === 'healthy', 'healthy again');
  await page.click('#reload');
  await until(async () => /^Unchanged/.test(await page.textContent('#reload-result')), 'an unchanged reload');
  assert.match(await page.textContent('#status'), /hooks\s*3/);
  assert.match(await problems.textContent(), /fixed since/);
});

test('a rotated token sends the page back to the sign-in form, with the data gone', async () => {
  const url = new URL(daemon.url);
  await daemon.stop();
  daemon = await startDaemon(dir, { token: 'rotated-token', listen: url.host });
  await page.locator('#login-form').waitFor({ state: 'visible', timeout: 8000 });
  assert.match(await page.textContent('#login-error'), /refused the token/);
  assert.equal(await page.locator('#approvals article, #decisions tr, #grants tr, #status dt').count(), 0);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('hookgate.token')), null);
  await page.fill('#token', 'rotated-token');
  await page.click('#login-form button[type=submit]');
  await card('deploy billing-v2').waitFor({ timeout: 5000 });
  assert.deepEqual(browser.seen.errors, []);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
});

test('without a token the console reads, and decides only after the login link', async () => {
  const open = scratch(POLICY);
  const tokenless = await startDaemon(open);
  try {
    const agent = client(tokenless, null);
    await agent('POST', '/v1/evaluate', execCall('rm -rf /opt'));
    const ask = await agent('POST', '/v1/evaluate', execCall('deploy web --env prod'));
    const tab = await browser.context.newPage();
    await tab.goto(`${tokenless.url}/`);
    await tab.locator('#decisions tr', { hasText: 'rm -rf /opt' }).waitFor({ timeout: 5000 });
    assert.equal(await tab.locator('#login').isHidden(), true);
    // Local, so it reads; approving is not a local request's to do.
    await tab.locator('#approvals article', { hasText: 'deploy web' }).getByRole('button', { name: 'Approve', exact: true }).click();
    await until(async () => /needs the approve role/.test(await tab.locator('#approvals').textContent()), 'the refusal naming the role');
    assert.equal((await agent('GET', `/v1/approvals/${ask.body.approval.id}`)).body.status, 'pending');

    // The link the daemon printed opens a session that decides.
    const link = tokenless.loginUrl();
    assert.ok(link, tokenless.log());
    await tab.goto(link);
    assert.equal(new URL(tab.url()).pathname, '/');
    await tab.locator('#approvals article', { hasText: 'deploy web' }).getByRole('button', { name: 'Approve', exact: true }).click();
    await until(async () => (await agent('GET', `/v1/approvals/${ask.body.approval.id}`)).body.status === 'decided', 'the approval');
    assert.equal((await fetch(link)).status, 403, 'the link is good once');
    await tab.close();
  } finally {
    await tokenless.stop();
  }
});

test('a realistic state for the README screenshot', async () => {
  const demo = scratch(POLICY);
  const d = await startDaemon(demo, { token: TOKEN });
  const call = client(d, TOKEN);
  try {
    const calls = [
      execCall('git status', { session: 'agent:main:telegram:dm:42' }),
      execCall('rm -rf ~/projects/api/node_modules/../..', { session: 'agent:main:telegram:dm:42' }),
      execCall('npm test', { session: 'agent:main:telegram:dm:42' }),
      execCall('deploy api --env staging', { session: 'agent:main:main' }),
      execCall('kubectl delete namespace payments-canary', { session: 'agent:ops:slack:c0451' }),
      execCall('deploy web --env production --tag v2.14.0', { session: 'agent:main:main' }),
      execCall('cat README.md', { session: 'agent:main:main' }),
    ];
    for (const body of calls) await call('POST', '/v1/evaluate', body);
    const staging = (await call('GET', '/v1/approvals')).body.pending.find((p) => p.subject.startsWith('deploy api'));
    await call('POST', `/v1/approvals/${staging.id}`, { decision: 'approve_always', by: 'alice', pattern: 'exec:deploy api --env staging*' });
    await call('POST', '/v1/evaluate', execCall('deploy api --env staging --canary', { session: 'agent:main:main' }));

    const tab = await browser.context.newPage();
    await tab.setViewportSize({ width: 1280, height: 800 });
    await tab.goto(`${d.url}/`);
    await tab.fill('#token', TOKEN);
    await tab.click('#login-form button[type=submit]');
    await tab.locator('#approvals article', { hasText: 'payments-canary' }).waitFor();
    await tab.locator('#grants tr', { hasText: 'staging' }).waitFor();
    await tab.locator('#decisions tr', { hasText: '--canary' }).waitFor();
    const path = join(shots, 'readme.png');
    await tab.screenshot({ path, fullPage: true });
    if (process.env.HOOKGATE_UPDATE_SCREENSHOT === '1') copyFileSync(path, join(repo, 'docs', 'console.png'));
    await tab.close();
  } finally {
    await d.stop();
  }
});
