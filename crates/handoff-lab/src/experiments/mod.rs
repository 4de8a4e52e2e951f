//! One module per experiment.

pub mod c2c;
pub mod exchange;
