//! git read as git reads it: the second, normalised `git` command the reader reports.

use super::*;

/// The texts of the `git` commands read from `input`, with no host to look at.
fn gits(input: &str) -> Vec<String> {
    git_texts(&parse(input))
}

/// The texts of every command read from `input`.
fn all_texts(input: &str) -> Vec<String> {
    parse(input)
        .commands
        .iter()
        .map(SimpleCommand::text)
        .collect()
}

fn git_texts(line: &CommandLine) -> Vec<String> {
    line.commands
        .iter()
        .filter(|c| c.program == "git")
        .map(SimpleCommand::text)
        .collect()
}

#[test]
fn global_options_aliases_and_abbreviations_are_read_away() {
    for (input, read) in [
        ("git -C /repo reset --hard", "git reset --hard"),
        (
            "git -c core.x=1 --no-pager -p reset --hard",
            "git reset --hard",
        ),
        (
            "git --git-dir .git --work-tree=. clean -fdx",
            "git clean -f -d -x",
        ),
        ("git reset --har", "git reset --hard"),
        ("git -c alias.nuke='reset --hard' nuke", "git reset --hard"),
        ("git config alias.undo 'reset --hard'", "git reset --hard"),
        (
            "git config --global alias.pf 'push --force'",
            "git push --force",
        ),
        ("git stash", "git stash push"),
        ("git restore f.txt", "git restore --worktree f.txt"),
        (
            "git -c clean.requireForce=false clean -d",
            "git clean -d --force",
        ),
        ("git branch -Df x", "git branch -D -f x"),
        ("git checkout -- -f", "git checkout -- ./-f"),
    ] {
        let found = gits(input);
        assert!(found.iter().any(|t| t == read), "{input}: {found:?}");
    }
}

#[test]
fn a_git_command_written_as_git_reads_it_is_reported_once() {
    for input in [
        "git reset --hard",
        "git push origin main",
        "git status",
        "git stash push",
    ] {
        assert_eq!(gits(input), [input], "{input}");
    }
}

#[test]
fn the_fast_path_reads_git_as_the_parser_does() {
    // `is_plain` skips the parse only where the parse would report the line itself.
    for input in [
        "git reset --har",
        "git clean -fdx",
        "git stash",
        "git restore f",
    ] {
        assert!(!is_plain(input), "{input}");
    }
    assert!(is_plain("git push origin main"));
    assert!(is_plain("git reset --hard"));
}

#[test]
fn unknown_arguments_and_autocorrect_make_the_line_unreadable() {
    for input in [
        "git reset $MODE",
        "git checkout \"$(cat branch)\"",
        "git -c help.autocorrect=1 rset --hard",
    ] {
        assert!(parse(input).unreadable.is_some(), "{input}");
    }
    // Subcommands that cannot discard work keep reading an unknown argument as before; so
    // does `push`, whose rules ask about an unknown refspec (`$(...)`) instead.
    for input in [
        "git push origin \"$B\"",
        "git commit -m \"$MSG\"",
        "git log \"$REV\"",
        "git -C \"$DIR\" status",
    ] {
        assert!(parse(input).unreadable.is_none(), "{input}");
    }
}

#[test]
fn messages_and_other_programs_are_data() {
    assert_eq!(
        gits("git commit -m \"Fix git push --force detection\""),
        ["git commit -m 'Fix git push --force detection'"]
    );
    let line = parse("git -C x reset --hard");
    let read = line
        .commands
        .iter()
        .find(|c| c.args.first().is_some_and(|a| a == "reset"))
        .and_then(|c| c.origin.clone());
    assert_eq!(read.as_deref(), Some("as git reads it"));
}

/// The texts of the `git` commands read from `input` run in `cwd` on this host.
fn gits_in(cwd: &std::path::Path, input: &str) -> Vec<String> {
    git_texts(&parse_on(input, Host::at(&cwd.to_string_lossy())))
}

#[test]
fn checkout_of_a_name_reads_as_a_path_where_it_may_be_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("src")).expect("mkdir");
    std::fs::write(dir.path().join("README.md"), "x").expect("write");
    let restores = |line: &str, paths: &str| {
        let read = gits_in(dir.path(), line);
        assert!(
            read.iter().any(|g| g.ends_with(&format!("-- {paths}"))),
            "{line}: {read:?}"
        );
    };
    let switches = |line: &str| {
        let read = gits_in(dir.path(), line);
        assert!(!read.iter().any(|g| g.contains(" -- ")), "{line}: {read:?}");
    };
    // Nowhere in the directory: a branch or a commit.
    switches("git checkout main");
    switches("git checkout feature/login");
    switches("git checkout -q HEAD~1");
    switches("git checkout -");
    switches("git checkout -b README.md");
    // There, written by the line, a pattern, or several names: it may restore them.
    restores("git checkout README.md", "README.md");
    restores("git checkout -q src", "src");
    restores("git checkout .", ".");
    restores("echo x > main && git checkout main", "main");
    restores("git checkout '*.md'", "*.md");
    restores("git checkout main src", "src");
    // git's own directory: `-C` is followed, other ways of moving it are not known.
    switches("git -C src checkout README.md");
    restores("git -C . checkout README.md", "README.md");
    restores("git --work-tree=/elsewhere checkout main", "main");
    restores("cd \"$D\" && git checkout main", "main");
    // Where nothing on the host is known, every name may be a path.
    let read = gits("git checkout main");
    assert!(read.iter().any(|g| g == "git checkout -- main"), "{read:?}");
}

