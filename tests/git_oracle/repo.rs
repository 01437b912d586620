//! The throwaway repository real git runs each command in, and what "lost" means.
//!
//! `work/` holds `repo/` (the agent's checkout), `wt/` (a linked worktree of it, with a
//! change of its own) and `remote.git/` (its `origin`, a bare repository on disk, so pushes
//! work offline). It is built once in `work/`, kept as `template/`, and copied back over
//! `work/` before each command: the linked worktree and the remote are named by absolute
//! paths, which stay right because every copy sits at the same place.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What holds work at one moment.
pub struct Holdings {
    /// The blobs of the files in the working trees and the indexes.
    pub files: BTreeSet<String>,
    /// Every object reachable from a ref, HEAD or a stash entry, here and on the remote.
    pub objects: BTreeSet<String>,
}

/// The directories of one oracle run.
pub struct Sandbox {
    _dir: tempfile::TempDir,
    pub work: PathBuf,
    template: PathBuf,
    home: PathBuf,
}

/// `git` with a clean environment: no system or user configuration but a throwaway
/// `HOME`'s, no pager, editor or prompt, fixed identities and dates.
pub fn git_command(home: &Path, cwd: &Path) -> Command {
    let mut c = Command::new("git");
    c.current_dir(cwd);
    env(&mut c, home);
    c
}

fn env(c: &mut Command, home: &Path) {
    c.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_EDITOR", "true")
        .env("GIT_PAGER", "cat")
        .env("PAGER", "cat")
        .env("GIT_AUTHOR_NAME", "Oracle")
        .env("GIT_AUTHOR_EMAIL", "oracle@example.invalid")
        .env("GIT_COMMITTER_NAME", "Oracle")
        .env("GIT_COMMITTER_EMAIL", "oracle@example.invalid")
        .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
        .env("FILTER_BRANCH_SQUELCH_WARNING", "1")
        .stdin(Stdio::null());
}

