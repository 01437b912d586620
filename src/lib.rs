//! hookgate
pub mod config;
pub mod point;
mod suggest;
