//! Copies, moves and links (`cp`, `mv`, `install`, `ln`): what they write over, and the
//! sources a move takes away.

use super::super::SimpleCommand;
use super::{PathTouch, Touch, is_short, operands_after, options};

/// `cp`, `mv`, `install` and `ln`: the destination (the last operand, or `-t DIR`) is
/// written, replaced unless the command refuses to (`-n`, `ln` without `-f`); `mv`'s
/// sources are moved away, which for the place they were in is a delete.
pub(super) fn copies(command: &SimpleCommand) -> Vec<PathTouch<'_>> {
    let args = &command.args;
    let program = command.program.as_str();
    let with_value = match program {
        "install" => "mogStZ",
        _ => "St",
    };
    let mut target = None;
    let mut opts = args.iter().take_while(|a| *a != "--");
    while let Some(a) = opts.next() {
        if let Some(dir) = a.strip_prefix("--target-directory=") {
            target = Some(dir);
        } else if a == "--target-directory" {
            target = opts.next().map(String::as_str);
        } else if let Some(bundle) = a.strip_prefix('-').filter(|b| !b.starts_with('-'))
            && let Some(at) = bundle.find('t')
            && !bundle[..at].contains(|c| with_value.contains(c) && c != 't')
        {
            let glued = &bundle[at + 1..];
            target = if glued.is_empty() {
                opts.next().map(String::as_str)
            } else {
                Some(glued)
            };
        }
    }
    let operands: Vec<&str> = operands_after(args, with_value)
        .filter(|o| Some(*o) != target)
        .collect();
    if program == "install" && options(args).any(|o| o == "--directory" || is_short(o, 'd')) {
        return operands
            .into_iter()
            .map(|p| PathTouch::new(Touch::Append, p))
            .collect();
    }
    let (sources, dest, inside) = match (target, operands.split_last()) {
        (Some(dir), _) => (operands.as_slice(), Some(dir), true),
        // `cp -r src/. dir/`: what lands goes inside the destination, a directory.
        (None, Some((last, rest))) if !rest.is_empty() => {
            let into = last.ends_with('/') || rest.iter().any(|s| s.ends_with("/."));
            (rest, Some(*last), into)
        }
        // `ln -s /some/file`: the link is made in the working directory.
        (None, Some((only, _))) if program == "ln" => (std::slice::from_ref(only), Some("."), true),
        _ => (operands.as_slice(), None, false),
    };
    let keeps = options(args).any(|o| {
        o == "--no-clobber" || o == "--update=none" || (program != "ln" && is_short(o, 'n'))
    });
    let forced = options(args).any(|o| o == "--force" || is_short(o, 'f'));
    let touch = match program {
        "ln" if !forced => Touch::Append,
        _ if keeps => Touch::Append,
        _ => Touch::Overwrite,
    };
    let mut out: Vec<PathTouch<'_>> = dest
        .map(|d| PathTouch {
            inside,
            ..PathTouch::new(touch, d)
        })
        .into_iter()
        .collect();
    if program == "mv" && dest.is_some() {
        out.extend(sources.iter().map(|s| PathTouch::new(Touch::Delete, s)));
    }
    out
}
