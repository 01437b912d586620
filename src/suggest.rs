//! "Did you mean" suggestions for misspelt names.

/// The candidate closest to `input` by edit distance, if it is close enough to be a typo
/// (at most a third of the longer name's length, and at least one character in common).
pub(crate) fn closest<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    // Too short to tell a typo from a different word (`2` is not a misspelt `1`).
    if input.chars().count() < 3 {
        return None;
    }
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(input, c), c))
        .filter(|(distance, c)| {
            let longest = input.chars().count().max(c.chars().count());
            *distance > 0 && *distance * 3 <= longest.max(3)
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn finds_typos_not_strangers() {
        let names = ["commandPattern", "sessionPattern", "tool"];
        assert_eq!(closest("comandPattern", names), Some("commandPattern"));
        assert_eq!(closest("tol", names), Some("tool"));
        assert_eq!(closest("xyz", names), None);
        assert_eq!(
            closest("tool", names),
            None,
            "an exact name is not a suggestion"
        );
    }
}
