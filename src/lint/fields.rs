//! `unused-field`: a field written on a hook that its action does not read (`lastN` on a
//! `log`, `notifyUser` on a `require_approval`). The hook loads as the seed's did, but an
//! author who wrote `notifyUser: true` expects a notice that never comes.

use super::{Code, Diagnostic, Lint};

pub(super) fn check(cx: &Lint<'_>, out: &mut Vec<Diagnostic>) {
    for hook in cx.hooks() {
        let action = hook.action.label();
        for field in &hook.unused_fields {
            out.push(cx.at_hook(
                Code::UnusedField,
                hook,
                &format!("/{field}"),
                format!("`{field}` does nothing on a `{action}` hook"),
                Some(format!(
                    "remove `{field}`; the hook reference's Actions table lists the fields each action reads"
                )),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::load_str;
    use crate::lint::{Code, lint};

    fn unused(yaml: &str) -> Vec<(String, usize)> {
        let policy = load_str(yaml, Path::new("/p/HOOKS.yaml")).expect("policy");
        lint(&policy)
            .into_iter()
            .filter(|f| f.code() == Code::UnusedField)
            .map(|f| (f.path().to_owned(), f.line()))
            .collect()
    }

    #[test]
    fn fields_the_action_does_not_read_are_named_at_their_line() {
        let found = unused(
            "version: 1\nhooks:\n  - point: turn:pre\n    action: log\n    lastN: 3\n    notifyUser: true\n",
        );
        assert_eq!(
            found,
            vec![
                ("hooks[0].lastN".to_owned(), 5),
                ("hooks[0].notifyUser".to_owned(), 6)
            ]
        );
    }

    #[test]
    fn fields_the_action_reads_are_not_named() {
        let policy = "version: 1\nhooks:\n  - { point: turn:pre, action: block, notifyUser: true }\n  - { point: turn:pre, action: inject_context, source: a.md, lastN: 2 }\n  - { point: turn:pre, action: require_approval, risk: high, timeoutMs: 5 }\n  - { point: turn:pre, action: log, timeoutMs: 5, match: { custom: ./m.sh } }\n";
        assert_eq!(unused(policy), vec![]);
    }

    #[test]
    fn the_loser_of_two_alternatives_is_unused() {
        // exec_script runs `target` when both are set; inject_context reads `source` first.
        let policy = "version: 1\nhooks:\n  - { point: turn:pre, action: exec_script, target: a.sh, script: 'exit 1' }\n  - { point: turn:pre, action: inject_context, source: a.md, target: b.md }\n";
        assert_eq!(
            unused(policy),
            vec![
                ("hooks[0].script".to_owned(), 3),
                ("hooks[1].target".to_owned(), 4)
            ]
        );
    }
}
