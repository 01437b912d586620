//! Finding test files: `*.test.yaml` and `*.test.yml` under the given directories.

use std::path::{Path, PathBuf};

/// Directories that are never searched.
pub(crate) const SKIPPED_DIRS: &[&str] = &[".git", "node_modules", "target", "dist"];

/// Whether `path` is named like a test file (`*.test.yaml`, `*.test.yml`).
pub(crate) fn is_test_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".test.yaml") || n.ends_with(".test.yml"))
}

/// The test files named by `paths`: a file is taken whatever its name; a directory is searched
/// recursively for `*.test.yaml` / `*.test.yml`, skipping [`SKIPPED_DIRS`] and not following
/// links to directories. Sorted by path, without repeats; a leading `./` is dropped. A path
/// that cannot be read is returned with its error, and the others are still searched.
pub(crate) fn find_test_files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<(PathBuf, std::io::Error)>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &mut found, &mut errors),
            Ok(_) => found.push(path.clone()),
            Err(e) => errors.push((path.clone(), e)),
        }
    }
    let mut found: Vec<PathBuf> = found
        .into_iter()
        .map(|p| match p.strip_prefix(".") {
            Ok(rest) if !rest.as_os_str().is_empty() => rest.to_path_buf(),
            _ => p,
        })
        .collect();
    found.sort();
    found.dedup();
    (found, errors)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>, errors: &mut Vec<(PathBuf, std::io::Error)>) {
    let walk = crate::walk::Walk {
        max_depth: usize::MAX,
        skipped: SKIPPED_DIRS,
        max_dirs: usize::MAX,
    };
    // Without a bound on directories, a walk cannot stop early.
    if let Ok(walked) = walk.run(dir, is_test_file) {
        found.extend(walked.files);
        errors.extend(walked.errors);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_are_searched_for_test_files_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for name in [
            "b.test.yaml",
            "a/z.test.yml",
            "a/policy.yaml",
            "a/notes.test.yaml.bak",
            "node_modules/x.test.yaml",
            "target/y.test.yaml",
            ".git/h.test.yaml",
            "dist/d.test.yaml",
            "deep/er/c.test.yaml",
        ] {
            let path = root.join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, "cases: []\n").expect("write");
        }
        let explicit = root.join("a/policy.yaml");
        let (found, errors) =
            find_test_files(&[root.to_path_buf(), explicit.clone(), root.join("missing")]);
        assert_eq!(
            found,
            [
                root.join("a/policy.yaml"),
                root.join("a/z.test.yml"),
                root.join("b.test.yaml"),
                root.join("deep/er/c.test.yaml"),
            ]
        );
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].0, root.join("missing"));
    }

    #[test]
    fn names() {
        assert!(is_test_file(Path::new("p/destructive.test.yaml")));
        assert!(is_test_file(Path::new("x.test.yml")));
        assert!(!is_test_file(Path::new("x.yaml")));
        assert!(!is_test_file(Path::new("test.yaml")));
    }
}
