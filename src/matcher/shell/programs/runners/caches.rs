//! Package managers' cache and build cleaners, which delete a directory their environment
//! may name: `GOMODCACHE=~ go clean -modcache` and `PRE_COMMIT_HOME=~ pre-commit clean`
//! empty the home directory. Each is read as `rm -r -f DIR`, with the default directory
//! when the line does not set the variable.

use super::super::super::env::Value;
use super::super::super::expand::Field;
use super::super::super::walk::{Data, Io, Reader};
use super::super::texts;

/// The programs read here (a plain line naming one with `clean` or `purge` is not passed
/// by the reader's fast path).
pub(in crate::matcher::shell::programs) const CACHE_CLEANERS: &[&str] = &[
    "go",
    "pre-commit",
    "cargo",
    "npm",
    "pip",
    "pip3",
    "uv",
    "yarn",
];

/// One cleaner: the words that select it, the variables naming its directory (the first
/// set wins, with a part added after it), and the directory without them.
struct Cleaner {
    program: &'static str,
    words: &'static [&'static str],
    variables: &'static [(&'static str, &'static str)],
    default: &'static str,
}

const CLEANERS: &[Cleaner] = &[
    Cleaner {
        program: "go",
        words: &["clean", "-modcache"],
        variables: &[("GOMODCACHE", ""), ("GOPATH", "/pkg/mod")],
        default: "~/go/pkg/mod",
    },
    Cleaner {
        program: "pre-commit",
        words: &["clean"],
        variables: &[("PRE_COMMIT_HOME", ""), ("XDG_CACHE_HOME", "/pre-commit")],
        default: "~/.cache/pre-commit",
    },
    Cleaner {
        program: "cargo",
        words: &["clean"],
        variables: &[("CARGO_TARGET_DIR", ""), ("CARGO_BUILD_TARGET_DIR", "")],
        default: "target",
    },
    Cleaner {
        program: "npm",
        words: &["cache", "clean"],
        variables: &[
            ("npm_config_cache", "/_cacache"),
            ("NPM_CONFIG_CACHE", "/_cacache"),
        ],
        default: "~/.npm/_cacache",
    },
    Cleaner {
        program: "pip",
        words: &["cache", "purge"],
        variables: &[("PIP_CACHE_DIR", ""), ("XDG_CACHE_HOME", "/pip")],
        default: "~/.cache/pip",
    },
    Cleaner {
        program: "uv",
        words: &["cache", "clean"],
        variables: &[("UV_CACHE_DIR", ""), ("XDG_CACHE_HOME", "/uv")],
        default: "~/.cache/uv",
    },
    Cleaner {
        program: "yarn",
        words: &["cache", "clean"],
        variables: &[("YARN_CACHE_FOLDER", ""), ("XDG_CACHE_HOME", "/yarn")],
        default: "~/.cache/yarn",
    },
];

/// Reads the directory a cache or build cleaner deletes.
pub(in crate::matcher::shell::programs) fn cache_cleaners(
    r: &mut Reader,
    program: &str,
    args: &[Field],
    env: &[(String, Value)],
) {
    let program = if program == "pip3" { "pip" } else { program };
    let words = texts(args);
    let Some(cleaner) = CLEANERS
        .iter()
        .find(|c| c.program == program && c.words.iter().all(|w| words.iter().any(|a| a == w)))
    else {
        return;
    };
    // `cargo clean --target-dir DIR` names it on the command line.
    let given = words
        .iter()
        .position(|a| a == "--target-dir")
        .and_then(|k| words.get(k + 1).cloned())
        .or_else(|| {
            words
                .iter()
                .find_map(|a| a.strip_prefix("--target-dir=").map(str::to_owned))
        })
        .filter(|_| program == "cargo");
    let dir = match given {
        Some(dir) => Field::literal(&dir),
        None => directory(r, cleaner, env),
    };
    let argv = ["rm", "-r", "-f"]
        .into_iter()
        .map(Field::literal)
        .chain([dir])
        .collect();
    r.reached(format!("cleaned by {program}"), |r| {
        r.run(argv, &Io::default(), Data::Nothing, &[])
    });
}

/// The cleaner's directory: from the first of its variables the line sets (for the
/// command, or before it), else its default.
fn directory(r: &Reader, cleaner: &Cleaner, env: &[(String, Value)]) -> Field {
    for (name, part) in cleaner.variables {
        let Some(value) = super::line_variable(r, env, name) else {
            continue;
        };
        return match value {
            Value::Known(v) => {
                // GOPATH may list directories: the first holds the cache.
                let first = v.split(':').next().unwrap_or_default();
                Field::literal(&format!("{first}{part}"))
            }
            Value::Unknown => Field::unknown(),
        };
    }
    Field::literal(cleaner.default)
}
