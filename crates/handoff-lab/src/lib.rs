//! The handoff lab: experiments built on the `handoff` library, their statistics, output
//! formats, plots and the machine report.

pub mod bench;
pub mod experiments;
pub mod input;
pub mod kernels;
pub mod machine;
pub mod plot;
pub mod progress;
pub mod report;
pub mod stats;
pub mod units;
