//! Programs that run a command as another user, group or architecture: `sudo`, `doas`,
//! `su`, `runuser`, `sg`, `setarch`. What they run is read as the line is; a shell they
//! open reads its input.

use super::shell_code::stdin_shell;
use crate::matcher::shell::env::Value;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt, Options};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, script_of, texts};
use crate::matcher::shell::walk::{Data, Io, Reader};

/// setarch's personality flags (`-R`, `-3`, `--addr-no-randomize`, ...), none with a value.
const SETARCH_FLAGS: Options = Options {
    short_with_value: "",
    long: &[],
    abbreviations: true,
};

/// Reads `program` (one of those above) running with `args`.
pub(super) fn as_another(
    r: &mut Reader,
    program: &str,
    row: &Program,
    args: &[Field],
    stdin: Data,
    env: &[(String, Value)],
) -> Data {
    let t = texts(args);
    match program {
        // `setarch ARCH -R CMD`: options before and after the architecture.
        "setarch" => {
            let (_, at) = options::leading(&t, &row.options);
            let after = (at + 1).min(t.len());
            let (_, k) = options::leading(&t[after..], &SETARCH_FLAGS);
            r.run(args[after + k..].to_vec(), &Io::default(), stdin, env)
        }
        "sudo" | "doas" => {
            let (opts, at) = options::leading(&t, &row.options);
            let shell = opts.iter().any(|o| {
                matches!(o, Opt::Short('s' | 'i', None))
                    || matches!(o, Opt::Long(l, _) if l == "shell" || l == "login")
            });
            let rest = &args[at.min(args.len())..];
            if shell && !rest.is_empty() {
                script_of(r, rest);
                return Data::Unknown;
            }
            r.run(rest.to_vec(), &Io::default(), stdin, env)
        }
        "su" | "runuser" => {
            let (opts, at) = options::leading(&t, &row.options);
            for o in &opts {
                if let Some(code) = option_value(o, 'c', "command")
                    .or_else(|| option_value(o, 'c', "session-command"))
                {
                    r.script(&code, Data::Nothing);
                }
            }
            // `runuser -u user -- cmd`: a command; `su user`: a login shell on stdin.
            if program == "runuser"
                && opts.iter().any(|o| {
                    matches!(o, Opt::Short('u', _)) || matches!(o, Opt::Long(l, _) if l == "user")
                })
            {
                return r.run(
                    args[at.min(args.len())..].to_vec(),
                    &Io::default(),
                    stdin,
                    env,
                );
            }
            let rest = &t[at.min(t.len())..];
            // `su - root -c cmd`: options may follow the user.
            let (late, _) = options::leading(rest.get(1..).unwrap_or_default(), &row.options);
            for o in &late {
                if let Some(code) = option_value(o, 'c', "command") {
                    r.script(&code, Data::Nothing);
                }
            }
            stdin_shell(r, stdin);
            Data::Unknown
        }
        "sg" => {
            // `sg group -c cmd` or `sg group cmd`
            if let Some(k) = t.iter().position(|a| a == "-c") {
                script_of(r, args.get(k + 1..k + 2).unwrap_or_default());
            } else {
                script_of(r, args.get(1..).unwrap_or_default());
            }
            Data::Unknown
        }
        _ => Data::Unknown,
    }
}
