//! [`Comm`]: the transport's own communicator (a duplicate of `MPI_COMM_WORLD`, so its
//! barriers never match a message of the program's), its collectives (MPI's blocking calls,
//! or nonblocking ones completed by polling when a wait has a deadline), and
//! sub-communicators for barriers over subsets of the team.
//! Also [`check`]: an MPI return code as a [`TeamError`] with MPI's own message.

use std::collections::HashMap;
use std::ffi::{c_char, c_int};
use std::sync::Mutex;

use handoff::implementor::poll_until;
use handoff::sync::{NoPeers, Until, Wait, WaitError};
use handoff::sys::Deadline;
use handoff::team::TeamError;
use mpi::ffi;

use crate::pace::Pace;

/// `Ok` for `MPI_SUCCESS`, else the failing call and MPI's message for `code`.
pub(crate) fn check(call: &'static str, code: c_int) -> Result<(), TeamError> {
    if code == ffi::MPI_SUCCESS as c_int {
        return Ok(());
    }
    let mut buf = vec![0 as c_char; ffi::MPI_MAX_ERROR_STRING as usize + 1];
    let mut len: c_int = 0;
    // SAFETY: `buf` holds MPI_MAX_ERROR_STRING characters as MPI_Error_string requires;
    // it writes the length through `len`.
    let rc = unsafe { ffi::MPI_Error_string(code, buf.as_mut_ptr(), &mut len) };
    let text = if rc == ffi::MPI_SUCCESS as c_int {
        let bytes: Vec<u8> = buf[..len.clamp(0, buf.len() as c_int) as usize]
            .iter()
            .map(|&c| c as u8)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        format!("MPI error code {code}")
    };
    Err(TeamError::Transport {
        transport: "MPI",
        call,
        what: format!("{text} (check the job's MPI setup; the team cannot go on)"),
    })
}

/// Waits with strategy `how` until `poll` (which drives MPI's progress when it fails)
/// returns `Some`: the waits of the RMA and mixed paths, whose words MPI updates with no
/// wake-up, and the completion of nonblocking collectives.
///
/// While a PE waits here, peers' RMA operations on its window may need it to call MPI
/// (MPICH's RMA between processes completes at the target's progress engine), so these waits
/// do not sleep as the team's waits do: a sleeping waiter stalled every peer's operation by
/// its sleep (a get on MPICH's RMA path took 1.7 ms instead of 7 µs while its target slept in
/// a barrier, #42). What `Adaptive` (the default) does depends on `crowded`, whether this
/// rank's node runs more ranks than it has CPUs (`Nodes::oversubscribed`):
/// - crowded: 64 polls with a `pause` between, then a `sched_yield` between polls, so ranks
///   that share a CPU take turns at once (MPICH's blocking calls, which never yield, took
///   20 ms a barrier with 4 ranks on 2 CPUs) — but a ~65 µs nap instead of each yield while
///   a recent yield of this process handed the CPU to a task that ran on for a time slice
///   (a CPU hog, a build): there every yield could cost a slice, and every operation that
///   needs a peer's progress several ([`Pace`]);
/// - else: polls with a `pause` between and a `sched_yield` only every [`YIELD_EVERY`]
///   polls. A target waiting in a barrier answers a peer's get sooner the less of its time
///   it spends in `sched_yield`: with a yield between every two polls, MPICH's 8-byte
///   `MPI_Get` + `MPI_Win_flush` on the RMA path took 1.56 times a plain MPI program's,
///   whose target spins in `MPI_Barrier` (#42). The rare yield still lets another process
///   that shares this CPU on a loaded machine run within a few tens of µs.
///
/// `Spin` and `SpinYield` are themselves; `Block`, which asks for sleeps, gets the team's
/// polling sleeps ([`poll_until`]).
pub(crate) fn progress_until<T>(
    mut poll: impl FnMut() -> Option<T>,
    how: Wait,
    deadline: Option<Deadline>,
    crowded: bool,
) -> Result<T, WaitError> {
    let until = |wait| Until { wait, deadline };
    match how {
        Wait::Adaptive { .. } if crowded => {
            let mut pace = Pace::default();
            let paced = move || {
                let v = poll();
                if v.is_none() {
                    pace.miss();
                }
                v
            };
            poll_until(paced, until(Wait::Spin), &NoPeers)
        }
        Wait::Adaptive { .. } => {
            let mut misses: u32 = 0;
            let sparse = move || {
                let v = poll();
                if v.is_none() {
                    misses = misses.wrapping_add(1);
                    if misses.is_multiple_of(YIELD_EVERY) {
                        std::thread::yield_now();
                    }
                }
                v
            };
            poll_until(sparse, until(Wait::Spin), &NoPeers)
        }
        other => poll_until(poll, until(other), &NoPeers),
    }
}

