//! Ending the whole job from one rank (OpenSHMEM's `shmem_global_exit` over MPI).

use crate::transport::MpiTransport;

impl MpiTransport {
    /// Ends every rank of the job with exit code `status`: `MPI_Abort` on the team's
    /// communicator (the launcher then stops the other ranks and, with MPICH's and Open MPI's
    /// launchers, exits with `status`). Does not return; no finalize is needed before it.
    pub fn global_exit(&self, status: i32) -> ! {
        // The transport is not dropped (the process ends in MPI_Abort), but if the library
        // returned, the exit below must not report this rank as one that left in error.
        self.finished
            .store(true, std::sync::atomic::Ordering::Relaxed);
        self.comm.abort(status)
    }
}
