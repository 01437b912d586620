//! hookgate
pub mod config;
pub mod context;
pub mod decision;
pub mod graph;
pub mod matcher;
pub mod point;
mod suggest;
