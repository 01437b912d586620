//! Files the line reads or runs: the text the line wrote to them, or the host's own files
//! when a decision may read them.

use super::super::env::FileText;
use super::super::expand::Field;
use super::super::syntax;
use super::{Data, Reader, STEPS_PER_BYTE, is_stdin_path};

/// Times one script file the line wrote is read when the line runs it again and again;
/// past them the line is unreadable. As many as the ways a call in code is read (four
/// choices, each both ways): a test runner whose options depend on the environment runs
/// the project's `vendor/bin/phpunit` once per way.
const MAX_FILE_RUNS: usize = 16;

impl Reader {
    /// What reading the file `field` gives: what the line wrote there, else the file's own
    /// content (a file of the workspace, not data from elsewhere).
    pub(in crate::matcher::shell) fn file_data(&mut self, field: &Field) -> Data {
        if field.unknown || self.load_host_file(&field.text).is_err() {
            return Data::Unknown;
        }
        match self
            .env
            .files
            .get(&super::super::env::file_key(&field.text))
        {
            Some(FileText::Known(t)) => Data::Known(t.clone()),
            Some(FileText::Unknown) => Data::Unknown,
            None if is_stdin_path(&field.text) => Data::Unknown,
            None => Data::Nothing,
        }
    }

    /// What `which NAME` prints: the program's path on the host, when the line has not
    /// changed `PATH`, made `NAME` a function or an alias (whose name `command -v` prints)
    /// nor written a file of that name; otherwise not known.
    pub(in crate::matcher::shell) fn program_path(&mut self, name: &Field) -> Data {
        let known = !name.unknown
            && !self.env.assigned("PATH")
            && !self.env.functions.contains_key(&name.text)
            && !self.env.aliases.contains_key(&name.text)
            // A file of that name the line wrote may come first on the agent's `PATH`.
            && !self.env.files.keys().any(|k| k.rsplit('/').next() == Some(&name.text));
        match self
            .host
            .as_ref()
            .filter(|_| known)
            .and_then(|h| h.on_path(&name.text))
        {
            Some(path) => {
                let out = Data::Known(format!("{path}\n"));
                self.env.on_path.push(path);
                out
            }
            None => Data::Unknown,
        }
    }

    /// Whether a name listed for `paths` (what `find` finds below them with `recursive`,
    /// what `ls` lists of them) may be cut into other words by `xargs`: always without a
    /// view of the host, or when the line itself wrote such a name there; else as the
    /// host's files are now ([`Host::names_may_split`](super::super::host::Host::names_may_split)).
    pub(in crate::matcher::shell) fn names_may_split(
        &self,
        paths: &[&str],
        recursive: bool,
    ) -> bool {
        let Some(host) = &self.host else {
            return true;
        };
        let dir = match self.env.get(super::super::env::DIR) {
            super::super::env::Value::Known(dir) => Some(dir),
            super::super::env::Value::Unknown => return true,
        };
        paths.iter().any(|path| {
            let key = super::super::env::file_key(path);
            // What the line wrote below `path` (anything relative, below `.`).
            let written = self.env.files.keys().any(|f| {
                let below = match key.as_str() {
                    "." | "" => (!f.starts_with('/')).then_some(f.as_str()),
                    _ => f
                        .strip_prefix(key.as_str())
                        .and_then(|r| r.strip_prefix('/')),
                };
                below.is_some_and(super::super::host::splits)
            });
            // A pattern lists names of the directory it is in (`~/.ssh/id_*`).
            let (at, recursive) = match path.rsplit_once('/') {
                _ if !path.contains(['*', '?', '[']) => (*path, recursive),
                Some((parent, _)) if !parent.contains(['*', '?', '[']) => {
                    (if parent.is_empty() { "/" } else { parent }, false)
                }
                Some(_) => return true,
                None => (".", false),
            };
            written || host.names_may_split(dir.as_deref(), at, recursive)
        })
    }

    /// Whether the file at normalised `key` was read from the host rather than written by
    /// the line.
    pub(in crate::matcher::shell) fn is_host_file(&self, key: &str) -> bool {
        // Read from the host and then written over by the line (`cat package.json; python3
        // -c '...write...'`): the line's own text, which a build tool then runs.
        self.host_loaded.contains(key) && !self.env.written.contains(key)
    }

