//! Joining a table whose rows are kept by kind, a file each, into the one array that is
//! looked up, at compile time.

/// Rows in `kinds`.
pub(super) const fn count<T>(kinds: &[&[T]]) -> usize {
    let mut n = 0;
    let mut k = 0;
    while k < kinds.len() {
        n += kinds[k].len();
        k += 1;
    }
    n
}

/// The rows of `kinds`, one after another.
pub(super) const fn concat<T: Copy, const N: usize>(kinds: &[&[T]]) -> [T; N] {
    let mut rows = [kinds[0][0]; N];
    let mut at = 0;
    let mut k = 0;
    while k < kinds.len() {
        let mut i = 0;
        while i < kinds[k].len() {
            rows[at] = kinds[k][i];
            at += 1;
            i += 1;
        }
        k += 1;
    }
    rows
}
