//! The address a network call reaches (`Net::HTTP`, `TCPSocket`, `Net::FTP`, ...), as a
//! URL with the scheme the library speaks.

use super::values::Args;
use super::{Obj, Rb};
use crate::matcher::code::Val;

impl<'t> Rb<'_, '_, 't> {
    /// The URL a network call reaches.
    pub(super) fn url_of(&mut self, q: &str, args: &Args<'t>) -> Val {
        let target = match args.pos.first() {
            Some(_) => self.arg(args, 0),
            None => args.keyword(self, "url").unwrap_or(Obj::Val(Val::Unknown)),
        };
        let (module, method) = q.rsplit_once('.').unwrap_or(("", q));
        let scheme = match module {
            "TCPSocket" | "Socket" => "tcp://",
            "Net::FTP" => "ftp://",
            "Net::SMTP" => "smtp://",
            "Net::SSH" => "ssh://",
            "Net::Telnet" => "telnet://",
            "Net::POP3" => "pop3://",
            _ => "http://",
        };
        let host = match target {
            Obj::Uri(u) | Obj::Addr(u) => return u,
            other => other.val(),
        };
        let Val::Known(host) = host else { return host };
        if host.contains("://") {
            return Val::Known(host);
        }
        let rest = if args.pos.len() < 2 {
            Val::known("")
        } else {
            match (module, method, self.arg(args, 1).val()) {
                ("Net::HTTP", "get" | "get_response" | "get_print", path) => path,
                (_, _, Val::Known(port)) => Val::Known(format!(":{port}")),
                _ => Val::Unknown,
            }
        };
        Val::Known(format!("{scheme}{}", bracketed(&host))).concat(rest)
    }
}

/// A host for a URL: an IPv6 address in brackets (`::1` is `[::1]`).
pub(super) fn bracketed(host: &str) -> std::borrow::Cow<'_, str> {
    if host.contains(':') && !host.starts_with('[') {
        std::borrow::Cow::Owned(format!("[{host}]"))
    } else {
        std::borrow::Cow::Borrowed(host)
    }
}
