//! The commands the oracle runs: git subcommands that can or cannot lose work, each in
//! several spellings git reads the same way.

/// One generated command: the line, and the subcommand's arguments it was made from (the
/// key of [`OVER_APPROXIMATIONS`]).
pub struct Generated {
    pub line: String,
    pub base: &'static str,
}

/// Arguments after `git`, for the fixture in `repo.rs`. Abbreviations and bundles are
/// written here; `spell` adds the ways of writing git itself.
pub const BASES: &[&str] = &[
    // reset
    "reset --hard",
    "reset --har",
    "reset --h HEAD~1",
    "reset HEAD~1 --hard",
    "reset --merge",
    "reset --mer HEAD~1",
    "reset --keep HEAD~1",
    "reset --kee",
    "reset --soft HEAD~1",
    "reset --so HEAD~1",
    "reset HEAD~1",
    "reset",
    "reset -q -- docs/guide.md",
    "reset --mixed",
    // checkout, switch, restore
    "checkout -- .",
    "checkout .",
    "checkout src/lib.rs",
    "checkout -- src/lib.rs",
    "checkout HEAD -- docs/guide.md",
    "checkout -f",
    "checkout --forc",
    "checkout -f feature",
    "checkout -qf feature",
    "checkout feature",
    "checkout -q unmerged",
    "checkout -m feature",
    "checkout -b newbranch",
    "checkout -b newbranch feature",
    "checkout -",
    "checkout -B unmerged main",
    "switch feature",
    "switch -c newbranch",
    "switch -f feature",
    "switch --discard-changes feature",
    "switch --disc feature",
    "switch -C unmerged main",
    "restore .",
    "restore src/lib.rs",
    "restore --worktree src/lib.rs",
    "restore --staged docs/guide.md",
    "restore -S .",
    "restore --stag staged.txt",
    "restore -SW docs/guide.md",
    "restore --source=HEAD~1 src/lib.rs",
    "restore -s HEAD~1 src/lib.rs",
    // clean, rm
    "clean -f",
    "clean -fd",
    "clean -fdx",
    "clean -xdf",
    "clean -fX",
    "clean -f -d -x",
    "clean --force",
    "clean --fo -d",
    "clean -n",
    "clean -nd",
    "clean --dry-run -x",
    "clean -fn",
    "clean -d",
    "rm -f src/lib.rs",
    "rm -rf src",
    "rm --cached keep.txt",
    "rm keep.txt",
    "rm src/lib.rs",
    "rm -f keep.txt",
    // stash
    "stash",
    "stash push",
    "stash -u",
    "stash push -m wip",
    "stash pop",
    "stash apply",
    "stash list",
    "stash drop",
    "stash drop stash@{1}",
    "stash drop -q",
    "stash clear",
    // branch
    "branch -D unmerged",
    "branch -Dq unmerged",
    "branch --delete --force unmerged",
    "branch --del --forc unmerged",
    "branch -d -f unmerged",
    "branch -d unmerged",
    "branch -d merged",
    "branch -D merged",
    "branch -f unmerged main",
    "branch -M feature unmerged",
    "branch newbranch",
    "branch -a",
    // push
    "push",
    "push origin main",
    "push --force origin main",
    "push -f origin main",
    "push origin +main",
    "push origin main --force",
    "push --force-with-lease origin main",
    "push --force-w origin main",
    "push --delete origin topic",
    "push origin -d topic",
    "push origin :topic",
    "push --mirror origin",
    "push --prune origin refs/heads/*:refs/heads/*",
    "push -u origin feature",
    "push origin unmerged",
    "push --dry-run --force origin main",
    "push --force origin unmerged",
    // history, refs, worktrees, recovery
    "filter-branch -f --msg-filter cat HEAD",
    "update-ref -d refs/heads/unmerged",
    "update-ref refs/heads/unmerged main",
    "update-ref refs/heads/newref HEAD",
    "worktree remove ../wt",
    "worktree remove -f ../wt",
    "worktree remove --for ../wt",
    "reflog expire --expire=now --all",
    "gc --prune=now",
    "prune",
    "gc",
    // everyday
    "status",
    "add -A",
    "commit -m wip",
    "commit -am wip",
    "log --oneline",
    "diff",
    "fetch",
];

/// Commands the pack stops although, in this repository, real git lost nothing, with why:
/// what they lose depends on what the names are or on state the pack cannot see.
pub const OVER_APPROXIMATIONS: &[(&str, &str)] = &[
    (
        "reset --kee",
        "--keep to HEAD only unstages; to another commit it drops commits",
    ),
    (
        "reset --merge",
        "to HEAD it kept the changes here; to another commit it drops commits",
    ),
    (
        "reset --mer HEAD~1",
        "git refused here (local changes); in a clean tree it drops a commit",
    ),
    (
        "reset --keep HEAD~1",
        "git refused here (local changes); in a clean tree it drops a commit",
    ),
    (
        "push --mirror origin",
        "the mirrored remote-tracking refs keep the old commits here",
    ),
    (
        "checkout -m feature",
        "the changes merged without conflict here",
    ),
    (
        "clean -fn",
        "-n beside -f is a dry run; a filter cannot say 'without -n'",
    ),
    ("rm -f keep.txt", "keep.txt had no changes here"),
    ("branch -D merged", "the branch was merged here"),
    (
        "push --dry-run --force origin main",
        "--dry-run beside --force pushes nothing",
    ),
    (
        "push --force origin unmerged",
        "the remote had no such branch here",
    ),
    (
        "filter-branch -f --msg-filter cat HEAD",
        "refs/original keeps the old commits",
    ),
    (
        "update-ref refs/heads/newref HEAD",
        "the ref was new here; moving one drops commits",
    ),
    (
        "gc --prune=now",
        "removes the way back, not work (unreachable objects are not counted)",
    ),
    (
        "prune",
        "removes the way back, not work (unreachable objects are not counted)",
    ),
];

/// Ways of writing git before its subcommand that git reads the same way.
fn spell(kind: usize, args: &str) -> Option<String> {
    Some(match kind {
        0 => format!("git {args}"),
        1 => format!("git -C ../repo {args}"),
        2 => format!("git -c color.ui=never --no-pager {args}"),
        3 => format!("git --git-dir=.git --work-tree=. {args}"),
        4 if !args.contains(['\'', '*']) => format!("git -c alias.zz='{args}' zz"),
        5 if !args.contains(['\'', '*']) => {
            format!("git config alias.zz '{args}' && git zz")
        }
        6 => format!("/usr/bin/env git {args}"),
        _ => return None,
    })
}

/// Every base as written, plus one other spelling each, picked by a fixed-seed generator.
pub fn generate() -> Vec<Generated> {
    let mut seed: u64 = 0x5eed_0024;
    let mut next = |n: usize| {
        // xorshift64: the same sequence on every run.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % n as u64).unwrap_or(0)
    };
    let mut out = Vec::new();
    for base in BASES {
        let quoted = base.replace('*', "\\*");
        let mut kinds = vec![0];
        while kinds.len() < 2 {
            let k = 1 + next(6);
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
        for k in kinds {
            let args = if k == 4 || k == 5 {
                base.to_string()
            } else {
                quoted.clone()
            };
            if let Some(line) = spell(k, &args) {
                out.push(Generated { line, base });
            }
        }
    }
    out
}
