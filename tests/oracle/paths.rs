//! Lexical path handling, the same for what bash did and what the reader predicted:
//! `.`, `..` and `//` folded, relative paths joined to a directory. No symlinks are
//! followed (the trace already names the files really opened).

use super::sandbox::HOME;

/// `path` with `.`, `..` and repeated or trailing slashes folded; absolute paths stay
/// absolute (`/..` is `/`).
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else if joined.is_empty() {
        ".".to_owned()
    } else {
        joined
    }
}

/// `path` resolved against the directory `base`, normalised.
pub fn resolve(base: &str, path: &str) -> String {
    if path.starts_with('/') {
        normalize(path)
    } else {
        normalize(&format!("{base}/{path}"))
    }
}

/// A predicted word with the home directory written out: a leading `~` or `~/`, and
/// `$HOME` or `${HOME}` anywhere (also after `NAME=`, where bash expands `~` in an
/// assignment-like argument).
pub fn expand_home(word: &str) -> String {
    let mut s = word.replace("${HOME}", HOME);
    // `$HOME` not followed by a name character (`$HOMEDIR` is another variable).
    let mut out = String::with_capacity(s.len());
    let mut rest = s.as_str();
    while let Some(i) = rest.find("$HOME") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 5..];
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            out.push_str("$HOME");
        } else {
            out.push_str(HOME);
        }
        rest = after;
    }
    out.push_str(rest);
    // The reader writes the home directory as `~` in a path it builds, also inside shell
    // code it builds (`qx(cat "$ENV{HOME}/x")` predicts `sh -c 'cat "~/x"'`), where bash
    // has the expanded path: a `~/` after a quote or a space is the home directory.
    s = out
        .replace("\"~/", &format!("\"{HOME}/"))
        .replace("'~/", &format!("'{HOME}/"))
        .replace(" ~/", &format!(" {HOME}/"));
    if s == "~" || s.starts_with("~/") {
        return format!("{HOME}{}", &s[1..]);
    }
    if let Some((name, value)) = s.split_once('=')
        && !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && (value == "~" || value.starts_with("~/"))
    {
        return format!("{name}={HOME}{}", &value[1..]);
    }
    s
}

/// Whether `ancestor` is `path` or a directory above it (both normalised, absolute).
pub fn is_within(path: &str, ancestor: &str) -> bool {
    path == ancestor
        || ancestor == "/"
        || path
            .strip_prefix(ancestor)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_fold_dots_and_slashes() {
        assert_eq!(normalize("/a//b/./c/../d/"), "/a/b/d");
        assert_eq!(normalize("/../x"), "/x");
        assert_eq!(normalize("a/../../b"), "../b");
        assert_eq!(
            resolve("/home/agent/project", "../.ssh/id_rsa"),
            "/home/agent/.ssh/id_rsa"
        );
        assert_eq!(resolve("/w", "/etc/../etc/shadow"), "/etc/shadow");
    }

    #[test]
    fn home_is_written_out() {
        assert_eq!(expand_home("~"), HOME);
        assert_eq!(expand_home("~/.ssh"), format!("{HOME}/.ssh"));
        assert_eq!(expand_home("$HOME/.aws"), format!("{HOME}/.aws"));
        assert_eq!(expand_home("@${HOME}/x"), format!("@{HOME}/x"));
        assert_eq!(expand_home("$HOMEDIR"), "$HOMEDIR");
        assert_eq!(expand_home("DEST=~/x"), format!("DEST={HOME}/x"));
        assert_eq!(
            expand_home("cat \"~/x\" ~/y"),
            format!("cat \"{HOME}/x\" {HOME}/y")
        );
        assert_eq!(expand_home("--f=~/x"), "--f=~/x");
        assert_eq!(expand_home("~root"), "~root");
    }

    #[test]
    fn ancestors() {
        assert!(is_within("/home/agent/.ssh/id_rsa", "/home/agent"));
        assert!(is_within("/home/agent", "/home/agent"));
        assert!(is_within("/x", "/"));
        assert!(!is_within("/home/agent2", "/home/agent"));
    }
}
