//! `xargs` (the items it appends) and `find` (`-exec` with what `{}` stands for, `-delete`,
//! the files `-fprint` writes).

mod find;
mod git;
mod listings;

use crate::matcher::shell::env::Value;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::texts;
use crate::matcher::shell::walk::{Data, Io, Reader, is_stdin_path};
pub(crate) use find::FIND_PATTERN_TESTS;
pub(super) use find::find;
use find::under;
pub(super) use git::{git_ls_files, git_names};
pub(in crate::matcher::shell::programs) use listings::{grep, ls, rg};

/// `xargs [options] [command [args]]`: the command runs with the items of standard input
/// (or of `-a file`) appended, or put in place of `-I`'s replacement string.
pub(super) fn xargs(
    r: &mut Reader,
    row: &Program,
    args: &[Field],
    stdin: Data,
    env: &[(String, Value)],
) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut input = stdin;
    let mut replace: Option<String> = None;
    let mut delimiter: Option<char> = None;
    for o in &opts {
        match o {
            // `-a FILE`: the line's own writing, or not known. `-a /dev/stdin` reads what
            // standard input carries, as without `-a`.
            Opt::Short('a', Some(f)) | Opt::Long(_, Some(f))
                if (matches!(o, Opt::Short('a', _))
                    || matches!(o, Opt::Long(l, _) if l == "arg-file"))
                    && !is_stdin_path(f) =>
            {
                input = r.file_data(&Field::literal(f));
                if input == Data::Nothing {
                    input = Data::Unknown;
                }
            }
            Opt::Short('I', v) | Opt::Short('i', v) => {
                replace = Some(v.clone().unwrap_or_else(|| "{}".to_owned()))
            }
            Opt::Long(l, v) if l == "replace" => {
                replace = Some(v.clone().unwrap_or_else(|| "{}".to_owned()))
            }
            Opt::Short('0', _) => delimiter = Some('\0'),
            Opt::Long(l, _) if l == "null" => delimiter = Some('\0'),
            Opt::Short('d', Some(d)) => delimiter = d.chars().next(),
            Opt::Long(l, Some(d)) if l == "delimiter" => delimiter = d.chars().next(),
            _ => {}
        }
    }
    // `-P 0` starts every process at once; with one item each (`-n 1`, `-L 1`, `-I`), input
    // not known may be a million of them (`seq 1000000 | xargs -P 0 -n 1 sleep`).
    let all_at_once = opts.iter().any(|o| {
        matches!(o, Opt::Short('P', Some(n)) if n == "0")
            || matches!(o, Opt::Long(l, Some(n)) if l == "max-procs" && n == "0")
    });
    let one_each = replace.is_some()
        || opts.iter().any(|o| {
            matches!(o, Opt::Short('n' | 'L', Some(n)) if n.parse::<u32>().is_ok_and(|n| n <= 4))
                || matches!(o, Opt::Long(l, Some(n)) if (l == "max-args" || l == "max-lines")
                    && n.parse::<u32>().is_ok_and(|n| n <= 4))
        });
    if all_at_once && one_each && input == Data::Unknown {
        r.unreadable(crate::matcher::shell::streams::XARGS_BOMB);
    }
    let mut command: Vec<Field> = args[at.min(args.len())..].to_vec();
    if command.is_empty() {
        command.push(Field::literal("echo"));
    }
    // `find DIR -print0 | xargs -0 CMD`: the command with each list the listing may be;
    // split elsewhere than at NUL bytes, a name may also be cut into any other paths.
    if let Data::Listing(lists, may_split) = &input {
        for items in lists {
            run_with_items(r, &command, items, replace.as_deref(), env);
        }
        if delimiter != Some('\0') && *may_split {
            run_with_items(r, &command, &[Field::unknown()], replace.as_deref(), env);
        }
        return Data::Unknown;
    }
    let items: Vec<Field> = match &input {
        Data::Known(text) => match delimiter {
            Some(d) => text
                .split(d)
                .filter(|s| !s.is_empty())
                .map(Field::literal)
                .collect(),
            // With `-I`, each line is one item, its leading blanks dropped.
            None if replace.is_some() => text
                .lines()
                .map(str::trim_start)
                .filter(|l| !l.is_empty())
                .map(Field::literal)
                .collect(),
            None => text
                .split_whitespace()
                .map(|s| Field::literal(s.trim_matches(['"', '\''])))
                .collect(),
        },
        Data::Unknown | Data::Listing(..) => vec![Field::unknown()],
        Data::Nothing => Vec::new(),
    };
    run_with_items(r, &command, &items, replace.as_deref(), env);
    Data::Unknown
}

