//! `find`: the paths it finds, as patterns, for `-exec`'s `{}`, `-delete` and what reads
//! its output; and the files `-fprint` writes.

use super::super::record_written;
use super::newline_listing;
use crate::matcher::shell::SUBSTITUTION;
use crate::matcher::shell::SimpleCommand;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::programs::texts;
use crate::matcher::shell::walk::{Data, Io, Reader};

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

/// The patterns of the `-name` tests every file found passes one of: a lone, positive
/// `-name P`, or one group `( -name P -o -name Q ... )` (or, with no action, such a chain
/// ungrouped). `[None]` when nothing narrows the
/// names (no such test, an unknown pattern, another `-o`).
fn name_tests(args: &[Field]) -> Vec<Option<String>> {
    let unnarrowed = || vec![None];
    let pattern = |k: usize| {
        args.get(k + 1)
            .filter(|p| !p.unknown && !p.text.contains('/'))
            .map(|p| p.text.clone())
    };
    let negated = |k: usize| k > 0 && matches!(args[k - 1].text.as_str(), "!" | "-not");
    // With no action, find prints what the whole expression lets through.
    let prints_whole = !args.iter().any(|a| {
        matches!(
            a.text.as_str(),
            "-print"
                | "-print0"
                | "-printf"
                | "-fprint"
                | "-fprint0"
                | "-fprintf"
                | "-ls"
                | "-fls"
                | "-exec"
                | "-execdir"
                | "-ok"
                | "-okdir"
                | "-delete"
                | "-prune"
                | "-quit"
        )
    });
    let mut found: Option<Vec<Option<String>>> = None;
    let mut k = 0;
    while k < args.len() {
        let group = args[k].text == "(" && args.get(k + 1).is_some_and(|a| a.text == "-name");
        match args[k].text.as_str() {
            _ if group || args[k].text == "-name" => {
                if negated(k) || found.is_some() {
                    return unnarrowed();
                }
                let mut names = Vec::new();
                let mut j = if group { k + 1 } else { k };
                loop {
                    if args.get(j).is_none_or(|a| a.text != "-name") {
                        return unnarrowed();
                    }
                    let Some(name) = pattern(j) else {
                        return unnarrowed();
                    };
                    names.push(Some(name));
                    j += 2;
                    match args.get(j).map(|a| a.text.as_str()) {
                        Some("-o" | "-or") if group => j += 1,
                        // `find . -name '*.orig' -o -name '*.rej'` with no action: what
                        // is printed is the whole `-o` chain, as in a group.
                        Some("-o" | "-or")
                            if !group
                                && prints_whole
                                && args.get(j + 1).is_some_and(|a| a.text == "-name") =>
                        {
                            j += 1;
                        }
                        Some(")") if group => break,
                        _ if !group => break,
                        _ => return unnarrowed(),
                    }
                }
                found = Some(names);
                k = if group { j + 1 } else { j };
                continue;
            }
            "-o" | "-or" | "," => return unnarrowed(),
            _ => {}
        }
        k += 1;
    }
    found.unwrap_or_else(unnarrowed)
}

/// The part of `find`'s expression that action `k` is in, when it is not inside a group:
/// the tests joined to it by `-a` up to the nearest `-o` or `,` on either side. Only files
/// that pass those reach the action (`find . -path ./.venv -prune -o -name '*.pyc' -delete`
/// deletes `*.pyc` files). The whole expression otherwise.
fn conjunction_of(args: &[Field], k: usize) -> &[Field] {
    let (mut depth, mut start, mut j) = (0usize, 0, 0);
    while j < args.len() {
        match args[j].text.as_str() {
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                // A command's own words are not the expression's.
                let end = args[j + 1..]
                    .iter()
                    .position(|a| a.text == ";" || a.text == "+");
                let end = end.map_or(args.len(), |p| j + 1 + p);
                if (j..=end).contains(&k) && depth > 0 {
                    return args;
                }
                j = end;
            }
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            "-o" | "-or" | "," if depth == 0 => {
                if j > k {
                    return &args[start..j];
                }
                start = j + 1;
            }
            _ if j == k && depth > 0 => return args,
            _ => {}
        }
        j += 1;
    }
    &args[start.min(args.len())..]
}

/// What `{}` stands for below a starting point: a file at any depth under it, hidden or not
/// (`./**/*`), or (with `-name P`) one named P (`./**/P`); see [`wildcard`'s `**`].
///
/// [`wildcard`'s `**`]: crate::matcher::wildcard_matches
pub(super) fn under(start: &str, name: Option<&str>) -> String {
    format!("{}/**/{}", start.trim_end_matches('/'), name.unwrap_or("*"))
}

