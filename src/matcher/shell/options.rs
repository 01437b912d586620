//! Command-line options read the way the programs themselves read them: bundled short
//! options (`-rf`), options that take a value attached or in the next argument (`-n5`,
//! `-n 5`), GNU long options with `=` or a separate value, their unambiguous abbreviations
//! (`--rec` is `--recursive` to GNU `rm`), and `--` ending the options. A wrapper that must
//! find the command it runs (`timeout --signal KILL 60 rm ...`) stops at its first operand,
//! as its own `getopt("+...")` does.

/// The options of one program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Options {
    /// Short options that take a value (`"nsk"` for `-n 5`, `-s9`, `-k 1`).
    pub(super) short_with_value: &'static str,
    /// Long options without the leading `--`; a trailing `=` marks one that takes a value.
    pub(super) long: &'static [&'static str],
    /// Long options may be abbreviated to any unambiguous prefix (GNU getopt_long).
    pub(super) abbreviations: bool,
}

impl Options {
    /// No options known: every `-x` is a flag without a value.
    pub(super) const NONE: Options = Options {
        short_with_value: "",
        long: &[],
        abbreviations: false,
    };

    /// Short options that take a value, no long options.
    pub(super) const fn short(short_with_value: &'static str) -> Options {
        Options {
            short_with_value,
            long: &[],
            abbreviations: false,
        }
    }

    /// The long option `name` (without `--`) resolves to: itself, or the one option it
    /// abbreviates; `None` when it names none or several.
    pub(super) fn resolve_long(&self, name: &str) -> Option<(&'static str, bool)> {
        let entry = |spec: &'static str| {
            let takes_value = spec.ends_with('=');
            (spec.trim_end_matches('='), takes_value)
        };
        if let Some(exact) = self.long.iter().map(|s| entry(s)).find(|(n, _)| *n == name) {
            return Some(exact);
        }
        if !self.abbreviations || name.is_empty() {
            return None;
        }
        let mut found = None;
        for (full, takes_value) in self.long.iter().map(|s| entry(s)) {
            if full.starts_with(name) {
                if found.is_some() {
                    return None;
                }
                found = Some((full, takes_value));
            }
        }
        found
    }
}

/// One option as the program reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Opt {
    /// `-x`, with its value if it takes one.
    Short(char, Option<String>),
    /// `--name` (the full name, abbreviation resolved), with its value if it takes one.
    Long(String, Option<String>),
}

/// The options before the first operand of `args`, and the index of that operand (after a
/// `--`, which is consumed). A value an option needs but that is missing ends the scan at
/// the end of `args`.
pub(super) fn leading(args: &[String], spec: &Options) -> (Vec<Opt>, usize) {
    let mut opts = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "--" {
            return (opts, i + 1);
        }
        if a == "-" || !a.starts_with('-') {
            break;
        }
        i = option_at(args, i, spec, &mut opts);
    }
    (opts, i.min(args.len()))
}

/// Every option of `args` and the indices of its operands, for programs that permute them
/// (GNU getopt, git's parse-options): options may follow operands, until `--`.
pub(super) fn permuted(args: &[String], spec: &Options) -> (Vec<Opt>, Vec<usize>) {
    let (mut opts, mut operands) = (Vec::new(), Vec::new());
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "--" {
            operands.extend(i + 1..args.len());
            break;
        }
        if a == "-" || !a.starts_with('-') {
            operands.push(i);
            i += 1;
        } else {
            i = option_at(args, i, spec, &mut opts);
        }
    }
    (opts, operands)
}

