//! Downloads and what comes of them: the files `curl`, `wget`, `scp` and `gh release
//! download` write, and the archives they hold, extracted.

use super::super::super::env::FileText;
use super::super::super::expand::Field;
use super::super::super::walk::{Data, Io, Reader};
use super::super::texts;

/// Remembers the files `curl`/`wget` write (`-o`, `-O`, `--output-document=`, `>`, or the
/// URL's file name): running one runs code nobody has seen.
pub(super) fn download(r: &mut Reader, program: &str, args: &[Field], io: &Io) {
    let t = texts(args);
    let mut targets: Vec<String> = io
        .redirects
        .iter()
        .filter(|x| x.op != "<")
        .map(|x| x.target.clone())
        .collect();
    targets.extend(crate::matcher::shell::effects::download_output(program, &t).map(str::to_owned));
    let dir = download_dir(program, &t);
    for a in &t {
        if a.contains("://")
            && let Some(name) = a.rsplit('/').next().filter(|n| !n.is_empty())
        {
            targets.push(match dir {
                Some(d) => format!("{}/{name}", d.trim_end_matches('/')),
                None => name.to_owned(),
            });
        }
    }
    r.env.fetches = true;
    for target in targets {
        r.env.write_file(&target, FileText::Unknown, false);
    }
}

/// `curl file:///PATH` reads PATH, as `cat PATH` does (what it prints is judged by
/// [`streams`](crate::matcher::shell::streams)).
pub(super) fn file_urls(r: &mut Reader, args: &[Field]) {
    for path in args
        .iter()
        .filter_map(|a| super::super::urls::file_url_path(&a.text))
    {
        let fields = ["cat", "--", &path]
            .into_iter()
            .map(Field::literal)
            .collect();
        r.run(fields, &Io::default(), Data::Nothing, &[]);
    }
}

/// Whether `path` is on another machine: `host:path`, `user@host:path`, `scheme://`.
pub(in crate::matcher::shell::programs) fn is_remote(path: &str) -> bool {
    !crate::matcher::shell::effects::is_local(path)
}

/// `scp`/`rsync` from another machine to this one: the local destination (the last
/// operand) holds downloads: it is the file copied to, or a directory that gets the
/// remote file's name, or (`recursive`) a directory of downloaded files.
pub(in crate::matcher::shell::programs) fn copied_from_afar(
    r: &mut Reader,
    operands: &[&str],
    recursive: bool,
) {
    let Some((dest, sources)) = operands.split_last() else {
        return;
    };
    if is_remote(dest) || !sources.iter().any(|s| is_remote(s)) {
        return;
    }
    r.env.fetches = true;
    if recursive {
        r.env.downloaded_dir(dest);
    }
    r.env.write_file(dest, FileText::Unknown, false);
    for source in sources.iter().filter(|s| is_remote(s)) {
        if let Some(name) = source.rsplit(['/', ':']).next().filter(|n| !n.is_empty()) {
            let dir = dest.trim_end_matches('/');
            r.env
                .write_file(&format!("{dir}/{name}"), FileText::Unknown, false);
        }
    }
}

/// `gh release download`: assets go to `-D DIR` (`--dir`), or the working directory;
/// `-O FILE` (`--output`) names the one file.
pub(in crate::matcher::shell::programs) fn release_download(r: &mut Reader, t: &[String]) {
    r.env.fetches = true;
    let value = |short: &str, long: &str| {
        t.iter().enumerate().find_map(|(k, a)| {
            if a == short || a == long {
                t.get(k + 1).cloned()
            } else {
                a.strip_prefix(&format!("{long}=")).map(str::to_owned)
            }
        })
    };
    match (value("-O", "--output"), value("-D", "--dir")) {
        (Some(file), _) => r.env.write_file(&file, FileText::Unknown, false),
        (None, dir) => r.env.downloaded_dir(dir.as_deref().unwrap_or(".")),
    }
}