#[test]
fn programs_a_transfer_runs_on_the_other_side_are_read() {
    for input in [
        "git clone --upload-pack='rm -rf ~;git-upload-pack' . /tmp/clone",
        "git clone -u 'rm -rf ~' . /tmp/c",
        "git fetch --upload-pack 'rm -rf ~' /tmp/r",
        "git push --receive-pack='rm -rf ~' /tmp/r main",
        "git archive --remote=/tmp/r --exec='rm -rf ~' HEAD",
    ] {
        let line = parse(input);
        assert!(
            line.commands.iter().any(|c| c.text() == "rm -rf ~"),
            "{input}: {line:?}"
        );
    }
    // `fetch -u` is `--update-head-ok`, not a program.
    assert!(
        !parse("git fetch -u origin")
            .commands
            .iter()
            .any(|c| c.program == "origin")
    );
}

#[test]
fn what_ls_files_lists_is_below_the_directory_for_xargs() {
    for (input, read) in [
        (
            "git ls-files -z -- '*.orig' | xargs -0 rm -f",
            "rm -f ./**/*.orig",
        ),
        (
            "git ls-files -z src/*.py | xargs -0 sed -i s/a/b/",
            "sed -i s/a/b/ src/**/*.py",
        ),
        ("git ls-files docs | xargs wc -l", "wc -l docs docs/**/*"),
        ("git ls-files | xargs rm -f", "rm -f ./**/*"),
    ] {
        let texts = all_texts(input);
        assert!(texts.iter().any(|t| t == read), "{input}: {texts:?}");
    }
    // Paths from the top, or outside the directory: not known.
    for input in [
        "git ls-files --full-name -z | xargs -0 rm -f",
        "git ls-files -z ../x | xargs -0 rm -f",
        "git ls-files -z ':(top)' | xargs -0 rm -f",
        "git -C /srv ls-files -z | xargs -0 rm -f",
    ] {
        assert!(parse(input).unreadable.is_some(), "{input}");
    }
}

#[test]
fn object_names_printed_are_known_to_hold_no_quote() {
    for (input, read) in [
        (
            r#"python3 -c "print('build $(git rev-parse --short HEAD)')""#,
            "python3 -c 'print('\\''build *'\\'')'",
        ),
        (
            "tar czf dist/app-$(git log -1 --format=%h).tgz src",
            "tar czf dist/app-*.tgz src",
        ),
        ("echo $(git show -s --pretty=format:%H v1.2)", "echo *"),
    ] {
        let texts = all_texts(input);
        assert!(texts.iter().any(|t| t == read), "{input}: {texts:?}");
    }
    // A branch name or a subject may hold quotes and `$(...)`; so may a patch.
    for input in [
        r#"python3 -c "print('$(git rev-parse --abbrev-ref HEAD)')""#,
        r#"python3 -c "print('$(git log -1 --format=%s)')""#,
        r#"python3 -c "print('$(git show --format=%h HEAD)')""#,
        r#"python3 -c "print('$(git rev-parse "a'b")')""#,
    ] {
        assert!(parse(input).unreadable.is_some(), "{input}");
    }
}

#[test]
fn files_git_writes_and_configuration_from_the_environment_are_read() {
    for (input, command) in [
        ("git log -0 --output=HOOKS.yaml", "tee HOOKS.yaml"),
        ("git diff --output x.patch", "tee x.patch"),
        ("GIT_TRACE=/etc/x git status", "tee -a /etc/x"),
        ("GIT_TRACE2_EVENT=\"$L\" git status", "tee -a '$(...)'"),
    ] {
        assert!(
            all_texts(input).iter().any(|t| t == command),
            "{input}: {:?}",
            all_texts(input)
        );
    }
    // Trace to standard error (`1`, `true`) writes no file.
    assert_eq!(all_texts("GIT_TRACE=1 git status"), ["git status"]);
    // Pairs of keys and values are `-c` options.
    let safe =
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0=/r git status";
    assert_eq!(parse(safe).unreadable, None);
    let alias =
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0='!rm -rf /x' git st";
    assert!(
        all_texts(alias).iter().any(|t| t == "rm -rf /x"),
        "{:?}",
        all_texts(alias)
    );
    let unknown =
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=\"$P\" git log";
    assert!(parse(unknown).unreadable.is_some());
}
