//! One module per experiment.

pub mod aggregation;
pub mod alltoall;
pub mod atomics;
pub mod c2c;
pub mod channels;
pub mod exchange;
pub mod floor;
pub mod kneighbor;
pub mod launcher;
pub mod malloc;
pub mod msgrate;
pub mod named;
pub mod overlap;
pub mod pingpong;
pub mod private_vars;
pub mod queue;
pub mod rma_channels;
pub mod rma_sync;
pub mod rt_common;
pub mod stencil;
pub mod team_config;
pub mod team_floor;
pub mod team_mpi;
pub mod team_run;
pub mod team_session;
pub mod team_view;
