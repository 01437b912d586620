//! HTTP requests on a command line, as reviewed data: for each HTTP client (curl, wget,
//! HTTPie's `http`/`https`, `xh`/`xhs`, `gh api`, `glab api`), the method it sends and
//! whether a URL it names is off the local machine. `match.command.httpMethods` reads a
//! command through this (`docs/hooks-reference.md#http-methods`).
//!
//! A method the reader cannot know (`curl -X "$M" ...`), or options that take the request
//! elsewhere than the URL says or read it from a file (`--resolve`, `--connect-to`,
//! `--proxy`, `-K`, wget's `-e`/`-i`), count as any method or a remote host: the filter then
//! matches, as unknowns do elsewhere in the reader.

use std::net::{Ipv4Addr, Ipv6Addr};

use super::super::SUBSTITUTION;
use super::super::options::{self, Opt, Options};

/// One command's HTTP request, as far as the reader knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    /// The method, upper case (`DELETE`); `None` when it is not known before the line runs.
    pub method: Option<String>,
    /// Whether a URL is on another machine than the local one, or cannot be placed.
    pub remote: bool,
}

impl Request {
    /// Whether the request goes off the machine with one of `methods` (upper case); an
    /// unknown method is any.
    pub(crate) fn sends(&self, methods: &[String]) -> bool {
        self.remote
            && self
                .method
                .as_ref()
                .is_none_or(|m| methods.iter().any(|w| w == m))
    }
}

/// Whether `program` is an HTTP client this module reads.
pub(crate) fn is_client(program: &str) -> bool {
    matches!(
        program,
        "curl" | "wget" | "http" | "https" | "xh" | "xhs" | "gh" | "glab"
    )
}

/// The request `program` sends with `args`, or `None` when it sends none this module reads.
pub(crate) fn request(program: &str, args: &[String]) -> Option<Request> {
    match program {
        "curl" => Some(curl(args)),
        "wget" => Some(wget(args)),
        "http" | "https" | "xh" | "xhs" => Some(httpie(args)),
        "gh" | "glab" => api(args),
        _ => None,
    }
}

/// curl's options that take a value (curl 8; `--help all`).
const CURL: Options = Options {
    short_with_value: "AbcCdDEeFHKmoPQrTtuUwxXYyz",
    long: &[
        "request=",
        "url=",
        "data=",
        "data-raw=",
        "data-binary=",
        "data-ascii=",
        "data-urlencode=",
        "json=",
        "form=",
        "form-string=",
        "header=",
        "proxy-header=",
        "output=",
        "output-dir=",
        "user=",
        "user-agent=",
        "referer=",
        "cookie=",
        "cookie-jar=",
        "cacert=",
        "capath=",
        "cert=",
        "key=",
        "cert-type=",
        "key-type=",
        "pass=",
        "proxy=",
        "preproxy=",
        "proxy-user=",
        "noproxy=",
        "socks4=",
        "socks4a=",
        "socks5=",
        "socks5-hostname=",
        "resolve=",
        "connect-to=",
        "write-out=",
        "upload-file=",
        "range=",
        "limit-rate=",
        "max-redirs=",
        "interface=",
        "dns-servers=",
        "oauth2-bearer=",
        "aws-sigv4=",
        "config=",
        "unix-socket=",
        "abstract-unix-socket=",
        "retry=",
        "retry-delay=",
        "retry-max-time=",
        "connect-timeout=",
        "max-time=",
        "max-filesize=",
        "keepalive-time=",
        "expect100-timeout=",
        "local-port=",
        "variable=",
        "trace=",
        "trace-ascii=",
        "stderr=",
        "dump-header=",
        "etag-save=",
        "etag-compare=",
        "hsts=",
        "alt-svc=",
        "netrc-file=",
        "proto=",
        "proto-redir=",
        "proto-default=",
        "speed-limit=",
        "speed-time=",
        "time-cond=",
        "continue-at=",
        "quote=",
        "ftp-port=",
        "tls-max=",
        "ciphers=",
        "pinnedpubkey=",
        "crlfile=",
        "url-query=",
        "head",
        "get",
        "location",
        "silent",
        "show-error",
        "fail",
        "include",
        "verbose",
        "insecure",
        "compressed",
        "globoff",
        "http1.1",
        "http2",
        "ipv4",
        "ipv6",
    ],
    abbreviations: false,
};

