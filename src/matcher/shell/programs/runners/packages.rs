//! npm's package scripts the line writes, and dependencies fetched from git repositories.

use super::super::super::SimpleCommand;
use super::super::super::expand::Field;
use super::super::super::walk::Reader;
use super::shell_c;

/// `npm pkg set scripts.NAME=CODE` and `npm set-script NAME CODE` write a package script,
/// which `npm run NAME` (or `npm test`, or an install hook) hands to `sh -c`: the code is
/// read as what the line sets up to run.
pub(super) fn package_scripts(r: &mut Reader, args: &[Field]) {
    let set_script = args.first().is_some_and(|a| a.text == "set-script");
    let script_key = |a: &Field| {
        a.text.starts_with("scripts")
            // A value not known could be a `scripts.` key, unless its key is known.
            || (a.unknown
                && a.text
                    .split_once('=')
                    .is_none_or(|(key, _)| key.contains(crate::matcher::shell::SUBSTITUTION)))
    };
    let codes: Vec<&Field> = if set_script {
        let operands = args.iter().skip(1).filter(|a| !a.text.starts_with('-'));
        operands.skip(1).take(1).collect()
    } else if args.get(1).is_some_and(|a| a.text == "set") {
        args.iter().skip(2).filter(|a| script_key(a)).collect()
    } else {
        Vec::new()
    };
    // A dependency set to a URL or a repository is installed from there by the next
    // `npm install`: read as that install.
    if args.get(1).is_some_and(|a| a.text == "set") {
        const KINDS: &[&str] = &[
            "dependencies.",
            "devDependencies.",
            "optionalDependencies.",
            "peerDependencies.",
        ];
        for a in args.iter().skip(2) {
            if let Some((key, source)) = a.text.split_once('=')
                && KINDS.iter().any(|k| key.starts_with(k))
            {
                r.record(SimpleCommand::implied(
                    "npm",
                    vec!["install".to_owned(), source.to_owned()],
                    Some("a dependency set by npm pkg".to_owned()),
                ));
            }
        }
    }
    for field in codes {
        if field.unknown {
            r.unreadable("the command sets a package script from a value not known before it runs");
            continue;
        }
        let code = match set_script {
            true => Some(field.text.as_str()),
            false => field.text.split_once('=').map(|(_, code)| code),
        };
        if let Some(code) = code {
            r.reached("a package script set on the line".to_owned(), |r| {
                shell_c(r, code)
            });
        }
    }
}

/// Whether an npm, pnpm or yarn argument names a dependency in a git repository
/// (`git+https://…`, `git://…`, `github:user/repo`, `git@host:repo`, `…/repo.git`).
pub(super) fn is_git_dependency(arg: &str) -> bool {
    let spec = arg.split_once('@').map_or(arg, |(name, spec)| {
        // `name@git+https://…`; a scoped name (`@scope/x`) or `user@host:` is not a version.
        if name.is_empty() || name.contains(':') {
            arg
        } else {
            spec
        }
    });
    [
        "git+",
        "git://",
        "github:",
        "gitlab:",
        "bitbucket:",
        "gist:",
        "git@",
    ]
    .iter()
    .any(|p| spec.starts_with(p))
        || (spec.contains("://") && spec.trim_end_matches('/').ends_with(".git"))
}
