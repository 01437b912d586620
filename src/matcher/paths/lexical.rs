//! Paths as text: normalised, and read past `$HOME` or a process's view of the root,
//! without asking the file system, so the same path always reads the same.

/// The components of an absolute path after a process's view of the root
/// (`/proc/self/root/etc/shadow` is `/etc/shadow`), else all of them.
pub(crate) fn below_proc_root<'a>(parts: &'a [&'a str]) -> &'a [&'a str] {
    match parts {
        ["proc", pid, "root", rest @ ..]
            if *pid == "self"
                || *pid == "thread-self"
                || pid.bytes().all(|b| b.is_ascii_digit()) =>
        {
            rest
        }
        all => all,
    }
}

/// What follows `$HOME` or `${HOME}` at the start of `path` (`""` or from a `/` on), if it
/// starts so: the shell reader writes `$HOME` as `~` where bash expands `~`, and keeps it
/// inside a word (`of=$HOME/x`, `@$HOME/x`), which is still the home directory.
pub(crate) fn after_home_variable(path: &str) -> Option<&str> {
    ["$HOME", "${HOME}"].iter().find_map(|h| {
        path.strip_prefix(h)
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// `path` with empty and `.` components dropped and `..` applied to the component before
/// it (lexically: symbolic links are not followed), and a process's view of the root
/// (`/proc/self/root/...`) written as `/`.
pub(crate) fn normalize(path: &str) -> String {
    let tilde;
    let path = match after_home_variable(path) {
        Some(rest) => {
            tilde = format!("~{rest}");
            tilde.as_str()
        }
        None => path,
    };
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for component in path.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            c => parts.push(c),
        }
    }
    let parts = if absolute {
        below_proc_root(&parts)
    } else {
        &parts[..]
    };
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}
