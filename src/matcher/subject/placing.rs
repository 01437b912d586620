//! Where the subject's commands reach: what each simple command deletes, writes, changes
//! the mode of or reads, placed once per subject against the context's directories.

use super::Subject;
use crate::config::{HostFiles, Place};
use crate::matcher::{CommandMatcher, paths, places, shell, trees};

impl Subject<'_> {
    /// Whether the line's `index`th simple command deletes, writes or changes the mode of
    /// something in the places `filter` names (true when it names none).
    pub(super) fn touches_places(&self, filter: &CommandMatcher, index: usize) -> bool {
        use shell::effects::Touch;
        const DELETE: &[Touch] = &[Touch::Delete];
        const MODE: &[Touch] = &[Touch::Mode];
        let wanted = [
            (&filter.spec.deletes, DELETE, false),
            (&filter.spec.deletes_tree, DELETE, true),
            (&filter.spec.overwrites, &[Touch::Overwrite][..], false),
            (
                &filter.spec.writes,
                &[Touch::Overwrite, Touch::Append][..],
                false,
            ),
            (&filter.spec.changes_mode, MODE, false),
            (&filter.spec.changes_mode_tree, MODE, true),
        ];
        if let Some(want) = &filter.spec.reads {
            let read = self.placed_reads().get(index);
            if !read.is_some_and(|read| read.iter().any(|p| want.contains(p))) {
                return false;
            }
        }
        if wanted.iter().all(|(places, _, _)| places.is_none()) {
            return true;
        }
        let Some(placed) = self.placed().get(index) else {
            return false;
        };
        wanted.iter().all(|(want, touch, tree)| {
            want.as_ref().is_none_or(|want| {
                placed.iter().any(|p| {
                    touch.contains(&p.touch) && (p.recursive || !tree) && want.contains(&p.place)
                })
            })
        })
    }

    /// Where each simple command of the line may read (see [`paths::read_words`]); once
    /// per subject, and only when a filter asks.
    fn placed_reads(&self) -> &[Vec<Place>] {
        self.placed_reads.get_or_init(|| {
            let Some(line) = self.command_line() else {
                return Vec::new();
            };
            line.commands
                .iter()
                .map(|c| {
                    let words = paths::read_words(c);
                    if words.is_empty() {
                        return Vec::new();
                    }
                    let places = self.places();
                    let mut read: Vec<Place> = Vec::new();
                    for w in words {
                        let place = places.place(c.dir.as_deref(), w);
                        if !read.contains(&place) {
                            read.push(place);
                        }
                    }
                    read
                })
                .collect()
        })
    }

    /// Whether one of the file tools' path fields (`Write`'s `file_path`), or the real path
    /// of one that is a symlink on this host, lies in one of `want`: placed as a write of
    /// it would be, the gate's own files in [`Place::Gate`] too. A shell command's words are
    /// not among them: `command`'s `writes`, `reads` and `deletes` place those.
    pub(crate) fn path_in(&self, want: &[Place]) -> bool {
        self.placed_tool_paths
            .get_or_init(|| self.place_tool_paths())
            .iter()
            .any(|p| want.contains(p))
    }

    /// The places of [`Subject::path_in`], once per subject however many hooks ask.
    fn place_tool_paths(&self) -> Vec<Place> {
        let Some(args) = &self.ctx.tool_args else {
            return Vec::new();
        };
        let mut written = Vec::new();
        paths::of_tool_args(args, &mut written);
        if written.is_empty() {
            return Vec::new();
        }
        let real = self
            .links()
            .iter()
            .filter(|(link, _)| written.contains(link))
            .map(|(_, real)| real.clone())
            .collect::<Vec<_>>();
        let touches: Vec<shell::effects::PathTouch<'_>> = written
            .iter()
            .chain(&real)
            .map(|path| shell::effects::PathTouch {
                touch: shell::effects::Touch::Overwrite,
                path,
                recursive: false,
                inside: false,
                base: None,
            })
            .collect();
        self.places()
            .place_touches(None, &touches)
            .into_iter()
            .map(|p| p.place)
            .collect()
    }

    /// What this subject's paths are placed against, looked up once.
    fn places(&self) -> &places::Where {
        self.places
            .get_or_init(|| places::Where::of(self.ctx).with_gate(self.gate.clone()))
    }

    /// What each simple command of the line deletes, writes or changes the mode of, placed;
    /// once per subject, however many hooks ask. Placing looks at the environment and the
    /// file system, so only when some command touches a path.
    fn placed(&self) -> &[Vec<places::Placed>] {
        self.placed.get_or_init(|| {
            let Some(line) = self.command_line() else {
                return Vec::new();
            };
            let mut touched: Vec<_> = line.commands.iter().map(shell::effects::touches).collect();
            if touched.iter().all(Vec::is_empty) {
                return Vec::new();
            }
            let places = self.places();
            let host = self.host_files == HostFiles::Read;
            trees::refine(places, line, &mut touched, host);
            line.commands
                .iter()
                .zip(&touched)
                .map(|(c, t)| places.place_touches(c.dir.as_deref(), t))
                .collect()
        })
    }
}
