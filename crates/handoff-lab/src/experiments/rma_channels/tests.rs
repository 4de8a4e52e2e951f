//! Unit tests of `rma-channels`.
