//! URLs as an HTTP client sends them. curl and wget remove the `.` and `..` segments of a
//! URL's path before sending it (`/v1/x/../approvals` reaches the server as `/v1/approvals`),
//! and curl expands `{a,b}` and `[a-z]` globs into a request per URL. A filter on the path
//! (`/v1/approvals`) sees each URL as the server receives it: the reader records the command
//! a second time with its URLs so.

/// Most URLs the globs of one command expand to; past it the command is not read.
pub(crate) const MAX_EXPANSIONS: usize = 64;

/// The URLs of `args` as `program` sends them, when that differs from how they are written;
/// `Err` when curl's globs expand to more than [`MAX_EXPANSIONS`] URLs.
pub(crate) fn as_sent(program: &str, args: &[String]) -> Result<Option<Vec<String>>, TooMany> {
    if !super::http::is_client(program) && program != "aria2c" {
        return Ok(None);
    }
    let globs = program == "curl" && !args.iter().any(|a| a == "-g" || a == "--globoff");
    let mut changed = false;
    let mut out = Vec::with_capacity(args.len());
    let mut expanded = 0;
    for arg in args {
        let Some(path_at) = path_start(arg) else {
            out.push(arg.clone());
            continue;
        };
        // Globs are in the path: brackets in the host are an IPv6 address (`[::1]`).
        let urls = match globs {
            true => match expand(&arg[path_at..], MAX_EXPANSIONS + 1 - expanded) {
                Expanded::Urls(paths) => paths
                    .into_iter()
                    .map(|p| format!("{}{p}", &arg[..path_at]))
                    .collect(),
                Expanded::TooMany => return Err(TooMany),
                // curl refuses a glob it cannot read, and sends nothing.
                Expanded::Rejected => vec![arg.clone()],
            },
            false => vec![arg.clone()],
        };
        expanded += urls.len();
        if expanded > MAX_EXPANSIONS {
            return Err(TooMany);
        }
        for url in urls {
            // Globs expand only the path: every URL keeps the prefix `arg` has.
            let path = unreserved_decoded(&url[path_at..]);
            let sent = format!("{}{}", &url[..path_at], without_dots(&path));
            changed |= sent != *arg;
            out.push(sent);
        }
    }
    Ok(changed.then_some(out))
}

/// The globs of one command expand to too many URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooMany;

/// Where the path of `arg` starts, if `arg` is a URL: after `scheme://host[:port]`, or after
/// a bare `host[:port]` that a path follows (`127.0.0.1:18790/v1/x`).
fn path_start(arg: &str) -> Option<usize> {
    if arg.starts_with('-') {
        return None;
    }
    let (authority_at, rest) = match arg.find("://") {
        Some(k) => (k + 3, &arg[k + 3..]),
        None => (0, arg),
    };
    let slash = rest.find('/')?;
    let host = &rest[..slash];
    let host_like = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-:[]_@{},".contains(c));
    (authority_at > 0 || host_like && host.contains(['.', ':'])).then_some(authority_at + slash)
}

/// `path` with each percent-encoded unreserved character (`%61` for `a`, `%2E` for `.`)
/// written as itself: the same URL to a server (RFC 3986 §6.2.2.2), so `/v1/%61pprovals`
/// is `/v1/approvals` to a filter too.
fn unreserved_decoded(path: &str) -> String {
    percent_decoded(path, |c| c.is_ascii_alphanumeric() || b"-._~".contains(&c))
}

/// The path a `file://` URL names, as curl reads the file: after an optional host
/// (`file://localhost/etc/x`), every `%XX` decoded. `None` for other URLs.
pub(crate) fn file_url_path(arg: &str) -> Option<String> {
    let scheme = arg.get(..7).filter(|s| s.eq_ignore_ascii_case("file://"))?;
    let rest = &arg[scheme.len()..];
    // `file://~/x`, as the code readers write a home path's address (`Path.home().as_uri()`
    // is `file:///root/...`), is read as `~/x`; curl itself refuses the host `~`.
    let path = match rest.strip_prefix('~') {
        Some(_) => rest,
        None => &rest[rest.find('/')?..],
    };
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    Some(percent_decoded(path, |_| true))
}

