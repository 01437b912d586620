//! What a path's names alone say of it: the directories a build or an install makes again,
//! and the wildcards that name a whole tree or the workspace's `.git`. Kept apart as the
//! tables a policy author reads and extends.

/// Directory names whose contents a build or an install makes again.
pub(crate) const REGENERABLE: &[&str] = &[
    "node_modules",
    "target",
    "build",
    "dist",
    "out",
    ".venv",
    "venv",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".tox",
    ".next",
    ".nuxt",
    ".turbo",
    ".parcel-cache",
    ".cache",
    "coverage",
    // Framework caches (`var/cache`, `tmp/cache`, `storage/framework/cache`).
    "cache",
    ".gradle",
    ".dart_tool",
    "bin",
    "obj",
    "_build",
    "cmake-build-debug",
    "cmake-build-release",
    // Test and tool outputs: coverage reports, bundlers', notebooks' and linters' caches,
    // static builds, Terraform's downloaded providers and modules (`terraform init`).
    "htmlcov",
    ".coverage",
    "coverage.xml",
    ".nyc_output",
    ".hypothesis",
    ".nox",
    ".eggs",
    ".ipynb_checkpoints",
    ".vite",
    ".svelte-kit",
    ".angular",
    ".docusaurus",
    ".eslintcache",
    ".sass-cache",
    "storybook-static",
    ".terraform",
    "blib",
    // PHPUnit's, Perl's Devel::Cover's and LuaCov's caches and coverage data.
    ".phpunit.cache",
    ".phpunit.result.cache",
    "cover_db",
    "luacov.stats.out",
    "luacov.report.out",
];

/// Endings of names a build makes again: setuptools' `NAME.egg-info`, TypeScript's
/// incremental `NAME.tsbuildinfo`.
const REGENERABLE_ENDINGS: &[&str] = &[".egg-info", ".tsbuildinfo"];

/// Whether `name`, one name of a path, is one a build or an install makes again.
pub(crate) fn regenerable(name: &str) -> bool {
    REGENERABLE.contains(&name) || REGENERABLE_ENDINGS.iter().any(|e| name.ends_with(e))
}

/// The directories among [`REGENERABLE`] that only package managers and tools make, so
/// their contents are regenerable wherever they are outside the system (`~/node_modules`
/// after an `npm install` in the home directory); `build` or `bin` in the home directory may
/// be the user's own.
pub(super) const REGENERABLE_ANYWHERE: &[&str] = &[
    // XDG's cache directory (`~/.cache`): what programs keep there they can make again.
    ".cache",
    "node_modules",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    // npm's download cache and npx's installs (`~/.npm/_cacache`, `~/.npm/_npx`), pnpm's
    // store: refilled from the registry on the next install.
    "_cacache",
    "_npx",
    ".pnpm-store",
];

/// Package managers' download caches at fixed places in the home directory, filled again
/// by the next build (`go clean -modcache` empties Go's).
pub(super) const HOME_CACHES: &[&str] = &[
    "go/pkg/mod",
    ".cargo/registry",
    ".m2/repository",
    ".gradle/caches",
];

/// Kinds of files a project is written in: deleting every one of a kind is deleting the
/// project's work, where `*.pyc`, `*.o` or `*.log` are what a build or a run leaves.
const SOURCE_KINDS: &[&str] = &[
    "py", "pyi", "js", "mjs", "cjs", "jsx", "ts", "tsx", "vue", "svelte", "rs", "go", "java", "kt",
    "kts", "scala", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "rb", "php", "swift", "m",
    "mm", "sh", "bash", "zsh", "pl", "pm", "lua", "sql", "dart", "ex", "exs", "erl", "hs", "ml",
    "clj", "r", "jl", "md", "rst", "ipynb",
];

/// Whether a wildcard `path` names every file of a directory or of a tree (`dir/*`,
/// `dir/**/*`, `dir/**`), or every source file of a kind in one (`*.py`, `src/**/*.ts`,
/// `*.{rb,js}`).
pub(super) fn names_a_tree(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or(path);
    if matches!(last, "*" | "**") {
        return true;
    }
    // `*.{py,js}` names every file of each kind.
    last.strip_prefix("*.").is_some_and(|kinds| {
        let kinds = kinds
            .strip_prefix('{')
            .and_then(|k| k.strip_suffix('}'))
            .unwrap_or(kinds);
        kinds.split(',').any(|kind| SOURCE_KINDS.contains(&kind))
    })
}

/// Whether a pattern below the workspace may name its `.git` itself, or something in it:
/// its first name, after any `**` (which may stand for no directory), matches `.git` as
/// the shell matches (`.gi?`, `.[g]it`, `**/.git`; not `*`, which skips hidden names).
pub(super) fn may_name_git(rest: &str) -> bool {
    let mut parts = rest.split('/');
    let mut skipped = false;
    let first = loop {
        match parts.next() {
            Some("**") => skipped = true,
            Some(first) => break first,
            None => return false,
        }
    };
    (skipped || first.contains(['*', '?', '['])) && crate::matcher::wildcard_matches(first, ".git")
}