/// Options that send the request somewhere else than its URL's host.
const CURL_REROUTE: &[&str] = &[
    "proxy",
    "preproxy",
    "socks4",
    "socks4a",
    "socks5",
    "socks5-hostname",
    "resolve",
    "connect-to",
];

fn curl(args: &[String]) -> Request {
    let (opts, operands) = read(args, &CURL);
    let mut method = None;
    let mut implied = "GET";
    let mut remote = false;
    let mut urls: Vec<&str> = operands.iter().map(String::as_str).collect();
    // `-K FILE` reads options, the method among them, from a file.
    let mut config = false;
    for o in &opts {
        match o {
            Opt::Short('X', v) => method = Some(v.clone()),
            Opt::Long(l, v) if l == "request" => method = Some(v.clone()),
            Opt::Short('T', _) => implied = "PUT",
            Opt::Long(l, _) if l == "upload-file" => implied = "PUT",
            Opt::Short('d' | 'F', _) if implied == "GET" => implied = "POST",
            Opt::Long(l, _)
                if implied == "GET"
                    && (l.starts_with("data") || l.starts_with("form") || l == "json") =>
            {
                implied = "POST"
            }
            Opt::Short('x', _) => remote = true,
            Opt::Long(l, _) if CURL_REROUTE.contains(&l.as_str()) => remote = true,
            Opt::Short('K', _) => config = true,
            Opt::Long(l, _) if l == "config" => config = true,
            Opt::Long(l, Some(v)) if l == "url" => urls.push(v),
            _ => {}
        }
    }
    if config {
        method = Some(None);
        remote = true;
    }
    finish(method, implied, remote, &urls)
}

/// wget's options that take a value (GNU Wget 1.21; it accepts abbreviations).
const WGET: Options = Options {
    short_with_value: "oOaAeiPtTwQUlRDIXB",
    long: &[
        "method=",
        "body-data=",
        "body-file=",
        "post-data=",
        "post-file=",
        "output-file=",
        "output-document=",
        "append-output=",
        "execute=",
        "input-file=",
        "directory-prefix=",
        "tries=",
        "timeout=",
        "wait=",
        "quota=",
        "user-agent=",
        "level=",
        "accept=",
        "reject=",
        "domains=",
        "include-directories=",
        "exclude-directories=",
        "base=",
        "header=",
        "user=",
        "password=",
        "http-user=",
        "http-password=",
        "referer=",
        "load-cookies=",
        "save-cookies=",
        "ca-certificate=",
        "certificate=",
        "private-key=",
        "bind-address=",
        "limit-rate=",
        "config=",
        "quiet",
        "verbose",
        "no-verbose",
        "continue",
        "spider",
        "server-response",
        "no-check-certificate",
        "recursive",
        "mirror",
    ],
    abbreviations: true,
};

fn wget(args: &[String]) -> Request {
    let (opts, operands) = read(args, &WGET);
    let mut method = None;
    let mut implied = "GET";
    let mut remote = false;
    for o in &opts {
        match o {
            Opt::Long(l, v) if l == "method" => method = Some(v.clone()),
            Opt::Long(l, _) if l.starts_with("post-") || l.starts_with("body-") => implied = "POST",
            // `-e method=DELETE` sets any option; `-i` and `--config` read URLs or options
            // from a file.
            Opt::Short('e' | 'i', _) => {
                method = Some(None);
                remote = true;
            }
            Opt::Long(l, _) if matches!(l.as_str(), "execute" | "input-file" | "config") => {
                method = Some(None);
                remote = true;
            }
            _ => {}
        }
    }
    let urls: Vec<&str> = operands.iter().map(String::as_str).collect();
    finish(method, implied, remote, &urls)
}

/// HTTPie's and xh's options that take a value.
const HTTPIE: Options = Options {
    short_with_value: "aAopsv",
    long: &[
        "auth=",
        "auth-type=",
        "session=",
        "session-read-only=",
        "output=",
        "print=",
        "pretty=",
        "style=",
        "format-options=",
        "verify=",
        "cert=",
        "cert-key=",
        "cert-key-pass=",
        "proxy=",
        "timeout=",
        "max-redirects=",
        "default-scheme=",
        "ssl=",
        "ciphers=",
        "boundary=",
        "raw=",
        "response-charset=",
        "response-mime=",
        "unix-socket=",
        "bearer=",
        "resolve=",
        "interface=",
        "http-version=",
    ],
    abbreviations: false,
};