/// How many failed polls an `Adaptive` wait on a node with a CPU per rank makes between two
/// `sched_yield`s ([`progress_until`]).
pub(crate) const YIELD_EVERY: u32 = 256;

/// A nonblocking operation's request, tested until done or past a deadline, waiting with
/// `how` on a node that is `crowded` or not ([`progress_until`]; `MPI_Test` is the poll and
/// drives progress).
pub(crate) fn complete(
    req: &mut ffi::MPI_Request,
    call: &'static str,
    how: Wait,
    deadline: Option<Deadline>,
    what: &'static str,
    crowded: bool,
) -> Result<(), TeamError> {
    let test = || {
        let mut flag: c_int = 0;
        // SAFETY: `req` is an active request this module started; MPI_Test completes (and
        // frees) it when `flag` comes back set; the status is ignored.
        match check(call, unsafe {
            ffi::MPI_Test(req, &mut flag, ffi::RSMPI_STATUS_IGNORE)
        }) {
            Err(e) => Some(Err(e)),
            Ok(()) => (flag != 0).then_some(Ok(())),
        }
    };
    // At the deadline the request stays active (MPI cannot cancel a collective); the team
    // is over.
    progress_until(test, how, deadline, crowded).map_err(|e| wait_error(e, what))?
}

/// Whether a collective waited for with `how` until `deadline` is made by MPI's blocking
/// call instead of the nonblocking one polled by [`complete`]: when there is no deadline to
/// keep, the strategy does not ask for sleeps and the job prefers blocking collectives
/// ([`Comm::prefer_blocking`]: Open MPI, with a CPU per rank on this node). Open MPI's
/// blocking calls take its fast path: on one loaded node its `MPI_Ibarrier` (libnbc)
/// polled with `MPI_Test` took 1.2 times its `MPI_Barrier`, and 27 to 80 times with a
/// `sched_yield` between polls as `SpinYield` does; the RMA path's `shmem_barrier_all`
/// took 3.3 to 5.5 times a plain `MPI_Win_flush_all` + `MPI_Barrier` program (#42). MPICH's
/// polled barrier was already within 1.03 times its plain program, and its blocking calls
/// never yield the CPU: with 4 ranks on 2 CPUs its `MPI_Barrier` took 20 ms against 0.6-3
/// ms polled with yields, and on a loaded machine a rank spinning in it keeps a peer off
/// the CPU even with a CPU per rank. A deadline (a `_timeout` call, a patience with a
/// timeout) keeps the polled form, which can give up; `Block` keeps the polled form's
/// sleeps.
fn blocking(how: Wait, deadline: Option<Deadline>, prefer: bool) -> bool {
    deadline.is_none() && !matches!(how, Wait::Block) && prefer
}

/// How long [`Comm::abort`] waits before `MPI_Abort`, for the launcher to forward what this
/// rank printed last.
const ABORT_GRACE: std::time::Duration = std::time::Duration::from_millis(200);

