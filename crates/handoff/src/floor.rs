//! The physical floor: one cache line bounced between two CPUs. (Being built.)
