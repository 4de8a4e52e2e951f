/* The few MPI handles that mpi.h defines as macros with casts, which the generated Rust
 * bindings do not carry: returned by functions, the same on MPICH and Open MPI. */
#include <mpi.h>

MPI_Op handoff_mpi_op_replace(void) { return MPI_REPLACE; }
MPI_Op handoff_mpi_op_no_op(void) { return MPI_NO_OP; }
MPI_Datatype handoff_mpi_byte(void) { return MPI_BYTE; }
MPI_Info handoff_mpi_info_null(void) { return MPI_INFO_NULL; }
int handoff_mpi_win_unified(void) { return MPI_WIN_UNIFIED; }
int handoff_mpi_mode_nocheck(void) { return MPI_MODE_NOCHECK; }
