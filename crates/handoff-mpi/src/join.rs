//! Joining the MPI job: [`MpiTransport::init`] initializes MPI, learns the nodes and
//! allocates the team's window (shared, mixed or RMA, see [`ENV_WINDOW`](crate::ENV_WINDOW));
//! [`MpiTransport::from_env`] reads the heap size and wait strategy from the environment.
//! The operations on the joined team are in `transport`.

use handoff::sync::Wait;
use handoff::team::TeamError;
use mpi::traits::AsRaw;
use mpi::Threading;

use crate::comm::Comm;
use crate::direct::part_len;
use crate::direct::Direct;
use crate::mixed::Mixed;
use crate::nodes::{node_name, window_from_env, Kind, Nodes};
use crate::rma::{Window, ALIGN};
use crate::transport::MpiTransport;

impl MpiTransport {
    /// Initializes MPI (`MPI_Init_thread`, serialized: one thread of the PE calls MPI at a
    /// time) and allocates the team's window, `heap_len` bytes of symmetric heap per rank;
    /// collective over `MPI_COMM_WORLD`. No barrier: [`crate::join`] adds one.
    pub fn init(heap_len: usize, wait: Wait) -> Result<Self, TeamError> {
        Self::init_thread(heap_len, wait, Threading::Serialized)
    }

    /// [`init`](Self::init), asking MPI for the thread level `threading`: `Multiple` when the
    /// PE's threads will call the transport at once, `Single` when the process calls MPI
    /// from one thread only (OpenSHMEM's `shmem_init`). What MPI granted is
    /// [`threading`](Self::threading) (MPICH and Open MPI grant what is asked in their
    /// default builds). Ask for no more than needed: above `Single`, Open MPI 4.1 locks a
    /// mutex and makes a condition variable for every blocking call's wait (its
    /// `MPI_Barrier` took 1.19 times as long under `MPI_THREAD_SERIALIZED` or `FUNNELED` as
    /// under `MPI_THREAD_SINGLE`, #42).
    pub fn init_thread(
        heap_len: usize,
        wait: Wait,
        threading: Threading,
    ) -> Result<Self, TeamError> {
        if heap_len == 0 {
            return Err(TeamError::InvalidArgument(
                "a heap of 0 bytes holds nothing; ask for e.g. 64M".into(),
            ));
        }
        // Until every rank has joined (MPI started, the window allocated): a rank that never
        // joins leaves the others blocked in MPI's start-up (MPICH's launcher waits for it
        // forever), so past the join timeout this process ends with a line saying why.
        let _joining = JoinWatch::start()?;
        let (universe, level) =
            mpi::initialize_with_threading(threading).ok_or_else(|| TeamError::Transport {
                transport: "MPI",
                call: "MPI_Init_thread",
                what: "MPI was initialized already in this process; make one \
                           MpiTransport per process"
                    .into(),
            })?;
        let mut comm = Comm::dup(universe.world().as_raw())?;
        let nodes = Nodes::discover(&comm)?;
        let crowded = nodes.oversubscribed();
        let open_mpi = MpiTransport::library_version().starts_with("Open MPI");
        comm.prefer_blocking(open_mpi && !crowded);
        comm.set_crowded(crowded);
        // Whole pages (`direct::part_len`): the control area, the heap, the shared window's
        // barrier words. Each rank's part starts page aligned whatever MPI gave it:
        // `Window::allocate` over-allocates and aligns (`rma::ALIGN`).
        let len = part_len(heap_len, comm.size()).ok_or_else(|| {
            TeamError::InvalidArgument(format!("a heap of {heap_len} bytes is too large"))
        })?;
        // A heap this node cannot hold is an error naming the rank and node (agreed, so
        // every rank stops here), not a rank killed or stalled while MPI allocates.
        comm.agree(fits_this_node(&nodes, comm.rank(), heap_len, len))?;
        // Steps a rank can fail alone (a mapping it cannot use) end in an agreement
        // (`Comm::agree`), so no rank enters the next collective call while another gave up.
        let (win, direct, mixed) = match window_from_env(&nodes)? {
            Kind::Shared => {
                let win = Window::allocate(comm.raw(), len, true)?;
                let all = (0..comm.size()).map(|r| (r, r));
                let direct = comm.agree(Direct::new(&win, all, comm.size(), heap_len))?;
                (win, Some(direct), None)
            }
            // On one node with an Open MPI whose osc/rdma crashes there (see
            // `cas_crash_on_one_node`), the window is allocated shared, which Open MPI serves
            // with its osc/sm component: the same MPI RMA calls, in shared memory.
            Kind::Rma => {
                let shared = nodes.one_real_node && cas_crash_on_one_node();
                (Window::allocate(comm.raw(), len, shared)?, None, None)
            }
            // The same Open MPI would crash on the world window below (`MPI_Win_create`,
            // served by osc/rdma only): on one node the world window is allocated shared
            // instead, and node mates' parts are mapped from it.
            Kind::Mixed if nodes.one_real_node && cas_crash_on_one_node() => {
                let win = Window::allocate(comm.raw(), len, true)?;
                let mixed = comm.agree(Mixed::within(&win, &comm, &nodes, heap_len))?;
                (win, None, Some(mixed))
            }
            Kind::Mixed => {
                let (mixed, base) = Mixed::new(&comm, &nodes, len, heap_len)?;
                // SAFETY: `base`, this rank's part of `mixed`'s node window, holds `len` bytes
                // and is freed only after the world window (the fields' drop order).
                let win = unsafe { Window::create(comm.raw(), base, len)? };
                (win, None, Some(mixed))
            }
        };
        let mut win = win;
        win.set_crowded(crowded);
        Ok(MpiTransport {
            win,
            mixed,
            nodes,
            comm,
            heap_len,
            wait,
            finished: false.into(),
            threading: level,
            direct,
            _universe: universe,
        })
    }

