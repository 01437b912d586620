//! Downloads: the files `curl` and `wget` write, named on the line or by the remote side.

use super::{PathTouch, Touch};

/// curl's short options that take a value, so that `-sSLo FILE` is read as curl does.
const CURL_WITH_VALUE: &str = "dHXuAebcFTxwmrCKEUYyzQP";

/// The file `curl` or `wget` writes what it downloads to, as each reads its options (`-o`,
/// `-sSLo FILE`, `-qO-`, `--output-document=FILE`).
pub(in crate::matcher::shell) fn download_output<'a>(
    program: &str,
    args: &'a [String],
) -> Option<&'a str> {
    match program {
        "curl" => output_of(args, &["-o", "--output"], "--output=", CURL_WITH_VALUE),
        "wget" => output_of(
            args,
            &["-O", "--output-document"],
            "--output-document=",
            "oaeiBtTwQPUYlADRIXHNE",
        ),
        _ => None,
    }
}

/// The other files curl writes besides what it downloads: its trace (`--trace-ascii F`),
/// the headers (`-D F`), the cookie jar (`-c F`), its errors (`--stderr F`), the
/// equivalent C program (`--libcurl F`), each written over.
pub(super) fn curl_side_files(args: &[String]) -> Vec<PathTouch<'_>> {
    const OPTIONS: &[(&[&str], &str)] = &[
        (&["--trace"], "--trace="),
        (&["--trace-ascii"], "--trace-ascii="),
        (&["-D", "--dump-header"], "--dump-header="),
        (&["-c", "--cookie-jar"], "--cookie-jar="),
        (&["--stderr"], "--stderr="),
        (&["--libcurl"], "--libcurl="),
        (&["--etag-save"], "--etag-save="),
    ];
    OPTIONS
        .iter()
        .filter_map(|(flags, long)| output_of(args, flags, long, CURL_WITH_VALUE))
        .filter(|path| *path != "-" && !path.is_empty())
        .map(|path| PathTouch::new(Touch::Overwrite, path))
        .collect()
}

/// The files `curl -O` (`--remote-name`, `--remote-name-all`) writes: each URL's last path
/// segment, in the working directory or `--output-dir`.
pub(super) fn curl_remote_names(args: &[String]) -> Vec<&str> {
    let remote = args.iter().take_while(|a| *a != "--").any(|a| {
        a == "--remote-name"
            || a == "--remote-name-all"
            || a.strip_prefix('-').is_some_and(|b| {
                // Letters up to the first that takes a value (`-XPOST` holds no `-O`).
                !b.starts_with('-')
                    && b.chars()
                        .take_while(|c| !CURL_WITH_VALUE.contains(*c))
                        .any(|c| c == 'O')
            })
    });
    if !remote {
        return Vec::new();
    }
    args.iter()
        .filter_map(|a| a.split_once("://").map(|(_, rest)| rest))
        .filter_map(|rest| {
            let path = rest.split(['?', '#']).next().unwrap_or_default();
            let (_, name) = path.split_once('/')?;
            let name = name.rsplit('/').next().unwrap_or_default();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// The value of an output option: `flags` spelled alone take the next argument (`-o FILE`),
/// `long` is the glued long form (`--output=FILE`), and a short bundle ending in the
/// flag's letter (`-sSLo FILE`) or holding it before a glued value (`-oFILE`) counts too,
/// unless a letter of `with_value` comes first and takes the rest.
pub(super) fn output_of<'a>(
    args: &'a [String],
    flags: &[&str],
    long: &str,
    with_value: &str,
) -> Option<&'a str> {
    let letter = flags
        .iter()
        .find_map(|f| {
            f.strip_prefix('-')
                .filter(|l| l.len() == 1 && !l.starts_with('-'))
        })
        .and_then(|l| l.chars().next());
    let mut found = None;
    let mut iter = args.iter().take_while(|a| *a != "--");
    while let Some(a) = iter.next() {
        if flags.contains(&a.as_str()) {
            found = iter.next().map(String::as_str);
        } else if let Some(v) = a.strip_prefix(long).filter(|_| !long.is_empty()) {
            found = Some(v);
        } else if let (Some(letter), Some(bundle)) =
            (letter, a.strip_prefix('-').filter(|b| !b.starts_with('-')))
        {
            for (k, c) in bundle.char_indices() {
                if c == letter {
                    let glued = &bundle[k + 1..];
                    found = if glued.is_empty() {
                        iter.next().map(String::as_str)
                    } else {
                        Some(glued)
                    };
                    break;
                }
                if with_value.contains(c) {
                    if bundle[k + 1..].is_empty() {
                        iter.next();
                    }
                    break;
                }
            }
        }
    }
    found
}

/// Whether an `rsync`/`scp` path is on this machine (`host:path` and `rsync://` are not;
/// `./a:b` is).
pub(in crate::matcher::shell) fn is_local(path: &str) -> bool {
    match path.find(':') {
        None => true,
        Some(colon) => colon == 0 || path[..colon].contains('/'),
    }
}
