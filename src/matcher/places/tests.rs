use std::path::Path;

use super::gitignore::{MAX_GITIGNORE, read_gitignore};
use super::*;

fn at(cwd: Option<&str>, workspace: Option<&str>) -> Where {
    Where::new(
        cwd.map(str::to_owned),
        workspace.map(str::to_owned),
        Some("/home/u".to_owned()),
        vec!["/tmp".to_owned(), "/var/tmp".to_owned()],
    )
}

/// The places of a context whose `cwd` is `dir`, read from this host.
fn from_cwd(dir: &str) -> Where {
    Where::of(&HookContext {
        cwd: Some(dir.to_owned()),
        ..HookContext::new("s")
    })
}

#[test]
fn every_file_of_a_directory_or_of_a_source_kind_names_a_tree() {
    for path in [
        "src/*",
        "src/**/*",
        "src/**",
        "*",
        "src/**/*.py",
        "*.ts",
        "a/*.{rb,js}",
    ] {
        assert!(names_a_tree(path), "{path}");
    }
    for path in [
        "src/a.py",
        "build/*.o",
        "*.pyc",
        "logs/*.log",
        "*.{o,a}",
        "src/x*",
    ] {
        assert!(!names_a_tree(path), "{path}");
    }
}

#[test]
fn places_paths_against_the_workspace_home_and_temp() {
    let w = at(Some("/home/u/proj/src"), Some("/home/u/proj"));
    let here = Some(".");
    for (path, place) in [
        ("main.rs", Place::Workspace),
        ("../build", Place::Regenerable),
        ("/home/u/proj/node_modules/x", Place::Regenerable),
        ("~/node_modules/left-pad", Place::Regenerable),
        ("~/scripts/__pycache__", Place::Regenerable),
        // Test runners' caches and coverage data (blind round 51).
        ("../.phpunit.cache", Place::Regenerable),
        ("../cover_db", Place::Regenerable),
        ("luacov.stats.out", Place::Regenerable),
        ("~/build/x", Place::Home),
        ("~/node_modules", Place::Regenerable),
        ("/usr/lib/node_modules/x", Place::System),
        ("..", Place::WorkspaceRoot),
        ("../.git", Place::WorkspaceRoot),
        ("../.git/config", Place::WorkspaceRoot),
        ("../..", Place::Home),
        ("~", Place::Home),
        ("~/Downloads/*.md", Place::Home),
        ("~alice/x", Place::Home),
        // The reader keeps `$HOME` inside a word (`of=$HOME/.bashrc`).
        ("$HOME/.bashrc", Place::Home),
        ("${HOME}", Place::Home),
        ("$HOMEDIR/x", Place::Workspace),
        ("/tmp/test", Place::Temp),
        ("/tmp", Place::System),
        ("/etc/passwd", Place::System),
        ("/", Place::System),
        ("../../../../etc", Place::System),
        ("$(...)", Place::Unknown),
        ("../*", Place::Workspace),
        ("../target/*", Place::Regenerable),
        ("../*__pycache__", Place::Regenerable),
        ("../*src", Place::Workspace),
        // Names a build makes by their ending: setuptools' `NAME.egg-info`.
        ("../*.egg-info", Place::Regenerable),
        ("../src/app.egg-info/PKG-INFO", Place::Regenerable),
        ("../egg-info", Place::Workspace),
        // A pattern that may name the workspace's `.git` (what `find .. -name .git`
        // finds, at no depth too); `*` does not name a hidden directory.
        ("../.gi?", Place::WorkspaceRoot),
        ("../.[g]it/config", Place::WorkspaceRoot),
        ("../**/.git", Place::WorkspaceRoot),
        ("../**/.g*", Place::WorkspaceRoot),
        ("../src/.gi?", Place::Workspace),
        ("../**/__pycache__", Place::Regenerable),
        ("~/*", Place::Home),
        ("/*", Place::System),
        // A pattern that can match the home directory on its way down is in it.
        ("/home/*/.ssh/id_*", Place::Home),
        ("/h*/u/x", Place::Home),
        ("/home/v*/x", Place::System),
        ("/home/**/*", Place::Home),
        ("/home/**", Place::Home),
        ("/**/x", Place::System),
        ("/var/**/x", Place::System),
    ] {
        assert_eq!(w.place(here, path), place, "{path}");
    }
    assert_eq!(w.place_inside(here, ".."), Place::Workspace);
    assert_eq!(w.place_inside(here, "../target/"), Place::Regenerable);
    assert_eq!(w.place_inside(here, "/tmp"), Place::Temp);
    // `cd` on the line.
    assert_eq!(w.place(Some("/tmp"), "x"), Place::Temp);
    assert_eq!(w.place(Some("~"), "Documents"), Place::Home);
    assert_eq!(w.place(Some("./.."), "dist"), Place::Regenerable);
    assert_eq!(w.place(None, "x"), Place::Unknown);
    assert_eq!(w.place(None, "/etc"), Place::System);
}

