//! How modules are reached: the names given to `require` and `import`, the other names of
//! one module or function (`globalThis.x`, `fs.promises`, `module.require`), and what
//! loading a module does.

use super::Js;
use crate::matcher::code::{Effect, Val};

impl Js<'_, '_, '_> {
    /// `require(name)` and `import(name)`: a file runs its code, a URL downloads code.
    pub(super) fn require(&mut self, name: Val, line: usize) {
        match name {
            Val::Known(m) if m.starts_with("http://") || m.starts_with("https://") => {
                self.cx.command("curl", vec![Val::Known(m)], line);
                self.cx.eval(Val::Fetched, line);
            }
            Val::Known(m) if m.starts_with("data:") => self.cx.eval(Val::Fetched, line),
            Val::Known(m) if m.ends_with(".json") => {
                self.cx.command("cat", vec![Val::Known(m)], line)
            }
            Val::Known(m) if m.starts_with(['.', '/', '~']) => {
                // `require('./x')` loads `./x.js` when there is no `./x`.
                let bare = !m.rsplit('/').next().unwrap_or_default().contains('.');
                let with_js = bare.then(|| format!("{m}.js"));
                for file in std::iter::once(m).chain(with_js) {
                    self.cx.found(
                        Effect::Exec(vec![Val::known("node"), Val::Known(file)]),
                        line,
                    );
                }
            }
            Val::Known(_) => {}
            _ => self.cx.unreadable(
                "the code loads a module whose name is computed at run time",
                line,
            ),
        }
    }
}

/// A module name as given to `require` or `import`, in the form the reader matches.
pub(super) fn module_name(m: &str) -> String {
    let m = m.strip_prefix("node:").unwrap_or(m);
    match m {
        "fs/promises" => "fs".into(),
        "path/posix" => "path".into(),
        "bun" => "Bun".into(),
        _ => m.to_owned(),
    }
}

/// Other names for the same thing: `globalThis.x` is `x`, `fs.promises.rm` is `fs.rm`.
pub(super) fn canonical(q: &str) -> String {
    let mut q = q.to_owned();
    for _ in 0..8 {
        let before = q.clone();
        for prefix in [
            "global.",
            "globalThis.",
            "window.",
            "self.",
            "require.main.",
        ] {
            if let Some(rest) = q.strip_prefix(prefix) {
                q = rest.to_owned();
            }
        }
        for (alias, real) in [
            ("fs.promises.", "fs."),
            ("fs.default.", "fs."),
            ("path.posix.", "path."),
            ("Bun.env", "process.env"),
            ("net.Socket().", "net."),
            ("tls.TLSSocket().", "tls."),
        ] {
            if let Some(rest) = q.strip_prefix(alias) {
                q = format!("{real}{rest}");
            }
        }
        if let Some(at) = q.find(".default") {
            let rest = q.get(at + ".default".len()..).unwrap_or_default();
            if rest.is_empty() || rest.starts_with('.') {
                q = format!("{}{rest}", q.get(..at).unwrap_or_default());
            }
        }
        if let Some(f) = q.strip_prefix("fs-extra.")
            && !f.starts_with("remove")
            && !f.starts_with("emptyDir")
        {
            q = format!("fs.{f}");
        }
        q = match q.as_str() {
            "process.mainModule.require"
            | "module.require"
            | "module._load"
            | "module.constructor._load"
            | "process.mainModule.constructor._load"
            | "process.getBuiltinModule" => "require".into(),
            _ if q.ends_with(".constructor") => "Function".into(),
            _ => q,
        };
        if q == before {
            break;
        }
    }
    q
}
