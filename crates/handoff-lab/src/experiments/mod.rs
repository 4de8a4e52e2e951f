//! One module per experiment.

pub mod atomics;
pub mod c2c;
pub mod exchange;
pub mod msgrate;
pub mod overlap;
pub mod private_vars;
pub mod rma_sync;
pub mod team_worker;
