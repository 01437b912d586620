//! Paths and patterns as the readers of every language make them: `~` and `$HOME`, the
//! temporary directory, joined parts, several paths as one pattern, a program found on
//! `PATH`, the `curl` a request is read as.

use super::Val;

/// `~` and `~/...` written for the shell reader; `$HOME` and `${HOME}` at the start too.
/// The temporary directory, as code that asks for it gets it (`os.tmpdir()`,
/// `tempfile.gettempdir()`).
pub(in crate::matcher::code) const TEMP_DIR: &str = "/tmp";

/// `text` in the Unicode form `form` names (`NFC`, `NFD`, `NFKC`, `NFKD`), as JavaScript's
/// `normalize` and Python's `unicodedata.normalize` make it: the compatibility forms turn
/// full-width letters into plain ones (`ｒｍ　－ｒｆ` is `rm -rf`). `None` for another form.
pub(in crate::matcher::code) fn normalized(text: &str, form: &str) -> Option<String> {
    use unicode_normalization::UnicodeNormalization;
    Some(match form {
        "NFC" => text.nfc().collect(),
        "NFD" => text.nfd().collect(),
        "NFKC" => text.nfkc().collect(),
        "NFKD" => text.nfkd().collect(),
        _ => return None,
    })
}

pub(in crate::matcher::code) fn home(path: &str) -> String {
    for prefix in ["$HOME", "${HOME}"] {
        if let Some(rest) = path.strip_prefix(prefix)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            return format!("~{rest}");
        }
    }
    path.to_owned()
}

/// A path that any of `patterns` may name, as one pattern: itself when there is one;
/// for several, every file below the directory they all start with
/// (`~/.netrc`, `~/.config/gh/hosts.yml` as `~/**/*`), which names at least as much; not
/// known when they start with no directory in common (the working directory's every file
/// would name far more, its `.env` among them, than `*.c` and `*.h` do).
pub(in crate::matcher::code) fn any_of(patterns: &[String]) -> Val {
    let [first, rest @ ..] = patterns else {
        return Val::Unknown;
    };
    let mut common = first.len();
    for p in rest {
        common = first
            .bytes()
            .zip(p.bytes())
            .take(common)
            .take_while(|(a, b)| a == b)
            .count();
    }
    if rest.iter().all(|p| p == first) {
        return Val::Known(first.clone());
    }
    while !first.is_char_boundary(common) {
        common -= 1;
    }
    let shared = &first[..common];
    let dir = shared
        .find(['*', '?', '['])
        .map_or(shared, |wild| &shared[..wild]);
    match dir.rfind('/') {
        Some(slash) => Val::Known(format!("{}**/*", &dir[..=slash])),
        None => Val::Unknown,
    }
}

/// Whether a name with part of it replaced by `put` is still a name, not `.`, `..` or a
/// path: `put` holds no `/` and something but dots.
pub(in crate::matcher::code) fn stays_a_name(put: &str) -> bool {
    !put.contains('/') && put.chars().any(|c| c != '.')
}

/// Paths joined as `os.path.join` and `path.join` do: a later absolute part starts over.
pub(in crate::matcher::code) fn join(parts: &[Val]) -> Val {
    let mut out = String::new();
    for part in parts {
        // A part not known may be absolute and start over, or climb with `..`: the path is
        // not known, not even where it starts.
        let Some(p) = part.text() else {
            return match part {
                Val::Fetched => Val::Fetched,
                _ => Val::Unknown,
            };
        };
        if p.starts_with('/') {
            out = p.to_owned();
        } else if out.is_empty() || out.ends_with('/') {
            out.push_str(p);
        } else {
            out.push('/');
            out.push_str(p);
        }
    }
    Val::Known(out)
}

/// What a command that looks a program up on `PATH` prints (`command -v NAME`, `which
/// NAME`, `type -P NAME`, as words): the program wherever it is installed, `/**/NAME`, so
/// a write onto it (`copyFileSync(x, execSync('command -v hookgate'))`) reaches it.
pub(in crate::matcher::code) fn program_lookup<'w>(
    words: impl IntoIterator<Item = &'w str>,
) -> Option<Val> {
    let words: Vec<&str> = words.into_iter().collect();
    let name = match words.as_slice() {
        ["command", "-v", name] | ["which", name] | ["type", "-P", name] => *name,
        _ => return None,
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+');
    (!name.is_empty() && name.chars().all(plain)).then(|| Val::Known(format!("/**/{name}")))
}

/// The arguments of the `curl` a request in code is read as: `-X METHOD` before the URL
/// when the method is known not to be GET, or not known at all (any method), so that a
/// method filter reads it as it reads curl's. `None`: the call sends a GET.
pub(in crate::matcher::code) fn curl_request(method: Option<Val>, url: Val) -> Vec<Val> {
    match method {
        None => vec![url],
        Some(Val::Known(m)) if m.eq_ignore_ascii_case("get") => vec![url],
        Some(Val::Known(m)) => vec![Val::known("-X"), Val::Known(m.to_ascii_uppercase()), url],
        Some(other) => vec![Val::known("-X"), other, url],
    }
}
