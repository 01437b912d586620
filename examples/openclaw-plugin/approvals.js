// require_approval in OpenClaw: hookgate's pending request becomes OpenClaw's own
// `requireApproval`, decided in OpenClaw's UI and channels, and the decision is recorded in
// hookgate's approvals store, so the two are one record.
//
// Recording a decision needs hookgate's approve role (POST /v1/approvals/{id}); the gateway's
// evaluate token cannot. So the native prompt is shown only when the operator gave this
// plugin an approver token (approverTokenEnv). Without one, the call is blocked with where to
// approve it in hookgate (fails closed): a prompt whose answer hookgate never learns would
// let OpenClaw run a call that hookgate still holds as pending.

import { post } from './daemon.js';

// OpenClaw's decision -> hookgate's. `allow-once` is hookgate's `approve` (one pass for the
// same call in the session), `allow-always` its `approve_always` (a standing grant on the
// exact subject). `timeout` and `cancelled` are not decisions: hookgate's request expires at
// the same moment (requireApproval.timeoutMs is its lifetime) and its timeoutAction applies
// to its own record.
const DECISIONS = { 'allow-once': 'approve', 'allow-always': 'approve_always', deny: 'deny' };

function where(id, options) {
  return `approve it in hookgate (\`hookgate approvals approve ${id}\`, or the console at ${options.url}) and retry`;
}

// Records OpenClaw's `resolution` of hookgate request `id`; `call` is the hook body, asked
// again after an allow-once so that the one-time pass is used by the call it was given for.
export async function record(resolution, id, call, options, fetchImpl, logger, info) {
  const decision = DECISIONS[resolution];
  if (!decision) return;
  // OpenClaw 2026.9.6 passes only the decision to onResolution; a later one that passes who
  // decided (a second argument) is recorded as such.
  const who = info?.resolvedBy ?? info?.by;
  const by = who ? `openclaw:${who}` : 'openclaw';
  try {
    await post(`/v1/approvals/${encodeURIComponent(id)}`, { decision, by }, options, options.approverTokenEnv, fetchImpl);
  } catch (error) {
    logger.warn?.(`hookgate: could not record OpenClaw's ${resolution} of ${id}: ${error?.message ?? error}`);
    return;
  }
  if (decision === 'approve') {
    // OpenClaw has let this call through already; hookgate left a one-time pass for "the
    // next identical call". Presenting the call once more uses that pass up (and runs the
    // rest of the hook chain, whose answer is logged by hookgate), so it cannot let a second
    // identical call through unasked.
    try {
      await post('/v1/openclaw/before_tool_call', call, options, options.tokenEnv, fetchImpl);
    } catch (error) {
      logger.warn?.(`hookgate: the one-time pass of ${id} may be left unused: ${error?.message ?? error}`);
    }
  }
}

// before_tool_call's answer for an `ask`: OpenClaw's native prompt with onResolution when
// the decision can be recorded, else a block that says where to approve.
export function approvalAnswer(result, decision, call, options, fetchImpl, logger) {
  const id = decision?.approval?.id;
  const canRecord = Boolean(id) && Boolean(process.env[options.approverTokenEnv]);
  if (!canRecord) {
    const reason = result.blockReason ?? 'Approval required';
    return { block: true, blockReason: `${reason}: ${id ? where(id, options) : 'approve it in hookgate'}` };
  }
  const { block: _block, blockReason: _reason, requireApproval, ...rest } = result;
  return {
    ...rest,
    requireApproval: {
      ...requireApproval,
      pluginId: 'hookgate',
      onResolution: (resolution, info) => record(resolution, id, call, options, fetchImpl, logger, info),
    },
  };
}