/// The transport's communicator: every rank of the job.
pub(crate) struct Comm {
    comm: ffi::MPI_Comm,
    rank: usize,
    size: usize,
    /// Communicators for barriers over subsets, by their sorted world ranks (a lock: under
    /// `MPI_THREAD_MULTIPLE` the PE's threads may barrier over different subsets at once).
    subsets: Mutex<HashMap<Vec<usize>, ffi::MPI_Comm>>,
    /// Whether collectives with no deadline are MPI's blocking calls ([`Comm::prefer_blocking`]).
    prefer_blocking: bool,
    /// Whether this rank's node runs more ranks than CPUs ([`Comm::set_crowded`]).
    crowded: bool,
}

impl Comm {
    /// Duplicates `world` (collective) and sets its error handler to return errors.
    pub(crate) fn dup(world: ffi::MPI_Comm) -> Result<Comm, TeamError> {
        // SAFETY: a predefined handle, valid after MPI_Init.
        let mut comm = unsafe { ffi::RSMPI_COMM_NULL };
        // SAFETY: `world` is a valid communicator; the new handle is written to `comm`.
        check("MPI_Comm_dup", unsafe {
            ffi::MPI_Comm_dup(world, &mut comm)
        })?;
        // SAFETY: `comm` was just created; the handler is predefined.
        check("MPI_Comm_set_errhandler", unsafe {
            ffi::MPI_Comm_set_errhandler(comm, ffi::RSMPI_ERRORS_RETURN)
        })?;
        let (mut rank, mut size): (c_int, c_int) = (0, 0);
        // SAFETY: valid communicator; outputs are locals.
        check("MPI_Comm_rank", unsafe {
            ffi::MPI_Comm_rank(comm, &mut rank)
        })?;
        // SAFETY: as above.
        check("MPI_Comm_size", unsafe {
            ffi::MPI_Comm_size(comm, &mut size)
        })?;
        Ok(Comm {
            comm,
            rank: rank as usize,
            size: size as usize,
            subsets: Mutex::new(HashMap::new()),
            prefer_blocking: false,
            crowded: true,
        })
    }

    /// Says whether collectives with no deadline may be MPI's blocking calls (see
    /// [`blocking`]): on Open MPI, when this rank's node has a CPU per rank
    /// (`Nodes::oversubscribed`). Set once, after the nodes are known.
    pub(crate) fn prefer_blocking(&mut self, prefer: bool) {
        self.prefer_blocking = prefer;
    }

    /// Says whether this rank's node runs more ranks than it has CPUs
    /// (`Nodes::oversubscribed`), which decides how its waits for MPI poll
    /// ([`progress_until`]). Set once, after the nodes are known; until then waits yield as
    /// on a crowded node.
    pub(crate) fn set_crowded(&mut self, crowded: bool) {
        self.crowded = crowded;
    }

    /// Whether this rank's node runs more ranks than CPUs ([`set_crowded`](Self::set_crowded)).
    pub(crate) fn crowded(&self) -> bool {
        self.crowded
    }

    pub(crate) fn raw(&self) -> ffi::MPI_Comm {
        self.comm
    }
    pub(crate) fn rank(&self) -> usize {
        self.rank
    }
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// Gives MPI's progress engine a turn (an `MPI_Iprobe`), so that operations other
    /// ranks aim at this one complete while it polls its own memory.
    pub(crate) fn progress(&self) {
        let mut flag: c_int = 0;
        // SAFETY: valid communicator; wildcard source and tag; the status is ignored. An
        // error here would reappear on the next real call, so it is not checked.
        unsafe {
            ffi::MPI_Iprobe(
                ffi::RSMPI_ANY_SOURCE,
                ffi::RSMPI_ANY_TAG,
                self.comm,
                &mut flag,
                ffi::RSMPI_STATUS_IGNORE,
            );
        }
    }