/// `http [options] [METHOD] URL [ITEM...]`: the method is the first operand when another
/// follows and it is a word of letters; without it, GET, or POST with data items.
fn httpie(args: &[String]) -> Request {
    let (opts, operands) = read(args, &HTTPIE);
    let remote = opts
        .iter()
        .any(|o| matches!(o, Opt::Long(l, _) if l == "proxy" || l == "resolve"));
    let (method, rest) = match operands.as_slice() {
        [first, second, ..]
            if first.contains(SUBSTITUTION)
                || first.chars().all(|c| c.is_ascii_alphabetic()) && !second.is_empty() =>
        {
            let m = (!first.contains(SUBSTITUTION)).then(|| first.clone());
            (Some(m), &operands[1..])
        }
        _ => (None, &operands[..]),
    };
    let implied = if rest
        .iter()
        .skip(1)
        .any(|i| i.contains('=') && !i.contains("=="))
    {
        "POST"
    } else {
        "GET"
    };
    // The URL is the first operand after the method; the others are request items.
    let url: Vec<&str> = rest.first().map(String::as_str).into_iter().collect();
    finish(method, implied, remote, &url)
}

/// `gh api [-X METHOD] ENDPOINT`, `glab api ...`: a request to the forge's API.
fn api(args: &[String]) -> Option<Request> {
    const API: Options = Options {
        short_with_value: "XRFfHpqt",
        long: &[
            "method=",
            "hostname=",
            "repo=",
            "field=",
            "raw-field=",
            "header=",
            "input=",
            "jq=",
            "template=",
            "cache=",
            "preview=",
        ],
        abbreviations: false,
    };
    let at = args.iter().position(|a| !a.starts_with('-'))?;
    if args.get(at).map(String::as_str) != Some("api") {
        return None;
    }
    let (opts, _) = read(&args[at + 1..], &API);
    let mut method = None;
    let mut implied = "GET";
    let mut host = None;
    for o in &opts {
        match o {
            Opt::Short('X', v) => method = Some(v.clone()),
            Opt::Long(l, v) if l == "method" => method = Some(v.clone()),
            Opt::Short('f' | 'F', _) if implied == "GET" => implied = "POST",
            Opt::Long(l, _) if l.ends_with("field") || l == "input" => implied = "POST",
            Opt::Long(l, Some(v)) if l == "hostname" => host = Some(v.as_str()),
            _ => {}
        }
    }
    // The forge is remote unless `--hostname` names this machine.
    let urls: Vec<&str> = host.into_iter().collect();
    let mut request = finish(method, implied, false, &urls);
    request.remote |= host.is_none();
    Some(request)
}

/// Options (each spelled out) and operands of `args`, options read wherever they stand
/// (these clients permute them), operands after `--` included.
fn read(args: &[String], spec: &Options) -> (Vec<Opt>, Vec<String>) {
    let mut opts = Vec::new();
    let mut operands = Vec::new();
    let mut rest = args;
    while !rest.is_empty() {
        let (found, at) = options::leading(rest, spec);
        let ended = at > 0 && rest.get(at - 1).is_some_and(|a| a == "--");
        opts.extend(found);
        rest = rest.get(at..).unwrap_or_default();
        if ended {
            operands.extend(rest.iter().cloned());
            break;
        }
        if let Some((first, tail)) = rest.split_first() {
            operands.push(first.clone());
            rest = tail;
        }
    }
    (opts, operands)
}

/// The request with method `method` (outer `None`: not given; inner `None`: unknown),
/// else `implied`, to `urls` (none: the host is not known).
fn finish(method: Option<Option<String>>, implied: &str, remote: bool, urls: &[&str]) -> Request {
    let method = match method {
        Some(Some(m)) if !m.contains(SUBSTITUTION) => Some(m.to_ascii_uppercase()),
        Some(_) => None,
        None => Some(implied.to_owned()),
    };
    let remote = remote || urls.is_empty() || urls.iter().any(|u| !is_local_url(u));
    Request { method, remote }
}

/// Whether `url` names this machine: `localhost` (and `*.localhost`), a loopback address,
/// `0.0.0.0`, or HTTPie's `:PORT/path` shorthand for localhost.
fn is_local_url(url: &str) -> bool {
    if url.contains(SUBSTITUTION) {
        return false;
    }
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    if rest.starts_with(':') {
        return true;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host_port.split(':').next().unwrap_or_default(),
    };
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host
            .parse::<Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
        || host.parse::<Ipv6Addr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests;
