//! What this host's file system says of a call's paths: the entries its wildcards expand
//! to and where its symlinks lead, within budgets so one decision stays cheap.

use super::normalize;

/// Most paths whose symlinks are looked up for one decision.
const MAX_LINK_LOOKUPS: usize = 64;

/// Most directory entries read to expand the wildcards of one decision; past it, the
/// wildcards left are tested for what they could name, as on a gate that cannot list.
const MAX_LISTED_ENTRIES: usize = 4096;

/// Adds what the wildcard paths of `paths` name on `host`: a path whose wildcards are all in
/// its last component (`*`, `src/*.rs`, `~/.ssh/id_*`), in a directory that exists, names
/// the entries the shell would expand it to, and where those that are symlinks lead (`cat *`
/// in a directory holding a link to `~/.ssh/id_rsa`).
///
/// A bare pattern of the working directory made only of wildcards (`*`, `./*`) is then
/// replaced by what it names, which may be nothing: `wc -l *` in a project names its files,
/// not every file a credential filter could match. Any other pattern stays too, to be tested
/// for what it could name ([`PathGlob::could_match`](crate::config::PathGlob::could_match)):
/// `cat .env*` and `cat ~/.ssh/*` say what they are after whether or not it is there now.
/// A directory that does not exist, cannot be listed or holds too many entries keeps its
/// pattern. Files an earlier command of the same line creates are not seen; one that holds
/// a secret had to be read from where it was, which the filters see.
pub(in crate::matcher) fn expand_on_host(
    host: &crate::matcher::shell::Host,
    paths: &mut Vec<String>,
) {
    let mut listed = 0;
    let mut expanded = Vec::new();
    paths.retain(|path| {
        let (dir, name) = match path.rsplit_once('/') {
            Some((dir, name)) => (Some(if dir.is_empty() { "/" } else { dir }), name),
            None => (None, path.as_str()),
        };
        let is_pattern = |s: &str| s.contains(['*', '?', '[']);
        if !is_pattern(name)
            || dir.is_some_and(is_pattern)
            || path.contains(['$', '{', '\\'])
            || path.contains(crate::matcher::shell::SUBSTITUTION)
        {
            return true;
        }
        let Some(absolute) = host.absolute(Some("."), dir.unwrap_or(".")) else {
            return true;
        };
        let Ok(entries) = std::fs::read_dir(&absolute) else {
            return true;
        };
        let mut found = Vec::new();
        for entry in entries {
            listed += 1;
            let Ok(entry) = entry else { return true };
            if listed > MAX_LISTED_ENTRIES {
                return true;
            }
            let entry = entry.file_name().to_string_lossy().into_owned();
            if crate::matcher::wildcard_matches(name, &entry) {
                found.push(match dir {
                    Some("/") => format!("/{entry}"),
                    Some(dir) => format!("{dir}/{entry}"),
                    None => entry,
                });
            }
        }
        expanded.extend(found);
        // `*`, `./*`: nothing but wildcards, in the working directory.
        let bare = matches!(dir, None | Some(".")) && name.chars().all(|c| "*?".contains(c));
        !bare
    });
    let links = real_paths(host, &expanded);
    paths.extend(expanded);
    paths.extend(links.into_iter().map(|(_, real)| real));
}

/// The paths of `written` that are (or pass through) symlinks on `host`, with the real path
/// each names, written `~/...` in the home directory as [`normalize`] writes paths.
pub(in crate::matcher) fn real_paths(
    host: &crate::matcher::shell::Host,
    written: &[String],
) -> Vec<(String, String)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for path in written
        .iter()
        .filter(|p| !p.is_empty() && !p.starts_with('-') && !p.contains(['*', '?', '[', '$']))
        .filter(|p| seen.insert(p.as_str()))
        .take(MAX_LINK_LOOKUPS)
    {
        let Some(absolute) = host.absolute(Some("."), path) else {
            continue;
        };
        let Ok(real) = std::fs::canonicalize(&absolute) else {
            continue;
        };
        let real = real.to_string_lossy();
        if normalize(&absolute) == normalize(&real) {
            continue;
        }
        let written_home = match &host.home {
            Some(home) if real.starts_with(&format!("{home}/")) => {
                format!("~{}", &real[home.len()..])
            }
            _ => real.into_owned(),
        };
        out.push((path.clone(), normalize(&written_home)));
    }
    out
}
