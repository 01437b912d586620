//! The `hookgate` binary's allocator (src/main.rs), so that a bench's in-process figures are
//! those of the program as shipped. Not in `support`: the compile bench counts heap bytes
//! with an allocator of its own.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
