//! The names `ls`, `grep -l` and `rg -l`/`--files` print, for what reads them from a pipe.

use super::{files_below, newline_listing};
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Reader};

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
