use super::*;

#[test]
fn each_program_has_one_row_and_is_found_by_every_name() {
    let mut seen = std::collections::HashSet::new();
    for row in PROGRAMS {
        for name in row.names {
            assert!(seen.insert(*name), "`{name}` has two rows");
            assert!(std::ptr::eq(find(name).unwrap(), row), "{name}");
        }
    }
    assert!(find("no-such-program").is_none());
}
