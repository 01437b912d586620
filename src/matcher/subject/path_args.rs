//! The subject's path-like arguments matched against a filter's glob: as written, as the
//! shell's wildcards could expand them, and where the host's symlinks among them lead.

use super::{Subject, acts};
use crate::matcher::{CommandMatcher, Matched, PathMatcher, paths, shell};

impl Subject<'_> {
    /// Whether a path-like argument matches `glob`.
    pub(crate) fn matches_paths(&self, glob: &PathMatcher) -> Option<Matched> {
        let paths = self
            .paths
            .get_or_init(|| self.collect_paths(paths::of_command_line));
        self.paths_match(paths, glob)
    }

    /// Whether a path-like argument the call may read matches `glob`: for a shell command,
    /// not one it only writes (`echo X >> .env`, `cp .env.example .env`).
    pub(crate) fn matches_read_paths(&self, glob: &PathMatcher) -> Option<Matched> {
        let paths = self
            .read_paths
            .get_or_init(|| self.collect_paths(paths::read_of_command_line));
        self.paths_match(paths, glob)
    }

    /// Whether a path-like argument (only those it may read, with `reads_only`) of a
    /// simple command that `command` takes matches `glob`.
    pub(crate) fn matches_paths_of(
        &self,
        glob: &PathMatcher,
        reads_only: bool,
        command: &CommandMatcher,
    ) -> Option<Matched> {
        let Some(line) = self.command_line() else {
            return self.unreadable_matches();
        };
        let mut out = Vec::new();
        let takes = |c: &shell::SimpleCommand| {
            command.accepts(&c.program, &c.args, &c.args.join(" ")) && acts(command, c)
        };
        paths::collect_where(line, reads_only, takes, &mut out);
        out.extend(
            self.links()
                .iter()
                .filter(|(written, _)| out.contains(written))
                .map(|(_, real)| real.clone())
                .collect::<Vec<_>>(),
        );
        if let Some(host) = self.host() {
            paths::expand_on_host(&host, &mut out);
        }
        self.paths_match(&out, glob)
    }

    /// Whether a path-like argument of `found`, one command of the line (only those it may
    /// read, with `reads_only`), matches `glob` as written: which of the commands a hook
    /// took named the path it is about.
    pub(crate) fn names_path(
        &self,
        found: &shell::SimpleCommand,
        glob: &PathMatcher,
        reads_only: bool,
    ) -> bool {
        let Some(line) = self.command_line() else {
            return false;
        };
        let mut out = Vec::new();
        paths::collect_where(line, reads_only, |c| std::ptr::eq(c, found), &mut out);
        let cwd = self.ctx.cwd.as_deref().filter(|c| c.starts_with('/'));
        Self::any_matches(&out, glob, cwd)
    }

    fn paths_match(&self, paths: &[String], glob: &PathMatcher) -> Option<Matched> {
        let cwd = self.ctx.cwd.as_deref().filter(|c| c.starts_with('/'));
        if Self::any_matches(paths, glob, cwd) {
            return Some(Matched::Read);
        }
        self.unreadable_matches()
    }

    /// The file tools' path fields, the command line's paths as `of_line` takes them, and
    /// where the host's symlinks among them lead: `Read notes.txt` of a link to
    /// `~/.ssh/id_rsa` reads the key.
    fn collect_paths(&self, of_line: fn(&shell::CommandLine, &mut Vec<String>)) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(args) = &self.ctx.tool_args {
            paths::of_tool_args(args, &mut out);
        }
        if let Some(line) = self.command_line() {
            of_line(line, &mut out);
        }
        out.extend(self.links().iter().map(|(_, real)| real.clone()));
        if let Some(host) = self.host() {
            paths::expand_on_host(&host, &mut out);
        }
        out
    }

    /// Wildcards the shell would expand are tested for what they could name, and so is a
    /// file name not known in a directory that is (`~/.ssh/$(ls ~/.ssh | head -1)`); past
    /// a bound, a command full of them is taken to name a match. A relative wildcard is
    /// below the working directory when that is known (`./**/*.d`, what `find . -name
    /// '*.d'` finds, names no `/etc/sudoers.d`).
    fn any_matches(paths: &[String], glob: &PathMatcher, cwd: Option<&str>) -> bool {
        let mut wildcards = 0;
        paths.iter().any(|p| {
            if glob.is_match(p) {
                return true;
            }
            if let Some((dir, name)) = p.rsplit_once('/')
                && name.contains(shell::SUBSTITUTION)
                && !dir.is_empty()
                && !dir.contains(shell::SUBSTITUTION)
            {
                wildcards += 1;
                return wildcards > paths::MAX_WILDCARD_PATHS
                    || glob.could_match_in(dir, &name.replace(shell::SUBSTITUTION, "*"));
            }
            if !p.contains(['*', '?', '[']) {
                return false;
            }
            wildcards += 1;
            wildcards > paths::MAX_WILDCARD_PATHS
                || match cwd {
                    Some(cwd) if !p.starts_with(['/', '~', '$']) => {
                        glob.could_match(&paths::normalize(&format!("{cwd}/{p}")))
                            || glob.could_match_anywhere(p)
                    }
                    _ => glob.could_match(p),
                }
        })
    }
}

impl Subject<'_> {
    /// The path-like arguments that are symlinks on this host, and the real path of each
    /// (its `~/` form when it is in the home directory), when this subject reads the host.
    pub fn links(&self) -> &[(String, String)] {
        self.links.get_or_init(|| {
            let Some(host) = self.host() else {
                return Vec::new();
            };
            let mut written = Vec::new();
            if let Some(args) = &self.ctx.tool_args {
                paths::of_tool_args(args, &mut written);
            }
            if let Some(line) = self.command_line() {
                paths::of_command_line(line, &mut written);
            }
            paths::real_paths(&host, &written)
        })
    }

    /// A symlink whose real path `glob` matches: `(as written, real)`.
    pub(crate) fn linked_match(&self, glob: &PathMatcher) -> Option<&(String, String)> {
        self.links().iter().find(|(_, real)| glob.is_match(real))
    }
}
