//! One module per experiment.

pub mod alltoall;
pub mod c2c;
pub mod exchange;
pub mod pingpong;
pub mod private_vars;
pub mod stencil;
pub mod team_run;
