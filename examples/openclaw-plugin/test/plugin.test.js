// Loads the plugin with a recording `api`, and drives its handlers against a real
// `hookgate serve` on 127.0.0.1 (the debug binary that `cargo test` builds).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import register, { HOOKS, createRegister } from '../index.js';
import { checkHost, hostHookNames } from '../host.js';

const here = dirname(fileURLToPath(import.meta.url));
// The binary `cargo test` built: under $CARGO_TARGET_DIR when set (as CI may set it).
const binary = process.env.HOOKGATE_BIN
  ?? join(process.env.CARGO_TARGET_DIR ?? join(here, '..', '..', '..', 'target'), 'debug', 'hookgate');

const POLICY = `version: "1"
hooks:
  - name: no-rm
    point: [turn:tool:pre, subagent:tool:pre]
    match: { tool: exec, commandPattern: "rm\\\\s+-rf" }
    action: block
    onFailure: { action: block, message: "No recursive rm." }
  - name: reminder
    point: turn:pre
    action: inject_context
    source: reminder.md
  - name: deploys
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "^deploy" }
    action: require_approval
    risk: high
    timeoutMs: 30000
    description: deploys need a human
`;

let daemon;
let url;

function load(config, api = {}) {
  const handlers = new Map();
  Object.assign(api, {
    pluginConfig: config,
    on(name, handler, opts) {
      handlers.set(name, { handler, opts });
    },
  });
  register(api);
  return handlers;
}

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookgate-plugin-'));
  writeFileSync(join(dir, 'HOOKS.yaml'), POLICY);
  writeFileSync(join(dir, 'reminder.md'), 'Mind production.');
  daemon = spawn(binary, ['serve', '--config', join(dir, 'HOOKS.yaml'), '--listen', '127.0.0.1:0'], {
    env: { ...process.env, HOOKGATE_TOKEN: 'plugin-secret', HOOKGATE_APPROVER_TOKEN: 'approver-secret', HOOKGATE_LOG: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`daemon did not start: ${seen}`)), 20000);
    daemon.stderr.on('data', (chunk) => {
      seen += chunk;
      const match = /listening on (http:\/\/[0-9.:]+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    daemon.on('exit', (code) => reject(new Error(`daemon exited ${code}: ${seen}`)));
  });
  process.env.HOOKGATE_TOKEN = 'plugin-secret';
  delete process.env.HOOKGATE_APPROVER_TOKEN;
});

after(() => daemon?.kill());

test('registers every hook synchronously, with its priority', () => {
  const handlers = load({ url, priority: 900 });
  assert.deepEqual([...handlers.keys()].sort(), [...HOOKS].sort());
  assert.equal(handlers.get('before_tool_call').opts.priority, 900);
  const quiet = load({ url, conversationHooks: false });
  assert.ok(!quiet.has('before_prompt_build') && !quiet.has('agent_end') && quiet.has('before_tool_call'));
});

test('in a host, a hook the host does not fire, or no conversation access, refuses the load', () => {
  assert.throws(
    () => checkHost(['before_tool_call', 'before_agent_start'], new Set(['before_tool_call']), '2026.9.6'),
    /does not fire the hook\(s\) before_agent_start/,
  );
  assert.throws(() => checkHost(['before_tool_call'], undefined, 'x'), /cannot read this OpenClaw/);
  // A host whose declarations name every hook but that did not grant conversation access.
  const root = mkdtempSync(join(tmpdir(), 'fake-openclaw-'));
  writeFileSync(join(root, 'package.json'), '{"name":"openclaw"}');
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'hook-runner-x.d.ts'), `type PluginHookName = ${HOOKS.map((h) => `"${h}"`).join(' | ')};`);
  assert.deepEqual([...hostHookNames(root)].sort(), [...HOOKS].sort());
  const host = { runtime: { version: 'test' }, id: 'hookgate', config: {} };
  const argv1 = process.argv[1];
  process.argv[1] = join(root, 'dist', 'entry.js');
  try {
    assert.throws(() => load({ url }, { ...host }), /allowConversationAccess: true/);
    const allowed = { ...host, config: { plugins: { entries: { hookgate: { hooks: { allowConversationAccess: true } } } } } };
    assert.equal(load({ url }, allowed).size, HOOKS.length);
    assert.equal(load({ url, conversationHooks: false }, { ...host }).size, HOOKS.length - 2);
    assert.throws(() => createRegister([...HOOKS, 'subagent_spawning'])({ ...allowed, on() {} }), /subagent_spawning/);
  } finally {
    process.argv[1] = argv1;
    rmSync(root, { recursive: true, force: true });
  }
});

test('a policy block reaches OpenClaw as {block, blockReason}; an allow as nothing', async () => {
  const handlers = load({ url });
  const call = handlers.get('before_tool_call').handler;
  const ctx = { sessionKey: 'agent:main:main' };
  assert.deepEqual(await call({ toolName: 'exec', params: { command: 'rm -rf /' } }, ctx), {
    block: true,
    blockReason: 'No recursive rm.',
  });
  assert.equal(await call({ toolName: 'exec', params: { command: 'ls' } }, ctx), undefined);
  const sub = await call({ toolName: 'exec', params: { command: 'rm -rf /tmp' } }, { sessionKey: 'agent:main:subagent:1' });
  assert.equal(sub.block, true);
});

