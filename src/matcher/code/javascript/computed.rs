//! The values of the calls that compute strings, paths and modules (`require`,
//! `path.join`, `String.fromCharCode`, `Buffer.from`, `[...].join`, ...), apart from the
//! expressions that hold them.

use tree_sitter::Node;

use super::modules::{canonical, module_name};
use super::text::{cat, char_of, parse_num, string_method};
use super::{Js, Obj, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::{TEMP_DIR, join, program_lookup};

impl<'t> Js<'_, '_, 't> {
    /// The value a call returns, for the calls that compute strings, paths and modules.
    pub(super) fn value_of_call(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        // Outside an async function the grammar reads `await (x)` as a call of `await`.
        if let Some(f) = by_field(node, "function")
            && self.text(f) == "await"
            && let Some(inner) = by_field(node, "arguments").and_then(|a| a.named_child(0))
        {
            return self.eval(inner, depth + 1);
        }
        let Some((callee, args)) = self.callee_and_args(node, depth) else {
            return unknown;
        };
        let is_new = kind(node) == "new_expression";
        match callee {
            Obj::Ref(q) => {
                let q = canonical(&q);
                match q.as_str() {
                    "require" | "import" => match args.val(0) {
                        Val::Known(m) => Obj::Ref(module_name(&m)),
                        _ => unknown,
                    },
                    "os.homedir" => Obj::Val(Val::known("~")),
                    // `process.kill.bind(process)` is the function itself; one with
                    // arguments bound to it is not followed (see `Js::call_once`).
                    q if q.ends_with(".bind") => {
                        if args.items.len() <= 1 && !args.open {
                            Obj::Ref(q[..q.len() - ".bind".len()].to_owned())
                        } else {
                            unknown
                        }
                    }
                    // `Reflect.get(cp, "exec" + "Sync")` is `cp["exec" + "Sync"]`.
                    "Reflect.get" => {
                        let key = args.val(1);
                        self.member(args.get(0), key, node)
                    }
                    // `os.userInfo().homedir` is the home directory too.
                    "os.userInfo" => Obj::Ref("os.userInfo()".to_owned()),
                    "os.tmpdir" => Obj::Val(Val::known(TEMP_DIR)),
                    // `fs.mkdtempSync(prefix)`: a new directory named the prefix and six
                    // random characters.
                    "fs.mkdtempSync" | "fs.promises.mkdtemp" => match args.val(0) {
                        Val::Known(prefix) => Obj::Val(Val::Known(format!("{prefix}XXXXXX"))),
                        _ => unknown,
                    },
                    "process.cwd" | "Deno.cwd" => Obj::Val(Val::known(".")),
                    "path.join" | "path.resolve" | "path.normalize" => {
                        let parts: Vec<Val> = args.items.iter().map(Obj::val).collect();
                        Obj::Val(if args.open {
                            Val::Unknown
                        } else {
                            join(&parts)
                        })
                    }
                    "Deno.env.get" => {
                        Obj::Val(args.val(0).text().map_or(Val::Unknown, |k| self.cx.env(k)))
                    }
                    "String.fromCharCode" | "String.fromCodePoint" => {
                        let codes: Option<String> = args
                            .items
                            .iter()
                            .map(|a| a.val().text().and_then(parse_num).and_then(char_of))
                            .collect();
                        Obj::Val(
                            codes
                                .filter(|_| !args.open)
                                .map_or(Val::Unknown, Val::Known),
                        )
                    }
                    "String" | "URL" => Obj::Val(args.val(0)),
                    // The file a path names, wherever its links lead: the path stands for it.
                    "fs.realpathSync" | "fs.realpathSync.native" => Obj::Val(args.val(0)),
                    // `parseInt("4755", 8)`: a mode written as text.
                    "parseInt" | "Number.parseInt" => {
                        let radix = match args.get(1) {
                            Obj::Null => Some(10),
                            r => r.val().text().and_then(|r| r.parse::<u32>().ok()),
                        };
                        match (args.val(0).text(), radix) {
                            (Some(t), Some(r @ 2..=36)) => i64::from_str_radix(t.trim(), r)
                                .map_or(unknown, |n| Obj::Num(n as f64)),
                            _ => unknown,
                        }
                    }
                    "Buffer.from" => match (args.get(0), args.val(1)) {
                        (_, Val::Known(e))
                            if !matches!(e.as_str(), "utf8" | "utf-8" | "ascii" | "latin1") =>
                        {
                            Obj::Val(Val::Fetched)
                        }
                        (Obj::List(bytes), _) => {
                            let text: Option<String> = bytes
                                .iter()
                                .map(|b| b.val().text().and_then(parse_num).and_then(char_of))
                                .collect();
                            Obj::Val(text.map_or(Val::Unknown, Val::Known))
                        }
                        (a, Val::Known(_)) => Obj::Val(a.val()),
                        (a, _) if matches!(args.get(1), Obj::Null) => Obj::Val(a.val()),
                        _ => Obj::Val(Val::Fetched),
                    },
                    "child_process.execSync" => match args.val(0) {
                        Val::Known(c) => {
                            program_lookup(c.split_whitespace()).map_or(unknown, Obj::Val)
                        }
                        _ => unknown,
                    },
                    "child_process.execFileSync" => match (args.val(0), args.get(1)) {
                        (Val::Known(p), Obj::List(rest)) => {
                            let rest: Vec<Val> = rest.iter().map(Obj::val).collect();
                            let words = std::iter::once(p.as_str())
                                .chain(rest.iter().filter_map(Val::text));
                            program_lookup(words).map_or(unknown, Obj::Val)
                        }
                        _ => unknown,
                    },
                    "atob" | "decodeURIComponent" | "decodeURI" | "unescape" => {
                        Obj::Val(Val::Fetched)
                    }
                    _ if q.starts_with("zlib.") => Obj::Val(Val::Fetched),
                    "util.promisify" | "util.callbackify" => args.get(0),
                    "Bun.file" => Obj::File(args.val(0)),
                    // A write stream writes its file at each `.write(b)`, wherever that is
                    // (in a function that names itself to be called back, a disk filler).
                    "fs.createWriteStream" => Obj::File(args.val(0)),
                    _ if is_new && !q.contains('(') => Obj::Ref(format!("{q}()")),
                    _ => {
                        let (m, f) = q.rsplit_once('.').unwrap_or(("", &q));
                        if self.url(m, f, &args).is_some() {
                            Obj::Response
                        } else {
                            unknown
                        }
                    }
                }
            }
            Obj::StrMethod(s, m) => string_method(&s, &m, &args),
            Obj::ListMethod(items, m) => match m.as_str() {
                "join" => {
                    let sep = match args.get(0) {
                        Obj::Null => ",".to_owned(),
                        other => match other.val() {
                            Val::Known(s) => s,
                            _ => return unknown,
                        },
                    };
                    let texts: Option<Vec<String>> = items
                        .iter()
                        .map(|i| i.val().text().map(str::to_owned))
                        .collect();
                    Obj::Val(texts.map_or(Val::Unknown, |t| {
                        cat(Val::known(""), Val::Known(t.join(&sep)))
                    }))
                }
                "reverse" => Obj::List(items.into_iter().rev().collect()),
                "concat" => {
                    let mut items = items;
                    for a in args.items {
                        match a {
                            Obj::List(more) => items.extend(more),
                            other => items.push(other),
                        }
                    }
                    Obj::List(items)
                }
                "toString" => Obj::Val(Obj::List(items).val()),
                _ => unknown,
            },
            Obj::Response => Obj::Response,
            _ => unknown,
        }
    }
}