    /// The MPI library this program runs on, as `MPI_Get_library_version` names it (e.g.
    /// "Open MPI v4.1.4, ..." or "MPICH Version: 4.0.2 ..."); callable before
    /// [`init`](Self::init). A launcher must come from the same library: another one's
    /// `mpirun` starts each rank as a job of its own.
    pub fn library_version() -> String {
        let mut buf =
            vec![0 as std::ffi::c_char; mpi::ffi::MPI_MAX_LIBRARY_VERSION_STRING as usize + 1];
        let mut len: std::ffi::c_int = 0;
        // SAFETY: `buf` holds MPI_MAX_LIBRARY_VERSION_STRING characters as the call requires;
        // it writes the length through `len`. MPI allows the call before MPI_Init (§8.1.1).
        let rc = unsafe { mpi::ffi::MPI_Get_library_version(buf.as_mut_ptr(), &mut len) };
        if rc != mpi::ffi::MPI_SUCCESS as std::ffi::c_int {
            return format!("an MPI library (MPI_Get_library_version failed with {rc})");
        }
        let bytes: Vec<u8> = buf[..len.clamp(0, buf.len() as std::ffi::c_int) as usize]
            .iter()
            .map(|&c| c as u8)
            .collect();
        String::from_utf8_lossy(&bytes).trim().to_string()
    }

    /// [`init`](Self::init) with the heap size and wait strategy from the environment
    /// (`HANDOFF_HEAP_SIZE`, default [`DEFAULT_HEAP`](handoff::team::DEFAULT_HEAP);
    /// `HANDOFF_WAIT`, default adaptive), as `mpirun -x`/`-genv` passes them.
    pub fn from_env() -> Result<Self, TeamError> {
        let heap = handoff::implementor::heap_from_env()?.unwrap_or(handoff::team::DEFAULT_HEAP);
        let wait = handoff::implementor::wait_from_env()?;
        Self::init(heap, wait)
    }
}

/// Exit status of a rank whose job did not start within the join timeout ([`JoinWatch`]).
pub(crate) const JOIN_TIMEOUT_EXIT: i32 = 124;

/// A watchdog over joining the MPI job: ends the process with a line naming this rank and
/// node (exit status [`JOIN_TIMEOUT_EXIT`]) when it is not dropped within the join timeout
/// (`HANDOFF_JOIN_TIMEOUT`, default [`DEFAULT_JOIN_TIMEOUT`](handoff::team::DEFAULT_JOIN_TIMEOUT),
/// as `handoff run`): MPI's start-up and the first collective calls block, with no deadline
/// of their own, until every rank of the job has called them.
struct JoinWatch {
    _joined: std::sync::mpsc::Sender<()>,
}