test('context injection comes back as prependContext', async () => {
  const handlers = load({ url });
  const result = await handlers.get('before_prompt_build').handler({ prompt: 'hi', messages: [] }, { sessionKey: 'agent:main:main' });
  assert.deepEqual(result, { prependContext: 'Mind production.' });
});

async function grants() {
  const response = await fetch(`${url}/v1/grants`, { headers: { authorization: 'Bearer approver-secret' } });
  return (await response.json()).grants;
}

test('require_approval without an approver token blocks, saying where to approve', async () => {
  const call = load({ url }).get('before_tool_call').handler;
  const result = await call({ toolName: 'exec', params: { command: 'deploy a' } }, { sessionKey: 'agent:main:a' });
  assert.equal(result.block, true);
  assert.equal(result.requireApproval, undefined);
  assert.match(result.blockReason, /hookgate approvals approve apr_[0-9a-f]+/);
});

test("require_approval is OpenClaw's requireApproval; allow-always leaves hookgate's grant", async () => {
  process.env.HOOKGATE_APPROVER_TOKEN = 'approver-secret';
  try {
    const call = load({ url }).get('before_tool_call').handler;
    const event = { toolName: 'exec', params: { command: 'deploy b' } };
    const ctx = { sessionKey: 'agent:main:b' };
    const result = await call(event, ctx);
    assert.equal(result.block, undefined, 'a prompt, not a veto');
    const { onResolution, ...shape } = result.requireApproval;
    assert.deepEqual(shape, {
      title: 'hookgate: deploys',
      description: shape.description,
      severity: 'critical',
      timeoutMs: 30000,
      allowedDecisions: ['allow-once', 'allow-always', 'deny'],
      timeoutReason: shape.timeoutReason,
      pluginId: 'hookgate',
    });
    await onResolution('allow-always');
    const grant = (await grants()).find((g) => g.pattern === 'exec:deploy b');
    assert.equal(grant?.by, 'openclaw');
    assert.equal(await call(event, ctx), undefined, 'the grant lets the same call through');
  } finally {
    delete process.env.HOOKGATE_APPROVER_TOKEN;
  }
});

test('allow-once passes this call only; deny is recorded as a denial', async () => {
  process.env.HOOKGATE_APPROVER_TOKEN = 'approver-secret';
  try {
    const call = load({ url }).get('before_tool_call').handler;
    const event = { toolName: 'exec', params: { command: 'deploy c' } };
    const ctx = { sessionKey: 'agent:main:c' };
    const first = await call(event, ctx);
    await first.requireApproval.onResolution('allow-once');
    // The one-time pass was used by the call OpenClaw let through: the next one asks again.
    const second = await call(event, ctx);
    assert.ok(second.requireApproval, JSON.stringify(second));
    await second.requireApproval.onResolution('deny');
    const history = await (await fetch(`${url}/v1/approvals/history`, { headers: { authorization: 'Bearer approver-secret' } })).json();
    const mine = history.history.filter((h) => h.sessionKey === 'agent:main:c').map((h) => [h.decision, h.by]);
    assert.deepEqual(mine.sort(), [['approve', 'openclaw'], ['deny', 'openclaw']]);
  } finally {
    delete process.env.HOOKGATE_APPROVER_TOKEN;
  }
});

test('an unreachable daemon blocks tool calls, unless failOpen', async () => {
  const handlers = load({ url: 'http://127.0.0.1:9', timeoutMs: 500 });
  const result = await handlers.get('before_tool_call').handler({ toolName: 'exec', params: { command: 'ls' } }, {});
  assert.equal(result.block, true);
  assert.match(result.blockReason, /hookgate could not be consulted/);
  assert.equal(await handlers.get('agent_end').handler({ response: 'x' }, {}), undefined);
  const open = load({ url: 'http://127.0.0.1:9', timeoutMs: 500, failOpen: true });
  assert.equal(await open.get('before_tool_call').handler({ toolName: 'exec', params: {} }, {}), undefined);
});

test('a daemon that hangs is cut off by the plugin timeout, and the call blocked', async () => {
  const hung = createServer(() => {});
  await new Promise((resolve) => hung.listen(0, '127.0.0.1', resolve));
  try {
    const handlers = load({ url: `http://127.0.0.1:${hung.address().port}`, timeoutMs: 300 });
    const started = Date.now();
    const result = await handlers.get('before_tool_call').handler({ toolName: 'exec', params: {} }, {});
    assert.equal(result.block, true);
    assert.match(result.blockReason, /no answer within 300 ms/);
    assert.ok(Date.now() - started < 10000);
  } finally {
    hung.closeAllConnections?.();
    hung.close();
  }
});

test('a wrong token is an error, and fails closed', async () => {
  const handlers = load({ url, tokenEnv: 'HOOKGATE_WRONG_TOKEN' });
  process.env.HOOKGATE_WRONG_TOKEN = 'nope';
  const result = await handlers.get('before_tool_call').handler({ toolName: 'exec', params: { command: 'ls' } }, {});
  assert.equal(result.block, true);
  assert.match(result.blockReason, /401/);
});