/// `find`: each `-exec`/`-execdir`/`-ok`/`-okdir` command; `-delete` is an `rm` of what is
/// inside the starting points (recursive when nothing narrows the search).
pub(in crate::matcher::shell::programs::runners) fn find(r: &mut Reader, args: &[Field]) -> Data {
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
                let patterns = name_tests(conjunction_of(args, k));
                for start in names {
                    // A start is found itself only if it passes the `-name` tests:
                    // `find . -name build -exec rm -rf {} +` never passes `.` to `rm`.
                    let itself = patterns.iter().any(|p| found_itself(&start, p.as_deref()));
                    let below = patterns.iter().map(|p| under(&start, p.as_deref()));
                    if batched {
                        // `{} +`: one command with every file found, the start first.
                        let mut batch = Vec::new();
                        for c in command {
                            if c.text == "{}" {
                                if itself {
                                    batch.push(Field::literal(&start));
                                }
                                batch.extend(below.clone().map(|b| Field {
                                    glob: true,
                                    ..Field::literal(&b)
                                }));
                            } else {
                                batch.push(c.clone());
                            }
                        }
                        r.run(batch, &Io::default(), Data::Nothing, &[]);
                    }
                    let found_files = itself.then(|| start.clone()).into_iter().chain(below);
                    for found in found_files {
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
                let tests = conjunction_of(args, k);
                let narrowed = tests.iter().any(|a| {
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
                let patterns = name_tests(tests);
                let starts = if starts.is_empty() {
                    vec![".".to_owned()]
                } else {
                    texts(&starts)
                };
                for start in &starts {
                    rm_args.extend(patterns.iter().map(|p| under(start, p.as_deref())));
                }
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
    listing(r, args, &starts)
}

/// What `find` prints, when it only prints the paths it finds (`-print0`, `-print` or
/// nothing) of starting points the line names: the paths, as a [`Data::Listing`] that
/// `xargs` and `cpio` take item by item. With `-print0` NUL ends each path, so no name
/// splits into other paths; with newlines a name may hold one, so what comes out may also
/// be any other path (a last list, not known). `-printf`, `-ls` and what `-exec` prints
/// are not known.
fn listing(r: &Reader, args: &[Field], starts: &[Field]) -> Data {
    let other_output = args.iter().any(|a| {
        a.unknown
            || matches!(
                a.text.as_str(),
                "-printf"
                    | "-ls"
                    | "-exec"
                    | "-execdir"
                    | "-ok"
                    | "-okdir"
                    | "-delete"
                    | "-quit"
                    | "-fprint"
                    | "-fprint0"
                    | "-fprintf"
                    | "-fls"
            )
    });
    let nul = args.iter().any(|a| a.text == "-print0");
    if other_output || (nul && args.iter().any(|a| a.text == "-print")) {
        return Data::Unknown;
    }
    let starts: Vec<&str> = match starts {
        [] => vec!["."],
        _ => starts.iter().map(|s| s.text.as_str()).collect(),
    };
    // With one printing action, only what the tests joined to it pass is printed (`-path
    // ./.git -prune -o ( -name '*.orig' -o -name '*.rej' ) -print0`): the other branches
    // print nothing.
    let prints: Vec<usize> = args
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a.text.as_str(), "-print" | "-print0"))
        .map(|(k, _)| k)
        .collect();
    let patterns = match prints.as_slice() {
        [k] => name_tests(conjunction_of(args, *k)),
        _ => name_tests(args),
    };
    let tests = match prints.as_slice() {
        [k] => conjunction_of(args, *k),
        _ => args,
    };
    let within = path_directory(tests);
    let below = |start: &str| {
        let start = match within {
            Some(dir) => format!("{}/**/{dir}", start.trim_end_matches('/')),
            None => start.to_owned(),
        };
        patterns
            .iter()
            .map(|p| Field {
                glob: true,
                ..Field::literal(&under(&start, p.as_deref()))
            })
            .collect::<Vec<_>>()
    };
    // A start that passes the tests is printed before what is below it; `-type f` passes
    // a file but not a directory, which the reader cannot tell apart: both lists are
    // possible.
    let mut without = Vec::new();
    let mut with = Vec::new();
    for &start in &starts {
        if patterns.iter().any(|p| found_itself(start, p.as_deref())) {
            with.push(Field::literal(start));
        }
        with.extend(below(start));
        without.extend(below(start));
    }
    let mut lists = vec![without.clone()];
    if with != without {
        lists.push(with);
    }
    let may_split = r.names_may_split(&starts, true);
    if nul {
        return Data::Listing(lists, may_split);
    }
    newline_listing(lists, may_split)
}

/// The directory every path found is below, when the tests hold one positive `-path
/// '*/DIR/*'` (or `-wholename`) with a plain DIR and no `-o`: find's `*` crosses `/`, so
/// what passes is any path with DIR inside it (`find . -path '*/build/test-results/*'
/// -name '*.xml'` finds `./**/build/test-results/**/*.xml`).
fn path_directory(tests: &[Field]) -> Option<&str> {
    if tests
        .iter()
        .any(|a| matches!(a.text.as_str(), "-o" | "-or" | ","))
    {
        return None;
    }
    let mut found = None;
    for (k, a) in tests.iter().enumerate() {
        if !matches!(a.text.as_str(), "-path" | "-wholename") {
            continue;
        }
        let negated = k > 0 && matches!(tests[k - 1].text.as_str(), "!" | "-not");
        let value = tests.get(k + 1).filter(|v| !v.unknown && !negated)?;
        let dir = value.text.strip_prefix("*/")?.strip_suffix("/*")?;
        let plain = !dir.is_empty()
            && !dir.starts_with('/')
            && !dir.contains(['*', '?', '[', '\\'])
            && !dir
                .split('/')
                .any(|c| c.is_empty() || c == "." || c == "..");
        if !plain || found.is_some() {
            return None;
        }
        found = Some(dir);
    }
    found
}

/// Whether `find` finds a starting point itself: unless a lone `-name P` test leaves it
/// out (`find . -name build` never finds `.`).
fn found_itself(start: &str, name: Option<&str>) -> bool {
    name.is_none_or(|p| {
        let base = start.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        // A pattern past what is modelled: the start may be found too.
        super::super::super::super::pattern::is_match(base, p).unwrap_or(true)
    })
}
