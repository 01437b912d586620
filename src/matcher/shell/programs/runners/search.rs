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
        r.opaque(crate::matcher::shell::streams::XARGS_BOMB);
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

/// What `ls` prints, one name a line, for `xargs` to take: the paths it is given (a file,
/// or a directory with `-d`; a directory's entries come out as bare names, which the
/// reader does not follow), and, when a name may hold a newline, any other path. A long
/// or decorated listing (`-l`, `-F`, `-R`, ...) is text not known.
pub(in crate::matcher::shell::programs) fn ls(r: &Reader, args: &[Field]) -> Data {
    let (options, operands): (Vec<&Field>, Vec<&Field>) = args
        .iter()
        .partition(|a| a.text.starts_with('-') && a.text.len() > 1);
    let decorated = options.iter().any(|o| {
        o.text.starts_with("--") || o.text[1..].chars().any(|c| !"1aAdrtSUvXch".contains(c))
    });
    if decorated || operands.iter().any(|a| a.unknown) {
        return Data::Unknown;
    }
    let bare = Field {
        glob: true,
        ..Field::literal("*")
    };
    // A directory's entries come out as bare names (`ls dir` prints `a`, not `dir/a`).
    let listed_itself = options.iter().any(|o| o.text.contains('d'));
    let mut paths: Vec<Field> = operands.iter().map(|o| (*o).clone()).collect();
    if paths.is_empty() || !listed_itself && operands.iter().any(|o| !o.glob) {
        paths.push(bare);
    }
    let names: Vec<&str> = match operands.as_slice() {
        [] => vec!["."],
        _ => operands.iter().map(|o| o.text.as_str()).collect(),
    };
    newline_listing(vec![paths.clone()], r.names_may_split(&names, false))
}

/// What `git ls-files` prints (its arguments after the subcommand): files of the work
/// tree below the line's directory, by each pathspec, for `xargs` to take. git's `*`
/// crosses `/` (`src/*.py` names `src/a/b.py`), so a pattern stands for its directory and
/// everything below it; a plain pathspec is a file or a directory. Anything else it may
/// print (`--stage`, `--format`, paths from the top with `--full-name`, pathspecs with
/// magic or outside the directory) is text not known.
pub(super) fn git_ls_files(r: &Reader, rest: &[String]) -> Data {
    let mut nul = false;
    let mut specs: Vec<&str> = Vec::new();
    let mut options_done = false;
    for a in rest {
        if !options_done && a.starts_with('-') {
            match a.as_str() {
                "--" => options_done = true,
                "-z" => nul = true,
                "-c"
                | "--cached"
                | "-o"
                | "--others"
                | "-m"
                | "--modified"
                | "-d"
                | "--deleted"
                | "-i"
                | "--ignored"
                | "--exclude-standard"
                | "--directory"
                | "--no-empty-directory"
                | "--recurse-submodules"
                | "--error-unmatch" => {}
                a if a.starts_with("--exclude=") || a.starts_with("--exclude-from=") => {}
                _ => return Data::Unknown,
            }
            continue;
        }
        specs.push(a);
    }
    let mut paths = Vec::new();
    for spec in &specs {
        if spec.is_empty()
            || spec.starts_with([':', '/', '~'])
            || spec.split('/').any(|c| c == "..")
        {
            return Data::Unknown;
        }
        let spec = spec.trim_end_matches('/');
        let (dir, name) = spec.rsplit_once('/').unwrap_or((".", spec));
        if !spec.contains(['*', '?', '[']) {
            paths.push(Field::literal(spec));
            paths.push(Field {
                glob: true,
                ..Field::literal(&under(spec, None))
            });
        } else {
            let name = (!dir.contains(['*', '?', '['])).then_some(name);
            let dir = if name.is_some() { dir } else { "." };
            paths.push(Field {
                glob: true,
                ..Field::literal(&under(dir, name))
            });
        }
    }
    if specs.is_empty() {
        paths.push(Field {
            glob: true,
            ..Field::literal(&under(".", None))
        });
    }
    let may_split = r.names_may_split(&["."], true);
    if nul {
        return Data::Listing(vec![paths], may_split);
    }
    newline_listing(vec![paths], may_split)
}

