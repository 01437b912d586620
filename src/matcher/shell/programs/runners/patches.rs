//! Patches applied: `patch`, `git apply` and `git am` write the files their patch names,
//! which the line does not show (`git apply fix.patch` may rewrite `HOOKS.yaml`). The patch
//! is read where the line wrote it, from the host (`hostFiles: read`) or from standard
//! input, and each file it names is recorded as written: `tee PATH...`, with every way the
//! path can be stripped (`-p0`, `-p1`, ...). A patch whose text is not known writes files
//! not known (`tee $(...)`).

use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt, Options};
use crate::matcher::shell::programs::texts;
use crate::matcher::shell::walk::{Data, Reader};
use crate::matcher::shell::{SUBSTITUTION, SimpleCommand};

use super::file_text;

/// Most paths recorded from one patch; a patch naming more writes files not known.
const MOST_PATHS: usize = 256;

/// GNU patch's options, as it reads them (it permutes options and operands).
const PATCH: Options = Options {
    short_with_value: "pidorBDFVzYg",
    long: &[
        "strip=",
        "input=",
        "directory=",
        "output=",
        "reject-file=",
        "prefix=",
        "ifdef=",
        "fuzz=",
        "version-control=",
        "suffix=",
        "basename-prefix=",
        "quoting-style=",
        "get=",
        "reject-format=",
        "dry-run",
        "reverse",
        "forward",
        "batch",
        "force",
        "silent",
        "quiet",
        "verbose",
        "backup",
        "binary",
        "merge",
        "posix",
        "read-only=",
        "follow-symlinks",
        "normal",
        "context",
        "unified",
        "ed",
        "remove-empty-files",
        "ignore-whitespace",
        "set-utc",
        "set-time",
        "no-backup-if-mismatch",
        "backup-if-mismatch",
    ],
    abbreviations: true,
};

/// `patch [OPTIONS] [ORIGINAL [PATCHFILE]]`.
pub(super) fn patch(r: &mut Reader, args: &[Field], stdin: &Data) -> Data {
    let (opts, operands) = options::permuted(&texts(args), &PATCH);
    let (mut input, mut output, mut directory) = (None, None, None);
    let mut dry_run = false;
    for o in opts {
        let (name, value) = match o {
            Opt::Short('i', v) => ("input".to_owned(), v),
            Opt::Short('o', v) => ("output".to_owned(), v),
            Opt::Short('d', v) => ("directory".to_owned(), v),
            // BSD patch's `-C`/`--check` is a dry run; GNU patch refuses both and patches
            // nothing.
            Opt::Short('C', v) => ("check".to_owned(), v),
            Opt::Short(_, v) => (String::new(), v),
            Opt::Long(name, v) => (name, v),
        };
        match name.as_str() {
            "input" => input = value,
            "output" => output = value,
            "directory" => directory = value,
            "dry-run" | "check" => dry_run = true,
            _ => {}
        }
    }
    if [&input, &output, &directory]
        .into_iter()
        .flatten()
        .any(|v| v.contains(SUBSTITUTION))
    {
        r.unreadable("a file patch reads or writes is not known before it runs");
    }
    let mut operands = operands.into_iter().filter_map(|k| args.get(k));
    let (original, patch_file) = (operands.next(), operands.next());
    let from = input.or_else(|| patch_file.map(|f| f.text.clone()));
    let text = match from.as_deref() {
        Some(file) if file != "-" => file_text(r, file, file.contains(SUBSTITUTION), stdin),
        _ => Some(stdin.clone()),
    };
    if dry_run {
        return Data::Unknown;
    }
    let dir = directory.as_deref();
    // `-o FILE` writes the result there instead; `ORIGINAL` names the one file patched.
    match output
        .or_else(|| original.map(|f| f.text.clone()))
        .filter(|f| f != "-")
    {
        Some(fixed) => {
            record(r, "patch", &joined(dir, &[fixed]), "the file patch writes");
            Data::Unknown
        }
        None => apply(r, "patch", text, dir, &[]),
    }
}

/// git's options for `apply` and `am` that take a value or stop the files being written
/// (git's parse-options permutes options and operands and takes abbreviations).
const GIT_APPLY: Options = Options {
    short_with_value: "pC",
    long: &[
        "exclude=",
        "include=",
        "directory=",
        "whitespace=",
        "build-fake-ancestor=",
        "patch-format=",
        "resolvemsg=",
        "quoted-cr=",
        "empty=",
        "apply",
        "check",
        "stat",
        "numstat",
        "summary",
        "cached",
        "index",
        "reverse",
        "reject",
        "verbose",
        "quiet",
        "3way",
    ],
    abbreviations: true,
};

/// `git apply ARGS` and `git am ARGS` (the arguments after the subcommand). `here`: git
/// runs in the line's directory (no `-C`, `--git-dir`, `--work-tree`); elsewhere the patch
/// files and what they name are not placed, so what they write is not known.
pub(super) fn git_apply(
    r: &mut Reader,
    sub: &str,
    args: &[Field],
    stdin: &Data,
    here: bool,
) -> Data {
    let (opts, operands) = options::permuted(&texts(args), &GIT_APPLY);
    let has = |name: &str| {
        opts.iter()
            .any(|o| matches!(o, Opt::Long(n, _) if n == name))
    };
    let reports_only = sub == "apply"
        && !has("apply")
        && ["check", "stat", "numstat", "summary"]
            .iter()
            .any(|n| has(n));
    // `--cached` applies to the index alone: the files stay as they are.
    if reports_only || (sub == "apply" && has("cached")) {
        return Data::Unknown;
    }
    let roots: Vec<String> = opts
        .into_iter()
        .filter_map(|o| match o {
            Opt::Long(n, v) if n == "directory" => v,
            _ => None,
        })
        .collect();
    let program = format!("git {sub}");
    if operands.is_empty() {
        let text = if here { stdin.clone() } else { Data::Unknown };
        return apply(r, &program, Some(text), None, &roots);
    }
    for file in operands.into_iter().filter_map(|k| args.get(k)) {
        let text = match file.text.as_str() {
            "-" => Some(stdin.clone()),
            _ if !here => Some(Data::Unknown),
            _ => file_text(r, &file.text, file.unknown, stdin),
        };
        apply(r, &program, text, None, &roots);
    }
    Data::Unknown
}

