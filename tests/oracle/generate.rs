//! (generator: below)
