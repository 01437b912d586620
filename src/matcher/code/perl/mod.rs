//! Perl: the calls that run commands (`system`, `exec`, backticks, `qx`, `readpipe`, piped
//! `open`), delete, read, write, move, fetch (LWP, HTTP::Tiny, sockets) or run code
//! (`eval STRING`, `do FILE`), with the constant values of their arguments (quoted strings
//! and their interpolation, `.`, `x`, `join`, `reverse`, `sprintf`, `chr`, `qw`,
//! `$ENV{HOME}`, `glob`, `File::Spec->catfile`), and names bound once.
//!
//! The grammar (ganezdragon's tree-sitter-perl) keeps no node for a string's text, so
//! strings are read from their source; and it ends a call without brackets at its second
//! comma (`system "a", "b", "c"` is the call and `, "c"` its siblings), so the arguments of
//! such a call run on over the commas that follow it.

mod binds;
mod calls;
mod choices;
mod computed;
mod find;
mod gaps;
mod inline;
mod loops;
mod methods;
mod text;
mod values;

/// Where a statement puts a function in `@INC` (`unshift @INC, sub {...}`, `push @INC,
/// \&f`, `$INC[0] = sub {...}`), as far as a scan of its text tells.
fn inc_hook(code: &str) -> Option<usize> {
    code.match_indices("INC").find_map(|(at, _)| {
        let before = &code[..at];
        if !before.ends_with(['@', '$']) {
            return None;
        }
        let start = before.rfind([';', '{', '}']).map_or(0, |s| s + 1);
        let end = code[at..].find(';').map_or(code.len(), |e| at + e);
        let statement = &code[start..end];
        let adds = ["unshift", "push", "splice", "="]
            .iter()
            .any(|w| statement.contains(w));
        let function = ["sub {", "sub{", "\\&"]
            .iter()
            .any(|f| statement.contains(f));
        (adds && function).then_some(start)
    })
}

#[cfg(test)]
mod tests;

use std::borrow::Borrow;

use tree_sitter::{Node, Tree};

use super::Effect;
use super::scope::{Cx, Names, Val};
use super::tree::Source;

pub(super) use gaps::{bare_file_tests, errors_are_inert};

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// A list (`qw(...)`, `(a, b)`, an array).
    List(Vec<Val>),
    /// `reverse LIST`: reversed as a list, or its items' text reversed in scalar context.
    Rev(Vec<Val>),
    /// A class or an object of it (`LWP::UserAgent->new`).
    Class(String),
    /// A network response: what it holds was downloaded.
    Response,
    /// A code reference written in the code (`sub { ... }`, `\&f`).
    Code,
}

impl Obj {
    /// The value in scalar context.
    fn val(self) -> Val {
        match self {
            Obj::Val(v) => v,
            Obj::Rev(items) => match concat_all(&items) {
                Val::Known(t) => Val::Known(t.chars().rev().collect()),
                other => other,
            },
            Obj::Response => Val::Fetched,
            Obj::List(items) if items.contains(&Val::Fetched) => Val::Fetched,
            _ => Val::Unknown,
        }
    }

    /// The items in list context.
    fn list(self) -> Vec<Val> {
        match self {
            Obj::List(items) => items,
            Obj::Rev(mut items) => {
                items.reverse();
                items
            }
            other => vec![other.val()],
        }
    }
}

fn concat_all(items: &[Val]) -> Val {
    items.iter().cloned().fold(Val::known(""), Val::concat)
}