/// Reads the option word `args[i]` (`--name[=value]` or a bundle `-xyz`) into `opts`, with
/// the next word when its value is there; the index of the word after it.
fn option_at(args: &[String], mut i: usize, spec: &Options, opts: &mut Vec<Opt>) -> usize {
    let a = &args[i];
    if let Some(long) = a.strip_prefix("--") {
        let (name, attached) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (long, None),
        };
        match spec.resolve_long(name) {
            Some((full, true)) => {
                let value = match attached {
                    Some(v) => Some(v),
                    None => {
                        i += 1;
                        args.get(i).cloned()
                    }
                };
                opts.push(Opt::Long(full.to_owned(), value));
            }
            Some((full, false)) => opts.push(Opt::Long(full.to_owned(), attached)),
            None => opts.push(Opt::Long(name.to_owned(), attached)),
        }
        return i + 1;
    }
    let bundle = a.strip_prefix('-').unwrap_or_default();
    for (k, c) in bundle.char_indices() {
        if spec.short_with_value.contains(c) {
            let rest = &bundle[k + c.len_utf8()..];
            let value = if rest.is_empty() {
                i += 1;
                args.get(i).cloned()
            } else {
                Some(rest.to_owned())
            };
            opts.push(Opt::Short(c, value));
            break;
        }
        opts.push(Opt::Short(c, None));
    }
    i + 1
}

/// `args` with each long option written in full (`--rec` → `--recursive`), for programs
/// that permute options and operands (GNU): what a filter on `--recursive` must see. An
/// operand after `--` that looks like an option is written `./-x`, the same file, so that
/// no filter takes `rm -- -rf` for `rm -rf`.
pub(super) fn canonical(args: &[String], spec: &Options) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut ended = false;
    for a in args {
        if ended {
            out.push(if a.starts_with('-') {
                format!("./{a}")
            } else {
                a.clone()
            });
            continue;
        }
        if a == "--" {
            ended = true;
            out.push(a.clone());
            continue;
        }
        let resolved = a.strip_prefix("--").and_then(|long| {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let (full, _) = spec.resolve_long(name)?;
            (full != name).then(|| match value {
                Some(v) => format!("--{full}={v}"),
                None => format!("--{full}"),
            })
        });
        out.push(resolved.unwrap_or_else(|| a.clone()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMEOUT: Options = Options {
        short_with_value: "sk",
        long: &[
            "signal=",
            "kill-after=",
            "foreground",
            "preserve-status",
            "verbose",
        ],
        abbreviations: true,
    };

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn permuted_options_follow_operands_until_a_double_dash() {
        let args = strings(&["a", "-s9", "b", "--sig", "HUP", "--", "--verbose", "c"]);
        let (opts, operands) = permuted(&args, &TIMEOUT);
        assert_eq!(
            opts,
            [
                Opt::Short('s', Some("9".into())),
                Opt::Long("signal".into(), Some("HUP".into()))
            ]
        );
        assert_eq!(operands, [0, 2, 6, 7]);
        // `leading` still stops at the first operand.
        assert_eq!(leading(&args, &TIMEOUT), (Vec::new(), 0));
    }

    #[test]
    fn values_attached_or_separate_and_abbreviations() {
        let args = strings(&["--sig", "KILL", "-k5", "--fore", "60", "rm", "-rf"]);
        let (opts, at) = leading(&args, &TIMEOUT);
        assert_eq!(at, 4);
        assert_eq!(
            opts,
            [
                Opt::Long("signal".into(), Some("KILL".into())),
                Opt::Short('k', Some("5".into())),
                Opt::Long("foreground".into(), None),
            ]
        );
        let (_, at) = leading(&strings(&["-s", "9", "--", "-x"]), &TIMEOUT);
        assert_eq!(at, 3, "`--` is consumed");
    }

    #[test]
    fn ambiguous_abbreviations_stay_unresolved() {
        let spec = Options {
            short_with_value: "",
            long: &["force", "foreground"],
            abbreviations: true,
        };
        assert_eq!(spec.resolve_long("fo"), None);
        assert_eq!(spec.resolve_long("forc"), Some(("force", false)));
        assert_eq!(
            canonical(&strings(&["--forc", "--", "--forc"]), &spec),
            ["--force", "--", "./--forc"]
        );
    }
}
