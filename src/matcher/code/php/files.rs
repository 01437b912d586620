//! Where a path or URL given to a file function leads (a file, a URL, a command through
//! `expect://`, a stream), and reading, writing, opening and including it.

use crate::matcher::code::{Effect, Val};

use super::Php;

impl Php<'_, '_, '_> {
    pub(super) fn include(&mut self, path: Val, line: usize) {
        match resource(path) {
            Res::Path(Val::Unknown) => self.cx.unreadable(
                "the code includes a file whose name is computed at run time",
                line,
            ),
            // The file is PHP that runs: read as `php FILE` reads it.
            Res::Path(p) => {
                self.cx.command("cat", vec![p.clone()], line);
                self.cx
                    .found(Effect::Load(vec![Val::known("php"), p]), line);
            }
            Res::Url(url) => {
                self.cx.command("curl", vec![url], line);
                self.cx.eval(Val::Fetched, line);
            }
            Res::Shell(cmd) => {
                self.cx.found(Effect::Shell(cmd), line);
                self.cx.eval(Val::Fetched, line);
            }
            Res::Stream => self.cx.eval(Val::Unknown, line),
        }
    }

    pub(super) fn read(&mut self, res: Res, line: usize) {
        match res {
            Res::Path(p) => self.cx.command("cat", vec![p], line),
            Res::Url(u) => self.cx.command("curl", vec![u], line),
            Res::Shell(c) => self.cx.found(Effect::Shell(c), line),
            Res::Stream => {}
        }
    }

    pub(super) fn write(&mut self, res: Res, line: usize) {
        match res {
            Res::Path(p) => self.cx.command("tee", vec![p], line),
            other => self.read(other, line),
        }
    }

    pub(super) fn open(&mut self, res: Res, mode: Val, line: usize) {
        let Res::Path(path) = res else {
            return self.read(res, line);
        };
        let mode = mode.text().unwrap_or("r+").to_owned();
        if mode.contains(['r', '+']) {
            self.cx.command("cat", vec![path.clone()], line);
        }
        if mode.contains(['w', 'a', 'x', 'c', '+']) {
            self.cx.command("tee", vec![path], line);
        }
    }
}

/// Where a path or URL given to a file function leads.
pub(super) enum Res {
    Path(Val),
    Url(Val),
    /// `expect://cmd`
    Shell(Val),
    /// Standard streams, memory, inline `data:`.
    Stream,
}

pub(super) fn resource(v: Val) -> Res {
    let Val::Known(t) = v else {
        // `"http://" . $host . ...`: a URL, to a place not known.
        if let Val::Prefix(p) = &v
            && ["http://", "https://", "ftp://", "ftps://"]
                .iter()
                .any(|s| p.to_ascii_lowercase().starts_with(s))
        {
            return Res::Url(v);
        }
        return Res::Path(v);
    };
    let lower = t.to_ascii_lowercase();
    let rest = |n: usize| Val::known(t.get(n..).unwrap_or_default());
    if lower.starts_with("php://") {
        return match lower.find("/resource=") {
            Some(at) => resource(rest(at + "/resource=".len())),
            None => Res::Stream,
        };
    }
    if lower.starts_with("data:") {
        return Res::Stream;
    }
    // A file inside an archive is the archive's to give (`phar://x.phar/autoload.php`,
    // `zip://x.zip#a.php`): the archive is what is read.
    if lower.starts_with("phar://") {
        let inner = &t["phar://".len()..];
        let end = inner
            .to_ascii_lowercase()
            .find(".phar")
            .map_or(inner.len(), |at| at + ".phar".len());
        return Res::Path(Val::known(&inner[..end]));
    }
    if lower.starts_with("zip://") {
        let inner = &t["zip://".len()..];
        return Res::Path(Val::known(inner.split('#').next().unwrap_or(inner)));
    }
    for local in [
        "file://",
        "compress.zlib://",
        "compress.bzip2://",
        "glob://",
    ] {
        if lower.starts_with(local) {
            return Res::Path(rest(local.len()));
        }
    }
    if lower.starts_with("expect://") {
        return Res::Shell(rest("expect://".len()));
    }
    if lower.contains("://") {
        Res::Url(Val::Known(t))
    } else {
        Res::Path(Val::Known(t))
    }
}
