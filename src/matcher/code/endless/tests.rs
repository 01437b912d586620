use crate::matcher::code::{Lang, read};

#[test]
fn a_function_that_calls_itself_around_a_fork_is_a_fork_bomb() {
    for (lang, code) in [
        (
            Lang::Python,
            "import os\ndef b():\n    os.fork(); os.fork(); b()\nb()",
        ),
        (Lang::Python, "import os; f = lambda: [os.fork(), f()]; f()"),
        (
            Lang::Python,
            "import threading\ndef t():\n    threading.Thread(target=t).start()\nt()",
        ),
        (
            Lang::Python,
            "import multiprocessing as mp\ndef boom():\n    while True:\n        mp.Process(target=boom).start()\nboom()",
        ),
        (
            Lang::JavaScript,
            "const cp = require('child_process'); (function f() { cp.exec('sleep 9'); setImmediate(f); })()",
        ),
        (
            Lang::JavaScript,
            "const cp = require('child_process'); const f = () => { cp.spawn('sleep', ['9']); f(); }; f()",
        ),
        (Lang::Perl, "sub f { fork; fork; f() } f()"),
        // A sub held by a variable, calling itself through it.
        (Lang::Perl, "my $g; $g = sub { fork; $g->() }; $g->()"),
        (Lang::Perl, "my $g = sub { fork; $g->() }; $g->()"),
        (
            Lang::Php,
            "$g = function () use (&$g) { pcntl_fork(); $g(); }; $g();",
        ),
        (Lang::Ruby, "g = ->{ fork; g.() }; g.()"),
    ] {
        assert!(read(lang, code).unreadable.is_some(), "{code}");
    }
    // One that does not call itself is not.
    assert!(
        read(Lang::Perl, "my $f = sub { fork }; $f->(); $f->()")
            .unreadable
            .is_none()
    );
}

#[test]
fn a_directory_walk_that_calls_itself_ends_where_the_tree_does() {
    let walk = |body: &str| {
        format!(
            "const fs = require('fs'), path = require('path');\nfunction walk(d) {{\n  for (const e of fs.readdirSync(d, {{ withFileTypes: true }})) {{\n    const p = path.join(d, e.name);\n    {body}\n  }}\n}}\nwalk('src');"
        )
    };
    let unreadable = |code: &str| read(Lang::JavaScript, code).unreadable;
    let rewrite = walk(
        "if (e.isDirectory()) walk(p); else fs.writeFileSync(p, fs.readFileSync(p, 'utf8').trim());",
    );
    assert!(unreadable(&rewrite).is_none(), "{rewrite}");
    let python = "import os\ndef walk(d):\n    for e in os.scandir(d):\n        if e.is_dir():\n            walk(e.path)\n        else:\n            open(e.path, 'a').close()\nwalk('src')";
    assert!(read(Lang::Python, python).unreadable.is_none());
    // The same directory again each time never ends; a fork doubles the walkers.
    for body in [
        "fs.writeFileSync(p, 'x'); walk(d);",
        "require('child_process').fork('x.js'); walk(p);",
    ] {
        let code = walk(body);
        assert!(unreadable(&code).is_some(), "{code}");
    }
    // A listing only in a comment, or of another directory than the parameter's, does
    // not bound the recursion.
    for code in [
        "const fs = require('fs');\nfunction f(d) {\n  for (const x of [1, 2]) { /* fs.readdirSync(d) */ fs.writeFileSync('a' + x, 'x'); f(d + 'x'); }\n}\nf('a');",
        "const fs = require('fs');\nfunction f(d) {\n  for (const e of fs.readdirSync('.')) { fs.writeFileSync(e, 'x'); f(d + 'x'); }\n}\nf('a');",
    ] {
        assert!(unreadable(code).is_some(), "{code}");
    }
    let ruby = "def walk(d)\n  Dir.each_child(d) { |e| p = File.join(d, e); File.directory?(p) ? walk(p) : File.write(p, File.read(p).strip) }\nend\nwalk('src')";
    assert!(read(Lang::Ruby, ruby).unreadable.is_none());
    // On one line, a program started outside a function is told apart by its bytes;
    // a file opened outside and written inside is still inside.
    assert!(unreadable("const fs = require('fs'); const f = (o) => typeof o === 'object' ? Object.values(o).map(f) : o; f(require('./a.json'))").is_none());
    assert!(unreadable("const w = require('fs').createWriteStream('/tmp/x'); const b = Buffer.alloc(1 << 20); (function f() { while (w.write(b)); w.once('drain', f) })()").is_some());
}

