//! Builtins that change the shell's state beyond a plain assignment: `cd`, `read`, and the
//! options of `set` the reader does not follow.

use super::super::super::env::{DIR, Value, Var};
use super::super::super::expand::Field;
use super::super::super::walk::{Data, Reader};
use super::super::texts;

/// Options of `set` or the shell's own command line that change how the rest of the script
/// is read in a way the reader does not follow: `-k`, which puts assignment words after
/// the command's name into its environment (`git commit GIT_EDITOR='sh -c …'`). What
/// follows is unreadable.
pub(in crate::matcher::shell) fn unread_shell_options(r: &mut Reader, args: &[String]) {
    let args = &args[..args.iter().position(|a| a == "--").unwrap_or(args.len())];
    let bundle_k = |a: &String| a.starts_with('-') && !a.starts_with("--") && a.contains('k');
    let enabling = |k: usize| args[..k].iter().all(|a| !a.starts_with('+'));
    let unread = args
        .iter()
        .enumerate()
        .any(|(k, a)| bundle_k(a) || a == "keyword" && enabling(k));
    if unread {
        r.unreadable("the line turns on `set -k`, which changes what its words mean");
    }
}

/// `cd DIR` / `pushd DIR`: where the following commands run. `cd` alone goes home; `cd -`,
/// a value not known, or a relative name while the line set `CDPATH` (which bash searches
/// first) go somewhere the reader cannot tell.
pub(super) fn change_dir(r: &mut Reader, args: &[Field]) {
    let operands: Vec<&Field> = args
        .iter()
        .skip_while(|a| a.text.starts_with('-') && a.text.len() > 1 && a.text != "--")
        .skip_while(|a| a.text == "--")
        .collect();
    let to = match operands.as_slice() {
        [] => Value::known("~"),
        [target] if target.unknown || target.text == "-" => Value::Unknown,
        [target] => {
            let t = &target.text;
            if t.starts_with('/') || t == "~" || t.starts_with("~/") {
                Value::known(t.clone())
            } else if r.env.assigned("CDPATH") && !t.starts_with("./") && !t.starts_with("../") {
                Value::Unknown
            } else {
                match r.env.get(DIR) {
                    Value::Known(here) => Value::known(format!("{here}/{t}")),
                    Value::Unknown => Value::Unknown,
                }
            }
        }
        _ => Value::Unknown,
    };
    r.env.set(DIR, to);
}

/// `name` or `name[index]` set to `value`.
pub(super) fn set_target(r: &mut Reader, name: &str, value: Value) {
    r.subscript_of(name);
    match name.split_once('[') {
        Some((array, index)) => {
            r.env
                .set_element(array, index.trim_end_matches(']').to_owned(), value);
        }
        None => r.env.set(name, value),
    }
}

/// `read [-r] [-a array] [-d delim] names...` from what standard input carries.
pub(super) fn read(r: &mut Reader, args: &[Field], stdin: Data) {
    let t = texts(args);
    let mut names = Vec::new();
    let mut array = None;
    let mut delimiter = '\n';
    let mut raw = false;
    let mut k = 0;
    while let Some(a) = t.get(k) {
        if let Some(flags) = a.strip_prefix('-').filter(|f| !f.is_empty()) {
            for (j, c) in flags.char_indices() {
                if "adinNptu".contains(c) {
                    let rest = &flags[j + 1..];
                    let value = if rest.is_empty() {
                        k += 1;
                        t.get(k).cloned().unwrap_or_default()
                    } else {
                        rest.to_owned()
                    };
                    match c {
                        'a' => array = Some(value),
                        'd' => delimiter = value.chars().next().unwrap_or('\0'),
                        _ => {}
                    }
                    break;
                }
                raw |= c == 'r';
            }
        } else {
            names.push(a.clone());
        }
        k += 1;
    }
    if names.is_empty() && array.is_none() {
        names.push("REPLY".to_owned());
    }
    if let (Data::Listing(lists, may_split), [name], None) = (&stdin, names.as_slice(), &array) {
        // A line cut elsewhere than where the listing ends its names may be any path.
        let cut = *may_split && delimiter != '\0';
        read_a_listed_path(r, name, lists, cut);
        return;
    }
    let line = match stdin {
        Data::Known(text) => Some(text.split(delimiter).next().unwrap_or_default().to_owned()),
        _ => None,
    };
    let line = line.map(|l| {
        if raw {
            l
        } else {
            l.replace("\\\n", "").replace('\\', "")
        }
    });
    if let Some(a) = array {
        let items = match &line {
            Some(l) => l.split_whitespace().map(Value::known).collect(),
            None => vec![Value::Unknown],
        };
        r.env.set_array(&a, items);
        return;
    }
    let Some(line) = line else {
        for n in &names {
            r.env.set(n, Value::Unknown);
        }
        return;
    };
    // Each name takes one field; the last takes the rest of the line.
    let mut rest = line.trim_start_matches([' ', '\t']);
    for (k, n) in names.iter().enumerate() {
        if k + 1 == names.len() {
            r.env
                .set(n, Value::known(rest.trim_end_matches([' ', '\t'])));
        } else {
            let end = rest.find([' ', '\t']).unwrap_or(rest.len());
            r.env.set(n, Value::known(&rest[..end]));
            rest = rest[end..].trim_start_matches([' ', '\t']);
        }
    }
}

/// `find src -name '*.ts' | while read -r f`: one name takes one of the listed paths (a
/// pattern such as `./src/**/*.ts` for what `find` finds below `src`), as a `for` loop over
/// the listing does. Cut at newlines when a name may hold one (`cut`), it may also be any
/// other text: then one of the ways is a value not known. With more than a few ways, or
/// a listed path not known, the name is not known.
fn read_a_listed_path(r: &mut Reader, name: &str, lists: &[Vec<Field>], cut: bool) {
    let mut ways: Vec<Var> = Vec::new();
    for field in lists.iter().flatten() {
        let way = Var::Scalar(match field.unknown {
            true => Value::Unknown,
            false => Value::Known(field.text.clone()),
        });
        if !ways.contains(&way) {
            ways.push(way);
        }
    }
    let unknown = Var::Scalar(Value::Unknown);
    if cut && !ways.contains(&unknown) {
        ways.push(unknown);
    }
    match ways.len() {
        1 => {
            let Some(Var::Scalar(value)) = ways.pop() else {
                return;
            };
            r.env.set(name, value);
        }
        // Nothing listed: the loop's body does not run. More than a few: not followed.
        0 => r.env.set(name, Value::Unknown),
        _ => r.env.set_new_ways(name, ways),
    }
}