/// Reads a Perl program.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let root = tree.root_node();
    let mut pl = Pl {
        cx,
        src,
        names: Names::default(),
        subs: Vec::new(),
        returning_subs: std::collections::HashMap::new(),
        found_file: None,
        inlined: inline::Subs::default(),
        params: Vec::new(),
        loops: 0,
        few: 0,
        // A bare block with `redo`, or `goto` to a label before it, loops too.
        jumps: src.text.contains("redo") || src.text.contains("goto"),
        all_unknown: false,
        at: src.line(root),
        heredocs: std::collections::VecDeque::new(),
        argv_read: false,
        argv_set: None,
        reading: None,
        grows: false,
        chosen: super::growths::Chosen::default(),
    };
    // Under `use re 'eval'`, a pattern built at run time runs the code in its `(?{ })`.
    if let Some(at) = src.text.match_indices("use re").find_map(|(k, _)| {
        let statement = src.text[k..].split(';').next().unwrap_or_default();
        statement.contains("eval").then_some(k)
    }) {
        let line = src.line(root) + src.text[..at].matches('\n').count();
        pl.cx
            .unreadable("the code lets patterns run code (use re 'eval')", line);
    }
    // Code the grammar holds as text: a pattern's `(?{ code })` and `(??{ code })`, run
    // at every step of the match (read as in a loop, so a `fork` there is a bomb).
    let line_at = |at: usize| src.line(root) + src.text[..at].matches('\n').count();
    for (at, code) in pattern_code(src.text) {
        let code = match code {
            Some(code) => Val::Known(format!("while (1) {{ {code} }}")),
            None => Val::Unknown,
        };
        pl.cx.eval(code, line_at(at));
    }
    // Those subs are read, and the line stays unreadable: they are code the walk of the
    // program does not reach the way perl does (by `AUTOLOAD`, at a call).
    if src.text.contains("SelfLoader")
        && let Some(at) = src.text.find("\n__DATA__")
    {
        let data = &src.text[at + "\n__DATA__".len()..];
        pl.cx.eval(Val::Known(data.to_owned()), line_at(at));
        pl.cx.unreadable(
            "the code compiles subroutines kept after __DATA__ (SelfLoader)",
            line_at(at),
        );
    }
    // A function put in @INC gives the source of each module `require` loads
    // (`unshift @INC, sub { ... fetch ... }`): what runs is whatever it returns.
    if let Some(at) = inc_hook(src.text) {
        let line = src.line(root) + src.text[..at].matches('\n').count();
        pl.cx.unreadable(
            "the code loads modules through a function of its own in @INC",
            line,
        );
    }
    pl.bind_all(root, 0);
    pl.inlined = inline::Subs::of(src.text, root);
    pl.walk(root);
    // Code that sets `@ARGV` without reading `<>` itself may be the body of the loop `-n`
    // or `-p` wraps around it (`perl -pi -e 'BEGIN { @ARGV = ... } s/a/b/'`), which reads
    // those files, and with `-i` writes them: the reader does not see the flags, so both.
    if let (false, Some(line)) = (pl.argv_read, pl.argv_set) {
        pl.read_argv(true, line);
    }
}

/// Most pattern code blocks read in one program; past it, the rest is not known.
const MOST_PATTERN_CODE: usize = 64;

/// Where each `(?{` or `(??{` of `text` starts, and the code up to its closing `})` (`None`
/// when its braces do not close, or past [`MOST_PATTERN_CODE`]). One pass: each block is
/// looked for after the end of the one before.
fn pattern_code(text: &str) -> Vec<(usize, Option<&str>)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = ["(?{", "(??{"]
        .iter()
        .filter_map(|o| text[from..].find(o).map(|k| (from + k, o.len())))
        .min()
    {
        let (at, opener) = found;
        if out.len() == MOST_PATTERN_CODE {
            out.push((at, None));
            break;
        }
        let body = &text[at + opener..];
        let mut depth = 1usize;
        let end = body.char_indices().find_map(|(k, c)| {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(k)
        });
        out.push((at, end.map(|k| &body[..k])));
        match end {
            Some(k) => from = at + opener + k,
            None => break,
        }
    }
    out
}