    /// Every rank's `value`, by rank (collective: `MPI_Iallgather` completed waiting with
    /// `how`, or `MPI_Allgather` where [`blocking`] says so).
    pub(crate) fn allgather(
        &self,
        value: u64,
        how: Wait,
        deadline: Option<Deadline>,
        what: &'static str,
    ) -> Result<Vec<u64>, TeamError> {
        let mut all = vec![0u64; self.size];
        if blocking(how, deadline, self.prefer_blocking) {
            // SAFETY: `value` and `all` (size entries) are valid for the call, which returns
            // when it is complete.
            check("MPI_Allgather", unsafe {
                ffi::MPI_Allgather(
                    (&value as *const u64).cast(),
                    1,
                    ffi::RSMPI_UINT64_T,
                    all.as_mut_ptr().cast(),
                    1,
                    ffi::RSMPI_UINT64_T,
                    self.comm,
                )
            })?;
            return Ok(all);
        }
        // SAFETY: a predefined handle.
        let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
        // SAFETY: `value` and `all` (size entries) outlive the request: `complete` returns
        // only when it finished, and on a timeout this rank's team is over and `all` leaks
        // below rather than be freed under MPI.
        check("MPI_Iallgather", unsafe {
            ffi::MPI_Iallgather(
                (&value as *const u64).cast(),
                1,
                ffi::RSMPI_UINT64_T,
                all.as_mut_ptr().cast(),
                1,
                ffi::RSMPI_UINT64_T,
                self.comm,
                &mut req,
            )
        })?;
        match complete(
            &mut req,
            "MPI_Test(MPI_Iallgather)",
            how,
            deadline,
            what,
            self.crowded,
        ) {
            Ok(()) => Ok(all),
            Err(e) => {
                std::mem::forget(all);
                Err(e)
            }
        }
    }

    /// `mine` on every rank, or an error on every rank when any rank's is one (one
    /// allgather of the outcomes): after a step a rank can fail alone, so that no rank goes
    /// on to a collective call another one will never make.
    pub(crate) fn agree<T>(&self, mine: Result<T, TeamError>) -> Result<T, TeamError> {
        // Setup: ranks may be more than CPUs and far apart in time; yield to them.
        let all = self.allgather(
            u64::from(mine.is_ok()),
            Wait::SpinYield,
            None,
            "setup agreement",
        )?;
        match (mine, all.iter().position(|&ok| ok == 0)) {
            (Err(e), _) => Err(e),
            (Ok(t), None) => Ok(t),
            (Ok(_), Some(rank)) => Err(TeamError::Transport {
                transport: "MPI",
                call: "setup",
                what: format!("rank {rank} could not set up its window; its own message says why"),
            }),
        }
    }

