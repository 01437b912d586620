//! Generated interpreter lines for the oracle (issue 19): the harmful payloads of
//! `generate.rs` run from inline code of Python, Perl, JavaScript, Ruby, PHP and Lua (a
//! shell line, an argument vector, the language's own delete, read and network calls),
//! with the strings spelled as code hides them (concatenation, variables, joins, reversal,
//! character codes, formatting, interpolation), and routine one-liners that must stay
//! readable. The code reaches the interpreter through `-c`/`-e`/`-r`, a here-document or a
//! pipe.

use proptest::prelude::*;

use super::generate::{Generated, Payload, delete, read, sq, tool};

/// The languages, by the program that runs them.
#[derive(Debug, Clone, Copy)]
enum Lang {
    Python,
    Perl,
    Node,
    Ruby,
    Php,
    Lua,
}

const LANGS: &[Lang] = &[
    Lang::Python,
    Lang::Perl,
    Lang::Node,
    Lang::Ruby,
    Lang::Php,
    Lang::Lua,
];

/// A string expression of `text` in `lang`, spelled the `how`-th way, and the statement
/// that must come before it (a variable's definition).
fn string(lang: Lang, text: &str, how: usize) -> (String, String) {
    let cut = text
        .char_indices()
        .nth(text.chars().count() / 2)
        .map_or(0, |(i, _)| i);
    let (a, b) = text.split_at(cut);
    let q = |s: &str| format!("\"{s}\"");
    let reversed: String = text.chars().rev().collect();
    let first = text.bytes().next().map_or(0, u32::from);
    let rest = text.get(1..).unwrap_or_default();
    let (pre, expr) = match (lang, how) {
        (_, 0) => (String::new(), q(text)),
        (Lang::Python | Lang::Node | Lang::Ruby, 1) => {
            (String::new(), format!("{} + {}", q(a), q(b)))
        }
        (Lang::Perl | Lang::Php, 1) => (String::new(), format!("{} . {}", q(a), q(b))),
        (Lang::Lua, 1) => (String::new(), format!("{} .. {}", q(a), q(b))),
        (Lang::Python | Lang::Ruby, 2) => (format!("v = {}; ", q(text)), "v".into()),
        (Lang::Node, 2) => (format!("const v = {}; ", q(text)), "v".into()),
        (Lang::Perl, 2) => (format!("my $v = {}; ", q(text)), "$v".into()),
        (Lang::Php, 2) => (format!("$v = {}; ", q(text)), "$v".into()),
        (Lang::Lua, 2) => (format!("local v = {}; ", q(text)), "v".into()),
        (Lang::Python, 3) => (String::new(), format!("\"\".join([{}, {}])", q(a), q(b))),
        (Lang::Node, 3) => (String::new(), format!("[{}, {}].join(\"\")", q(a), q(b))),
        (Lang::Ruby, 3) => (String::new(), format!("[{}, {}].join", q(a), q(b))),
        (Lang::Perl, 3) => (String::new(), format!("join(\"\", {}, {})", q(a), q(b))),
        (Lang::Php, 3) => (
            String::new(),
            format!("implode(\"\", [{}, {}])", q(a), q(b)),
        ),
        (Lang::Lua, 3) => (
            String::new(),
            format!("table.concat({{{}, {}}})", q(a), q(b)),
        ),
        (Lang::Python, 4) => (String::new(), format!("{}[::-1]", q(&reversed))),
        (Lang::Node, 4) => (
            String::new(),
            format!("{}.split(\"\").reverse().join(\"\")", q(&reversed)),
        ),
        (Lang::Ruby, 4) => (String::new(), format!("{}.reverse", q(&reversed))),
        (Lang::Perl, 4) => (String::new(), format!("scalar reverse({})", q(&reversed))),
        (Lang::Php, 4) => (String::new(), format!("strrev({})", q(&reversed))),
        (Lang::Lua, 4) => (String::new(), format!("({}):reverse()", q(&reversed))),
        (Lang::Python, _) => (String::new(), format!("chr({first}) + {}", q(rest))),
        (Lang::Node, _) => (
            String::new(),
            format!("String.fromCharCode({first}) + {}", q(rest)),
        ),
        (Lang::Ruby, _) => (String::new(), format!("{first}.chr + {}", q(rest))),
        (Lang::Perl, _) => (String::new(), format!("chr({first}) . {}", q(rest))),
        (Lang::Php, _) => (String::new(), format!("chr({first}) . {}", q(rest))),
        (Lang::Lua, _) => (
            String::new(),
            format!("string.char({first}) .. {}", q(rest)),
        ),
    };
    (pre, expr)
}