struct Pl<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    /// Subroutines the code defines, and their bodies: a call of one of these names is not
    /// a built-in's.
    subs: Vec<(String, Node<'t>)>,
    /// Whether each sub called so far returns only anonymous subs (see
    /// `returns_only_subs`), so a sub called many times is looked through once.
    returning_subs: std::collections::HashMap<String, bool>,
    /// Inside a File::Find `wanted` function: the file it is called for (see `find.rs`).
    found_file: Option<Val>,
    /// Subs read at their calls (see `inline.rs`).
    inlined: inline::Subs<'t>,
    /// The arguments of the sub being read at a call: `@_` and its parameters.
    params: Vec<(String, Obj)>,
    loops: usize,
    /// `foreach` loops of a few rounds around the node: the first adds no loop (see
    /// `few_rounds`).
    few: usize,
    /// Whether the code jumps back (`redo`, `goto`): any call may then repeat.
    jumps: bool,
    /// Set when the code can change any variable unseen (`eval STRING`, `$$ref = ...`).
    all_unknown: bool,
    /// The line being read, for the budget.
    at: usize,
    /// For each here-document begun and not yet read, whether it is a command
    /// (`` <<`SH` ``), in the order their bodies come.
    heredocs: std::collections::VecDeque<bool>,
    /// The code reads `<>` itself.
    argv_read: bool,
    /// The line where the code first assigns `@ARGV` or adds to it.
    argv_set: Option<usize>,
    /// The call being read: where a grown array is read (see [`choices`]).
    reading: Option<Node<'t>>,
    /// Whether an array is grown: until one is, no call's choices are searched for.
    grows: bool,
    /// The growths being read as run (`true`) or not, by node id.
    chosen: super::growths::Chosen,
}

