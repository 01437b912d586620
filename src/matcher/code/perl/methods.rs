//! A method call's effect, on the class its receiver is followed to: sockets and network
//! clients fetching an address, a `Safe` compartment running code, `File::Path` deleting.

use tree_sitter::Node;

use super::values::class_of;
use super::{Obj, Pl, by_field, kind};
use crate::matcher::code::{Effect, Val};

impl<'t> Pl<'_, '_, 't> {
    /// The effect of one method call.
    pub(super) fn method(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(method) = by_field(node, "function_name").map(|f| self.text(f)) else {
            let mut c = node.walk();
            let dynamic = node.named_children(&mut c).any(|n| {
                matches!(
                    kind(n),
                    "scalar_variable" | "scalar_dereference" | "special_scalar_variable"
                ) && Some(n) != node.named_child(0)
            });
            // `$obj->$name()` names its method at run time; `$code->()` calls a code
            // reference, known only when the code wrote it.
            let code = node.named_child(0).map(|o| self.eval(o, self.src.text, 0));
            if dynamic || !matches!(code, Some(Obj::Code)) {
                self.cx
                    .unreadable("the code calls a function named at run time", line);
            }
            return;
        };
        let receiver = self.receiver(node);
        let args: Vec<Node<'t>> = self.arg_nodes(node);
        let text = self.src.text;
        let arg = |pl: &mut Self, n: usize| {
            args.get(n)
                .map_or(Val::Unknown, |a| pl.eval(*a, text, 0).val())
        };
        match (receiver.as_deref(), method) {
            (Some(class), "new") if is_socket(class) => {
                let target = self.socket_target(&args);
                self.cx.command("curl", vec![target], line);
            }
            (Some("Net::FTP" | "Net::SMTP" | "Net::Telnet" | "Net::SSH2"), "new") => {
                let host = arg(self, 0);
                self.cx.command("curl", vec![host], line);
            }
            (Some(class), m) if is_http(class) => match m {
                "get" | "post" | "put" | "delete" | "head" | "patch" | "post_form" | "mirror"
                | "getstore" | "simple_request" => {
                    let url = arg(self, 0);
                    self.cx.command("curl", vec![url], line);
                }
                "request" => {
                    let url = if class == "HTTP::Tiny" {
                        arg(self, 1)
                    } else {
                        Val::Unknown
                    };
                    self.cx.command("curl", vec![url], line);
                }
                _ => {}
            },
            // A `Safe` compartment evaluates its string as Perl. Its default operator mask
            // refuses what has effects (`system`, `open`, `unlink`); the code is read as
            // running unmasked only when the line loosens one (`deny_only()`, `permit`).
            (Some("Safe"), "reval")
                if self.src.text.contains("deny_only") || self.src.text.contains("permit") =>
            {
                let code = arg(self, 0);
                self.cx.eval(code, line);
            }
            (Some("Safe"), "rdo") => {
                let file = arg(self, 0);
                self.cx
                    .found(Effect::Exec(vec![Val::known("perl"), file]), line);
            }
            (Some("File::Path"), "rmtree" | "remove_tree") | (None, "rmtree" | "remove_tree") => {
                let path = arg(self, 0);
                self.rm(&["-r", "-f"], vec![path], line);
            }
            _ => {}
        }
    }

    /// The class a method is called on, followed through `->new` and names bound once.
    fn receiver(&mut self, node: Node<'t>) -> Option<String> {
        let object = node.named_child(0)?;
        match class_of(self.eval(object, self.src.text, 0), object, self.src.text) {
            Obj::Class(c) => Some(c),
            _ => None,
        }
    }

    /// `IO::Socket::INET->new("host:port")` or `(PeerAddr => host, PeerPort => port)`.
    fn socket_target(&mut self, args: &[Node<'t>]) -> Val {
        let text = self.src.text;
        if args.len() == 1 {
            return match args.first().map(|a| self.eval(*a, text, 0).val()) {
                Some(Val::Known(t)) => Val::Known(format!("tcp://{t}")),
                other => other.unwrap_or(Val::Unknown),
            };
        }
        let (mut host, mut port) = (None, None);
        for pair in args.chunks(2) {
            let [key, value] = pair else { break };
            let key = self.text(*key).trim_matches(['\'', '"']).to_owned();
            let value = self.eval(*value, text, 0).val();
            match key.as_str() {
                "PeerAddr" | "PeerHost" => host = Some(value),
                "PeerPort" => port = Some(value),
                _ => {}
            }
        }
        match (host, port) {
            (Some(Val::Known(h)), Some(Val::Known(p))) => Val::Known(format!("tcp://{h}:{p}")),
            (Some(Val::Known(h)), None) => Val::Known(format!("tcp://{h}")),
            _ => Val::Unknown,
        }
    }
}

fn is_socket(class: &str) -> bool {
    matches!(
        class,
        "IO::Socket::INET"
            | "IO::Socket::INET6"
            | "IO::Socket::IP"
            | "IO::Socket::SSL"
            | "IO::Socket"
    )
}

pub(super) fn is_http(class: &str) -> bool {
    matches!(
        class,
        "LWP::UserAgent"
            | "HTTP::Tiny"
            | "Mojo::UserAgent"
            | "WWW::Mechanize"
            | "Furl"
            | "HTTP::Tiny::UA"
            | "LWP::Simple"
    )
}
