//! A loop that doubles a value for as long as the value is not empty (`$_ .= $_ while
//! length;`, `while s: s += s`, `while (s.length) s += s`): its condition never fails,
//! since what it tests only grows, and the value fills memory. Read from the text with
//! only the spaces that separate two names kept (`$_ while`), in one pass over the text.

/// Most names a text is searched for; a text that doubles more values than this is not
/// a one-liner, and reading it for each would cost more.
const MOST_NAMES: usize = 8;
/// Longest name taken as a doubled value's.
const LONGEST_NAME: usize = 64;

/// Whether `code` doubles a value in a loop whose condition is that value, or its
/// length, not being empty.
pub(super) fn doubles_while_it_holds(code: &str) -> bool {
    let tight = tight(code);
    let conditions: Vec<Vec<String>> = doubled(&tight).into_iter().map(conditions).collect();
    !conditions.is_empty()
        && tight.match_indices("while").any(|(at, w)| {
            let rest = tight[at + w.len()..].trim_start();
            conditions.iter().any(|forms| tests_holding(rest, forms))
        })
}

/// `code` with its spaces taken out, but for one between two names (`$_ .= $_ while
/// length` is `$_.=$_ while length`).
fn tight(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut space = false;
    for c in code.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && is_name(c) && out.ends_with(is_name) {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    out
}

fn is_name(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '@')
}

/// The name that ends at byte `end` of `bare` (or a space before it), if one does.
fn name_before(bare: &str, end: usize) -> Option<&str> {
    let before = bare[..end].strip_suffix(' ').unwrap_or(&bare[..end]);
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_name(*c))
        .last()
        .map(|(i, _)| i)?;
    let name = &before[start..];
    (name.len() <= LONGEST_NAME && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// Whether `rest` starts with `name` as a whole name.
fn starts_with_name(rest: &str, name: &str) -> bool {
    rest.strip_prefix(name)
        .is_some_and(|after| !after.starts_with(is_name))
}

/// Whether `rest` starts with a whole number of at least 2.
fn starts_with_factor(rest: &str) -> bool {
    let rest = rest.trim_start();
    let digits = &rest[..rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len())];
    let significant = digits.trim_start_matches('0');
    significant.len() > 1 || significant.parse::<u8>().is_ok_and(|n| n >= 2)
}

/// The names of the values `bare` doubles: `v .= v`, `v += v`, `v << v`, `v x= 2`,
/// `v *= 2`, `v = v . v` (`..`, `+`), `v = v x 2` (`*`), `v.extend(v)`, `v.concat(v)`,
/// `push @v, @v`. At most [`MOST_NAMES`].
fn doubled(bare: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    // Whether the names are as many as are searched for.
    let mut add = |name| {
        if !names.contains(&name) {
            names.push(name);
        }
        names.len() >= MOST_NAMES
    };
    for (at, op) in bare.match_indices(['=', '<', '(', ',']) {
        let rest = &bare[at + op.len()..];
        let doubles = match op {
            "=" => {
                let before = &bare[..at];
                if rest.starts_with('=') || before.ends_with(['=', '!', '>', '<']) {
                    continue;
                }
                // `.=`, `+=`, `x=`, `*=`: the name is before the operator.
                if let Some(op_at) = before.strip_suffix(['.', '+', 'x', '*']).map(|b| b.len()) {
                    let Some(name) = name_before(bare, op_at) else {
                        // `v=` of a name ending in `x`.
                        if let Some(name) = name_before(bare, at)
                            && assigns_a_double(rest, name)
                            && add(name)
                        {
                            break;
                        }
                        continue;
                    };
                    let doubles = match &before[op_at..] {
                        "." | "+" => starts_with_name(rest, name),
                        _ => starts_with_factor(rest),
                    };
                    if doubles && add(name) {
                        break;
                    }
                    // A name that ends in `x` assigned (`ox = ox + ox`).
                    if let Some(name) = name_before(bare, at)
                        && assigns_a_double(rest, name)
                        && add(name)
                    {
                        break;
                    }
                    continue;
                }
                name_before(bare, at).filter(|name| assigns_a_double(rest, name))
            }
            "<" => rest
                .strip_prefix('<')
                .and(name_before(bare, at))
                .filter(|name| starts_with_name(&rest[1..], name)),
            "(" => {
                let before = &bare[..at];
                if let Some(call) = before
                    .strip_suffix(".extend")
                    .or_else(|| before.strip_suffix(".concat"))
                {
                    name_before(bare, call.len()).filter(|name| {
                        rest.strip_prefix(*name)
                            .is_some_and(|after| after.starts_with(')'))
                    })
                } else if before.ends_with("push") {
                    pushes_itself(rest)
                } else {
                    None
                }
            }
            // `push @v, @v` without parentheses: the array just before the comma, and
            // `push` just before it (looked for there only, so that a text of many commas
            // is read once).
            _ => name_before(bare, at)
                .filter(|array| array.starts_with('@') && starts_with_name(rest, array))
                .filter(|array| {
                    let start = array.as_ptr() as usize - bare.as_ptr() as usize;
                    bare[..start].trim_end().ends_with("push")
                }),
        };
        if let Some(name) = doubles
            && add(name)
        {
            break;
        }
    }
    names
}