#[test]
fn a_path_with_a_part_not_known_is_in_the_system_only_below_a_system_directory() {
    let w = at(Some("/home/u/proj"), Some("/home/u/proj"));
    let here = Some(".");
    for (path, place) in [
        ("/sys/fs/cgroup$(...)/cgroup.kill", Place::System),
        ("/etc/$(...)", Place::System),
        ("/$(...)", Place::Unknown),
        ("/tmp/$(...)", Place::Unknown),
        ("/home/u/$(...)", Place::Unknown),
        ("/home/u/proj/$(...)/x", Place::Unknown),
        ("/et*/$(...)", Place::Unknown),
        ("build/$(...)", Place::Unknown),
    ] {
        assert_eq!(w.place(here, path), place, "{path}");
    }
}

#[test]
fn without_a_cwd_relative_paths_are_unknown_and_home_is_never_a_workspace() {
    let w = at(None, None);
    assert_eq!(w.place(Some("."), "build"), Place::Unknown);
    assert_eq!(w.place(Some("."), "~/build"), Place::Home);
    assert_eq!(at(Some("/home/u"), Some("/home/u")).workspace(), None);
    assert_eq!(at(Some("/"), Some("/")).workspace(), None);
    // Nor a directory holding it: its files would be the agent's to write.
    let w = at(Some("/home"), Some("/home"));
    assert_eq!(w.workspace(), None);
    assert_eq!(w.place(None, "/home/u/.bashrc"), Place::Home);
    // A sibling named alike is a workspace like any other.
    assert_eq!(
        at(Some("/home/u2"), Some("/home/u2")).workspace(),
        Some("/home/u2")
    );
}

#[test]
fn the_workspace_is_the_nearest_git_ancestor_but_never_home() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap().to_owned();
    std::fs::create_dir_all(format!("{root}/home/proj/.git")).unwrap();
    std::fs::create_dir_all(format!("{root}/home/proj/src/deep")).unwrap();
    std::fs::create_dir_all(format!("{root}/home/.git")).unwrap();
    std::fs::create_dir_all(format!("{root}/home/other")).unwrap();
    let home = format!("{root}/home");
    assert_eq!(
        find_workspace(&format!("{root}/home/proj/src/deep"), Some(&home)),
        Some(format!("{root}/home/proj"))
    );
    assert_eq!(
        find_workspace(&format!("{root}/home/other"), Some(&home)),
        None
    );
}

#[test]
fn what_the_workspace_gitignore_ignores_is_regenerable_but_not_env_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap().to_owned();
    std::fs::create_dir_all(format!("{root}/.git")).unwrap();
    std::fs::create_dir_all(format!("{root}/generated/api")).unwrap();
    std::fs::write(format!("{root}/.gitignore"), "generated/\n*.log\n.env\n").unwrap();
    let w = from_cwd(&root);
    assert_eq!(w.workspace(), Some(root.as_str()));
    let here = Some(".");
    assert_eq!(w.place(here, "generated"), Place::Regenerable);
    assert_eq!(w.place(here, "generated/api/x.rs"), Place::Regenerable);
    assert_eq!(w.place(here, "server.log"), Place::Regenerable);
    assert_eq!(w.place(here, ".env"), Place::Workspace);
    assert_eq!(w.place(here, "src"), Place::Workspace);
}

#[test]
fn a_gitignore_that_is_a_fifo_is_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap().to_owned();
    std::fs::create_dir_all(format!("{root}/.git")).unwrap();
    let fifo = format!("{root}/.gitignore");
    nix::unistd::mkfifo(fifo.as_str(), nix::sys::stat::Mode::S_IRWXU).unwrap();
    // Read directly too: the look before the open would skip it, not the open itself.
    let (matcher, whole) = read_gitignore(&root, Path::new(&fifo));
    assert!(matcher.is_empty() && !whole);
    let w = from_cwd(&root);
    assert_eq!(w.place(Some("."), "src"), Place::Workspace);
    assert_eq!(w.place(Some("."), "build"), Place::Regenerable);
}

#[test]
fn a_gitignore_below_the_root_counts_and_the_nearest_decides() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap().to_owned();
    std::fs::create_dir_all(format!("{root}/.git")).unwrap();
    std::fs::create_dir_all(format!("{root}/web/assets/gen")).unwrap();
    std::fs::create_dir_all(format!("{root}/data")).unwrap();
    std::fs::write(format!("{root}/.gitignore"), "*.tmp\n").unwrap();
    std::fs::write(format!("{root}/web/.gitignore"), "assets/gen/\n!keep.tmp\n").unwrap();
    let w = from_cwd(&root);
    let here = Some(".");
    assert_eq!(w.place(here, "web/assets/gen"), Place::Regenerable);
    assert_eq!(w.place(here, "web/assets/gen/a.js"), Place::Regenerable);
    assert_eq!(w.place(here, "web/assets/logo.svg"), Place::Workspace);
    assert_eq!(w.place(here, "data/x.tmp"), Place::Regenerable);
    // The nearer file takes back what the root one ignores.
    assert_eq!(w.place(here, "web/keep.tmp"), Place::Workspace);
    // Without reading the host (a gate on another machine), only the built-in names.
    let elsewhere = Where::new(Some(root.clone()), Some(root.clone()), None, Vec::new());
    assert_eq!(elsewhere.place(here, "web/assets/gen"), Place::Workspace);
}

