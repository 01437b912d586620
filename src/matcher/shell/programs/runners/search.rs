//! `xargs` (the items it appends) and `find` (`-exec` with what `{}` stands for, `-delete`,
//! the files `-fprint` writes).

use crate::matcher::shell::SUBSTITUTION;
use crate::matcher::shell::SimpleCommand;
use crate::matcher::shell::env::Value;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::texts;
use crate::matcher::shell::walk::{Data, Io, Reader, is_stdin_path};

use super::record_written;

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
    let mut command: Vec<Field> = args[at.min(args.len())..].to_vec();
    if command.is_empty() {
        command.push(Field::literal("echo"));
    }
    // `find DIR -print0 | xargs -0 CMD`: the command with each list the listing may be.
    if let (Data::Listing(lists), Some('\0')) = (&input, delimiter) {
        for items in lists {
            run_with_items(r, &command, items, replace.as_deref(), env);
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
            None => text
                .split_whitespace()
                .map(|s| Field::literal(s.trim_matches(['"', '\''])))
                .collect(),
        },
        Data::Unknown | Data::Listing(_) => vec![Field {
            text: SUBSTITUTION.to_owned(),
            unknown: true,
            ..Field::default()
        }],
        Data::Nothing => Vec::new(),
    };
    run_with_items(r, &command, &items, replace.as_deref(), env);
    Data::Unknown
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

/// `find`'s tests whose value is a pattern that names are matched against (`-name '.env*'`
/// names no file).
pub(crate) const FIND_PATTERN_TESTS: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
];

/// Tests of `find` that narrow what it visits, so `-delete` removes chosen files rather
/// than whole trees: these and [`FIND_PATTERN_TESTS`].
const FIND_FILTERS: &[&str] = &[
    "-newer",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-size",
    "-empty",
    "-user",
    "-group",
    "-perm",
    "-inum",
    "-samefile",
    "-links",
];

/// The pattern of a lone, positive `-name P` test: every file found has it as its name.
fn name_test(args: &[Field]) -> Option<String> {
    let mut found = None;
    for (k, a) in args.iter().enumerate() {
        match a.text.as_str() {
            "-name" => {
                let negated = k > 0 && matches!(args[k - 1].text.as_str(), "!" | "-not");
                if negated || found.is_some() {
                    return None;
                }
                found = args
                    .get(k + 1)
                    .filter(|p| !p.unknown && !p.text.contains('/'));
            }
            "-o" | "-or" | "," => return None,
            _ => {}
        }
    }
    found.map(|p| p.text.clone())
}

/// What `{}` stands for below a starting point: any file under it, or (with `-name P`)
/// any file under it named P (`./*P`: the `*` spans directories).
fn under(start: &str, name: Option<&str>) -> String {
    format!("{}/*{}", start.trim_end_matches('/'), name.unwrap_or(""))
}