/// `push(@v, @v`: the array pushed onto itself.
fn pushes_itself(rest: &str) -> Option<&str> {
    let (array, after) = rest.split_once(',')?;
    (array.starts_with('@') && array.len() <= LONGEST_NAME && starts_with_name(after, array))
        .then_some(array)
}

/// Whether `rest`, after `name =`, is `name` twice joined (`name . name`, `name .. name`,
/// `name + name`) or `name` repeated (`name x 2`, `name * 2`).
fn assigns_a_double(rest: &str, name: &str) -> bool {
    let Some(after) = rest.strip_prefix(name) else {
        return false;
    };
    for join in ["..", ".", "+"] {
        if let Some(second) = after.strip_prefix(join)
            && starts_with_name(second, name)
        {
            return true;
        }
    }
    ["x", "*"].iter().any(|rep| {
        after
            .trim_start()
            .strip_prefix(rep)
            .is_some_and(starts_with_factor)
    })
}

/// The loop conditions that hold while `name`, or its length, is not empty or zero: `v`,
/// `len(v)`, `length v`, `v.length`, `#v`; `length` alone in Perl tests `$_`.
fn conditions(name: &str) -> Vec<String> {
    let mut forms = vec![
        name.to_owned(),
        format!("len({name})"),
        format!("length({name})"),
        format!("length{name}"),
        format!("length {name}"),
        format!("{name}.length"),
        format!("{name}.length()"),
        format!("{name}.size"),
        format!("{name}.size()"),
        format!("{name}.len()"),
        format!("#{name}"),
        format!("strlen({name})"),
        format!("count({name})"),
        format!("scalar({name})"),
        format!("scalar {name}"),
    ];
    if name == "$_" {
        forms.push("length".to_owned());
        forms.push("length()".to_owned());
    }
    forms
}

/// Whether the loop condition at the start of `rest` (what follows a `while`) is one of
/// `forms` (see [`conditions`]), alone or compared with zero (`> 0`, `!= 0`, `>= 1`).
fn tests_holding(rest: &str, forms: &[String]) -> bool {
    let (rest, closing) = match rest.strip_prefix('(') {
        Some(inner) => (inner, Some(')')),
        None => (rest, None),
    };
    forms.iter().any(|form| {
        rest.strip_prefix(form.as_str()).is_some_and(|after| {
            let after = ["!=0", ">=1", ">0"]
                .iter()
                .find_map(|cmp| after.strip_prefix(cmp))
                .unwrap_or(after)
                .trim_start();
            match closing {
                Some(close) => after.starts_with(close),
                None => {
                    after.is_empty()
                        || after.starts_with([':', ';', '{', '}', ')'])
                        || after.starts_with("do")
                }
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::doubles_while_it_holds;

    #[test]
    fn a_value_doubled_while_it_is_not_empty_never_stops_growing() {
        for code in [
            "$_ = 'x'; $_ .= $_ while length;",
            "my $s = 'a'; $s x= 2 while $s;",
            "my $s = 'a'; while (length $s) { $s .= $s }",
            "my @a = (1); push @a, @a while @a;",
            "my @a = (1); push(@a, @a) while scalar(@a) > 0;",
            "s = 'a'\nwhile s:\n    s += s",
            "a = [1]\nwhile len(a):\n    a.extend(a)",
            "a = [1]\nwhile a:\n    a = a * 2",
            "let s = 'a'; while (s.length) s += s;",
            "let a = [1]; while (a.length > 0) { a = a.concat(a) }",
            "s = 'a'; s << s while s.size > 0",
            "$s = 'a'; while (strlen($s)) $s .= $s;",
            "$s = 'a'; while (strlen($s)) { $s = $s . $s; }",
            "s = 'a'; while #s > 0 do s = s .. s end",
            "box = 'a'\nwhile box:\n    box = box + box",
        ] {
            assert!(doubles_while_it_holds(code), "{code}");
        }
    }

    #[test]
    fn a_loop_that_shrinks_or_tests_a_bound_is_not_a_doubling() {
        for code in [
            // A queue grown by other values, tested for emptiness: a walk that ends.
            "q = [root]\nwhile q:\n    n = q.pop()\n    q.extend(n.children)",
            // A bound the value reaches.
            "s = 'a'\nwhile len(s) < 1000:\n    s += s",
            "my $s = 'a'; $s .= $s while length($s) < 4096;",
            // Doubled, but another value is tested.
            "s = 'a'\nwhile n:\n    s += s\n    n -= 1",
            "x = 1; x += y while x",
            "total = 0\nwhile total:\n    total += 1",
            "my $sx = 2; while ($sx) { $sx-- }",
        ] {
            assert!(!doubles_while_it_holds(code), "{code}");
        }
    }
}
