//! The one size rule of every `handoff` command (`--size`, `--sizes`, `--msg-sizes`,
//! `--heap`, …): the core's ([`handoff::units`]), which `HANDOFF_HEAP_SIZE` and
//! `SHMEM_SYMMETRIC_SIZE` follow too, re-exported here for the lab's crates.

pub use handoff::units::{format_size, parse_size, parse_size_list, SizeError};
