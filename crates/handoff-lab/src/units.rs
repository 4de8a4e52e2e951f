//! The lab's byte sizes: the one size rule of every `handoff` command lives in
//! [`handoff_probe::units`] and is re-exported here.

pub use handoff_probe::units::{format_size, parse_size, parse_size_list, SizeError};