/// `path` with each `%XX` whose byte `keep` accepts written as that byte.
fn percent_decoded(path: &str, keep: impl Fn(u8) -> bool) -> String {
    let b = path.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut k = 0;
    while k < b.len() {
        let decoded = (b[k] == b'%')
            .then(|| b.get(k + 1..k + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok())
            .filter(|c| keep(*c));
        match decoded {
            Some(c) => {
                out.push(c);
                k += 3;
            }
            None => {
                out.push(b[k]);
                k += 1;
            }
        }
    }
    // A byte decoded that is not text leaves the path as written.
    String::from_utf8(out).unwrap_or_else(|_| path.to_owned())
}

/// `path` (from its leading `/`, with any query) with `.` and `..` segments removed, as
/// RFC 3986 §5.2.4 and curl do.
fn without_dots(path: &str) -> String {
    let end = path.find(['?', '#']).unwrap_or(path.len());
    let (path, tail) = path.split_at(end);
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    let mut out: Vec<&str> = Vec::new();
    for (k, segment) in segments.iter().enumerate() {
        let last = k + 1 == segments.len();
        match *segment {
            "." | "%2e" | "%2E" => {}
            ".." | "%2e%2e" | "%2E%2E" | ".%2e" | ".%2E" | "%2e." | "%2E." => {
                out.pop();
            }
            other => {
                out.push(other);
                continue;
            }
        }
        // `a/.` and `a/..` keep the directory's trailing slash.
        if last {
            out.push("");
        }
    }
    if path.is_empty() {
        return tail.to_owned();
    }
    format!("/{}{tail}", out.join("/"))
}

/// What curl's globbing makes of a URL's path.
enum Expanded {
    Urls(Vec<String>),
    TooMany,
    Rejected,
}

/// curl's globbing of `url`: each `{a,b}` set and `[a-z]`/`[1-9]` range (with an optional
/// `:step`) multiplies the URLs, up to `limit` of them.
fn expand(url: &str, limit: usize) -> Expanded {
    let mut urls = vec![String::new()];
    let mut rest = url;
    while let Some(open) = rest.find(['{', '[']) {
        let (literal, glob) = rest.split_at(open);
        for u in &mut urls {
            u.push_str(literal);
        }
        let close = if glob.starts_with('{') { '}' } else { ']' };
        let Some(end) = glob.find(close) else {
            return Expanded::Rejected;
        };
        let body = &glob[1..end];
        let choices: Vec<String> = match close {
            '}' => body.split(',').map(str::to_owned).collect(),
            _ => match range(body) {
                Range::Items(items) => items,
                Range::TooLong => return Expanded::TooMany,
                Range::Invalid => return Expanded::Rejected,
            },
        };
        if urls.len().saturating_mul(choices.len()) > limit {
            return Expanded::TooMany;
        }
        urls = urls
            .iter()
            .flat_map(|u| choices.iter().map(move |c| format!("{u}{c}")))
            .collect();
        rest = &glob[end + 1..];
    }
    for u in &mut urls {
        u.push_str(rest);
    }
    Expanded::Urls(urls)
}

/// A `[...]` range of curl's.
enum Range {
    Items(Vec<String>),
    /// Longer than [`MAX_EXPANSIONS`].
    TooLong,
    /// One curl rejects.
    Invalid,
}

/// The items of a `[a-z]`, `[0-9]` or `[01-10:2]` range.
fn range(body: &str) -> Range {
    let (span, step) = match body.split_once(':') {
        Some((span, step)) => match step.parse::<usize>() {
            Ok(s) if s > 0 => (span, s),
            _ => return Range::Invalid,
        },
        None => (body, 1),
    };
    let Some((from, to)) = span.split_once('-') else {
        return Range::Invalid;
    };
    if let (Ok(a), Ok(b)) = (from.parse::<u64>(), to.parse::<u64>()) {
        let width = if from.starts_with('0') { from.len() } else { 0 };
        let Some(span) = b.checked_sub(a) else {
            return Range::Invalid;
        };
        if span / step as u64 + 1 > MAX_EXPANSIONS as u64 {
            return Range::TooLong;
        }
        return Range::Items(
            (a..=b)
                .step_by(step)
                .map(|n| format!("{n:0width$}"))
                .collect(),
        );
    }
    let (mut a, mut b) = (from.chars(), to.chars());
    let (Some(a), None, Some(b), None) = (a.next(), a.next(), b.next(), b.next()) else {
        return Range::Invalid;
    };
    if !a.is_ascii_alphabetic() || !b.is_ascii_alphabetic() || a > b {
        return Range::Invalid;
    }
    Range::Items((a..=b).step_by(step).map(String::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(program: &str, line: &str) -> Vec<String> {
        let args: Vec<String> = line.split(' ').map(str::to_owned).collect();
        as_sent(program, &args)
            .expect("within the bound")
            .unwrap_or(args)
    }

    #[test]
    fn dot_segments_are_removed_as_curl_does() {
        for (written, want) in [
            (
                "http://127.0.0.1:18790/v1/x/../approvals/1",
                "http://127.0.0.1:18790/v1/approvals/1",
            ),
            ("http://h/v1/./approvals", "http://h/v1/approvals"),
            (
                "http://h/v1/a/b/../../approvals?x=/../y",
                "http://h/v1/approvals?x=/../y",
            ),
            ("http://h/a/..", "http://h/"),
            ("http://h/v1/%2e%2e/v1/approvals", "http://h/v1/approvals"),
            (
                "127.0.0.1:18790/v1/x/../approvals",
                "127.0.0.1:18790/v1/approvals",
            ),
            ("http://h", "http://h"),
            ("http://h/v1/%61pprovals/1", "http://h/v1/approvals/1"),
            // Reserved and other characters stay encoded.
            ("http://h/a%2Fb%20c%zz%4", "http://h/a%2Fb%20c%zz%4"),
        ] {
            assert_eq!(sent("wget", written), [want], "{written}");
        }
        // Not URLs: a file, an option.
        assert_eq!(sent("curl", "-o ../out.json"), ["-o", "../out.json"]);
        assert_eq!(sent("ls", "http://h/a/../b"), ["http://h/a/../b"]);
    }

    #[test]
    fn curl_globs_expand_into_a_url_each() {
        assert_eq!(
            sent("curl", "-X POST http://h/v1/{approvals}/1"),
            ["-X", "POST", "http://h/v1/approvals/1"]
        );
        assert_eq!(
            sent("curl", "http://h/v1/[a-a]pprovals"),
            ["http://h/v1/approvals"]
        );
        assert_eq!(
            sent("curl", "http://h/{a,b}/[1-2]"),
            [
                "http://h/a/1",
                "http://h/a/2",
                "http://h/b/1",
                "http://h/b/2"
            ]
        );
        assert_eq!(
            sent("curl", "http://h/f[01-10:5].txt"),
            ["http://h/f01.txt", "http://h/f06.txt"]
        );
        // `-g` turns globbing off; wget has none.
        assert_eq!(sent("curl", "-g http://h/{a}"), ["-g", "http://h/{a}"]);
        assert_eq!(sent("wget", "http://h/{a}"), ["http://h/{a}"]);
        // Past the bound, the command is not read.
        let many = vec!["http://h/[1-9]/[1-9]".to_owned()];
        assert_eq!(as_sent("curl", &many), Err(TooMany));
        let long = vec!["http://h/v1/[a-a]pprovals/[1-1000]".to_owned()];
        assert_eq!(as_sent("curl", &long), Err(TooMany));
        // An IPv6 host is not a glob; a glob curl rejects sends nothing.
        assert_eq!(
            sent("curl", "http://[::1]:8000/session"),
            ["http://[::1]:8000/session"]
        );
        assert_eq!(sent("curl", "http://h/[z-a]"), ["http://h/[z-a]"]);
    }
}
