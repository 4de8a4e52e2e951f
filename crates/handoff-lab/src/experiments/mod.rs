//! One module per experiment.

pub mod alltoall;
pub mod aggregation;
pub mod atomics;
pub mod c2c;
pub mod channels;
pub mod exchange;
pub mod pingpong;
pub mod private_vars;
pub mod stencil;
pub mod team_run;
pub mod kneighbor;
pub mod malloc;
pub mod queue;
pub mod rt_common;
pub mod msgrate;
pub mod overlap;
pub mod rma_sync;
pub mod team_worker;
