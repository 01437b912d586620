//! Refusals that let the call through: `fails-open` (an `onFailure` that turns a block or a
//! denied approval into a pass) and `approval-times-out-open` (a high-risk approval that
//! allows the call when nobody answers).
//!
//! What passes is exactly what the engine does (`engine.rs`; docs/hooks-reference.md,
//! decision semantics 3-4): an action that *returns* a refusal is handled by the hook's own
//! `onFailure.action` (default `block`; `defaults.onFailure` is not consulted on this path).
//! `block` keeps the refusal; `continue` and `notify` pass at once; `retry` runs the action
//! again, and a `block` action refuses every time, so the retries run out and the result
//! passes too.

use super::{Code, Diagnostic, Lint};
use crate::config::{Action, ActionName, FailureAction, Risk, TimeoutAction};

pub(super) fn check(cx: &Lint<'_>, out: &mut Vec<Diagnostic>) {
    for hook in cx.hooks() {
        if let Some(on_failure) = &hook.on_failure
            && on_failure.action != FailureAction::Block
        {
            let name = match on_failure.action {
                FailureAction::Continue => "continue",
                FailureAction::Notify => "notify",
                FailureAction::Retry => "retry",
                FailureAction::Block => "block",
            };
            let how = match on_failure.action {
                FailureAction::Retry => {
                    // The engine's default, and its backoff: 100·2^(n−1) ms before attempt n.
                    let retries = on_failure.retries.unwrap_or(3).min(10);
                    let waited = 100u64 * ((1u64 << retries) - 1);
                    format!(" once its {retries} retries run out ({waited} ms later)")
                }
                FailureAction::Notify => " (after a notice to the user)".to_owned(),
                _ => String::new(),
            };
            let message = match hook.action.name() {
                ActionName::Block => Some(format!(
                    "`onFailure.action: {name}` turns this block into a pass{how}, so it never stops anything"
                )),
                ActionName::RequireApproval => Some(format!(
                    "`onFailure.action: {name}` turns a refused approval into a pass{how}: a call the approver denies goes through"
                )),
                _ => None,
            };
            if let Some(message) = message {
                out.push(cx.at_hook(
                    Code::FailsOpen,
                    hook,
                    "/onFailure/action",
                    message,
                    Some(
                        "write `onFailure: { action: block, message: \"...\" }`, or leave `onFailure` out (a refusal then stands)"
                            .to_owned(),
                    ),
                ));
            }
        }
        if let Action::RequireApproval(approval) = &hook.action
            && approval.timeout_action == TimeoutAction::Allow
            && matches!(approval.risk, Risk::High | Risk::Critical)
        {
            out.push(cx.at_hook(
                Code::ApprovalTimesOutOpen,
                hook,
                "/timeoutAction",
                format!(
                    "a {}-risk call is allowed when nobody decides in time (`timeoutAction: allow`)",
                    approval.risk.as_str()
                ),
                Some(
                    "use `timeoutAction: deny` (the default) for risky calls, or lower `risk` if the call is safe to let through"
                        .to_owned(),
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::findings;
    use super::*;

    fn hook(fields: &str) -> String {
        format!("version: 1\nhooks:\n  - name: h\n    point: turn:tool:pre\n{fields}")
    }

    #[test]
    fn blocks_that_pass_on_failure_are_found() {
        for action in ["continue", "notify", "retry"] {
            let yaml = hook(&format!(
                "    action: block\n    onFailure:\n      action: {action}\n"
            ));
            let found = findings(&yaml, Code::FailsOpen);
            assert_eq!(found.len(), 1, "{action}: {found:#?}");
            assert_eq!((found[0].line(), found[0].column()), (7, 15), "{action}");
            assert_eq!(found[0].path(), "hooks[0].onFailure.action");
            assert!(found[0].message().contains(action), "{found:#?}");
            if action == "retry" {
                assert!(
                    found[0]
                        .message()
                        .contains("3 retries run out (700 ms later)"),
                    "{found:#?}"
                );
            }
        }
        let found = findings(
            &hook("    action: require_approval\n    onFailure: { action: continue }\n"),
            Code::FailsOpen,
        );
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message().contains("refused approval"),
            "{found:#?}"
        );
    }

    #[test]
    fn blocks_that_stand_are_not_flagged() {
        for yaml in [
            hook("    action: block\n    onFailure: { action: block, message: no }\n"),
            hook("    action: block\n"),
            // The engine does not consult `defaults.onFailure` when an action blocks.
            "version: 1\ndefaults: { onFailure: { action: continue } }\nhooks:\n  - { point: turn:pre, action: block }\n".to_owned(),
            // Other actions may well mean to go on.
            hook("    action: log\n    onFailure: { action: continue }\n"),
            hook("    action: exec_script\n    script: 'true'\n    onFailure: { action: notify }\n"),
        ] {
            assert_eq!(findings(&yaml, Code::FailsOpen), [], "{yaml}");
        }
    }

    #[test]
    fn risky_approvals_that_time_out_open_are_found() {
        let found = findings(
            &hook("    action: require_approval\n    risk: high\n    timeoutAction: allow\n"),
            Code::ApprovalTimesOutOpen,
        );
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!((found[0].line(), found[0].column()), (7, 20));
        for clean in [
            "    action: require_approval\n    risk: low\n    timeoutAction: allow\n",
            "    action: require_approval\n    risk: critical\n    timeoutAction: deny\n",
            "    action: require_approval\n    risk: high\n",
        ] {
            assert_eq!(
                findings(&hook(clean), Code::ApprovalTimesOutOpen),
                [],
                "{clean}"
            );
        }
    }
}
