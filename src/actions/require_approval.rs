//! `require_approval`: a call that waits for a human. Standing grants are checked first; a
//! call no grant covers becomes a pending request and the decision is `ask`, or, when the
//! caller waits, whatever the human (or the timeout) decides.

use super::{Invocation, Outcome};
use crate::approvals::{ApprovalRequest, RequestError, Resolution, new_id, now_ms};
use crate::config::{ApprovalSpec, Mode, TimeoutAction};

/// How long a request waits when the hook sets no `timeoutMs`.
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 60_000;

pub(super) async fn run(inv: &Invocation<'_>, approval: &ApprovalSpec) -> Outcome {
    let spec = inv.hook.spec();
    let subject = inv.ctx.command_subject();
    let tool = inv.ctx.tool_name.as_deref();
    let reason = approval
        .description
        .clone()
        .unwrap_or_else(|| format!("hook {} requires approval", spec.id));
    if spec.mode == Mode::Audit {
        // Audit mode records what would have been asked, and asks nobody.
        return Outcome::fail(format!("Approval required: {reason}"));
    }
    let Some(approvals) = &inv.services.approvals else {
        // No store (e.g. a one-shot `hookgate check`): the request is returned, not kept.
        let message = format!("Approval required: {reason}");
        return Outcome::held(message, request(inv, approval, reason));
    };
    if let Some(why) = approvals.unavailable() {
        return Outcome::fail(format!("Denied: approvals are unavailable ({why})"));
    }
    match approvals
        .use_grant(&inv.ctx.session_key, tool, subject)
        .await
    {
        Ok(Some(grant)) => return Outcome::pass(format!("Approved by {}", grant.description)),
        Ok(None) => {}
        Err(e) => return Outcome::fail(format!("Denied: approvals could not be updated ({e})")),
    }
    let opened = match inv.wait_for_approval {
        true => approvals
            .open_request_and_wait(request(inv, approval, reason.clone()))
            .await
            .map(|(request, new, resolution)| (request, new, Some(resolution))),
        false => approvals
            .open_request(request(inv, approval, reason.clone()))
            .await
            .map(|(request, new)| (request, new, None)),
    };
    let (request, new, resolution) = match opened {
        Ok(opened) => opened,
        // Fails closed: the call is denied, with the limit in the message.
        Err(e @ RequestError::Full { .. }) => return Outcome::fail(format!("Denied: {e}")),
        Err(RequestError::Store(e)) => {
            return Outcome::fail(format!(
                "Denied: the approval request could not be stored ({e})"
            ));
        }
    };
    let notice = new.then(|| {
        format!(
            "Approval needed ({} risk) for {} `{}`: {reason}. Decide with POST /v1/approvals/{} {{\"decision\": \"approve\"|\"deny\"|\"approve_session\"|\"approve_always\"}}.",
            request.risk.as_str(),
            request.tool.as_deref().unwrap_or("(no tool)"),
            request.subject,
            request.id
        )
    });
    let Some(resolution) = resolution else {
        return Outcome::held(format!("Approval required: {reason}"), request).with_notice(notice);
    };
    let outcome = match resolution {
        Resolution::Approved { by, decision } => {
            Outcome::pass(format!("Approved by {by} ({})", decision.as_str()))
        }
        Resolution::Denied { by } => Outcome::fail(format!("Denied by {by}")),
        Resolution::TimedOut {
            action: TimeoutAction::Allow,
        } => Outcome::pass("Approval timed out; allowed by timeoutAction"),
        Resolution::TimedOut {
            action: TimeoutAction::Deny,
        } => Outcome::fail("Approval timed out; denied"),
        Resolution::Released => {
            // The daemon is stopping (the request stays pending for the restart), or the
            // store failed and nothing can be decided: answer ask.
            Outcome::held(format!("Approval required: {reason}"), request)
        }
    };
    outcome.with_notice(notice)
}

fn request(inv: &Invocation<'_>, approval: &ApprovalSpec, reason: String) -> ApprovalRequest {
    let spec = inv.hook.spec();
    let created = now_ms();
    let timeout = spec.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    ApprovalRequest {
        id: new_id("apr"),
        hook: spec.id.clone(),
        point: inv.point,
        session_key: inv.ctx.session_key.clone(),
        tool: inv.ctx.tool_name.clone(),
        args: inv.ctx.tool_args.clone(),
        subject: inv.ctx.command_subject().to_owned(),
        risk: approval.risk,
        reasons: vec![reason],
        created_at_ms: created,
        expires_at_ms: created.saturating_add(timeout),
        timeout_action: approval.timeout_action,
        allowed_decisions: approval.allowed_decisions.clone(),
    }
}
