// What the console's browser test runs on: a real `hookgate serve` (the debug binary that
// `cargo test` builds) in a scratch directory, and Debian's Chromium driven by playwright-core.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const binary = process.env.HOOKGATE_BIN
  ?? join(process.env.CARGO_TARGET_DIR ?? join(repo, 'target'), 'debug', 'hookgate');
export const shots = join(process.env.CARGO_TARGET_DIR ?? join(repo, 'target'), 'console-screenshots');

/** A scratch directory holding `HOOKS.yaml` = `policy`, removed when the test process exits. */
export function scratch(policy) {
  const dir = mkdtempSync(join(tmpdir(), 'hookgate-console-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'HOOKS.yaml'), policy);
  return dir;
}

/** Replaces `dir/HOOKS.yaml` as an editor does: a new file renamed over the old one. */
export function writePolicy(dir, text) {
  const tmp = join(dir, '.HOOKS.yaml.tmp');
  writeFileSync(tmp, text);
  renameSync(tmp, join(dir, 'HOOKS.yaml'));
}

/**
 * Starts `hookgate serve` in `dir` on `listen`, with `token` as its admin token (in a 0600
 * token file; the admin may evaluate, approve and reload, as these tests do, and a separate
 * gateway token keeps requests without a token out) or with no token at all; resolves
 * once its log names the address. `loginUrl()` is the last one-time console login link it
 * printed; `stop()` ends it and waits for the exit.
 */
export async function startDaemon(dir, { token = null, listen = '127.0.0.1:0' } = {}) {
  const args = ['serve', '--config', join(dir, 'HOOKS.yaml'), '--listen', listen, '--reload-debounce', '20ms'];
  if (token) {
    const file = join(dir, `token-${Date.now()}`);
    writeFileSync(file, `${token}\n`);
    chmodSync(file, 0o600);
    args.push('--admin-token-file', file);
    // A gateway token of its own, so that a request without a token is no one's.
    const gateway = join(dir, `gateway-token-${Date.now()}`);
    writeFileSync(gateway, `gateway-of-${token}\n`);
    chmodSync(gateway, 0o600);
    args.push('--token-file', gateway);
  }
  const env = { ...process.env, HOOKGATE_LOG: 'info' };
  for (const name of ['HOOKGATE_TOKEN', 'HOOKGATE_APPROVER_TOKEN', 'HOOKGATE_ADMIN_TOKEN']) delete env[name];
  const child = spawn(binary, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hookgate did not start:\n${log}`)), 20000);
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const match = /listening on (http:\/\/[0-9.:]+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('error', reject);
    exited.then((code) => reject(new Error(`hookgate exited ${code} (built? ${binary}):\n${log}`)));
  });
  return {
    url,
    log: () => log,
    loginUrl: () => [...log.matchAll(/http:\/\/\S+\/login\?code=[0-9a-f]+/g)].at(-1)?.[0],
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** An API client for `daemon` with `token`. */
export function client(daemon, token) {
  return async function call(method, path, body) {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${daemon.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
}

/** An `exec` of `command` at `turn:tool:pre`, optionally waiting for an approval. */
export function execCall(command, { session = 'agent:main:main', wait = false, args = {} } = {}) {
  return {
    point: 'turn:tool:pre',
    context: { sessionKey: session, toolName: 'exec', toolArgs: { command, ...args } },
    ...(wait ? { wait: true } : {}),
  };
}

/**
 * Debian's Chromium, headless, in a fresh profile, with every background service off (the
 * machine's network is closed; Chromium would otherwise keep trying to reach Google).
 * Records dialogs, page errors and CSP violations so tests can assert there were none.
 */
export async function launchBrowser() {
  const profile = mkdtempSync(join(tmpdir(), 'hookgate-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  const seen = { dialogs: [], errors: [] };
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`);
    });
  });
  context.on('page', (page) => watch(page, seen));
  for (const page of context.pages()) watch(page, seen);
  mkdirSync(shots, { recursive: true });
  return {
    context,
    seen,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

function watch(page, seen) {
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  page.on('pageerror', (error) => seen.errors.push(String(error)));
}

/** Polls `probe` until it returns a truthy value (returned), or fails naming `what`. */
export async function until(probe, what, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