#[test]
fn what_this_host_cannot_see_is_said_and_paths_are_placed_all_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap().to_owned();
    let ctx = |cwd: &str, workspace: Option<&str>| HookContext {
        cwd: Some(cwd.to_owned()),
        workspace: workspace.map(str::to_owned),
        ..HookContext::new("s")
    };
    let note = |cwd: &str, workspace: Option<&str>| unseen(&ctx(cwd, workspace));
    // A readable workspace, with or without a .gitignore: nothing to say.
    std::fs::create_dir_all(format!("{root}/seen/.git")).unwrap();
    assert_eq!(note(&format!("{root}/seen"), None), None);
    std::fs::write(format!("{root}/seen/.gitignore"), "gen/\n").unwrap();
    assert_eq!(note(&format!("{root}/seen"), None), None);
    assert_eq!(unseen(&HookContext::new("s")), None);
    // A workspace on another machine: build outputs by name only, and said so.
    let away = format!("{root}/elsewhere/proj");
    let said = note(&away, Some(&away)).unwrap_or_default();
    assert!(said.contains("is not a directory on this host"), "{said}");
    let w = Where::of(&ctx(&away, Some(&away)));
    assert_eq!(w.place(Some("."), "build"), Place::Regenerable);
    assert_eq!(w.place(Some("."), "src"), Place::Workspace);
    // A cwd on another machine with no workspace named: none can be found.
    let said = note(&away, None).unwrap_or_default();
    assert!(said.contains("no workspace was found"), "{said}");
    // A .gitignore too large to read.
    std::fs::create_dir_all(format!("{root}/big/.git")).unwrap();
    let big = "x/\n".repeat(MAX_GITIGNORE as usize / 3 + 1);
    std::fs::write(format!("{root}/big/.gitignore"), big).unwrap();
    let said = note(&format!("{root}/big"), None).unwrap_or_default();
    assert!(said.contains(".gitignore could not be read"), "{said}");
}

#[test]
fn a_write_onto_the_workspace_or_a_temp_directory_is_a_write_in_it() {
    let w = at(Some("/home/u/proj"), Some("/home/u/proj"));
    let placed = |input: &str| {
        let line = crate::matcher::shell::parse(input);
        let c = &line.commands[0];
        let touches = crate::matcher::shell::effects::touches(c);
        w.place_touches(c.dir.as_deref(), &touches)
            .into_iter()
            .map(|p| (p.touch, p.place))
            .collect::<Vec<_>>()
    };
    assert_eq!(placed("cp x ."), [(Touch::Overwrite, Place::Workspace)]);
    assert_eq!(placed("cp x /tmp"), [(Touch::Overwrite, Place::Temp)]);
    assert_eq!(placed("cp x /var/tmp/"), [(Touch::Overwrite, Place::Temp)]);
    assert_eq!(placed("cp x /etc"), [(Touch::Overwrite, Place::System)]);
    assert_eq!(
        placed("mv x /tmp"),
        [
            (Touch::Overwrite, Place::Temp),
            (Touch::Delete, Place::Workspace)
        ]
    );
    // Deleting the temporary directory itself is still deleting in the system.
    assert_eq!(placed("rm -rf /tmp"), [(Touch::Delete, Place::System)]);
    // A directory above the workspace holds it: deleting it deletes the workspace.
    let w = at(Some("/tmp/w/proj"), Some("/tmp/w/proj"));
    for (input, place) in [
        ("rm -rf /tmp/w", Place::WorkspaceRoot),
        ("rm -rf ..", Place::WorkspaceRoot),
        ("rm -rf /tmp/*", Place::WorkspaceRoot),
        ("rm -rf /tmp/other", Place::Temp),
        ("rm -rf ../other", Place::Temp),
    ] {
        let line = crate::matcher::shell::parse(input);
        let c = &line.commands[0];
        let touches = crate::matcher::shell::effects::touches(c);
        let placed = w.place_touches(c.dir.as_deref(), &touches);
        assert_eq!(placed[0].place, place, "{input}");
    }
}

#[test]
fn names_round_trip() {
    for place in Place::ALL {
        assert_eq!(Place::from_name(place.name()), Some(place));
    }
    assert_eq!(Place::from_name("nowhere"), None);
}
