//! Joining the MPI job: [`MpiTransport::init`] initializes MPI, learns the nodes and
//! allocates the team's window (shared, mixed or RMA, see [`ENV_WINDOW`](crate::ENV_WINDOW));
//! [`MpiTransport::from_env`] reads the heap size and wait strategy from the environment.
//! The operations on the joined team are in `transport`.

use std::cell::Cell;

use handoff::sync::Wait;
use handoff::team::TeamError;
use mpi::traits::AsRaw;

use crate::comm::Comm;
use crate::direct::Direct;
use crate::mixed::Mixed;
use crate::nodes::{window_from_env, Kind, Nodes};
use crate::rma::Window;
use crate::transport::{MpiTransport, CTRL};

impl MpiTransport {
    /// Initializes MPI (`MPI_Init_thread`, serialized: one thread of the PE calls MPI at a
    /// time) and allocates the team's window, `heap_len` bytes of symmetric heap per rank;
    /// collective over `MPI_COMM_WORLD`. No barrier: [`crate::join`] adds one.
    pub fn init(heap_len: usize, wait: Wait) -> Result<Self, TeamError> {
        if heap_len == 0 {
            return Err(TeamError::InvalidArgument(
                "a heap of 0 bytes holds nothing; ask for e.g. 64M".into(),
            ));
        }
        let (universe, _level) = mpi::initialize_with_threading(mpi::Threading::Serialized)
            .ok_or_else(|| TeamError::Transport {
                transport: "MPI",
                call: "MPI_Init_thread",
                what: "MPI was initialized already in this process; make one \
                           MpiTransport per process"
                    .into(),
            })?;
        let comm = Comm::dup(universe.world().as_raw())?;
        let nodes = Nodes::discover(&comm)?;
        // Whole pages: MPI libraries align a page-multiple allocation (MPICH gave an odd
        // length, 1 MiB + 8 B, memory that was not even 128-byte aligned); the tail past
        // `heap_len` is never addressed.
        let len = CTRL
            .checked_add(heap_len)
            .and_then(|l| l.checked_next_multiple_of(CTRL))
            .ok_or_else(|| {
                TeamError::InvalidArgument(format!("a heap of {heap_len} bytes is too large"))
            })?;
        // Steps a rank can fail alone (a mapping it cannot use) end in an agreement
        // (`Comm::agree`), so no rank enters the next collective call while another gave up.
        let (win, direct, mixed) = match window_from_env(&nodes)? {
            Kind::Shared => {
                let win = Window::allocate(comm.raw(), len, true)?;
                let all: Vec<usize> = (0..comm.size()).collect();
                let direct = comm.agree(Direct::new(&win, &all, comm.size(), len))?;
                (win, Some(direct), None)
            }
            Kind::Rma => (Window::allocate(comm.raw(), len, false)?, None, None),
            Kind::Mixed => {
                let mixed = Mixed::new(&comm, &nodes, len)?;
                // SAFETY: `mixed`'s part holds `len` bytes and is freed only after the
                // world window (the fields' drop order).
                let win = unsafe { Window::create(comm.raw(), mixed.base(), len)? };
                (win, None, Some(mixed))
            }
        };
        // Agreed, like the steps above: a rank that gave up alone here would leave the others
        // waiting in their first barrier (and itself in the window's collective free).
        comm.agree(if (win.base() as usize).is_multiple_of(128) {
            Ok(())
        } else {
            Err(TeamError::Transport {
                transport: "MPI",
                call: "MPI_Win_allocate",
                what: format!(
                    "the window base {:p} is not 128-byte aligned, which symmetric objects need",
                    win.base()
                ),
            })
        })?;
        Ok(MpiTransport {
            win,
            mixed,
            nodes,
            comm,
            heap_len,
            wait,
            finished: Cell::new(false),
            direct,
            _universe: universe,
        })
    }

    /// [`init`](Self::init) with the heap size and wait strategy from the environment
    /// (`HANDOFF_HEAP_SIZE`, default [`DEFAULT_HEAP`](handoff::team::DEFAULT_HEAP);
    /// `HANDOFF_WAIT`, default adaptive), as `mpirun -x`/`-genv` passes them.
    pub fn from_env() -> Result<Self, TeamError> {
        let heap = match std::env::var(handoff::team::ENV_HEAP) {
            Ok(h) => handoff_probe::units::parse_size(&h).map_err(|e| TeamError::BadEnv {
                var: handoff::team::ENV_HEAP,
                value: h.clone(),
                why: e.to_string(),
            })?,
            Err(_) => handoff::team::DEFAULT_HEAP,
        };
        let wait = match std::env::var(handoff::team::ENV_WAIT) {
            Ok(w) => w
                .parse()
                .map_err(|e: handoff::sync::SyncError| TeamError::BadEnv {
                    var: handoff::team::ENV_WAIT,
                    value: w.clone(),
                    why: e.to_string(),
                })?,
            Err(_) => Wait::ADAPTIVE,
        };
        Self::init(heap, wait)
    }
}
