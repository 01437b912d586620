// A port of the evaluation loop described in the seed document (the OpenClaw lifecycle-hooks
// plugin's contributor guide: "Matcher (matcher.ts)", "Gate Engine (engine.ts)", "block
// (actions/block.ts)") -- NOT the plugin's own code, which is not available here. It keeps
// what the guide specifies for a decision: a sequential `for ... of` over every hook with an
// `await shouldFire(hook, context)` per hook, a `new RegExp(pattern).test(...)` per pattern
// test, an awaited action dispatch for each hook that fires, and a short-circuit on the first
// result with `passed: false`. Left out: config loading and validation, custom matchers and
// custom actions (dynamic imports), and every built-in action except `block`.
//
// One addition: `mode: audit` (a HOOKS.yaml field of hookgate that the seed does not have).
// An audit hook fires and runs its action, but its result passes, so the chain goes on; that
// is what hookgate does with it, and the benches' policies contain one audit hook.

/** The text `commandPattern` is tested against, in the guide's priority order. */
export function extractCommandSubject(context) {
  const args = context.toolArgs;
  if (args) {
    for (const key of ['command', 'path', 'file_path', 'url', 'message']) {
      if (typeof args[key] === 'string') return args[key];
    }
  }
  if (typeof context.prompt === 'string') return context.prompt;
  return '';
}

/** Every present filter field must hold (AND), in the guide's order. */
export async function matchesFilter(filter, context) {
  if (!filter) return true;
  if (filter.tool !== undefined && context.toolName !== filter.tool) return false;
  if (filter.commandPattern !== undefined
      && !new RegExp(filter.commandPattern).test(extractCommandSubject(context))) {
    return false;
  }
  if (filter.topicId !== undefined && String(context.topicId) !== String(filter.topicId)) {
    return false;
  }
  if (filter.isSubAgent !== undefined
      && context.sessionKey.includes(':subagent:') !== filter.isSubAgent) {
    return false;
  }
  if (filter.sessionPattern !== undefined
      && !new RegExp(filter.sessionPattern).test(context.sessionKey)) {
    return false;
  }
  return true;
}

/** enabled, then point membership, then the match filter. */
export async function shouldFire(hook, context) {
  if (hook.enabled === false) return false;
  const points = Array.isArray(hook.point) ? hook.point : [hook.point];
  if (!points.includes(context.point)) return false;
  return matchesFilter(hook.match, context);
}

/** actions/block.ts: always `passed: false`, with a message naming tool, command and point. */
async function executeBlock(hook, context, startTime) {
  const subject = extractCommandSubject(context).slice(0, 80);
  const message = hook.onFailure?.message
    ?? `Blocked ${context.toolName ?? 'call'} "${subject}" at ${context.point}`;
  return { passed: false, action: 'block', message, duration: Date.now() - startTime };
}

const BUILT_IN_ACTIONS = {
  block: (hook, ctx, t, _cfg) => executeBlock(hook, ctx, t),
};

async function dispatchAction(action, hook, context, startTime, config) {
  const builtIn = BUILT_IN_ACTIONS[action];
  if (builtIn) return builtIn(hook, context, startTime, config);
  // Custom action modules are out of scope for the port; a broken custom action blocks.
  return { passed: false, action, message: `unknown action ${action}`, duration: 0 };
}

export class LifecycleGateEngine {
  constructor(config) {
    this.config = config;
  }

  /** Pre-fills point, sessionKey and timestamp, as the guide's `buildContext`. */
  static buildContext(point, sessionKey, overrides) {
    return { point, sessionKey, timestamp: Date.now(), ...overrides };
  }

  /** The core loop of engine.ts, as the guide gives it. */
  async execute(point, context) {
    const startTime = Date.now();
    const results = [];
    const defaults = this.config.defaults;
    for (const hook of this.config.hooks) {
      const fires = await shouldFire(hook, context);
      if (!fires) continue;

      let result;
      try {
        result = await dispatchAction(hook.action, hook, context, startTime, { defaults });
      } catch (err) {
        result = await this.handleActionError(hook, context, startTime, err);
      }
      if (hook.mode === 'audit') {
        result = { ...result, passed: true, audit: true };
      }

      results.push(result);

      if (!result.passed) {
        // Short-circuit: stop processing further hooks
        break;
      }
    }
    return results;
  }

  /** `onFailure` defaults to `continue`: the error becomes a passing result. */
  async handleActionError(hook, context, startTime, err) {
    if (hook.onFailure?.action === 'block') {
      return { passed: false, action: hook.action, message: String(err), duration: 0 };
    }
    return {
      passed: true,
      action: hook.action,
      message: String(err),
      duration: Date.now() - startTime,
    };
  }
}
