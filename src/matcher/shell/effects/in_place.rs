//! Editors in place (`sed -i`, `perl -i`, `ruby -i`, `gawk -i inplace`): the files they
//! rewrite.

use super::{PathTouch, Touch};

/// `sed -i` (`--in-place`, `-i.bak`, `-ni`): the files it edits. The script is the first
/// operand unless `-e`/`-f` give it.
pub(super) fn sed_in_place(args: &[String]) -> Vec<PathTouch<'_>> {
    let mut in_place = false;
    let mut script_given = false;
    let mut operands = Vec::new();
    let mut iter = args.iter();
    let mut after = false;
    while let Some(a) = iter.next() {
        if after || !a.starts_with('-') || a == "-" {
            operands.push(a.as_str());
        } else if a == "--" {
            after = true;
        } else if let Some(long) = a.strip_prefix("--") {
            // GNU sed takes any unambiguous prefix of a long option: `--in` is `--in-place`.
            let name = long.split('=').next().unwrap_or(long);
            let names = |full: &str| !name.is_empty() && full.starts_with(name);
            in_place |= name.len() >= 2 && names("in-place") || name == "i";
            let script = name.len() >= 2 && (names("expression") || names("file")) || name == "e";
            script_given |= script;
            if !long.contains('=') && (script || name.len() >= 2 && names("line-length")) {
                iter.next();
            }
        } else {
            // In a bundle, `i` takes the rest as its backup suffix (`-ie` is `-i` with
            // suffix `e`); `e`, `f` and `l` take the rest or the next argument.
            for (k, c) in a[1..].char_indices() {
                match c {
                    'i' => {
                        in_place = true;
                        break;
                    }
                    'e' | 'f' | 'l' => {
                        script_given |= c != 'l';
                        if a[1 + k + 1..].is_empty() {
                            iter.next();
                        }
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    edited_in_place(in_place, operands, script_given)
}

/// `perl -i`/`ruby -i` (`-pi -e CODE f`, `-i.bak`, `-0777pi`): the files it edits in place,
/// the operands after the code (the first operand is the script when no `-e` gave code).
/// In a bundle, `i` takes the rest of the word as its backup suffix (`-pie` is `-i` with
/// suffix `e`).
pub(super) fn interpreter_in_place(args: &[String]) -> Vec<PathTouch<'_>> {
    let mut in_place = false;
    let mut code_given = false;
    let mut iter = args.iter();
    let mut operands = Vec::new();
    while let Some(a) = iter.next() {
        if a == "--" {
            operands.extend(iter.by_ref().map(String::as_str));
            break;
        }
        let Some(bundle) = a
            .strip_prefix('-')
            .filter(|b| !b.is_empty() && !b.starts_with('-'))
        else {
            // Options end at the first operand.
            operands.push(a.as_str());
            operands.extend(iter.by_ref().map(String::as_str));
            break;
        };
        for (k, c) in bundle.char_indices() {
            let rest = &bundle[k + 1..];
            match c {
                'i' => {
                    in_place = true;
                    break;
                }
                'e' | 'E' | 'M' | 'm' | 'I' | 'r' => {
                    code_given |= matches!(c, 'e' | 'E');
                    if rest.is_empty() {
                        iter.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    edited_in_place(in_place, operands, code_given)
}

/// The files an editor run in place rewrites: its operands, after the first when that is
/// the script (`sed -i SCRIPT f`, `perl -i script.pl f`, `gawk -i inplace PROGRAM f`).
fn edited_in_place<'a>(
    in_place: bool,
    operands: Vec<&'a str>,
    script_given: bool,
) -> Vec<PathTouch<'a>> {
    if !in_place {
        return Vec::new();
    }
    operands
        .into_iter()
        .skip(usize::from(!script_given))
        .map(|p| PathTouch::new(Touch::Overwrite, p))
        .collect()
}

/// gawk's `inplace` extension (`-i inplace`, `--include=inplace`, `@include "inplace"`):
/// the files after the program are edited in place.
pub(super) fn gawk_in_place(args: &[String]) -> Vec<PathTouch<'_>> {
    let loads = |k: usize, a: &str| {
        a == "-iinplace"
            || a == "--include=inplace"
            || (a == "-i" || a == "--include") && args.get(k + 1).is_some_and(|n| n == "inplace")
            || a.contains("@include \"inplace\"")
    };
    if !args.iter().enumerate().any(|(k, a)| loads(k, a)) {
        return Vec::new();
    }
    let mut program_given = false;
    let mut operands = Vec::new();
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        match a.as_str() {
            "-f" | "-e" | "--file" | "--source" => {
                program_given = true;
                iter.next();
            }
            "-i" | "--include" | "-v" | "-F" => {
                iter.next();
            }
            o if o.starts_with('-') && o.len() > 1 => {}
            _ => operands.push(a.as_str()),
        }
    }
    // After the program, `var=value` operands are assignments, not files.
    let program = usize::from(!program_given);
    let operands = operands
        .into_iter()
        .enumerate()
        .filter(|(k, o)| *k < program || !o.contains('='))
        .map(|(_, o)| o)
        .collect();
    edited_in_place(true, operands, program_given)
}