#[test]
fn a_loop_that_never_ends_and_grows_a_value_is_a_memory_bomb() {
    let bomb = "the code grows what it holds in a loop that never ends (a memory bomb)";
    for (lang, code) in [
        (
            Lang::Python,
            "a = []\nwhile True:\n    a.append('x' * 10**8)",
        ),
        (
            Lang::JavaScript,
            "const a=[];for(;;)a.push(Buffer.alloc(1<<26,1))",
        ),
        (Lang::Php, "$a=[]; while(1) $a[]=str_repeat('x',1<<27);"),
        (Lang::Ruby, "a = []; loop { a << 'x' * 2**27 }"),
        (
            Lang::Lua,
            "local t = {} while true do table.insert(t, string.rep('x', 2^27)) end",
        ),
        (Lang::Perl, "$x .= 'A' x 2**30 while 1"),
        (Lang::Perl, "my @a; while (1) { push @a, 'x' x 2**20 }"),
        (
            Lang::Php,
            "$s = ''; while (true) { $s .= str_pad('', 1 << 20); }",
        ),
    ] {
        assert_eq!(
            read(lang, code).unreadable.map(|u| u.reason),
            Some(bomb),
            "{code}"
        );
    }
    // A loop that is left, or one that only reads, is ordinary.
    for (lang, code) in [
        (
            Lang::Python,
            "import sys\nn = 0\nwhile True:\n    line = sys.stdin.readline()\n    if not line: break\n    n += 1\nprint(n)",
        ),
        (
            Lang::Python,
            "xs = []\nfor i in range(10):\n    xs.append(i)\nprint(xs)",
        ),
        // A reaper that returns when no child is left; a generator fed with `send`.
        (
            Lang::Python,
            "import os, signal\ndef reap(s, f):\n    while True:\n        pid, _ = os.waitpid(-1, os.WNOHANG)\n        if pid == 0:\n            return\nsignal.signal(signal.SIGCHLD, reap)",
        ),
        (
            Lang::Python,
            "def counter():\n    n = 0\n    while True:\n        x = yield n\n        n += 1\nc = counter()\nnext(c)\nprint(c.send(1))",
        ),
    ] {
        assert_eq!(read(lang, code).unreadable, None, "{code}");
    }
}

#[test]
fn recursion_or_processes_alone_are_ordinary() {
    for (lang, code) in [
        (
            Lang::Python,
            "def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\nprint(fact(5))",
        ),
        (
            Lang::Python,
            "import subprocess\ndef run(c):\n    subprocess.run(c)\nrun(['ls'])\nrun(['pwd'])",
        ),
        (
            Lang::Python,
            "import os, subprocess\ndef walk(d):\n    for e in os.scandir(d):\n        if e.is_dir(): walk(e.path)\nwalk('src')\nsubprocess.run(['git', 'status'])",
        ),
        (
            Lang::Python,
            "import multiprocessing as mp\nfor i in range(4):\n    mp.Process(target=print).start()",
        ),
        (
            Lang::JavaScript,
            "const fs = require('fs'); function walk(d) { for (const e of fs.readdirSync(d)) console.log(e); } walk('src')",
        ),
    ] {
        assert_eq!(read(lang, code).unreadable, None, "{code}");
    }
}

#[test]
fn a_device_that_never_ends_read_or_copied_to_its_end_is_a_bomb() {
    use crate::matcher::code::testing::effects;
    let bomb = Some(crate::matcher::code::scope::READS_ENDLESS);
    for (lang, code) in [
        (Lang::JavaScript, "require('fs').readFileSync('/dev/zero')"),
        (
            Lang::JavaScript,
            "await require('fs/promises').readFile('/dev/urandom')",
        ),
        (Lang::Ruby, "File.read('/dev/zero')"),
        (Lang::Ruby, "File.binread('/dev/urandom').size"),
        (Lang::Lua, "local b = io.open('/dev/zero', 'rb'):read('a')"),
        (
            Lang::Lua,
            "local f = io.open('/dev/urandom'); print(#f:read('*a'))",
        ),
        (Lang::Php, "$x = file_get_contents('/dev/zero');"),
    ] {
        assert_eq!(
            read(lang, code).unreadable.map(|u| u.reason),
            bomb,
            "{code}"
        );
    }
    // Read a few bytes at a time, or an ordinary file whole.
    for (lang, code) in [
        (
            Lang::JavaScript,
            "require('fs').readFileSync('package.json')",
        ),
        (
            Lang::JavaScript,
            "require('fs').createReadStream('/dev/urandom', {end: 15})",
        ),
        (Lang::Ruby, "File.read('/dev/urandom', 16)"),
        (
            Lang::Lua,
            "local f = io.open('/dev/urandom', 'rb'); print(f:read(16))",
        ),
        (
            Lang::Lua,
            "for l in io.open('data.txt'):lines() do print(l) end",
        ),
        (
            Lang::Php,
            "$f = fopen('/dev/urandom', 'rb'); echo bin2hex(fread($f, 16));",
        ),
    ] {
        assert_eq!(read(lang, code).unreadable, None, "{code}");
    }
    // Copied to its end, it fills the disk: `cp /dev/zero FILE`, as in the shell; copied
    // from a file, or a length at a time, it does not.
    for (lang, code, fills) in [
        (
            Lang::Python,
            "import shutil\nwith open('/dev/zero', 'rb') as s, open('/var/tmp/x', 'wb') as d:\n    shutil.copyfileobj(s, d)",
            true,
        ),
        (
            Lang::Php,
            "$a = fopen('/dev/zero', 'rb'); stream_copy_to_stream($a, fopen('/var/tmp/x', 'wb'));",
            true,
        ),
        (
            Lang::Python,
            "import shutil\nwith open('src/a.py', 'rb') as s, open('/var/tmp/x', 'wb') as d:\n    shutil.copyfileobj(s, d)",
            false,
        ),
        (
            Lang::Php,
            "stream_copy_to_stream(fopen('/dev/zero', 'rb'), fopen('/var/tmp/x', 'wb'), 4096);",
            false,
        ),
    ] {
        let found = effects(lang, code);
        let copies = found.contains(&"cp /dev/zero /var/tmp/x".to_owned());
        assert_eq!(copies, fills, "{code}: {found:?}");
    }
}
