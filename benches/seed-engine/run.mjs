// Times the seed port (engine.mjs: a port of the loop described in the seed, not the plugin's
// own code) on the hooks and calls of benches/compare.rs.
//
// Usage: node run.mjs input.json
//   input.json: { "hooks": [HOOKS.yaml hooks as JSON], "calls": [{ "name", "point",
//                 "context": { "sessionKey", "toolName", "toolArgs" } }], "iterations": N }
// Prints: { "results": [{ "n", "call", "p50_ns", "p99_ns", "blocked", "audited" }] }
// where n is the number of hooks. Each sample is one `await engine.execute(point, ctx)`,
// including the `buildContext` call that precedes it, timed with process.hrtime.bigint().

import { readFileSync } from 'node:fs';
import { LifecycleGateEngine } from './engine.mjs';

/** The value at quantile q of sorted nanosecond samples (nearest rank). */
function quantile(sorted, q) {
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return Number(sorted[rank - 1]);
}

async function decide(engine, call) {
  const ctx = LifecycleGateEngine.buildContext(call.point, call.context.sessionKey, {
    toolName: call.context.toolName,
    toolArgs: call.context.toolArgs,
  });
  return engine.execute(call.point, ctx);
}

async function measure(engine, call, iterations) {
  // Warm-up, so that V8 has optimised the loop before the samples count.
  const warmup = Math.max(200, Math.floor(iterations / 4));
  for (let i = 0; i < warmup; i++) await decide(engine, call);

  const samples = new BigInt64Array(iterations);
  let results = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    results = await decide(engine, call);
    samples[i] = process.hrtime.bigint() - start;
  }
  samples.sort();
  return {
    p50_ns: quantile(samples, 0.5),
    p99_ns: quantile(samples, 0.99),
    blocked: results.some((r) => !r.passed),
    audited: results.some((r) => r.audit === true),
  };
}

async function main() {
  const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const engine = new LifecycleGateEngine({ version: '1', hooks: input.hooks });
  const results = [];
  for (const call of input.calls) {
    const figures = await measure(engine, call, input.iterations);
    results.push({ n: input.hooks.length, call: call.name, ...figures });
  }
  process.stdout.write(`${JSON.stringify({ results })}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