/// An archive the line downloaded (or made from a command's output), extracted: every file
/// of the directory it goes to is then a download (`curl -o x.zip URL && unzip x.zip -d d &&
/// d/run`). `unzip ARCHIVE [-d DIR]`, `7z x ARCHIVE [-oDIR]`, `tar -x -f ARCHIVE [-C DIR]`.
pub(in crate::matcher::shell::programs) fn extracted(
    r: &mut Reader,
    program: &str,
    t: &[String],
    stdin: &Data,
) {
    let (archive, dir): (Option<&str>, Option<&str>) = match program {
        "unzip" => (
            // The first operand that is not `-d`'s directory.
            t.iter()
                .enumerate()
                .find(|(k, a)| !a.starts_with('-') && (*k == 0 || t[k - 1] != "-d"))
                .map(|(_, a)| a.as_str()),
            t.iter()
                .position(|a| a == "-d")
                .and_then(|k| t.get(k + 1))
                .map(String::as_str),
        ),
        "7z" | "7za" | "7zz" => {
            if !t.first().is_some_and(|c| c == "x" || c == "e") {
                return;
            }
            (
                t.iter()
                    .skip(1)
                    .find(|a| !a.starts_with('-'))
                    .map(String::as_str),
                t.iter().find_map(|a| a.strip_prefix("-o")),
            )
        }
        _ => {
            // Short bundles: `-xzf`, or the first word without a dash (`tar xzf a.tgz`).
            fn bundle(k: usize, a: &str) -> Option<&str> {
                let letters = match a.strip_prefix('-') {
                    Some(rest) if !rest.starts_with('-') => rest,
                    None if k == 0 => a,
                    _ => return None,
                };
                letters
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric())
                    .then_some(letters)
            }
            let extracts = t.iter().enumerate().any(|(k, a)| {
                a == "--extract" || a == "--get" || bundle(k, a).is_some_and(|b| b.contains('x'))
            });
            if !extracts {
                return;
            }
            let (mut archive, mut dir) = (None, None);
            for (k, a) in t.iter().enumerate() {
                let next = t.get(k + 1).map(String::as_str);
                if let Some(f) = a.strip_prefix("--file=") {
                    archive = Some(f);
                } else if let Some(d) = a.strip_prefix("--directory=") {
                    dir = Some(d);
                } else if a == "--file" {
                    archive = next;
                } else if a == "-C" || a == "--directory" {
                    dir = next;
                } else if bundle(k, a).is_some_and(|b| b.ends_with('f')) {
                    archive = next;
                }
            }
            (archive, dir)
        }
    };
    // tar reads the archive from standard input without `-f` (or with `-f -`); a
    // descriptor (`-f <(curl URL)`) holds a command's output.
    let from_stdin = program != "unzip" && !program.starts_with("7z");
    let streamed = match archive {
        None => from_stdin && matches!(stdin, Data::Unknown),
        Some(a) if crate::matcher::shell::walk::is_stdin_path(a) => {
            matches!(stdin, Data::Unknown)
        }
        Some(a) => {
            a.starts_with("/dev/fd/")
                || a.starts_with("/proc/self/fd/")
                || a == crate::matcher::shell::SUBSTITUTION
        }
    };
    let downloaded = streamed && r.env.fetches
        || archive.is_some_and(|a| {
            matches!(
                r.env.files.get(&super::super::super::env::file_key(a)),
                Some(FileText::Unknown)
            )
        });
    if downloaded {
        r.env.downloaded_dir(dir.unwrap_or("."));
    }
}

/// The directory a download by its remote name goes to: wget's `-P DIR`
/// (`--directory-prefix`), curl's `--output-dir DIR`.
fn download_dir<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    let (short, long) = match program {
        "wget" => (Some("-P"), "--directory-prefix"),
        _ => (None, "--output-dir"),
    };
    let mut words = args.iter();
    while let Some(a) = words.next() {
        // `-P DIR`, and a bundle that ends in it (`-qP DIR`).
        let bundled = short.is_some_and(|s| {
            a.len() > 2 && a.starts_with('-') && !a.starts_with("--") && a.ends_with(&s[1..])
        });
        if Some(a.as_str()) == short || a == long || bundled {
            return words.next().map(String::as_str);
        }
        if let Some(v) = a.strip_prefix(long).and_then(|v| v.strip_prefix('=')) {
            return Some(v);
        }
        if let Some(v) = short
            .and_then(|s| a.strip_prefix(s))
            .filter(|v| !v.is_empty())
        {
            return Some(v);
        }
    }
    None
}
