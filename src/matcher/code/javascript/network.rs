//! Network calls: the address a call reaches (`fetch`, `axios`, `http.get`,
//! `net.connect`, ...) and the request read as `curl`, with the HTTP method it sends.

use super::values::Args;
use super::{Js, Obj};
use crate::matcher::code::Val;
use crate::matcher::code::scope::curl_request;

impl Js<'_, '_, '_> {
    /// A network call as `curl [-X METHOD] URL`, with the HTTP method it sends when that is
    /// not a plain GET (`fetch(u, {method: 'DELETE'})`, `axios.delete(u)`), so that a
    /// method filter reads it as it reads curl's.
    pub(super) fn request(&mut self, module: &str, f: &str, args: &Args, line: usize) {
        let Some(url) = self.url(module, f, args) else {
            return;
        };
        let a0 = args.get(0);
        let method = match (module, f) {
            ("axios" | "got" | "undici", m) if HTTP_METHODS.contains(&m) => Obj::Val(Val::known(m)),
            ("XMLHttpRequest()", "open") => a0,
            ("http" | "https" | "http2", "get") => Obj::Null,
            ("net" | "tls" | "Deno", _) | (_, "WebSocket" | "EventSource" | "connect") => Obj::Null,
            // The options are the first argument (`axios({url, method})`) or the second.
            _ if matches!(a0, Obj::Dict(_)) => a0.key("method"),
            _ => args.get(1).key("method"),
        };
        let method = match method {
            Obj::Null => None,
            m => Some(m.val()),
        };
        self.cx.command("curl", curl_request(method, url), line)
    }

    /// The address a network call reaches, if it is one.
    pub(super) fn url(&mut self, module: &str, f: &str, args: &Args) -> Option<Val> {
        let a0 = args.get(0);
        Some(match (module, f) {
            ("", "fetch" | "WebSocket" | "EventSource" | "axios")
            | ("axios" | "undici" | "got" | "node-fetch", _)
            | ("", "got" | "node-fetch")
            | ("Deno" | "Bun", "fetch")
            | ("http" | "https" | "http2", "get" | "request" | "connect") => {
                let scheme = if module == "http" { "http:" } else { "https:" };
                match a0 {
                    Obj::Dict(_) if a0.key("url").truthy() == Some(true) => a0.key("url").val(),
                    Obj::Dict(_) => {
                        let host = a0.key("hostname");
                        let host = if matches!(host, Obj::Null) {
                            a0.key("host")
                        } else {
                            host
                        };
                        let mut url = Val::known(format!("{scheme}//")).concat(host.val());
                        if !matches!(a0.key("port"), Obj::Null) {
                            url = url.concat(Val::known(":")).concat(a0.key("port").val());
                        }
                        match a0.key("path") {
                            Obj::Null => url,
                            p => url.concat(p.val()),
                        }
                    }
                    other => other.val(),
                }
            }
            ("XMLHttpRequest()", "open") => args.val(1),
            ("net" | "tls", "connect" | "createConnection")
            | ("Deno", "connect" | "connectTls") => {
                let (port, host) = match &a0 {
                    Obj::Dict(_) => (a0.key("port"), a0.key("host")),
                    Obj::Val(Val::Known(p)) => return Some(Val::Known(format!("unix:{p}"))),
                    _ => (a0.clone(), args.get(1)),
                };
                let host = match (host, a0.key("hostname")) {
                    (Obj::Null, Obj::Null) => Obj::Val(Val::known("localhost")),
                    (Obj::Null, h) => h,
                    (h, _) => h,
                };
                Val::known("tcp://")
                    .concat(host.val())
                    .concat(Val::known(":"))
                    .concat(port.val())
            }
            // `sock.connect(4444, '10.0.0.1')` on a socket the reader did not follow.
            ("?", "connect") if matches!(a0, Obj::Num(_)) => Val::known("tcp://")
                .concat(args.val(1))
                .concat(Val::known(":"))
                .concat(a0.val()),
            _ => return None,
        })
    }
}

/// The request methods HTTP client libraries name functions after (`axios.delete`).
const HTTP_METHODS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "purge",
];
