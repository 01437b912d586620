// OpenClaw plugin: forwards lifecycle hooks to a hookgate daemon and returns its answers.
//
// register() is synchronous and has no side effects (the gateway may call it twice): it only
// registers handlers. Each handler posts {event, ctx} to POST /v1/openclaw/<hook> with its own
// timeout, because a handler that throws or returns nothing lets the call through, and
// OpenClaw's backstop only blocks after 15 s. On any error, before_tool_call and
// subagent_spawning return a block unless `failOpen` is set.

const HOOKS = [
  'before_tool_call',
  'after_tool_call',
  'before_prompt_build',
  'before_agent_start',
  'agent_end',
  'message_sending',
  'session_start',
  'session_end',
  'subagent_spawning',
];

// Hooks whose result can stop something: these fail closed.
const GUARDS = new Set(['before_tool_call', 'subagent_spawning']);

export function settings(config = {}) {
  return {
    url: (config.url ?? 'http://127.0.0.1:18790').replace(/\/+$/, ''),
    tokenEnv: config.tokenEnv ?? 'HOOKGATE_TOKEN',
    timeoutMs: config.timeoutMs ?? 3000,
    failOpen: config.failOpen ?? false,
    priority: config.priority ?? 1000,
  };
}

export async function consult(hook, event, ctx, options, fetchImpl = globalThis.fetch) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const headers = { 'content-type': 'application/json' };
    const token = process.env[options.tokenEnv];
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetchImpl(`${options.url}/v1/openclaw/${hook}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ event: event ?? {}, ctx: ctx ?? {} }),
      signal: controller.signal,
    });
    if (!response.ok) throw new Error(`hookgate answered ${response.status}`);
    const { hookgate: _decision, ...result } = await response.json();
    return Object.keys(result).length > 0 ? result : undefined;
  } catch (error) {
    const reason = error?.name === 'AbortError' ? `no answer within ${options.timeoutMs} ms` : String(error?.message ?? error);
    if (GUARDS.has(hook) && !options.failOpen) {
      return { block: true, blockReason: `hookgate could not be consulted (${reason}); blocked for safety` };
    }
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

export default function register(api) {
  const options = settings(api.pluginConfig ?? api.config ?? {});
  for (const hook of HOOKS) {
    api.on(hook, (event, ctx) => consult(hook, event, ctx, options), { priority: options.priority });
  }
}