/// What `git grep -l` (`-L`, `--name-only`) and `git diff --name-only` print: paths of
/// the work tree below the line's directory, as [`git_ls_files`] lists those of the same
/// pathspecs (the files a pathspec names are a subset of what `git ls-files` of it
/// prints). Only options that change neither what is printed nor what runs are taken; a
/// revision to `git grep` (its paths then come out as `REV:path`), a pager, an external
/// diff or anything else is `None`, left to the rest of git's reading.
pub(super) fn git_names(r: &Reader, sub: &str, rest: &[String]) -> Option<Data> {
    let (specs, nul) = match sub {
        "grep" => git_grep_names(rest)?,
        "diff" => git_diff_names(rest)?,
        _ => return None,
    };
    let mut args: Vec<String> = Vec::new();
    if nul {
        args.push("-z".to_owned());
    }
    args.push("--".to_owned());
    args.extend(specs.iter().cloned());
    Some(git_ls_files(r, &args))
}

/// The pathspecs of a `git grep` that prints file names, and whether it ends them with
/// NUL.
fn git_grep_names(rest: &[String]) -> Option<(Vec<String>, bool)> {
    const FLAGS: &[&str] = &[
        "-i",
        "--ignore-case",
        "-w",
        "--word-regexp",
        "-v",
        "--invert-match",
        "-E",
        "--extended-regexp",
        "-F",
        "--fixed-strings",
        "-G",
        "--basic-regexp",
        "-P",
        "--perl-regexp",
        "-I",
        "--cached",
        "--untracked",
        "-a",
        "--text",
        "-r",
        "--recursive",
        "--no-recursive",
        "--and",
        "--or",
        "--not",
        "--all-match",
        "-q",
        "--quiet",
        "--no-color",
        "--color=never",
    ];
    const NAMES: &[&str] = &[
        "-l",
        "-L",
        "--name-only",
        "--files-with-matches",
        "--files-without-match",
    ];
    let (mut names, mut nul, mut pattern_given) = (false, false, false);
    let mut operands = Vec::new();
    let mut k = 0;
    while let Some(a) = rest.get(k) {
        k += 1;
        match a.as_str() {
            "--" => break,
            "-z" | "--null" => nul = true,
            "-e" => {
                pattern_given = true;
                k += 1;
            }
            a if NAMES.contains(&a) => names = true,
            a if FLAGS.contains(&a) || a.starts_with("--max-depth=") => {}
            a if a.starts_with('-') => return None,
            _ => operands.push(a.clone()),
        }
    }
    // The pattern, unless `-e` gave it; any other word before `--` may be a revision.
    if !pattern_given && !operands.is_empty() {
        operands.remove(0);
    }
    if !names || !operands.is_empty() {
        return None;
    }
    Some((rest.get(k..).unwrap_or_default().to_vec(), nul))
}

/// The pathspecs of a `git diff --name-only`, and whether it ends the names with NUL. Its
/// words before `--` are revisions (`origin/main...HEAD`): a path among them only narrows
/// what is printed, which the listing of every file covers.
fn git_diff_names(rest: &[String]) -> Option<(Vec<String>, bool)> {
    const FLAGS: &[&str] = &[
        "--cached",
        "--staged",
        "--merge-base",
        "--no-renames",
        "--relative",
        "-R",
        "--no-ext-diff",
        "--no-textconv",
        "--no-color",
        "--color=never",
        "--find-renames",
        "-M",
        "--ignore-submodules",
    ];
    let revision = |a: &str| {
        a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./~^@{}-".contains(c))
    };
    let (mut names, mut nul) = (false, false);
    let mut k = 0;
    while let Some(a) = rest.get(k) {
        k += 1;
        match a.as_str() {
            "--" => return names.then(|| (rest[k..].to_vec(), nul)),
            "--name-only" => names = true,
            "-z" => nul = true,
            a if FLAGS.contains(&a) || a.starts_with("--diff-filter=") => {}
            a if a.starts_with('-') => return None,
            a if revision(a) => {}
            _ => return None,
        }
    }
    names.then(|| (Vec::new(), nul))
}