impl JoinWatch {
    fn start() -> Result<JoinWatch, TeamError> {
        let timeout = match std::env::var(handoff::implementor::ENV_JOIN_TIMEOUT) {
            Ok(t) => handoff::team::parse_duration(&t).map_err(|e| TeamError::BadEnv {
                var: handoff::implementor::ENV_JOIN_TIMEOUT,
                value: t.clone(),
                why: e.to_string(),
            })?,
            Err(_) => handoff::team::DEFAULT_JOIN_TIMEOUT,
        };
        let (joined, watch) = std::sync::mpsc::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("handoff-mpi-join".into())
            .spawn(move || {
                // Disconnected (the watch dropped: joined, or failed with an error of its
                // own) ends the watch; only a timeout ends the process.
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = watch.recv_timeout(timeout)
                {
                    join_timed_out(timeout);
                }
            });
        spawned.map_err(|e| TeamError::Transport {
            transport: "MPI",
            call: "join watchdog",
            what: format!("cannot start a thread: {e}"),
        })?;
        Ok(JoinWatch { _joined: joined })
    }
}

/// Ends this process (the join watchdog's verdict) with one line naming it. `exit`, not a
/// panic: the main thread is blocked inside MPI, and the launcher then ends the job.
#[cold]
fn join_timed_out(timeout: std::time::Duration) -> ! {
    // Before MPI has started, the launcher's environment is what names this rank.
    let rank = ["PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"]
        .iter()
        .find_map(|v| std::env::var(v).ok())
        .unwrap_or_else(|| "?".into());
    let node = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "(unnamed)".into());
    let line = format!(
        "handoff-mpi: rank {rank} on node {node}: the MPI job did not start within {timeout:?}: \
         a rank never joined (it exited or failed before MPI_Init/shmem_init, or was never \
         started); HANDOFF_JOIN_TIMEOUT sets how long to wait\n"
    );
    // One write(2) for the whole line, so the lines of several ranks never interleave.
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    std::process::exit(JOIN_TIMEOUT_EXIT)
}

/// Whether this program runs on an Open MPI before 4.1.5 (from
/// [`MpiTransport::library_version`]), whose osc/rdma component (what serves its
/// `MPI_Win_allocate` and `MPI_Win_create` windows) segfaults on a 64-bit
/// `MPI_Compare_and_swap` when its byte transport is the shared-memory BTL (`vader`), i.e.
/// between ranks of one node (open-mpi/ompi#7967, #11349: the BTL's emulated atomic; 4.1.5
/// does the CAS in shared memory instead). Debian 12 ships 4.1.4.
fn cas_crash_on_one_node() -> bool {
    let version = MpiTransport::library_version();
    let Some(rest) = version.strip_prefix("Open MPI v") else {
        return false;
    };
    let numbers: Vec<u32> = rest
        .split(|c: char| !c.is_ascii_digit())
        .take(3)
        .map(|n| n.parse().unwrap_or(0))
        .collect();
    match numbers[..] {
        [major, minor, patch] => (major, minor, patch) < (4, 1, 5),
        _ => false,
    }
}

/// `Ok` when this rank's node has room for the windows of its ranks (`len` bytes each, the
/// heap `heap_len` of them, plus room to align and stagger): `/dev/shm` free space and
/// memory available, as `handoff run` checks; else an error naming this rank and node.
fn fits_this_node(
    nodes: &Nodes,
    rank: usize,
    heap_len: usize,
    len: usize,
) -> Result<(), TeamError> {
    let per_rank = (len as u64).saturating_add(3 * ALIGN as u64);
    let needed = per_rank.saturating_mul(nodes.real_mates as u64);
    // Unknown free space (an error reading it) does not stop the job; MPI then decides.
    let available = handoff::sys::shm_available().unwrap_or(u64::MAX);
    if needed <= available {
        return Ok(());
    }
    Err(TeamError::Transport {
        transport: "MPI",
        call: "window allocation",
        what: format!(
            "rank {rank} on node {}: {} ranks there with a heap of {heap_len} bytes each need \
             {needed} bytes, but the node has {available} free (/dev/shm, or memory); ask for \
             a smaller HANDOFF_HEAP_SIZE or fewer ranks per node",
            node_name(),
            nodes.real_mates
        ),
    })
}
