//! Ruby: the calls that run commands (backticks, `%x`, `system`/`exec`/`spawn`, `IO.popen`,
//! `Open3`, `open("|cmd")`), delete, read, write, move, fetch or run code, with the constant
//! values of their arguments (literals with escapes and `#{}` of constants, heredocs, `+`,
//! `%`, `*`, `join`/`reverse`/`chr`/`pack('c*')`/`sub`/`tr`, `File.join`/`expand_path`,
//! `Dir.home`, `ENV['HOME']`, `Pathname`), names bound once, and calls by a constant name
//! (`send(:system)`, `method(:system).call`, `Object.const_get('Kernel')`, `alias`).

mod binds;
mod calls;
mod choices;
mod files;
mod methods;
mod network;
mod process;
mod rounds;
mod sinks;
mod text;
mod values;

pub(in crate::matcher::code) use text::erb_code;

#[cfg(test)]
mod tests;

use std::borrow::Borrow;

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::Effect;
use super::scope::{Cx, Names, Val};
use super::tree::Source;
use values::Args;

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// A module or class, by its full name (`FileUtils`, `Net::HTTP`).
    Const(String),
    /// An array of values.
    List(Vec<Val>),
    /// A method object (`method(:system)`), by the qualified name it calls.
    Method(String),
    /// A `Pathname` of this value.
    Path(Val),
    /// A `URI` of this value.
    Uri(Val),
    /// A socket address (`Addrinfo.tcp`), as `tcp://host:port`.
    Addr(Val),
    /// What a network request returned: what it reads was downloaded.
    Response,
    /// What a block over this gets each time round (`Dir.glob(pattern).each { |f| ... }`).
    Each(Box<Obj>),
    /// A list not known whose every item is quoted for the shell (`files.map(&:shellescape)`):
    /// joined with spaces, words that run nothing.
    Quoted,
}

impl Obj {
    fn val(self) -> Val {
        match self {
            Obj::Val(v) | Obj::Path(v) | Obj::Uri(v) => v,
            Obj::Response => Val::Fetched,
            // A listing handed whole to a function that takes paths (`FileUtils.rm_f(
            // Dir.glob("log/*.log"))`) is its pattern: what each of its elements is.
            Obj::Each(element) => element.val(),
            _ => Val::Unknown,
        }
    }
}

/// A block with named parameters (`{ |f| ... }`, `do |k, v| ... end`).
struct BlockScope {
    start: usize,
    end: usize,
    /// The innermost such block around it, by index.
    parent: Option<usize>,
    names: Vec<String>,
}

/// Reads a Ruby program.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let root = tree.root_node();
    let mut rb = Rb {
        cx,
        src,
        names: Names::default(),
        aliases: HashMap::new(),
        heredocs: HashMap::new(),
        pending: (Vec::new(), Vec::new()),
        mutated: Vec::new(),
        grown: Vec::new(),
        grows: false,
        chosen: super::growths::Chosen::default(),
        same: Vec::new(),
        evals: Vec::new(),
        values: HashMap::new(),
        defs: Vec::new(),
        scopes: Vec::new(),
        blocks: HashMap::new(),
        searched: 0,
        rounds_read: 0,
        untrusted: false,
        patched: false,
        env_written: false,
        loops: 0,
        always_loops: false,
        nest: 0,
    };
    rb.cx.inherit(&mut rb.names);
    rb.bind_all(root, 0);
    rb.settle();
    rb.walk(root);
    rb.cx.publish(&rb.names);
}

struct Rb<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    /// `alias new old`, `alias_method :new, :old`: new name to old.
    aliases: HashMap<String, String>,
    /// Heredoc bodies by the start of the `<<~EOS` that stands for them.
    heredocs: HashMap<usize, Node<'t>>,
    /// Heredoc beginnings and bodies in the order of the code, paired after the pre-pass.
    pending: (Vec<Node<'t>>, Vec<Node<'t>>),
    /// Names a method changes in place (`s << 'x'`, `s.gsub!`).
    mutated: Vec<String>,
    /// Names of lists grown (see [`choices`]), until the pre-pass ends.
    grown: Vec<String>,
    /// Whether a list is grown: until one is, no call's choices are searched for.
    grows: bool,
    /// The growths being read as run (`true`) or not, by node id.
    chosen: super::growths::Chosen,
    /// Names bound to another name (`b = a`): the same object, changed together.
    same: Vec<(String, String)>,
    /// The code `eval` runs: assigning in it makes no name known.
    evals: Vec<Node<'t>>,
    values: HashMap<String, Obj>,
    /// The byte ranges of the methods the code defines at the top (not inside another),
    /// in order: each has local variables of its own (see [`Rb::key`]).
    defs: Vec<(usize, usize)>,
    /// The blocks with named parameters, in the order of the code (see [`Rb::scoped`]).
    scopes: Vec<BlockScope>,
    /// The parameters of each block over a receiver (by its node's id), for reading the
    /// block once per item when the receiver is a literal (see [`rounds`]).
    blocks: HashMap<usize, rounds::Params>,
    /// Nodes looked at for a block's parameters so far (see [`rounds`]).
    searched: usize,
    /// Calls read once per item so far (see [`rounds`]).
    rounds_read: usize,
    /// A value was changed in place through something other than a name bound once, or the
    /// code rebinds names at run time (`eval`, `local_variable_set`): no name's value is known.
    untrusted: bool,
    /// The code reopens a core class or defines methods at run time: no method is folded.
    patched: bool,
    /// The code changes `ENV`: `HOME` is not known.
    env_written: bool,
    loops: usize,
    /// `retry` or `redo` can repeat any part of the code.
    always_loops: bool,
    /// Evaluations under way.
    nest: usize,
}

