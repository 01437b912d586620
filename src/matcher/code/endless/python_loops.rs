//! Python's `while True:` loops, bounded by indentation: a text check that took a `break`
//! or `return` anywhere after such a loop as a way out of it read a decorator's `while
//! True: fn()` followed by `return wrapper` as ending. A loop's own body is the lines
//! indented deeper than its `while`, or the rest of its line; only a way out written there
//! leaves it. A loop that sleeps each time round is a poller or a watcher (`while True:
//! time.sleep(1); ...; subprocess.run(...)`), as the shell reader takes `while :; do ...;
//! sleep 5; done`: not a bomb.

/// What leaves a loop from inside its body (an inner loop's `break` is taken as leaving
/// too: reading more loops as ending is the side the text check errs on already).
const WAYS_OUT: &[&str] = &["break", "return", "raise", "exit(", "_exit(", "os.kill("];

/// Whether `code` has a `while True:` (or `while 1:`) loop with no way out in its body,
/// that does not yield, and, unless `sleeping` counts, does not sleep.
pub(super) fn loop_without_a_way_out(code: &str, sleeping: bool) -> bool {
    let lines: Vec<&str> = code.lines().collect();
    (0..lines.len()).any(|k| {
        endless_body(&lines, k).is_some_and(|body| {
            !body
                .iter()
                .any(|l| l.contains("yield") || !sleeping && l.contains("sleep("))
        })
    })
}

/// The body of the `while True:` loop at line `k`, when nothing in it leaves the loop.
fn endless_body<'a>(lines: &[&'a str], k: usize) -> Option<Vec<&'a str>> {
    let line = lines[k];
    let text = line.trim_start();
    let after = ["while True:", "while 1:"]
        .iter()
        .find_map(|w| text.strip_prefix(w))?;
    let mut body = vec![after];
    body.extend(block_after(lines, k));
    (!body.iter().any(|l| WAYS_OUT.iter().any(|w| l.contains(w)))).then_some(body)
}

/// The lines indented deeper than line `k`, after it.
fn block_after<'a>(lines: &[&'a str], k: usize) -> impl Iterator<Item = &'a str> {
    let indent = lines[k].len() - lines[k].trim_start().len();
    lines[k + 1..]
        .iter()
        .copied()
        .filter(|l| !l.trim().is_empty())
        .take_while(move |l| l.len() - l.trim_start().len() > indent)
}

/// Whether a generator that yields for ever (`def chunks(): while True: yield ...`) is
/// drained by a `for` loop over it that nothing in its body leaves (`for c in chunks():
/// warm.append(c)`): that loop never ends either.
pub(super) fn generator_drained_for_ever(code: &str) -> bool {
    let lines: Vec<&str> = code.lines().collect();
    let mut endless: Vec<&str> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let Some(name) = line
            .trim_start()
            .strip_prefix("def ")
            .and_then(|rest| rest.split('(').next())
            .map(str::trim)
        else {
            continue;
        };
        let def_body: Vec<usize> = (k + 1..lines.len())
            .take_while(|&j| {
                lines[j].trim().is_empty()
                    || lines[j].len() - lines[j].trim_start().len()
                        > line.len() - line.trim_start().len()
            })
            .collect();
        let yields_for_ever = def_body.iter().any(|&j| {
            endless_body(&lines, j).is_some_and(|body| body.iter().any(|l| l.contains("yield")))
        });
        if yields_for_ever && endless.len() < 8 {
            endless.push(name);
        }
    }
    !endless.is_empty()
        && lines.iter().enumerate().any(|(k, line)| {
            let text = line.trim_start();
            let drains = text.starts_with("for ")
                && endless.iter().any(|g| text.contains(&format!(" in {g}(")));
            drains
                && !block_after(&lines, k)
                    .chain(text.split_once(':').map(|(_, rest)| rest))
                    .any(|l| WAYS_OUT.iter().any(|w| l.contains(w)))
        })
}

#[cfg(test)]
mod tests {
    use super::loop_without_a_way_out;

    #[test]
    fn a_generator_that_yields_for_ever_drained_by_a_loop_never_ends() {
        let drained = "def chunks(size=1 << 28):\n    while True:\n        yield b'x' * size\nwarm = []\nfor c in chunks():\n    warm.append(c)";
        assert!(super::generator_drained_for_ever(drained));
        // Taken as far as the loop asks, it ends.
        let taken = "def ids():\n    while True:\n        yield 1\nfor i in ids():\n    if i > 3:\n        break";
        assert!(!super::generator_drained_for_ever(taken));
        let zipped = "def ids():\n    n = 0\n    while True:\n        n += 1\n        yield n\nfor i, x in zip(ids(), 'abc'):\n    print(i, x)";
        assert!(!super::generator_drained_for_ever(zipped));
    }

    #[test]
    fn a_way_out_counts_only_inside_the_loop() {
        let decorator = "def keep(fn):\n    def w(*a):\n        while True:\n            fn(*a)\n    return w\n";
        assert!(loop_without_a_way_out(decorator, false));
        assert!(loop_without_a_way_out(
            "import os\nwhile True: os.fork()\nprint('x')",
            false
        ));
        // A sleep makes a poller, except for what it keeps each time round.
        let poller = "while True:\n    time.sleep(5)\n    subprocess.run(['make'])\n";
        assert!(!loop_without_a_way_out(poller, false));
        assert!(loop_without_a_way_out(poller, true));
        for ends in [
            "while True:\n    r = run()\n    if r == 0:\n        break\n",
            "def f():\n    while True:\n        if done():\n            return 1\n",
            "while True:\n    if run().returncode == 0:\n        sys.exit(0)\n",
            "while 1: line = f.readline(); break",
            "n = 0\nwhile n < 3:\n    n += 1\n",
        ] {
            assert!(!loop_without_a_way_out(ends, false), "{ends}");
        }
    }
}
