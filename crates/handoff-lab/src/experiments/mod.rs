//! One module per experiment.

pub mod aggregation;
pub mod c2c;
pub mod channels;
pub mod exchange;
pub mod kneighbor;
pub mod malloc;
pub mod private_vars;
pub mod queue;
pub mod rt_common;
