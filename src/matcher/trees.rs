//! Whether a delete takes a whole tree, beyond what the command's options say.
//!
//! - `mv` of a workspace path to somewhere outside the workspace takes everything below it
//!   out of the project: the destination (in `temp`, or a build output) is then the
//!   agent's to delete, so `mv src /tmp/x && rm -rf /tmp/x` would pass if the move were
//!   read as a rename. Moving to another workspace path is a rename, and stays one.
//! - `rm -r` of a path that is a plain file on this host takes no tree: `rm -rf
//!   package-lock.json` deletes one file. Only when no other command of the line names the
//!   path, since the line could make a directory there first (`mkdir x; mv src x; rm -rf x`).

use std::collections::HashMap;

use super::places::Where;
use super::shell::effects::{PathTouch, Touch};
use super::shell::{CommandLine, SUBSTITUTION};
use crate::config::Place;

/// Adjusts the `recursive` flag of the deletes in `touched` (the touches of each command of
/// `line`, in order). `host`: whether this host's files may be looked at.
pub(super) fn refine(
    places: &Where,
    line: &CommandLine,
    touched: &mut [Vec<PathTouch<'_>>],
    host: bool,
) {
    for (command, touches) in line.commands.iter().zip(touched.iter_mut()) {
        if command.program == "mv" && moves_out(places, command.dir.as_deref(), touches) {
            for t in touches.iter_mut().filter(|t| t.touch == Touch::Delete) {
                t.recursive = true;
            }
        }
    }
    if !host {
        return;
    }
    let named = named_paths(places, line);
    // Each host lookup is a system call: past this many, a delete keeps its tree (the
    // stricter reading), so a line of thousands of `rm -r` operands stays cheap.
    let mut lookups = MAX_LOOKUPS;
    for (k, (command, touches)) in line.commands.iter().zip(touched.iter_mut()).enumerate() {
        let dir = command.dir.as_deref();
        for t in touches
            .iter_mut()
            .filter(|t| t.touch == Touch::Delete && t.recursive && !t.inside && t.base.is_none())
        {
            if t.path.ends_with('/')
                || t.path.contains(['*', '?', '['])
                || t.path.contains(SUBSTITUTION)
            {
                continue;
            }
            let Some(path) = places.absolute(dir, t.path) else {
                continue;
            };
            let elsewhere = named
                .get(&path)
                .is_some_and(|&(first, several)| several || first != k);
            if elsewhere || lookups == 0 {
                continue;
            }
            lookups -= 1;
            let plain_file = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
            if plain_file {
                t.recursive = false;
            }
        }
    }
}

/// Whether the `mv` whose touches these are moves what it moves out of the workspace: its
/// destination is placed anywhere but the workspace.
fn moves_out(places: &Where, dir: Option<&str>, touches: &[PathTouch<'_>]) -> bool {
    let Some(dest) = touches.iter().find(|t| t.touch != Touch::Delete) else {
        return false;
    };
    let placed = places.place_touches(dir, std::slice::from_ref(dest));
    !placed
        .iter()
        .all(|p| matches!(p.place, Place::Workspace | Place::WorkspaceRoot))
}

/// How many paths one line looks up on the host.
const MAX_LOOKUPS: usize = 64;

/// Every word of every command of `line` made absolute: what the line may name, with the
/// first command that names it and whether another one does too. A `--opt=value` names its
/// value too.
fn named_paths(places: &Where, line: &CommandLine) -> HashMap<String, (usize, bool)> {
    let mut out: HashMap<String, (usize, bool)> = HashMap::new();
    for (k, command) in line.commands.iter().enumerate() {
        let dir = command.dir.as_deref();
        let words = command
            .args
            .iter()
            .map(String::as_str)
            .chain(command.redirects.iter().map(|r| r.target.as_str()));
        for word in words {
            let value = word.split_once('=').map(|(_, v)| v);
            for w in std::iter::once(word).chain(value) {
                if let Some(path) = places.absolute(dir, w.trim_end_matches('/')) {
                    let (first, several) = out.entry(path).or_insert((k, false));
                    *several |= *first != k;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::shell::effects::touches;
    use crate::matcher::shell::parse;

    /// For each command of `input` run in the workspace `root`, its deletes as
    /// `(path, recursive)` after refining.
    fn deletes(root: &str, input: &str, host: bool) -> Vec<(String, bool)> {
        let places = Where::new(
            Some(root.to_owned()),
            Some(root.to_owned()),
            Some("/home/nobody-here".to_owned()),
            vec!["/tmp".to_owned()],
        );
        let line = parse(input);
        let mut touched: Vec<_> = line.commands.iter().map(touches).collect();
        refine(&places, &line, &mut touched, host);
        touched
            .iter()
            .flatten()
            .filter(|t| t.touch == Touch::Delete)
            .map(|t| (t.path.to_owned(), t.recursive))
            .collect()
    }

    #[test]
    fn a_move_out_of_the_workspace_takes_the_tree_and_a_rename_does_not() {
        let root = "/nonexistent-workspace";
        let tree = |input| deletes(root, input, false);
        assert_eq!(tree("mv src /tmp/x"), [("src".to_owned(), true)]);
        assert_eq!(tree("mv src build/"), [("src".to_owned(), true)]);
        assert_eq!(tree("mv -t /var/tmp a b").len(), 2);
        assert!(tree("mv -t /var/tmp a b").iter().all(|(_, r)| *r));
        assert_eq!(tree("mv src lib"), [("src".to_owned(), false)]);
        assert_eq!(
            tree("mv src/a.ts src/b.ts"),
            [("src/a.ts".to_owned(), false)]
        );
    }

    #[test]
    fn rm_r_of_a_plain_file_on_this_host_takes_no_tree_unless_the_line_names_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().to_str().expect("utf-8");
        std::fs::write(dir.path().join("package-lock.json"), "{}").expect("write");
        std::fs::write(dir.path().join("notes.txt"), "x").expect("write");
        std::fs::create_dir(dir.path().join("src")).expect("mkdir");
        std::os::unix::fs::symlink(dir.path().join("src"), dir.path().join("link"))
            .expect("symlink");
        let tree = |input| deletes(root, input, true);
        assert_eq!(
            tree("rm -rf node_modules package-lock.json"),
            [
                ("node_modules".to_owned(), true),
                ("package-lock.json".to_owned(), false)
            ]
        );
        assert_eq!(tree("rm -rf src"), [("src".to_owned(), true)]);
        assert_eq!(
            tree("rm -rf missing.txt"),
            [("missing.txt".to_owned(), true)]
        );
        // A link to a directory is not a plain file, whichever way it is written.
        assert_eq!(tree("rm -rf link"), [("link".to_owned(), true)]);
        assert_eq!(tree("rm -rf link/"), [("link/".to_owned(), true)]);
        // The line may make a directory where the file is before it deletes it.
        let named = tree("rm notes.txt; mkdir notes.txt; mv src notes.txt; rm -rf notes.txt");
        assert!(named.contains(&("notes.txt".to_owned(), true)), "{named:?}");
        let named = tree("mkdir ./x/../notes.txt; rm -rf notes.txt");
        assert!(named.contains(&("notes.txt".to_owned(), true)), "{named:?}");
        // Not looked at when host files are not read.
        assert_eq!(
            deletes(root, "rm -rf package-lock.json", false),
            [("package-lock.json".to_owned(), true)]
        );
        // Past the lookups a line may make, a delete keeps its tree.
        let names: Vec<String> = (0..MAX_LOOKUPS + 6).map(|k| format!("f{k}")).collect();
        for n in &names {
            std::fs::write(dir.path().join(n), "x").expect("write");
        }
        let line = format!("rm -rf {}", names.join(" "));
        let many = tree(&line);
        assert_eq!(many.iter().filter(|(_, r)| !r).count(), MAX_LOOKUPS);
        // A file moved out of the workspace is one file.
        assert_eq!(
            tree("mv notes.txt /tmp/n"),
            [("notes.txt".to_owned(), false)]
        );
        assert_eq!(tree("mv src /tmp/s"), [("src".to_owned(), true)]);
    }
}