/// A listing printed one path a line: when a name may hold a newline, the paths may also
/// be any other path (a last list, not known).
fn newline_listing(mut lists: Vec<Vec<Field>>, may_split: bool) -> Data {
    if may_split {
        lists.push(vec![Field::unknown()]);
    }
    Data::Listing(lists, may_split)
}

/// `grep -l` (`--files-with-matches`, `-L`): the files it prints, one a line; with `-r`
/// (`-R`, `--recursive`) any file below each directory named, as `find` would find it.
pub(in crate::matcher::shell::programs) fn grep(r: &Reader, args: &[Field]) -> Data {
    let flags: Vec<&str> = args
        .iter()
        .map(|a| a.text.as_str())
        .take_while(|a| *a != "--")
        .filter(|a| a.starts_with('-') && a.len() > 1)
        .collect();
    let short = |c: char| {
        flags
            .iter()
            .any(|f| !f.starts_with("--") && f[1..].contains(c))
    };
    let long = |l: &str| flags.iter().any(|f| f.strip_prefix("--") == Some(l));
    let names_files =
        short('l') || short('L') || long("files-with-matches") || long("files-without-match");
    let recursive = short('r') || short('R') || long("recursive") || long("dereference-recursive");
    if !names_files {
        return Data::Unknown;
    }
    // A pattern given by `-e`/`-f` leaves every operand a file; else the first is the
    // pattern. An option's value taken for an operand only lists one more path.
    let given = short('e')
        || short('f')
        || flags
            .iter()
            .any(|f| f.starts_with("--regexp") || f.starts_with("--file"));
    let operands: Vec<&Field> = args
        .iter()
        .filter(|a| !(a.text.starts_with('-') && a.text.len() > 1))
        .skip(usize::from(!given))
        .collect();
    if operands.iter().any(|a| a.unknown) {
        return Data::Unknown;
    }
    let starts: Vec<&str> = match operands.as_slice() {
        [] if recursive => vec!["."],
        [] => return Data::Unknown,
        _ => operands.iter().map(|a| a.text.as_str()).collect(),
    };
    // `--include=GLOB` narrows the files searched below a directory by name, as `find`'s
    // `-name`; an `--include` whose value is the next word is not followed.
    let mut names: Vec<Option<&str>> = args
        .iter()
        .filter_map(|a| a.text.strip_prefix("--include="))
        .filter(|p| !p.contains('/'))
        .map(Some)
        .collect();
    if names.is_empty() || args.iter().any(|a| a.text == "--include" || a.unknown) {
        names = vec![None];
    }
    files_below(r, &starts, &names, recursive)
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

/// ripgrep's options that take a value in the next word.
const RG_VALUES: &[&str] = &[
    "-e",
    "--regexp",
    "-f",
    "--file",
    "-g",
    "--glob",
    "--iglob",
    "-t",
    "--type",
    "-T",
    "--type-not",
    "-A",
    "-B",
    "-C",
    "--after-context",
    "--before-context",
    "--context",
    "-m",
    "--max-count",
    "-j",
    "--threads",
    "-M",
    "--max-columns",
    "-d",
    "--max-depth",
    "--max-filesize",
    "--type-add",
    "--type-clear",
    "-E",
    "--encoding",
    "--ignore-file",
    "--pre",
    "--pre-glob",
    "-r",
    "--replace",
    "--sort",
    "--sortr",
    "--path-separator",
    "--color",
    "--colors",
    "--context-separator",
    "--field-match-separator",
    "--field-context-separator",
    "--engine",
    "--dfa-size-limit",
    "--regex-size-limit",
];

/// The file names of ripgrep's common `-t` types; another type is taken as any name.
fn rg_type(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "py" => &["*.py", "*.pyi"],
        "js" => &["*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"],
        "ts" => &["*.ts", "*.tsx", "*.mts", "*.cts"],
        "rust" => &["*.rs"],
        "go" => &["*.go"],
        "java" => &["*.java", "*.jsp", "*.jspx", "*.properties"],
        "ruby" => &[
            "*.rb",
            "*.gemspec",
            "*.rbw",
            "Gemfile",
            ".irbrc",
            "Rakefile",
        ],
        "c" => &["*.c", "*.h", "*.H", "*.cats"],
        "cpp" => &[
            "*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.hxx", "*.h", "*.C", "*.H",
        ],
        "md" | "markdown" => &["*.md", "*.markdown", "*.mdx", "*.mkd", "*.mkdn", "*.mdown"],
        "css" => &["*.css", "*.scss"],
        "html" => &["*.html", "*.htm", "*.xhtml", "*.ejs"],
        _ => return None,
    })
}