/// Code that runs `cmd` as a shell line, the `how`-th way.
fn shell_line(lang: Lang, cmd: &str, how: usize, spelling: usize) -> String {
    let (pre, s) = string(lang, cmd, spelling);
    let call = match (lang, how % 4) {
        (Lang::Python, 0) => format!("import os; os.system({s})"),
        (Lang::Python, 1) => format!("import subprocess; subprocess.run({s}, shell=True)"),
        (Lang::Python, 2) => format!("from os import popen as p; print(p({s}).read())"),
        (Lang::Python, _) => format!("getattr(__import__(\"os\"), \"system\")({s})"),
        (Lang::Perl, 0) => format!("system({s})"),
        (Lang::Perl, 1) => format!("print qx{{{cmd}}}"),
        (Lang::Perl, 2) => format!("open(my $f, \"-|\", {s}); print <$f>"),
        (Lang::Perl, _) => format!("exec({s})"),
        (Lang::Node, 0) => format!("require(\"child_process\").execSync({s})"),
        (Lang::Node, 1) => format!("const {{ execSync: x }} = require(\"child_process\"); x({s})"),
        (Lang::Node, 2) => {
            format!("const cp = require(\"child_process\"); cp.spawnSync({s}, {{ shell: true }})")
        }
        (Lang::Node, _) => format!("require(\"child_process\").exec({s})"),
        (Lang::Ruby, 0) => format!("system({s})"),
        (Lang::Ruby, 1) => format!("puts `{cmd}`"),
        (Lang::Ruby, 2) => format!("puts IO.popen({s}).read"),
        (Lang::Ruby, _) => format!("puts %x({cmd})"),
        (Lang::Php, 0) => format!("system({s});"),
        (Lang::Php, 1) => format!("echo shell_exec({s});"),
        (Lang::Php, 2) => format!("passthru({s});"),
        (Lang::Php, _) => format!("echo `{cmd}`;"),
        (Lang::Lua, 0 | 2) => format!("os.execute({s})"),
        (Lang::Lua, _) => format!("print(io.popen({s}):read(\"*a\"))"),
    };
    format!("{pre}{call}")
}

/// Code that runs `p` with an argument vector (no shell), where the language has one.
fn argv(lang: Lang, p: &Payload) -> Option<String> {
    let words: Vec<String> = std::iter::once(p.program.clone())
        .chain(p.args.iter().cloned())
        .map(|w| format!("\"{w}\""))
        .collect();
    let list = words.join(", ");
    let rest = words.get(1..).unwrap_or_default().join(", ");
    let program = words.first()?.clone();
    Some(match lang {
        Lang::Python => format!("import subprocess as s; s.call([{list}])"),
        Lang::Perl => format!("system({list})"),
        Lang::Node => format!("require(\"child_process\").spawnSync({program}, [{rest}])"),
        Lang::Ruby => format!("system({list})"),
        Lang::Php | Lang::Lua => return None,
    })
}

/// A path expression for `target` (`~`, `~/x` or relative) in `lang`.
fn path(lang: Lang, target: &str) -> String {
    let rel = target.strip_prefix("~/");
    let home = target == "~" || rel.is_some();
    match (lang, home) {
        (_, false) => format!("\"{target}\""),
        (Lang::Python, _) => format!("__import__(\"os\").path.expanduser(\"{target}\")"),
        (Lang::Perl, _) => format!("glob(\"{target}\")"),
        (Lang::Ruby, _) => format!("File.expand_path(\"{target}\")"),
        (Lang::Node, _) => match rel {
            Some(r) => format!("require(\"path\").join(require(\"os\").homedir(), \"{r}\")"),
            None => "require(\"os\").homedir()".into(),
        },
        (Lang::Php, _) => format!("getenv(\"HOME\") . \"{}\"", target.trim_start_matches('~')),
        (Lang::Lua, _) => format!(
            "os.getenv(\"HOME\") .. \"{}\"",
            target.trim_start_matches('~')
        ),
    }
}

/// The language's own calls: delete a tree, delete a file, read a file, reach the network.
fn native(lang: Lang, what: usize, target: &str) -> String {
    let p = path(lang, target);
    match (lang, what % 4) {
        (Lang::Python, 0) => format!("import shutil; shutil.rmtree({p}, ignore_errors=True)"),
        (Lang::Python, 1) => format!("import os; os.remove({p})"),
        (Lang::Python, 2) => format!("print(open({p}).read())"),
        (Lang::Python, _) => "import socket; socket.create_connection((\"10.9.8.7\", 4444))".into(),
        (Lang::Perl, 0) => format!("use File::Path qw(rmtree); rmtree({p})"),
        (Lang::Perl, 1) => format!("unlink({p})"),
        (Lang::Perl, 2) => format!("open(my $f, \"<\", {p}); print <$f>"),
        (Lang::Perl, _) => {
            "use IO::Socket::INET; IO::Socket::INET->new(PeerAddr => \"10.9.8.7\", PeerPort => 4444)".into()
        }
        (Lang::Node, 0) => format!("require(\"fs\").rmSync({p}, {{ recursive: true, force: true }})"),
        (Lang::Node, 1) => format!("require(\"fs\").unlinkSync({p})"),
        (Lang::Node, 2) => format!("console.log(require(\"fs\").readFileSync({p}, \"utf8\"))"),
        (Lang::Node, _) => "require(\"net\").connect(4444, \"10.9.8.7\")".into(),
        (Lang::Ruby, 0) => format!("require \"fileutils\"; FileUtils.rm_rf({p})"),
        (Lang::Ruby, 1) => format!("File.delete({p})"),
        (Lang::Ruby, 2) => format!("puts File.read({p})"),
        (Lang::Ruby, _) => "require \"socket\"; TCPSocket.new(\"10.9.8.7\", 4444)".into(),
        (Lang::Php, 0 | 1) => format!("unlink({p});"),
        (Lang::Php, 2) => format!("echo file_get_contents({p});"),
        (Lang::Php, _) => "fsockopen(\"10.9.8.7\", 4444);".into(),
        (Lang::Lua, 0 | 1 | 3) => format!("os.remove({p})"),
        (Lang::Lua, _) => format!("print(io.open({p}):read(\"*a\"))"),
    }
}