impl Sandbox {
    /// Builds the repository: committed, modified, staged, untracked and ignored files, two
    /// stashes, a linked worktree with a change, an unmerged branch, a merged one, and a
    /// remote whose `main` holds a commit the local `main` lacks (as if someone else had
    /// pushed), whose `topic` exists nowhere else but in `origin/topic`.
    pub fn new() -> Sandbox {
        let dir = tempfile::tempdir().expect("tempdir");
        let work = dir.path().join("work");
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home).expect("home");
        std::fs::write(
            home.join(".gitconfig"),
            "[init]\n\tdefaultBranch = main\n\ttemplateDir = \n[advice]\n\tdetachedHead = false\n[gc]\n\tauto = 0\n",
        )
        .expect("gitconfig");
        std::fs::create_dir_all(&work).expect("work");
        let sandbox = Sandbox {
            template: dir.path().join("template"),
            _dir: dir,
            work,
            home,
        };
        sandbox.build();
        copy_tree(&sandbox.work, &sandbox.template);
        sandbox
    }

    pub fn repo(&self) -> PathBuf {
        self.work.join("repo")
    }

    fn sh(&self, cwd: &Path, script: &str) {
        let out = Command::new("bash")
            .arg("-ec")
            .arg(script)
            .current_dir(cwd)
            .output_with(&self.home);
        assert!(
            out.status.success(),
            "fixture step failed: {script}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn build(&self) {
        let w = &self.work;
        self.sh(
            w,
            "git init -q --bare remote.git
             git init -q repo
             cd repo
             git remote add origin ../remote.git
             mkdir -p src docs
             printf 'readme v1\\n' > README.md
             printf 'lib v1\\n' > src/lib.rs
             printf 'guide v1\\n' > docs/guide.md
             printf 'tracked, unchanged\\n' > keep.txt
             printf '*.log\\nbuild/\\n' > .gitignore
             git add -A && git commit -qm A && git tag v1
             printf 'lib v2\\n' > src/lib.rs
             git commit -qam B
             git branch merged
             git branch feature
             git push -q origin main
             git switch -qc topic
             printf 'topic work\\n' > t.txt
             git add t.txt && git commit -qm T
             git push -q origin topic
             git switch -q main
             git branch -qD topic
             git switch -qc unmerged
             printf 'unmerged work\\n' > u.txt
             git add u.txt && git commit -qm U
             git switch -q main",
        );
        // Someone else pushes to main.
        self.sh(
            w,
            "git clone -q remote.git other
             cd other
             printf 'their work\\n' > r.txt
             git add r.txt && git commit -qm R && git push -q origin main
             cd .. && rm -rf other
             cd repo && git fetch -q origin",
        );
        self.sh(
            &self.repo(),
            "printf 'local unpushed\\n' > l.txt
             git add l.txt && git commit -qm L
             printf 'stash one\\n' > README.md && git stash -q
             printf 'stash two\\n' > README.md && git stash -q
             git worktree add -q ../wt -b wip
             printf 'worktree change\\n' > ../wt/keep.txt
             printf 'lib modified\\n' > src/lib.rs
             printf 'guide staged\\n' > docs/guide.md && git add docs/guide.md
             printf 'staged new\\n' > staged.txt && git add staged.txt
             printf 'untracked\\n' > untracked.txt
             mkdir scratch && printf 'scratch\\n' > scratch/a.txt
             printf 'log\\n' > debug.log
             mkdir build && printf 'built\\n' > build/out.bin
             git repack -q -a -d && git pack-refs --all
             git -C ../remote.git repack -q -a -d && git -C ../remote.git pack-refs --all",
        );
    }

    /// Puts the repository back as built.
    pub fn reset(&self) {
        std::fs::remove_dir_all(&self.work).expect("rm work");
        copy_tree(&self.template, &self.work);
    }

    /// Runs `line` with bash in `repo/`; returns whether it exited 0.
    pub fn run(&self, line: &str) -> bool {
        let out = Command::new("timeout")
            .args(["20", "bash", "-c", line])
            .current_dir(self.repo())
            .output_with(&self.home);
        out.status.success()
    }

    /// Every object that holds work right now: the blobs of the files in both working
    /// trees (untracked and ignored ones too) and both indexes, and every object reachable
    /// from a ref, HEAD or a stash entry, here and on the remote. The reflog does not count.
    pub fn holdings(&self) -> Holdings {
        let mut out = BTreeSet::new();
        let mut files = Vec::new();
        for tree in ["repo", "wt"] {
            collect_files(&self.work.join(tree), &mut files);
        }
        if !files.is_empty() {
            let list: String = files.iter().map(|p| format!("{}\n", p.display())).collect();
            out.extend(self.git_lines(
                &self.repo(),
                &["hash-object", "--no-filters", "--stdin-paths"],
                &list,
            ));
        }
        for tree in ["repo", "wt"] {
            let dir = self.work.join(tree);
            if dir.join(".git").exists() {
                for line in self.git_lines(&dir, &["ls-files", "-s"], "") {
                    if let Some(hash) = line.split_whitespace().nth(1) {
                        out.insert(hash.to_owned());
                    }
                }
            }
        }
        let files = std::mem::take(&mut out);
        let repo = self.repo();
        let stashes = self.git_lines(&repo, &["stash", "list", "--format=%H"], "");
        let mut args = vec!["rev-list", "--objects", "--all", "--no-object-names"];
        args.extend(stashes.iter().map(String::as_str));
        out.extend(self.git_lines(&repo, &args, ""));
        out.extend(self.git_lines(
            &self.work.join("remote.git"),
            &["rev-list", "--objects", "--all", "--no-object-names"],
            "",
        ));
        Holdings {
            files,
            objects: out,
        }
    }

    /// The blobs among `objects` (the fixture's holdings, so the work to keep).
    pub fn blobs(&self, objects: &BTreeSet<String>) -> BTreeSet<String> {
        let input: String = objects.iter().map(|o| format!("{o}\n")).collect();
        self.git_lines(
            &self.repo(),
            &["cat-file", "--batch-check=%(objecttype) %(objectname)"],
            &input,
        )
        .iter()
        .filter_map(|l| l.strip_prefix("blob ").map(str::to_owned))
        .collect()
    }

    fn git_lines(&self, cwd: &Path, args: &[&str], stdin: &str) -> Vec<String> {
        use std::io::Write as _;
        let mut c = git_command(&self.home, cwd);
        c.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = c.spawn().expect("git");
        if let Some(mut i) = child.stdin.take() {
            i.write_all(stdin.as_bytes()).expect("stdin");
        }
        let out = child.wait_with_output().expect("git output");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

/// Copies the directory `from` to `to`: directories, files with their modes, symbolic links.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            copy_tree(&src, &dst);
        } else if kind.is_symlink() {
            let target = std::fs::read_link(&src).expect("readlink");
            std::os::unix::fs::symlink(target, &dst).expect("symlink");
        } else {
            std::fs::copy(&src, &dst).expect("copy");
        }
    }
}

/// The regular files under `dir`, skipping git's own directories.
fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_name() == ".git" {
            continue;
        }
        match entry.file_type() {
            Ok(t) if t.is_dir() => collect_files(&path, out),
            Ok(t) if t.is_file() => out.push(path),
            _ => {}
        }
    }
}

/// Running a prepared command in the oracle's environment.
trait OutputWith {
    fn output_with(&mut self, home: &Path) -> std::process::Output;
}

impl OutputWith for Command {
    fn output_with(&mut self, home: &Path) -> std::process::Output {
        env(self, home);
        self.output().expect("run")
    }
}
