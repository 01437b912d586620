// Loads the plugin with a recording `api`, and drives its handlers against a real
// `hookgate serve` on 127.0.0.1 (the debug binary that `cargo test` builds).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import register from '../index.js';

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
`;

let daemon;
let url;

function load(config) {
  const handlers = new Map();
  const api = {
    pluginConfig: config,
    on(name, handler, opts) {
      handlers.set(name, { handler, opts });
    },
  };
  register(api);
  return handlers;
}

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookgate-plugin-'));
  writeFileSync(join(dir, 'HOOKS.yaml'), POLICY);
  writeFileSync(join(dir, 'reminder.md'), 'Mind production.');
  daemon = spawn(binary, ['serve', '--config', join(dir, 'HOOKS.yaml'), '--listen', '127.0.0.1:0'], {
    env: { ...process.env, HOOKGATE_TOKEN: 'plugin-secret', HOOKGATE_LOG: 'info' },
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
});

after(() => daemon?.kill());

test('registers every hook synchronously, with its priority', () => {
  const handlers = load({ url, priority: 900 });
  assert.deepEqual([...handlers.keys()].sort(), [
    'after_tool_call', 'agent_end', 'before_agent_start', 'before_prompt_build', 'before_tool_call',
    'message_sending', 'session_end', 'session_start', 'subagent_spawning',
  ]);
  assert.equal(handlers.get('before_tool_call').opts.priority, 900);
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
  const result = await handlers.get('before_agent_start').handler({ prompt: 'hi' }, { sessionKey: 'agent:main:main' });
  assert.deepEqual(result, { prependContext: 'Mind production.' });
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
