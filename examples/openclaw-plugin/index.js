// OpenClaw plugin: forwards lifecycle hooks to a hookgate daemon and returns its answers.
//
// register() is synchronous and has no side effects beyond registering handlers (the gateway
// may call it twice). Each handler posts {event, ctx} to POST /v1/openclaw/<hook> with its
// own timeout, because a handler that throws or returns nothing lets the call through, and
// OpenClaw's backstop only blocks after 15 s. On any error, the hooks that can stop something
// (GUARDS) return a block unless `failOpen` is set.

import { checkHost, hostHookNames } from './host.js';
import { approvalAnswer } from './approvals.js';
import { post } from './daemon.js';

export { post };

// The hooks hookgate maps (src/adapters/openclaw.rs HOOKS), all of them fired by OpenClaw
// 2026.9.6. OpenClaw ignores a name it does not know with only a log line, so register()
// compares this list with the host's own and refuses to load on a difference.
export const HOOKS = [
  'before_tool_call',
  'after_tool_call',
  'before_prompt_build',
  'agent_end',
  'heartbeat_prompt_contribution',
  'cron_changed',
  'before_compaction',
  'after_compaction',
  'message_received',
  'message_sending',
  'message_sent',
  'session_start',
  'session_end',
  'subagent_spawned',
  'subagent_ended',
  'gateway_start',
  'gateway_stop',
  'before_install',
  'resolve_exec_env',
];

// OpenClaw registers these for a non-bundled plugin only with
// plugins.entries.<id>.hooks.allowConversationAccess: true (turn:pre, turn:post and the
// sub-agent and heartbeat turn ends come through them).
export const CONVERSATION_HOOKS = new Set(['before_prompt_build', 'agent_end']);

// Hooks whose result can stop something: these fail closed.
const GUARDS = new Set(['before_tool_call', 'before_install']);

export function settings(config = {}) {
  return {
    url: (config.url ?? 'http://127.0.0.1:18790').replace(/\/+$/, ''),
    tokenEnv: config.tokenEnv ?? 'HOOKGATE_TOKEN',
    approverTokenEnv: config.approverTokenEnv ?? 'HOOKGATE_APPROVER_TOKEN',
    timeoutMs: config.timeoutMs ?? 3000,
    failOpen: config.failOpen ?? false,
    priority: config.priority ?? 1000,
    conversationHooks: config.conversationHooks ?? true,
  };
}

// The hook's answer from the daemon, as OpenClaw takes it (undefined: nothing to say).
export async function consult(hook, event, ctx, options, fetchImpl = globalThis.fetch, logger = console) {
  const body = { event: event ?? {}, ctx: ctx ?? {} };
  let answer;
  try {
    answer = await post(`/v1/openclaw/${hook}`, body, options, options.tokenEnv, fetchImpl);
  } catch (error) {
    const reason = String(error?.message ?? error);
    if (GUARDS.has(hook) && !options.failOpen) {
      return { block: true, blockReason: `hookgate could not be consulted (${reason}); blocked for safety` };
    }
    logger.warn?.(`hookgate: ${hook} not evaluated: ${reason}`);
    return undefined;
  }
  const { hookgate: decision, ...result } = answer ?? {};
  if (hook === 'before_tool_call' && result.requireApproval) {
    return approvalAnswer(result, decision, body, options, fetchImpl, logger);
  }
  if (hook === 'resolve_exec_env') return result.env;
  return Object.keys(result).length > 0 ? result : undefined;
}

// Whether the operator let OpenClaw register this plugin's conversation hooks.
function conversationAccess(api) {
  const entry = api.config?.plugins?.entries?.[api.id ?? 'hookgate'];
  return entry?.hooks?.allowConversationAccess === true;
}

// A register() for `hooks` (the plugin's default is HOOKS; tests name others).
export function createRegister(hooks = HOOKS) {
  return function register(api) {
    const options = settings(api.pluginConfig ?? {});
    const wanted = hooks.filter((h) => options.conversationHooks || !CONVERSATION_HOOKS.has(h));
    // In a real host (api.runtime is there) the check is not optional: a hook the host does
    // not fire, or drops, would be a hole in the policy that nothing reports.
    if (api.runtime) {
      checkHost(wanted, hostHookNames(), api.runtime.version);
      const blocked = wanted.filter((h) => CONVERSATION_HOOKS.has(h));
      if (blocked.length > 0 && !conversationAccess(api)) {
        throw new Error(
          `hookgate: OpenClaw registers ${blocked.join(', ')} (turn:pre, turn:post, sub-agent and heartbeat ` +
            `turn ends) only with plugins.entries.${api.id ?? 'hookgate'}.hooks.allowConversationAccess: true. ` +
            'Set it, or set the plugin config conversationHooks: false to run without those points.',
        );
      }
    }
    const logger = api.logger ?? console;
    for (const hook of wanted) {
      api.on(hook, (event, ctx) => consult(hook, event, ctx, options, globalThis.fetch, logger), {
        priority: options.priority,
      });
    }
  };
}

export default createRegister();