impl<'a, 'c, 't> Rb<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// The name a variable is bound under: a local variable inside a method is the
    /// method's own (`def median; m = ...` is not the `m` of a block outside it), so it is
    /// kept apart by the method's place. Instance, global and class variables and
    /// constants are not.
    fn key(&self, node: Node<'_>) -> String {
        match kind(node) {
            "identifier" => self.scoped(node, self.text(node)),
            _ => self.text(node).to_owned(),
        }
    }

    /// `name`, a local variable used at `at`, as it is bound there (see [`Rb::key`]). A
    /// block's parameter is the block's own (`f = "build"; x.each { |f| ... }` has two `f`),
    /// so it is kept apart by the block's place.
    fn scoped(&self, at: Node<'_>, name: &str) -> String {
        let start = at.start_byte();
        // The blocks around `at` are the last one begun before it and that one's enclosing
        // blocks, as blocks nest.
        let mut scope = self
            .scopes
            .partition_point(|b| b.start <= start)
            .checked_sub(1);
        while let Some(b) = scope.and_then(|i| self.scopes.get(i)) {
            if at.end_byte() <= b.end && b.names.iter().any(|n| n == name) {
                return format!("{{{}#{name}", b.start);
            }
            scope = b.parent;
        }
        let after = self.defs.partition_point(|(s, _)| *s <= start);
        match after.checked_sub(1).and_then(|k| self.defs.get(k)) {
            Some((s, e)) if at.end_byte() <= *e => format!("{s}#{name}"),
            _ => name.to_owned(),
        }
    }

    /// Visits every node, reading the calls' effects.
    fn walk(&mut self, root: Node<'t>) {
        super::tree::visit(root, |node, depth, at| self.visit(node, depth, at));
    }

    /// One node of the walk: its loop count kept, and its effect read on entering.
    fn visit(&mut self, node: Node<'t>, depth: usize, at: super::tree::Visit) -> bool {
        let is_loop = matches!(
            kind(node),
            "while"
                | "until"
                | "for"
                | "while_modifier"
                | "until_modifier"
                | "block"
                | "do_block"
                | "method"
                | "singleton_method"
                | "lambda"
        );
        if at == super::tree::Visit::Leave {
            self.loops -= usize::from(is_loop);
            return false;
        }
        self.loops += usize::from(is_loop);
        if !self.cx.enter(depth, self.line(node)) {
            return false;
        }
        match kind(node) {
            "call" | "subshell" => {
                let choices = self.growth_choices(node);
                self.each_choice(&choices, |rb| rb.each_item(node, Self::effect));
            }
            "identifier" | "heredoc_beginning" | "element_reference" => self.effect(node),
            _ => {}
        }
        true
    }

    /// The effect of one node, if it has one.
    fn effect(&mut self, node: Node<'t>) {
        let line = self.line(node);
        match kind(node) {
            "call" => self.call(node),
            "subshell" => {
                let cmd = self.string(node, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            // `` <<~`CMD` `` runs its body.
            "heredoc_beginning" if self.text(node).contains('`') => {
                let cmd = self.string(node, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            // A bare `fork` is a call without arguments.
            "identifier" if self.text(node) == "fork" && self.names.get("fork").is_none() => {
                let parent = node.parent();
                let named = parent.is_some_and(|p| {
                    by_field(p, "method") == Some(node)
                        || by_field(p, "name") == Some(node)
                        || kind(p).contains("parameter")
                });
                if !named {
                    self.sink("Kernel.fork", &Args::default(), line);
                }
            }
            "element_reference" => {
                if let Some(object) = by_field(node, "object")
                    && let Obj::Method(q) = self.eval(object, 0)
                {
                    let args = Args::of(node);
                    self.sink(&q, &args, line);
                }
            }
            _ => {}
        }
    }
}

/// The child of a node in a field (see [`super::tree::field`]).
pub(super) fn by_field<'t>(node: impl Borrow<Node<'t>>, name: &str) -> Option<Node<'t>> {
    super::tree::field(super::Lang::Ruby, *node.borrow(), name)
}

/// The kind of a node (see [`super::tree::kind`]).
pub(super) fn kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    super::tree::kind(super::Lang::Ruby, *node.borrow())
}