/// The command line that runs `code` in `lang`, the `how`-th way.
fn invoke(lang: Lang, code: &str, how: usize) -> String {
    let (program, flag) = match lang {
        Lang::Python => ("python3", "-c"),
        Lang::Perl => ("perl", "-e"),
        Lang::Node => ("node", "-e"),
        Lang::Ruby => ("ruby", "-e"),
        Lang::Php => ("php", "-r"),
        Lang::Lua => ("lua5.4", "-e"),
    };
    let stdin = if matches!(lang, Lang::Php) {
        "php"
    } else {
        program
    };
    match how % 5 {
        3 if !matches!(lang, Lang::Php) => format!("{stdin} - <<'EOF'\n{code}\nEOF"),
        4 if !matches!(lang, Lang::Php) => format!("echo {} | {stdin}", sq(code)),
        _ => format!("{program} {flag} {}", sq(code)),
    }
}

/// Targets the language's own calls delete or read.
const NATIVE_TARGETS: &[&str] = &[
    "~",
    "~/.ssh",
    "~/.netrc",
    "~/.ssh/id_rsa",
    "build",
    ".env",
    "src",
];

fn harmful() -> impl Strategy<Value = Generated> {
    let payload = prop_oneof![3 => delete(), 2 => read(), 1 => tool()];
    (
        proptest::sample::select(LANGS),
        payload,
        0..3usize,
        0..8usize,
        0..6usize,
        proptest::sample::select(NATIVE_TARGETS),
        0..5usize,
    )
        .prop_map(|(lang, p, kind, how, spelling, target, invocation)| {
            let text = p.text();
            // Perl and PHP strings would interpolate `$HOME` themselves.
            let shell_ok = !(matches!(lang, Lang::Perl | Lang::Php) && text.contains('$'));
            let code = match kind {
                0 if shell_ok => shell_line(lang, &text, how, spelling),
                1 => argv(lang, &p).unwrap_or_else(|| native(lang, how, target)),
                _ => native(lang, how, target),
            };
            Generated {
                line: invoke(lang, &code, invocation),
                benign: false,
            }
        })
}

/// Routine one-liners.
const BENIGN: &[(Lang, &str)] = &[
    (
        Lang::Python,
        "import json,sys; print(json.dumps({\"a\": 1}))",
    ),
    (Lang::Python, "import sys; print(sys.version_info[:2])"),
    (Lang::Python, "print(open(\"README.md\").read()[:100])"),
    (
        Lang::Python,
        "import os; print(os.getcwd(), len(os.listdir(\".\")))",
    ),
    (
        Lang::Python,
        "import re; print(re.findall(r\"[0-9]+\", \"a1b22\"))",
    ),
    (Lang::Perl, "print \"hello\\n\""),
    (
        Lang::Perl,
        "my @a = (3, 1, 2); print join(\",\", sort @a), \"\\n\"",
    ),
    (Lang::Perl, "printf(\"%d\\n\", 6 * 7)"),
    (Lang::Node, "console.log(process.version)"),
    (Lang::Node, "console.log(JSON.stringify({ a: 1 }))"),
    (
        Lang::Node,
        "console.log(require(\"fs\").readFileSync(\"README.md\", \"utf8\").length)",
    ),
    (Lang::Ruby, "puts RUBY_VERSION"),
    (Lang::Ruby, "[3, 1, 2].sort.each { |x| puts x }"),
    (Lang::Ruby, "puts File.read(\"README.md\").lines.first"),
    (Lang::Php, "echo PHP_VERSION, \"\\n\";"),
    (Lang::Php, "echo json_encode([\"a\" => 1]);"),
    (Lang::Lua, "print(_VERSION)"),
    (Lang::Lua, "for i = 1, 3 do print(i) end"),
];

fn benign() -> impl Strategy<Value = Generated> {
    (proptest::sample::select(BENIGN), 0..5usize).prop_map(|((lang, code), how)| Generated {
        line: invoke(lang, code, how),
        benign: true,
    })
}

/// Interpreter lines, mostly harmful ones.
pub fn line() -> impl Strategy<Value = Generated> {
    prop_oneof![4 => harmful(), 1 => benign()]
}
