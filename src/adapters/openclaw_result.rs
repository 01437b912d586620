//! OpenClaw hook results: a Decision in, the result shape of the hook out
//! (`{block, blockReason, params, requireApproval}`, `{prependContext}`, `{cancel}`, ...).

use serde_json::{Map, Value, json};

use crate::decision::{Decision, Verdict};

/// OpenClaw's severity for a hookgate risk.
fn severity(risk: Option<&str>) -> &'static str {
    match risk {
        Some("low") => "info",
        Some("critical" | "high") => "critical",
        _ => "warning",
    }
}

/// OpenClaw's decisions for hookgate's: `approve` is OpenClaw's `allow-once`, `approve_always`
/// its `allow-always`. `approve_session` has no OpenClaw counterpart and is not offered there.
fn allowed_decisions(approval: &Value) -> Vec<&'static str> {
    let given = approval
        .get("allowedDecisions")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect::<Vec<_>>())
        .unwrap_or_default();
    [
        ("approve", "allow-once"),
        ("approve_always", "allow-always"),
        ("deny", "deny"),
    ]
    .into_iter()
    .filter(|(ours, _)| given.contains(ours))
    .map(|(_, theirs)| theirs)
    .collect()
}

/// OpenClaw's `requireApproval` for hookgate's pending request. The plugin adds
/// `onResolution` (a function, so not JSON) when it can record the decision in hookgate.
fn require_approval(decision: &Decision, reason: &str) -> Value {
    let approval = decision.approval.clone().unwrap_or(Value::Null);
    let id = approval.get("id").and_then(Value::as_str).unwrap_or("");
    let ms = |k: &str| approval.get(k).and_then(Value::as_u64).unwrap_or(0);
    let timeout_ms = ms("expiresAtMs").saturating_sub(ms("createdAtMs"));
    let hook = decision.hook.as_deref().unwrap_or("require_approval");
    // OpenClaw denies at its timeout whatever the plugin asks; hookgate's own request
    // expires at the same moment and applies its timeoutAction to its own record.
    let on_timeout = match approval.get("timeoutAction").and_then(Value::as_str) {
        Some("allow") => "the hook's timeoutAction is allow, but OpenClaw denies on timeout",
        _ => "denied",
    };
    let mut out = json!({
        "title": format!("hookgate: {hook}"),
        "description": reason,
        "severity": severity(approval.get("risk").and_then(Value::as_str)),
        "allowedDecisions": allowed_decisions(&approval),
        "timeoutReason": format!("hookgate approval {id} timed out ({on_timeout})"),
    });
    if timeout_ms > 0 {
        out["timeoutMs"] = json!(timeout_ms);
    }
    out
}

/// The hook's result for `decision`, plus the Decision itself under `hookgate`.
pub(crate) fn result(hook: &str, decision: &Decision) -> Value {
    let reason = decision
        .message
        .clone()
        .unwrap_or_else(|| "Blocked by hookgate policy".to_owned());
    let mut out = Map::new();
    let stopped = decision.decision != Verdict::Allow;
    match hook {
        "before_tool_call" => {
            if stopped {
                // A plugin that cannot record OpenClaw's approval in hookgate keeps the block
                // (fails closed); ours drops it only when it attaches onResolution.
                out.insert("block".into(), json!(true));
                out.insert("blockReason".into(), json!(reason));
            }
            if decision.decision == Verdict::Ask {
                out.insert(
                    "requireApproval".into(),
                    require_approval(decision, &reason),
                );
            }
            if let (Some(params), false) = (&decision.params, stopped) {
                out.insert("params".into(), params.clone());
            }
        }
        "before_install" if stopped => {
            out.insert("block".into(), json!(true));
            out.insert("blockReason".into(), json!(reason));
        }
        "before_prompt_build" | "heartbeat_prompt_contribution" => {
            if !decision.injected_context.is_empty() && !stopped {
                out.insert(
                    "prependContext".into(),
                    json!(decision.injected_context.join("\n\n")),
                );
            }
            if stopped {
                // OpenClaw cannot refuse a prompt here; the reason is prepended instead, so the
                // model is told.
                out.insert("prependContext".into(), json!(reason));
            }
        }
        "message_sending" => {
            if stopped {
                out.insert("cancel".into(), json!(true));
                out.insert("cancelReason".into(), json!(reason));
            } else if let Some(content) = decision.params.as_ref().and_then(|p| p.get("message")) {
                out.insert("content".into(), content.clone());
            }
        }
        "resolve_exec_env" if !stopped => {
            // An external action's modifiedParams that are strings become environment
            // variables of the exec call; nothing else can be set here.
            let env: Map<String, Value> = decision
                .params
                .as_ref()
                .and_then(Value::as_object)
                .map(|p| {
                    p.iter()
                        .filter(|(_, v)| v.is_string())
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect()
                })
                .unwrap_or_default();
            if !env.is_empty() {
                out.insert("env".into(), Value::Object(env));
            }
        }
        _ => {}
    }
    out.insert(
        "hookgate".into(),
        serde_json::to_value(decision).unwrap_or(Value::Null),
    );
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_map_to_openclaws() {
        let approval =
            json!({ "allowedDecisions": ["approve", "deny", "approve_session", "approve_always"] });
        assert_eq!(
            allowed_decisions(&approval),
            ["allow-once", "allow-always", "deny"]
        );
        assert_eq!(
            allowed_decisions(&json!({ "allowedDecisions": ["deny"] })),
            ["deny"]
        );
        assert_eq!(
            (
                severity(Some("low")),
                severity(None),
                severity(Some("high"))
            ),
            ("info", "warning", "critical")
        );
    }
}
