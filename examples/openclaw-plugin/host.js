// The running OpenClaw's own list of plugin hooks, to compare with the hooks the plugin
// needs. OpenClaw exposes no such list at run time; its package declares it as the type
// `PluginHookName` in dist/*.d.ts, which is read here (synchronously: register() is).

import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

// The directory of the `openclaw` package this process runs, or undefined.
export function hostRoot(start = process.argv[1]) {
  const candidates = [];
  if (start) {
    candidates.push(dirname(start));
    // A global install starts from a bin symlink (/usr/local/bin/openclaw).
    try {
      candidates.push(dirname(realpathSync(start)));
    } catch {
      // No such file: the other candidates remain.
    }
  }
  try {
    candidates.push(dirname(createRequire(join(process.cwd(), 'x.js')).resolve('openclaw/package.json')));
  } catch {
    // Not resolvable from here; the entry script is the usual way.
  }
  for (let dir of candidates) {
    for (;;) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest)) {
        try {
          if (JSON.parse(readFileSync(manifest, 'utf8')).name === 'openclaw') return dir;
        } catch {
          // An unreadable package.json is not the host's.
        }
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return undefined;
}

// Reads `type PluginHookName = "a" | "b" | ...;` from the host's declarations; undefined when
// the host or the declaration cannot be found.
export function hostHookNames(root = hostRoot()) {
  if (!root) return undefined;
  const dist = join(root, 'dist');
  let files;
  try {
    files = readdirSync(dist).filter((f) => f.endsWith('.d.ts'));
  } catch {
    return undefined;
  }
  // The hook runner's declarations hold it; any other declaration file is the fallback.
  files.sort((a, b) => Number(!a.startsWith('hook-runner')) - Number(!b.startsWith('hook-runner')));
  for (const file of files) {
    const text = readFileSync(join(dist, file), 'utf8');
    const match = /type PluginHookName = ([^;]+);/.exec(text);
    if (match) return new Set([...match[1].matchAll(/"([a-z_]+)"/g)].map((m) => m[1]));
  }
  return undefined;
}

// Throws, naming them, when the host does not fire every hook in `needed`.
export function checkHost(needed, known, version = 'unknown') {
  if (!known) {
    throw new Error(
      `hookgate: cannot read this OpenClaw's (${version}) list of plugin hooks (PluginHookName in its dist/*.d.ts), ` +
        'so cannot tell whether every hook the plugin needs would fire; refusing to load.',
    );
  }
  const missing = needed.filter((h) => !known.has(h));
  if (missing.length > 0) {
    throw new Error(
      `hookgate: this OpenClaw (${version}) does not fire the hook(s) ${missing.join(', ')} that the plugin ` +
        'registers; OpenClaw would ignore them without a word, leaving a hole in the policy. Refusing to load: ' +
        'use the OpenClaw version this plugin was built for (2026.9.6), or a plugin built for this one.',
    );
  }
}