    /// Makes the host's file `path` known to the line (as if the line had written it), when
    /// the line did not write it and decisions read host files. `Err` says why a file that
    /// is there cannot be read.
    pub(in crate::matcher::shell) fn load_host_file(
        &mut self,
        path: &str,
    ) -> Result<(), &'static str> {
        let key = super::super::env::file_key(path);
        if !self.env.files.contains_key(&key) && self.env.in_downloaded_dir(&key) {
            self.env.files.insert(key, FileText::Unknown);
            return Ok(());
        }
        let Some(host) = &self.host else {
            return Ok(());
        };
        if self.env.files.contains_key(&key) || is_stdin_path(path) {
            return Ok(());
        }
        let dir = match self.env.get(super::super::env::DIR) {
            super::super::env::Value::Known(dir) => Some(dir),
            super::super::env::Value::Unknown => None,
        };
        let looked_for = (dir.clone(), path.to_owned());
        if self.host_without.contains(&looked_for) {
            return Ok(());
        }
        // A pattern (`bash tests/*.sh`) runs the files it names on the host: each is read,
        // the texts one after the other, under the pattern's name.
        let names = if path.contains(['*', '?', '[']) {
            host.expand(dir.as_deref(), path)
                .ok_or("the script's name is a pattern hookgate cannot expand here")?
        } else {
            vec![path.to_owned()]
        };
        if self.host_reads + names.len() > super::super::host::MAX_FILES {
            return Err("the line runs more script files than hookgate reads");
        }
        self.host_reads += names.len();
        let files: Vec<(String, super::super::host::HostFile)> = names
            .into_iter()
            .map(|name| {
                let file = host.read(dir.as_deref(), &name);
                (name, file)
            })
            .collect();
        let mut texts = Vec::new();
        for (name, file) in files {
            match file {
                super::super::host::HostFile::Text(text) => texts.push(text),
                super::super::host::HostFile::Missing | super::super::host::HostFile::Compiled => {}
                // A project's generated build script (`./configure`, hundreds of KiB) is
                // more than is read: nothing of it is, and the policy weighs it as one it
                // cannot follow, as it weighs `./gradlew`.
                super::super::host::HostFile::TooLarge(why) => self.unreadable_script(name, why),
                super::super::host::HostFile::Unreadable(why) => return Err(why),
            }
        }
        if texts.is_empty() {
            self.host_without.insert(looked_for);
        } else {
            // The files' text is read as the line's own is, with its own budgets.
            let text = texts.join("\n");
            self.budget += STEPS_PER_BYTE * text.len();
            self.parse_left += syntax::PARSE_BUDGET * texts.len();
            self.host_loaded.insert(key.clone());
            self.env.files.insert(key, FileText::Known(text));
        }
        Ok(())
    }

    /// Whether `name` inside the directory `base` (`.`, or relative to the command's
    /// directory unless absolute) may name something where the command runs: the line wrote
    /// it, the host holds it, or that cannot be known (no host, an unknown directory).
    pub(in crate::matcher::shell) fn path_may_exist(&self, base: &str, name: &str) -> bool {
        if self
            .env
            .files
            .contains_key(&super::super::env::file_key(&format!("{base}/{name}")))
        {
            return true;
        }
        let Some(host) = &self.host else {
            return true;
        };
        let dir = match self.env.get(super::super::env::DIR) {
            super::super::env::Value::Known(dir) => Some(dir),
            super::super::env::Value::Unknown => None,
        };
        host.holds(dir.as_deref(), base, name) != Some(false)
    }

    /// Reads the script file `path` if the line wrote it, or the host holds it (see
    /// [`Reader::load_host_file`]); a script the line downloaded or produced from a
    /// command's output, or one on the host that cannot be read, makes the line unreadable.
    pub(in crate::matcher::shell) fn run_file(&mut self, path: &str, stdin: Data) -> Data {
        // `exec 5< <(curl ...); bash /dev/fd/5`: a descriptor holds what another command
        // wrote.
        if !is_stdin_path(path)
            && ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"]
                .iter()
                .any(|d| path.starts_with(d))
        {
            self.unreadable("the line runs a script from a file descriptor");
            return Data::Unknown;
        }
        if let Err(why) = self.load_host_file(path) {
            self.unreadable(why);
            return Data::Unknown;
        }
        // A script run again (with other arguments: `sort` runs its compressor as `PROG`
        // and `PROG -d`) is read again, a few times; while it is read, it is not there
        // to run, so a script that runs itself is read once.
        let key = super::super::env::file_key(path);
        self.built.insert(key.clone());
        let runs = self.file_runs.entry(key.clone()).or_default();
        *runs += 1;
        if *runs > MAX_FILE_RUNS {
            self.unreadable("the line runs one script it wrote more often than it is read");
            return Data::Unknown;
        }
        match self.env.files.remove(&key) {
            Some(FileText::Known(text)) => {
                let out = self.in_file(path, |r| r.script(&text, stdin));
                self.env.files.entry(key).or_insert(FileText::Known(text));
                out
            }
            Some(FileText::Unknown) => {
                self.unreadable(
                    "the line runs a script it downloaded or made from a command's output",
                );
                Data::Unknown
            }
            None => Data::Unknown,
        }
    }

    /// Runs the shell script file at `path` with `args` as its positional parameters
    /// (`./x.sh -q`, `bash x.sh -q`: `"$@"` in it is `-q`).
    pub(in crate::matcher::shell) fn run_script_file(
        &mut self,
        path: &str,
        args: &[Field],
    ) -> Data {
        let positional = args.iter().map(Field::value).collect();
        let saved = self.env.positional.replace(positional);
        let out = self.run_file(path, Data::Nothing);
        self.env.positional = saved;
        out
    }
}
