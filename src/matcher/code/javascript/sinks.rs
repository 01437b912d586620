//! The names the JavaScript reader follows, as reviewed data: the globals and built-in
//! modules in scope, the methods recognised by name alone, the functions that run code,
//! and the methods that change the object they are called on. What each call does stays a
//! match on module and function names in `calls`: its arms hold guards, wildcards and code
//! of their own, which a table of names could not hold without changing what is read.

/// Methods that change the object they are called on.
pub(super) const MUTATORS: &[&str] = &[
    "push",
    "pop",
    "shift",
    "unshift",
    "splice",
    "reverse",
    "sort",
    "fill",
    "copyWithin",
    "set",
    "delete",
    "clear",
    "add",
];

/// Names the built-in scope holds that the reader follows.
pub(super) const GLOBALS: &[&str] = &[
    "require",
    "process",
    "global",
    "globalThis",
    "window",
    "self",
    "Deno",
    "Bun",
    "Buffer",
    "eval",
    "Function",
    "setTimeout",
    "setInterval",
    "setImmediate",
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "EventSource",
    "atob",
    "decodeURIComponent",
    "decodeURI",
    "unescape",
    "String",
    "module",
    "Reflect",
    "URL",
    "Worker",
    "parseInt",
    "Number",
];

/// The built-in modules `node -e` binds as globals without `require`.
pub(super) const MODULES: &[&str] = &[
    "child_process",
    "fs",
    "http",
    "https",
    "http2",
    "net",
    "tls",
    "vm",
    "os",
    "path",
    "zlib",
    "util",
    "cluster",
    "worker_threads",
];

/// Methods recognised on a receiver the reader did not follow: names no data-processing
/// code uses for something else.
pub(super) const BY_NAME: &[&str] = &[
    "execSync",
    "execFileSync",
    "spawnSync",
    "execFile",
    "spawn",
    "rmSync",
    "rmdirSync",
    "unlinkSync",
    "readFileSync",
    "writeFileSync",
    "appendFileSync",
    "renameSync",
    "copyFileSync",
    "cpSync",
    "chmodSync",
    "symlinkSync",
    "createReadStream",
    "createWriteStream",
    "runInNewContext",
    "runInThisContext",
    "runInContext",
    "_compile",
    "constructor",
    "connect",
    "eval",
];

/// Functions that run their argument as code or as a command.
/// Functions that delete or overwrite what their first argument names, or start a
/// program: passed as a value (`bus.on('purge', fs.rmSync)`), they act on whatever they
/// are called with.
pub(super) fn changes_files(q: &str) -> bool {
    let f = q
        .strip_prefix("fs.promises.")
        .or_else(|| q.strip_prefix("fs."))
        .unwrap_or("");
    matches!(
        f,
        "rm" | "rmSync"
            | "rmdir"
            | "rmdirSync"
            | "unlink"
            | "unlinkSync"
            | "writeFile"
            | "writeFileSync"
            | "truncate"
            | "truncateSync"
            | "rename"
            | "renameSync"
    ) || matches!(
        q,
        "child_process.spawn"
            | "child_process.spawnSync"
            | "child_process.execFile"
            | "child_process.execFileSync"
            | "child_process.fork"
            | "process.kill"
    )
}

pub(super) fn runs_code(q: &str) -> bool {
    matches!(
        q,
        "eval" | "Function" | "child_process.exec" | "child_process.execSync" | "Bun.$"
    ) || q.starts_with("vm.runIn")
}