impl<'a, 'c, 't> Pl<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// The files `@ARGV` names read, as `<>` reads them, and with `in_place` written back.
    fn read_argv(&mut self, in_place: bool, line: usize) {
        for file in self.name("@ARGV", 0).list() {
            if in_place {
                self.cx.command("tee", vec![file.clone()], line);
            }
            self.cx.command("cat", vec![file], line);
        }
    }

    /// Whether the code defines a subroutine of this name.
    fn is_sub(&self, name: &str) -> bool {
        self.subs.iter().any(|(s, _)| s == name)
    }

    /// The called name of a function call (`system`, `File::Path::rmtree`).
    fn callee(&self, call: Node<'_>) -> Option<String> {
        self.callee_in(call, self.src.text)
    }

    /// The `{ ... }` before a call's list (`system { $prog } @args`, `map { ... } @list`).
    fn block(&self, call: Node<'t>) -> Option<Node<'t>> {
        let mut c = call.walk();
        call.children_by_field_name("args", &mut c)
            .find(|a| kind(a) == "block")
    }

    /// A call's argument expressions, in order, the commas that follow it included.
    fn arg_nodes(&self, call: Node<'t>) -> Vec<Node<'t>> {
        self.arg_nodes_in(call)
    }

    /// Visits every node, reading the calls' effects.
    fn walk(&mut self, root: Node<'t>) {
        super::tree::visit(root, |node, depth, at| self.visit(node, depth, at));
    }

    /// One node of the walk: its loop count kept, and its effect read on entering.
    fn visit(&mut self, node: Node<'t>, depth: usize, at: super::tree::Visit) -> bool {
        let line = self.line(node);
        let is_loop = match kind(node) {
            "while_statement" | "until_statement" | "for_statement_1" | "for_statement_2" => true,
            "single_line_statement" => {
                let mut c = node.walk();
                node.named_children(&mut c).any(|n| {
                    matches!(
                        kind(n),
                        "while_simple_statement"
                            | "until_simple_statement"
                            | "for_simple_statement"
                    )
                })
            }
            "call_expression_with_spaced_args" => {
                matches!(self.callee(node).as_deref(), Some("map" | "grep"))
                    && self.block(node).is_some()
            }
            _ => false,
        };
        let is_few = is_loop && self.few_rounds(node);
        if is_few && at == super::tree::Visit::Leave {
            self.few -= 1;
        }
        let is_loop = is_loop && (!is_few || self.few > 0);
        if at == super::tree::Visit::Leave {
            self.loops -= usize::from(is_loop);
            return false;
        }
        if self.inlined.defines(node) {
            return false;
        }
        self.few += usize::from(is_few);
        self.loops += usize::from(is_loop);
        if !self.cx.enter(depth, line) {
            return false;
        }
        self.at = line;
        match kind(node) {
            "call_expression_with_spaced_args" | "call_expression_with_args_with_brackets" => {
                if self.file_find(node) {
                    return false;
                }
                let outer = self.reading.replace(node);
                self.read_called_sub(node);
                let choices = self.growth_choices(node);
                super::growths::each_way(self, &choices, |pl| pl.call(node));
                self.reading = outer;
            }
            // A call without arguments (`fork`) that is not the name of a call with them.
            "call_expression_with_bareword"
                if !node.parent().is_some_and(|p| {
                    kind(p).starts_with("call_expression_with") && p.named_child(0) == Some(node)
                }) && node.parent().is_none_or(|p| kind(p) != "method_invocation")
                    && node.next_sibling().is_none_or(|n| kind(n) != "fat_comma") =>
            {
                self.call(node)
            }
            "backtick_quoted" | "command_qx_quoted" => {
                self.interpolated_code(node, line);
                let cmd = self.string(node, self.src.text, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            // `<>` reads the files `@ARGV` names, when the code sets it (`@ARGV =
            // glob("~/.aws/*"); print while <>`), and with `$^I` set writes them back.
            "standard_input" | "standard_input_to_identifier"
                if matches!(self.text(node), "<>" | "<<>>" | "<ARGV>")
                    && self.names.get("@ARGV").is_some() =>
            {
                self.argv_read = true;
                self.read_argv(self.src.text.contains("$^I"), line);
            }
            "heredoc_initializer" => {
                self.heredocs.push_back(self.text(node).contains('`'));
            }
            // `` print <<`SH`; `` runs the body as a shell command.
            "heredoc_body_statement" if self.heredocs.pop_front() == Some(true) => {
                self.interpolated_code(node, line);
                let cmd = self.heredoc(node, self.src.text, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            "string_double_quoted" | "string_qq_quoted" | "heredoc_body_statement" => {
                self.interpolated_code(node, line);
            }
            "substitution_pattern_s" => self.substitution_code(node, line),
            "method_invocation" => self.method(node),
            "call_expression_with_variable" => {
                let target = node.named_child(0);
                if !target.is_some_and(|t| matches!(self.eval(t, self.src.text, 0), Obj::Code)) {
                    self.cx
                        .unreadable("the code calls a function named at run time", line);
                }
            }
            "use_no_statement" => {
                let module = by_field(node, "package_name").map(|p| self.text(p));
                if module.is_some_and(|m| {
                    matches!(
                        m,
                        "Inline" | "FFI::Platypus" | "FFI::Raw" | "FFI::CheckLib" | "Win32::API"
                    )
                }) {
                    self.cx
                        .unreadable("the code calls native code directly", line);
                }
            }
            _ => {}
        }
        true
    }
}

/// The child of a node in a field (see [`super::tree::field`]).
pub(super) fn by_field<'t>(node: impl Borrow<Node<'t>>, name: &str) -> Option<Node<'t>> {
    super::tree::field(super::Lang::Perl, *node.borrow(), name)
}

/// The kind of a node (see [`super::tree::kind`]).
pub(super) fn kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    super::tree::kind(super::Lang::Perl, *node.borrow())
}

/// The items of a literal list of a few strings or numbers (`('a', 'b')`, `qw(a b)`), each
/// a node the reader evaluates; `None` for any other list.
pub(super) fn literal_items(list: Node<'_>) -> Option<Vec<Node<'_>>> {
    const MOST_ITEMS: usize = 16;
    let mut c = list.walk();
    let items: Vec<Node<'_>> = match kind(list) {
        // An array assigned `qw(...)` holds the words themselves.
        "word_list_qw" => vec![list],
        _ => list
            .named_children(&mut c)
            .filter(|n| kind(*n) != "normal_comma")
            .collect(),
    };
    let items = match items.as_slice() {
        [words] if kind(*words) == "word_list_qw" => {
            let mut c = words.walk();
            words
                .named_children(&mut c)
                .filter(|n| kind(*n) == "list_item")
                .collect()
        }
        _ if items.iter().all(|n| {
            matches!(
                kind(*n),
                "string_single_quoted" | "string_double_quoted" | "string_q_quoted" | "integer"
            )
        }) =>
        {
            items
        }
        _ => return None,
    };
    (!items.is_empty() && items.len() <= MOST_ITEMS).then_some(items)
}