/// `rg -l` (`--files-with-matches`, `--files-without-match`, `--files`): the files it
/// prints, one a line: any file below each path named (ripgrep always recurses), narrowed
/// by `-t TYPE` for the types [`rg_type`] knows and by `-g GLOB` without a `/` or `!`
/// (not when the line defines types, matches globs in any case or names a configuration
/// file). ripgrep leaves out hidden and git-ignored files, which this keeps: a wider
/// listing.
pub(in crate::matcher::shell::programs) fn rg(
    r: &Reader,
    args: &[Field],
    configured: bool,
) -> Data {
    let mut operands: Vec<&Field> = Vec::new();
    let mut names: Vec<Option<&str>> = Vec::new();
    let mut any_name = false;
    let (mut lists, mut given, mut files) = (false, false, false);
    let mut k = 0;
    while let Some(a) = args.get(k) {
        k += 1;
        if a.unknown {
            return Data::Unknown;
        }
        let text = a.text.as_str();
        if text == "--" {
            operands.extend(&args[k..]);
            break;
        }
        if !text.starts_with('-') || text == "-" {
            operands.push(a);
            continue;
        }
        let (option, inline) = match text.split_once('=') {
            Some((o, v)) if o.starts_with("--") => (o, Some(v)),
            _ => (text, None),
        };
        let value = match inline {
            Some(v) => Some(v),
            None if RG_VALUES.contains(&option) => {
                k += 1;
                args.get(k - 1).map(|v| v.text.as_str())
            }
            None => None,
        };
        match option {
            "-l" | "--files-with-matches" | "--files-without-match" => lists = true,
            "--files" => (lists, files) = (true, true),
            "-e" | "--regexp" | "-f" | "--file" => given = true,
            "-t" | "--type" => match value.and_then(rg_type) {
                Some(globs) => names.extend(globs.iter().map(|g| Some(*g))),
                None => any_name = true,
            },
            "-g" | "--glob" => match value {
                Some(g) if !g.contains(['/', '!']) => names.push(Some(g)),
                _ => any_name = true,
            },
            // Globs matched in any case, types defined or cleared on the line: the names
            // are not the patterns as written.
            "--iglob" | "--glob-case-insensitive" | "--type-add" | "--type-clear" => {
                any_name = true
            }
            // Short flags run together with `l` (`-il`, `-lw`).
            _ if !option.starts_with("--") && option[1..].contains('l') => lists = true,
            _ => {}
        }
    }
    if !lists {
        return Data::Unknown;
    }
    let paths = &operands[usize::from(!given && !files).min(operands.len())..];
    let starts: Vec<&str> = match paths {
        [] => vec!["."],
        _ => paths.iter().map(|a| a.text.as_str()).collect(),
    };
    // A configuration file named on the line may add globs and types of its own.
    if names.is_empty() || any_name || configured || r.env.assigned("RIPGREP_CONFIG_PATH") {
        names = vec![None];
    }
    files_below(r, &starts, &names, true)
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
fn under(start: &str, name: Option<&str>) -> String {
    format!("{}/**/{}", start.trim_end_matches('/'), name.unwrap_or("*"))
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
        super::super::super::pattern::is_match(base, p).unwrap_or(true)
    })
}