/// A listing printed one path a line: when a name may hold a newline, the paths may also
/// be any other path (a last list, not known).
fn newline_listing(mut lists: Vec<Vec<Field>>, may_split: bool) -> Data {
    if may_split {
        lists.push(vec![Field::unknown()]);
    }
    Data::Listing(lists, may_split)
}

/// The paths a recursive search prints: each start, and with `recursive` every file below
/// it whose name matches one of `names` (`None`: any name).
fn files_below(r: &Reader, starts: &[&str], names: &[Option<&str>], recursive: bool) -> Data {
    let paths: Vec<Field> = starts
        .iter()
        .flat_map(|s| {
            let below = names.iter().filter(|_| recursive).map(|n| Field {
                glob: true,
                ..Field::literal(&under(s, *n))
            });
            std::iter::once(Field::literal(s))
                .chain(below)
                .collect::<Vec<_>>()
        })
        .collect();
    newline_listing(vec![paths], r.names_may_split(starts, recursive))
}

/// `cpio -o` (and `-p`): it reads the names of the files to copy from standard input, as
/// `xargs cat` would name them (`find ~/.ssh | cpio -o > s.cpio` reads the keys).
pub(super) fn cpio(r: &mut Reader, args: &[Field], stdin: Data, env: &[(String, Value)]) -> Data {
    // `curl URL | cpio -id`: what it unpacks is a download.
    let t = texts(args);
    if let Some(dir) = crate::matcher::shell::effects::cpio_extracts_into(&t)
        && r.env.fetches
        && matches!(stdin, Data::Unknown)
    {
        r.env.downloaded_dir(dir);
    }
    let copies_in = args.iter().any(|a| {
        let t = a.text.as_str();
        matches!(t, "--create" | "--pass-through")
            || (t.starts_with('-') && !t.starts_with("--") && t.contains(['o', 'p']))
    });
    if copies_in {
        let nul = args.iter().any(|a| {
            a.text == "--null"
                || (a.text.starts_with('-') && !a.text.starts_with("--") && a.text.contains('0'))
        });
        read_listing(r, stdin, nul, env);
    }
    Data::Unknown
}

/// A program reads the files named on its standard input (`cpio -o`, `tar -T -`): each is
/// read as `cat` reads it; anything but a listing names files not known here, and so does
/// a listing whose names may split unless `nul` separates them.
pub(super) fn read_listing(r: &mut Reader, stdin: Data, nul: bool, env: &[(String, Value)]) {
    let cat = [Field::literal("cat")];
    match stdin {
        Data::Listing(lists, may_split) => {
            for items in &lists {
                run_with_items(r, &cat, items, None, env);
            }
            if !nul && may_split {
                run_with_items(r, &cat, &[Field::unknown()], None, env);
            }
        }
        _ => run_with_items(r, &cat, &[Field::unknown()], None, env),
    }
}

/// Runs xargs's `command` with `items` appended, or once per item in place of `replace`
/// (`-I {}`).
fn run_with_items(
    r: &mut Reader,
    command: &[Field],
    items: &[Field],
    replace: Option<&str>,
    env: &[(String, Value)],
) {
    let Some(token) = replace else {
        let mut command = command.to_vec();
        command.extend(items.iter().cloned());
        r.run(command, &Io::default(), Data::Nothing, env);
        return;
    };
    if items.is_empty() {
        r.run(command.to_vec(), &Io::default(), Data::Nothing, env);
    }
    for item in items {
        let replaced: Vec<Field> = command
            .iter()
            .map(|c| Field {
                text: c.text.replace(token, &item.text),
                unknown: c.unknown || (item.unknown && c.text.contains(token)),
                glob: c.glob || (item.glob && c.text.contains(token)),
                ..c.clone()
            })
            .collect();
        r.run(replaced, &Io::default(), Data::Nothing, env);
    }
}
