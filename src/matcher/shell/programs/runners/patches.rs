//! Patches applied: `patch`, `git apply` and `git am` write the files their patch names,
//! which the line does not show (`git apply fix.patch` may rewrite `HOOKS.yaml`). The patch
//! is read where the line wrote it, from the host (`hostFiles: read`) or from standard
//! input, and each file it names is recorded as written: `tee PATH...`, with every way the
//! path can be stripped (`-p0`, `-p1`, ...). A patch whose text is not known writes files
//! not known (`tee $(...)`).

use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Reader};
use crate::matcher::shell::{SUBSTITUTION, SimpleCommand};

use super::file_text;

/// Most paths recorded from one patch; a patch naming more writes files not known.
const MOST_PATHS: usize = 256;

/// `patch [OPTIONS] [ORIGINAL [PATCHFILE]]`.
pub(super) fn patch(r: &mut Reader, args: &[Field], stdin: &Data) -> Data {
    // Short options that take a value, and long ones (`--input FILE` or `--input=FILE`).
    const SHORT: &str = "pidorBDFVzYg";
    const LONG: &[&str] = &[
        "strip",
        "input",
        "directory",
        "output",
        "reject-file",
        "prefix",
        "ifdef",
        "fuzz",
        "version-control",
        "suffix",
        "basename-prefix",
        "quoting-style",
        "get",
        "mode",
        "reject-format",
    ];
    let (mut input, mut output, mut directory) = (None, None, None);
    let mut dry_run = false;
    let mut operands: Vec<Field> = Vec::new();
    let mut k = 0;
    let mut options_end = false;
    while let Some(a) = args.get(k) {
        k += 1;
        let text = a.text.as_str();
        if options_end || !text.starts_with('-') || text == "-" {
            operands.push(a.clone());
            continue;
        }
        if text == "--" {
            options_end = true;
            continue;
        }
        let (name, value) = if let Some(long) = text.strip_prefix("--") {
            match long.split_once('=') {
                Some((name, v)) => (name, Some(part_of(a, v))),
                None if LONG.contains(&long) => {
                    k += 1;
                    (long, args.get(k - 1).cloned())
                }
                None => (long, None),
            }
        } else {
            // A bundle of short flags: the first that takes a value ends it.
            let Some((j, c)) = text
                .char_indices()
                .skip(1)
                .find(|(_, c)| SHORT.contains(*c))
            else {
                dry_run |= text.contains('C');
                continue;
            };
            dry_run |= text[..j].contains('C');
            let glued = &text[j + c.len_utf8()..];
            let value = if glued.is_empty() {
                k += 1;
                args.get(k - 1).cloned()
            } else {
                Some(part_of(a, glued))
            };
            let name = match c {
                'i' => "input",
                'o' => "output",
                'd' => "directory",
                _ => "",
            };
            (name, value)
        };
        match name {
            "input" => input = value,
            "output" => output = value,
            "directory" => directory = value,
            "dry-run" | "check" => dry_run = true,
            _ => {}
        }
    }
    for f in [&input, &output, &directory].into_iter().flatten() {
        if f.unknown {
            r.opaque("a file patch reads or writes is not known before it runs");
        }
    }
    let mut operands = operands.into_iter();
    let (original, patch_file) = (operands.next(), operands.next());
    let text = match input.or(patch_file) {
        Some(file) if file.text != "-" => file_text(r, &file.text, file.unknown, stdin),
        _ => Some(stdin.clone()),
    };
    let dir = directory.as_ref().map(|d| d.text.as_str());
    if dry_run {
        return Data::Unknown;
    }
    // `-o FILE` writes the result there instead; `ORIGINAL` names the one file patched.
    match output.or(original).filter(|f| f.text != "-") {
        Some(fixed) => {
            record(
                r,
                "patch",
                &joined(dir, &[fixed.text]),
                "the file patch writes",
            );
            Data::Unknown
        }
        None => apply(r, "patch", text, dir, &[]),
    }
}

/// `value`, part of the word `whole` (`--input=FILE`, `-iFILE`), as a field of its own.
fn part_of(whole: &Field, value: &str) -> Field {
    let mut field = Field::literal(value);
    field.unknown = whole.unknown;
    field
}

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
    let t: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
    let reports_only = sub == "apply"
        && !t.contains(&"--apply")
        && t.iter()
            .any(|a| matches!(*a, "--check" | "--stat" | "--numstat" | "--summary"));
    // `--cached` applies to the index alone: the files stay as they are.
    if reports_only || (sub == "apply" && t.contains(&"--cached")) {
        return Data::Unknown;
    }
    // Options that take their value in the next word.
    const WITH_VALUE: &[&str] = &[
        "-p",
        "-C",
        "--exclude",
        "--include",
        "--directory",
        "--whitespace",
    ];
    let mut directory = None;
    let mut files: Vec<&Field> = Vec::new();
    let mut k = 0;
    let mut options_end = false;
    while let Some(a) = args.get(k) {
        k += 1;
        let text = a.text.as_str();
        if options_end || !text.starts_with('-') || text == "-" {
            files.push(a);
        } else if text == "--" {
            options_end = true;
        } else if WITH_VALUE.contains(&text) {
            if text == "--directory" {
                directory = args.get(k).map(|d| d.text.clone());
            }
            k += 1;
        } else if let Some(d) = text.strip_prefix("--directory=") {
            directory = Some(d.to_owned());
        }
    }
    let program = format!("git {sub}");
    let extra: Vec<String> = directory.into_iter().collect();
    if files.is_empty() {
        let text = if here { stdin.clone() } else { Data::Unknown };
        return apply(r, &program, Some(text), None, &extra);
    }
    for file in files {
        let text = match file.text.as_str() {
            "-" => Some(stdin.clone()),
            _ if !here => Some(Data::Unknown),
            _ => file_text(r, &file.text, file.unknown, stdin),
        };
        apply(r, &program, text, None, &extra);
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
        Some(Data::Unknown) => record(
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
    r.record(SimpleCommand {
        program: "tee".to_owned(),
        args: paths.to_vec(),
        redirects: Vec::new(),
        origin: Some(format!("{what}, written by {program}")),
        dir: None,
    });
}

/// Every path a patch's headers name (unified, context and git diffs, `Index:` lines,
/// git's renames and copies), each also with its leading directories stripped one by one,
/// as `-pN` would.
fn named(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |path: &str| {
        let path = path.split('\t').next().unwrap_or_default().trim();
        if path.is_empty() || path == "/dev/null" {
            return;
        }
        let mut rest = path;
        loop {
            if !out.iter().any(|p| p == rest) {
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
    use super::named;

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
    }
}
