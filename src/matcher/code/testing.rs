//! What the languages' tests compare: a reading written as shell-like lines.

use super::{Effect, Lang, Val, read};

pub(crate) use super::ordinary::ordinary_python;

/// The effects `code` has, written as shell words (`?` for a value not known,
/// `<fetched>` for downloaded or decoded data), and the reason it is unreadable, if it is.
pub(super) fn effects(lang: Lang, code: &str) -> Vec<String> {
    written(read(lang, code))
}

/// [`effects`] of code from `origin`, run with the script arguments `args`.
pub(super) fn effects_from(
    lang: Lang,
    code: &str,
    args: &[&str],
    origin: super::Origin,
) -> Vec<String> {
    let args: Vec<Val> = args.iter().map(|a| Val::known(*a)).collect();
    let mut work = super::PARSE_WORK;
    written(super::read_script(
        lang,
        code,
        (&args, origin),
        &[],
        None,
        &mut work,
    ))
}

fn written(reading: super::Reading) -> Vec<String> {
    let words = |vals: &[Val]| {
        vals.iter()
            .map(|v| match v {
                Val::Known(t) => t.clone(),
                Val::Unknown => "?".into(),
                Val::Prefix(p) | Val::NameIn(p) => format!("{p}*"),
                Val::Fetched => "<fetched>".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out: Vec<String> = reading
        .found
        .iter()
        .map(|f| match &f.effect {
            Effect::Shell(v) => format!("sh -c {}", words(std::slice::from_ref(v))),
            Effect::Exec(argv) => format!("exec {}", words(argv)),
            Effect::Load(argv) => format!("load {}", words(argv)),
            Effect::Command(p, args) => format!("{p} {}", words(args)),
            Effect::Write(args, _) => format!("tee {}", words(args)),
            Effect::ModulePath(v) => format!("import-path {}", words(std::slice::from_ref(v))),
        })
        .collect();
    if let Some(u) = reading.unreadable {
        out.push(format!("unreadable: {} (line {})", u.reason, u.line));
    }
    out
}