    /// A barrier over the world ranks `ranks` (sorted, distinct, containing this rank):
    /// `MPI_Ibarrier` completed waiting with `how`, or `MPI_Barrier` where [`blocking`] says
    /// so.
    pub(crate) fn barrier(
        &self,
        ranks: &[usize],
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<(), TeamError> {
        let comm = if ranks.len() == self.size {
            self.comm
        } else {
            self.subset(ranks)?
        };
        if blocking(how, deadline, self.prefer_blocking) {
            // SAFETY: a valid communicator containing this rank.
            return check("MPI_Barrier", unsafe { ffi::MPI_Barrier(comm) });
        }
        // SAFETY: a predefined handle.
        let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
        // SAFETY: a valid communicator containing this rank; the request is written to `req`.
        check("MPI_Ibarrier", unsafe { ffi::MPI_Ibarrier(comm, &mut req) })?;
        complete(
            &mut req,
            "MPI_Test(MPI_Ibarrier)",
            how,
            deadline,
            "a barrier",
            self.crowded,
        )
    }

    /// The communicator of `ranks`, created on first use (`MPI_Comm_create_group`:
    /// collective over the members only, which all call this barrier).
    fn subset(&self, ranks: &[usize]) -> Result<ffi::MPI_Comm, TeamError> {
        // The lock is not held while the communicator is made: that call waits for the
        // other members, whose other threads may be making another set's.
        if let Some(&c) = self.subsets().get(ranks) {
            return Ok(c);
        }
        let list: Vec<c_int> = ranks.iter().map(|&r| r as c_int).collect();
        // SAFETY: predefined handles.
        let (mut world_group, mut group, mut comm) = unsafe {
            (
                ffi::RSMPI_GROUP_NULL,
                ffi::RSMPI_GROUP_NULL,
                ffi::RSMPI_COMM_NULL,
            )
        };
        // SAFETY: valid communicator; the group handle is written to a local.
        check("MPI_Comm_group", unsafe {
            ffi::MPI_Comm_group(self.comm, &mut world_group)
        })?;
        // SAFETY: `list` holds `len` valid, distinct ranks of `world_group`.
        check("MPI_Group_incl", unsafe {
            ffi::MPI_Group_incl(world_group, list.len() as c_int, list.as_ptr(), &mut group)
        })?;
        // The tag tells creations for different sets apart (a rank may be creating the
        // communicator of one set while a peer creates another's): a hash of the set, the
        // same on every member. MPI guarantees tags up to 32767.
        let tag = ranks.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &r| {
            (h ^ r as u64).wrapping_mul(0x0100_0000_01b3)
        }) % 32_000;
        let tag = tag as c_int;
        // SAFETY: `group` is a subgroup of the communicator's group containing this rank.
        let rc = unsafe { ffi::MPI_Comm_create_group(self.comm, group, tag, &mut comm) };
        // SAFETY: both groups were created above and are no longer needed.
        unsafe {
            ffi::MPI_Group_free(&mut group);
            ffi::MPI_Group_free(&mut world_group);
        }
        check("MPI_Comm_create_group", rc)?;
        self.subsets().insert(ranks.to_vec(), comm);
        Ok(comm)
    }

    fn subsets(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<usize>, ffi::MPI_Comm>> {
        self.subsets.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ends the whole MPI job with `code` (`MPI_Abort`): what a PE that leaves without
    /// `finalize` does, so no other rank waits for it forever.
    ///
    /// On `MPI_COMM_WORLD`, not on the transport's duplicate of it (the same ranks): MPICH
    /// aborts a world job through its launcher (PMI), which kills every rank, but aborts
    /// another communicator by an active message to each member, which a rank receives only
    /// inside an MPI call; a rank waiting outside MPI (asleep in the shared window's barrier,
    /// computing) then never ended, and the job's end and exit status depended on timing
    /// (#42).
    pub(crate) fn abort(&self, code: c_int) -> ! {
        abort_world(code)
    }
}

/// [`Comm::abort`], for callers that hold no `Comm`: `MPI_Abort` on `MPI_COMM_WORLD` after a
/// moment for the launcher to forward this rank's last lines.
pub(crate) fn abort_world(code: c_int) -> ! {
    // The launcher ends the job as soon as it hears of a world abort, and MPICH's drops
    // what its proxy has not forwarded yet (the error line this rank printed just before
    // came out cut short): a moment for it to forward this rank's last lines first.
    std::thread::sleep(ABORT_GRACE);
    // SAFETY: a predefined communicator, valid after MPI_Init; MPI_Abort does not return
    // on success.
    unsafe { ffi::MPI_Abort(ffi::RSMPI_COMM_WORLD, code) };
    std::process::exit(code)
}

impl Drop for Comm {
    fn drop(&mut self) {
        // SAFETY: every handle freed here was created by this `Comm` and is not used after.
        unsafe {
            for (_, mut c) in self.subsets().drain() {
                ffi::MPI_Comm_free(&mut c);
            }
            ffi::MPI_Comm_free(&mut self.comm);
        }
    }
}

/// A failed wait as the team's error.
pub(crate) fn wait_error(e: WaitError, what: &'static str) -> TeamError {
    match e {
        WaitError::Timeout => TeamError::Timeout { what },
        other => TeamError::Transport {
            transport: "MPI",
            call: "wait",
            what: other.to_string(),
        },
    }
}