/// `find`: each `-exec`/`-execdir`/`-ok`/`-okdir` command; `-delete` is an `rm` of what is
/// inside the starting points (recursive when nothing narrows the search).
pub(super) fn find(r: &mut Reader, args: &[Field]) -> Data {
    // `find -L / -delete`: the options before the starting points (`-H`, `-L`, `-P`,
    // `-D debugopts`, `-O3`) are not the expression.
    let mut first = 0;
    while let Some(a) = args.get(first) {
        match a.text.as_str() {
            "-H" | "-L" | "-P" => first += 1,
            "-D" => first += 2,
            t if t.starts_with("-O") => first += 1,
            _ => break,
        }
    }
    let starts: Vec<Field> = args[first.min(args.len())..]
        .iter()
        .take_while(|a| !a.text.starts_with('-') && !matches!(a.text.as_str(), "(" | "!" | ","))
        .cloned()
        .collect();
    let mut k = 0;
    while k < args.len() {
        match args[k].text.as_str() {
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let end = args[k + 1..]
                    .iter()
                    .position(|a| a.text == ";" || a.text == "+")
                    .map_or(args.len(), |p| k + 1 + p);
                // `{}` is each file found: a starting point itself, or something under it
                // (`./name` for `-execdir`).
                let command = &args[k + 1..end];
                let mut names: Vec<String> = if args[k].text.ends_with("dir") || starts.is_empty() {
                    vec![".".to_owned()]
                } else {
                    texts(&starts)
                };
                names.dedup();
                let batched = args.get(end).is_some_and(|a| a.text == "+");
                let name = name_test(args);
                for start in names {
                    // A start is found itself only if it passes a lone `-name P` test:
                    // `find . -name build -exec rm -rf {} +` never passes `.` to `rm`.
                    let itself = found_itself(&start, name.as_deref());
                    if batched {
                        // `{} +`: one command with every file found, the start first.
                        let mut batch = Vec::new();
                        for c in command {
                            if c.text == "{}" {
                                if itself {
                                    batch.push(Field::literal(&start));
                                }
                                batch.push(Field {
                                    glob: true,
                                    ..Field::literal(&under(&start, name.as_deref()))
                                });
                            } else {
                                batch.push(c.clone());
                            }
                        }
                        r.run(batch, &Io::default(), Data::Nothing, &[]);
                    }
                    let found_files = [
                        itself.then(|| start.clone()),
                        Some(under(&start, name.as_deref())),
                    ];
                    for found in found_files.into_iter().flatten() {
                        let replaced = command
                            .iter()
                            .map(|c| Field {
                                text: c.text.replace("{}", &found),
                                glob: c.glob || c.text.contains("{}") && found.contains('*'),
                                ..c.clone()
                            })
                            .collect();
                        r.run(replaced, &Io::default(), Data::Nothing, &[]);
                    }
                }
                k = end;
            }
            "-delete" => {
                let narrowed = args.iter().any(|a| {
                    FIND_FILTERS.contains(&a.text.as_str())
                        || FIND_PATTERN_TESTS.contains(&a.text.as_str())
                });
                let mut rm_args: Vec<String> = if narrowed {
                    vec![]
                } else {
                    vec!["-r".to_owned()]
                };
                rm_args.push("--".to_owned());
                // What goes is inside the starting points, not the points themselves.
                let name = name_test(args);
                let starts = if starts.is_empty() {
                    vec![".".to_owned()]
                } else {
                    texts(&starts)
                };
                rm_args.extend(starts.iter().map(|s| under(s, name.as_deref())));
                r.record(SimpleCommand {
                    program: "rm".to_owned(),
                    args: rm_args,
                    redirects: Vec::new(),
                    origin: None,
                    dir: None,
                });
            }
            // Each truncates and writes the file after it.
            "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {
                if let Some(file) = args.get(k + 1) {
                    let path = match file.unknown {
                        true => SUBSTITUTION.to_owned(),
                        false => file.text.clone(),
                    };
                    record_written(r, vec![path], false, "written by find");
                }
                k += 1;
            }
            _ => {}
        }
        k += 1;
    }
    listing(args, &starts)
}

/// What `find` prints, when it is only `-print0` of one starting point the line names: the
/// paths it finds, as a [`Data::Listing`] that `xargs -0` takes item by item. NUL ends each
/// path, so no name splits into other paths; `-print` (newlines), `-printf`, `-ls` and what
/// `-exec` prints may, and are not known.
fn listing(args: &[Field], starts: &[Field]) -> Data {
    let prints_only_nul = args.iter().any(|a| a.text == "-print0")
        && !args.iter().any(|a| {
            a.unknown
                || matches!(
                    a.text.as_str(),
                    "-print" | "-printf" | "-ls" | "-exec" | "-execdir" | "-ok" | "-okdir"
                )
        });
    let start = match starts {
        [] => ".",
        [one] => one.text.as_str(),
        _ => return Data::Unknown,
    };
    if !prints_only_nul {
        return Data::Unknown;
    }
    let name = name_test(args);
    let below = Field {
        glob: true,
        ..Field::literal(&under(start, name.as_deref()))
    };
    // A start that passes the tests is printed first; `-type f` passes a file but not a
    // directory, which the reader cannot tell apart: both lists are possible.
    let mut lists = vec![vec![below.clone()]];
    if found_itself(start, name.as_deref()) {
        lists.push(vec![Field::literal(start), below]);
    }
    Data::Listing(lists)
}

/// Whether `find` finds a starting point itself: unless a lone `-name P` test leaves it
/// out (`find . -name build` never finds `.`).
fn found_itself(start: &str, name: Option<&str>) -> bool {
    name.is_none_or(|p| {
        let base = start.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        // A pattern past what is modelled: the start may be found too.
        super::super::super::pattern::is_match(base, p).unwrap_or(true)
    })
}
