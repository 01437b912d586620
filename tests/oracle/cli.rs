//! (cli: below)