/// Records what the patch `text` writes (`None`: a file that is nowhere, so nothing).
/// `roots`: directories git prepends (`--directory`).
fn apply(
    r: &mut Reader,
    program: &str,
    text: Option<Data>,
    dir: Option<&str>,
    roots: &[String],
) -> Data {
    match text {
        None | Some(Data::Nothing) => {}
        Some(Data::Unknown | Data::Listing(..)) => record(
            r,
            program,
            &[SUBSTITUTION.to_owned()],
            "a patch whose text is not known",
        ),
        Some(Data::Known(text)) => {
            let mut paths = named(&text);
            for root in roots {
                let rooted: Vec<String> = paths.iter().map(|p| format!("{root}/{p}")).collect();
                paths.extend(rooted);
            }
            if paths.len() > MOST_PATHS {
                paths = vec![SUBSTITUTION.to_owned()];
            }
            if !paths.is_empty() {
                record(
                    r,
                    program,
                    &joined(dir, &paths),
                    "the files the patch names",
                );
            }
        }
    }
    Data::Unknown
}

fn joined(dir: Option<&str>, paths: &[String]) -> Vec<String> {
    match dir {
        Some(d) => paths
            .iter()
            .map(|p| match p.starts_with('/') {
                true => p.clone(),
                false => format!("{d}/{p}"),
            })
            .collect(),
        None => paths.to_vec(),
    }
}

fn record(r: &mut Reader, program: &str, paths: &[String], what: &str) {
    r.record(SimpleCommand::implied(
        "tee",
        paths.to_vec(),
        Some(format!("{what}, written by {program}")),
    ));
}

/// Every path a patch's headers name (unified, context and git diffs, `Index:` lines,
/// git's renames and copies), each also with its leading directories stripped one by one,
/// as `-pN` would.
fn named(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // A set, and a stop past the cap: a 64 KiB patch of deep paths stays linear.
    let mut seen = std::collections::HashSet::new();
    let mut add = |path: &str| {
        let path = path.split('\t').next().unwrap_or_default().trim();
        if path.is_empty() || path == "/dev/null" || out.len() > MOST_PATHS {
            return;
        }
        let mut rest = path;
        loop {
            if seen.insert(rest.to_owned()) {
                out.push(rest.to_owned());
            }
            match rest.split_once('/') {
                Some((_, tail)) if !tail.is_empty() => rest = tail,
                _ => break,
            }
        }
    };
    for line in text.lines() {
        if let Some(p) = line
            .strip_prefix("+++ ")
            .or_else(|| line.strip_prefix("--- "))
            .or_else(|| line.strip_prefix("Index: "))
            .or_else(|| line.strip_prefix("rename to "))
            .or_else(|| line.strip_prefix("rename from "))
            .or_else(|| line.strip_prefix("copy to "))
        {
            // A context diff's hunk ranges (`--- 1,5 ----`) name no file.
            if !(p.ends_with("----") && p.starts_with(|c: char| c.is_ascii_digit())) {
                add(p);
            }
        } else if let Some(p) = line.strip_prefix("*** ") {
            if !p.ends_with("****") {
                add(p);
            }
        } else if let Some(pair) = line.strip_prefix("diff --git ") {
            for word in pair.split(' ') {
                add(word);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{MOST_PATHS, named};

    #[test]
    fn a_patch_names_its_files_with_every_strip() {
        let unified = "diff --git a/HOOKS.yaml b/HOOKS.yaml\nindex 1..2 100644\n--- a/HOOKS.yaml\n+++ b/HOOKS.yaml\n@@ -1 +1 @@\n-x\n+y\n";
        let paths = named(unified);
        for want in ["a/HOOKS.yaml", "b/HOOKS.yaml", "HOOKS.yaml"] {
            assert!(paths.contains(&want.to_owned()), "{want}: {paths:?}");
        }
        let context = "*** src/old.c\t2020-01-01\n--- src/old.c\t2020-01-02\n***************\n*** 1,5 ****\n--- 1,5 ----\n";
        let paths = named(context);
        assert_eq!(paths, ["src/old.c", "old.c"]);
        let renamed =
            "diff --git a/x b/policies/p.yaml\nrename from x\nrename to policies/p.yaml\n";
        assert!(named(renamed).contains(&"policies/p.yaml".to_owned()));
        assert!(named("--- /dev/null\n+++ b/new.txt\n").contains(&"new.txt".to_owned()));
        assert!(!named("--- /dev/null\n").iter().any(|p| p.contains("null")));
        // Past the cap, no more paths are gathered (the caller then writes unknown files).
        let many: String = (0..5_000)
            .map(|k| format!("+++ b/{}/f{k}\n", "d/".repeat(20)))
            .collect();
        let paths = named(&many);
        assert!(
            paths.len() > MOST_PATHS && paths.len() < MOST_PATHS + 64,
            "{}",
            paths.len()
        );
    }
}
