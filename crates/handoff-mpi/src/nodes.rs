//! Which ranks share a node: [`Nodes::discover`] splits the transport's communicator into
//! node communicators (`MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)`), or — with
//! [`ENV_NODES`] — into pretend nodes of contiguous rank blocks (`MPI_Comm_split` by a
//! colour), so one machine can exercise what a multi-node job does; and which window a
//! team over that layout allocates ([`ENV_WINDOW`]).

use std::ffi::c_int;

use handoff::sync::Wait;
use handoff::team::TeamError;
use mpi::ffi;

use crate::comm::{check, Comm};

/// Environment: split the job into this many pretend nodes (`1..=ranks`), contiguous blocks
/// of ranks (rank `r` of `n` is on pretend node `r * k / n`), as if each block ran on a
/// node of its own: `mpirun -n 4` with `HANDOFF_MPI_NODES=2` makes ranks {0,1} and {2,3}
/// node mates. Each block must lie within one real node (it shares a window).
pub const ENV_NODES: &str = "HANDOFF_MPI_NODES";

/// Environment: which window the team allocates: `auto` (the default: `shared` when every
/// rank is on one node, else `mixed` when some node holds two ranks or more, else `rma`),
/// `shared` (`MPI_Win_allocate_shared`; one node only), `mixed` (a shared window per node
/// for data between node mates, a world window for everything else; see
/// [`window_kind`](crate::MpiTransport::window_kind)) or `rma` (`MPI_Win_allocate` even on one
/// node, to exercise the library's inter-node path here). Nodes are real ones or those of
/// [`ENV_NODES`].
pub const ENV_WINDOW: &str = "HANDOFF_MPI_WINDOW";

/// The node layout of the job and this rank's node communicator.
pub(crate) struct Nodes {
    /// Per world rank: the lowest world rank on its node (a node id).
    pub(crate) ids: Vec<usize>,
    /// Whether every rank runs on one real node (whatever the pretend nodes say).
    pub(crate) one_real_node: bool,
    /// How many ranks run on this rank's real node (their windows share its memory).
    pub(crate) real_mates: usize,
    /// This rank's node communicator; split with the world rank as key, so its members'
    /// ranks there ascend with their world ranks.
    comm: ffi::MPI_Comm,
}

impl Nodes {
    /// Collective over `world`: every rank's node, real or (with [`ENV_NODES`]) pretend.
    /// Every rank sees the same environment and the same gathered ids, so a bad setting is
    /// the same error on every rank, never a hang.
    pub(crate) fn discover(world: &Comm) -> Result<Nodes, TeamError> {
        let (rank, size) = (world.rank(), world.size());
        let real = split(world, None)?;
        let mut lowest: u64 = rank as u64;
        let mut out: u64 = 0;
        // SAFETY: `real` is a valid communicator; one u64 in, one out, both locals.
        let rc = unsafe {
            ffi::MPI_Allreduce(
                (&lowest as *const u64).cast(),
                (&mut out as *mut u64).cast(),
                1,
                ffi::RSMPI_UINT64_T,
                ffi::RSMPI_MIN,
                real.comm,
            )
        };
        check("MPI_Allreduce(node id)", rc)?;
        lowest = out;
        let real_ids: Vec<usize> = world
            .allgather(lowest, Wait::SpinYield, None, "node ids")?
            .into_iter()
            .map(|n| n as usize)
            .collect();
        let one_real_node = real_ids.iter().all(|&id| id == real_ids[0]);
        let real_mates = real_ids.iter().filter(|&&id| id == real_ids[rank]).count();
        let Some(k) = pretend_nodes(size)? else {
            return Ok(Nodes {
                ids: real_ids,
                one_real_node,
                real_mates,
                comm: real.into_raw(),
            });
        };
        let colour = |r: usize| r * k / size;
        // A pretend node's lowest rank: the first r of its colour (colours ascend with r).
        let ids: Vec<usize> = (0..size)
            .map(|r| (0..=r).find(|&q| colour(q) == colour(r)).unwrap_or(r))
            .collect();
        if let Some(r) = (0..size).find(|&r| real_ids[r] != real_ids[ids[r]]) {
            return Err(TeamError::BadEnv {
                var: ENV_NODES,
                value: k.to_string(),
                why: format!(
                    "pretend node {} (ranks from {}) spans real nodes (rank {r} is not on \
                     rank {}'s node); use a multiple of the real node count or unset it",
                    colour(r),
                    ids[r],
                    ids[r]
                ),
            });
        }
        drop(real);
        let pretend = split(world, Some(colour(rank)))?;
        Ok(Nodes {
            ids,
            one_real_node,
            real_mates,
            comm: pretend.into_raw(),
        })
    }

    /// How many nodes the job spans.
    pub(crate) fn count(&self) -> usize {
        let mut n = self.ids.clone();
        n.sort_unstable();
        n.dedup();
        n.len()
    }

    /// The world ranks on `rank`'s node, ascending (its node communicator's rank order).
    pub(crate) fn mates(&self, rank: usize) -> Vec<usize> {
        (0..self.ids.len())
            .filter(|&r| self.ids[r] == self.ids[rank])
            .collect()
    }

    /// Whether some node holds two ranks or more (so a node window pays off).
    pub(crate) fn crowded(&self) -> bool {
        self.count() < self.ids.len()
    }

    /// Whether this rank's real node runs more ranks of the job than it has CPUs online:
    /// then a rank that spins inside a blocking MPI call (MPICH 4.0's `MPI_Barrier` and
    /// `MPI_Win_flush` never yield the CPU) keeps a peer that shares its CPU, whose progress
    /// it waits for, off the CPU until the kernel's time slice ends; the transport then
    /// waits for MPI by polling with yields instead (see `comm::Comm::barrier`,
    /// `rma::Window::get`). Unknown CPUs count as enough.
    pub(crate) fn oversubscribed(&self) -> bool {
        let cpus = handoff::sys::online_cpus().map_or(usize::MAX, |c| c.len().max(1));
        self.real_mates > cpus
    }

    /// This rank's node communicator.
    pub(crate) fn raw(&self) -> ffi::MPI_Comm {
        self.comm
    }
}

impl Drop for Nodes {
    fn drop(&mut self) {
        // SAFETY: created by `split` and owned here; windows made over it are freed first
        // (the transport's field order).
        unsafe { ffi::MPI_Comm_free(&mut self.comm) };
    }
}

/// This node's name (`MPI_Get_processor_name`), for messages.
pub(crate) fn node_name() -> String {
    let mut buf = vec![0 as std::ffi::c_char; ffi::MPI_MAX_PROCESSOR_NAME as usize + 1];
    let mut len: c_int = 0;
    // SAFETY: `buf` holds MPI_MAX_PROCESSOR_NAME characters as the call requires; it writes
    // the length through `len`.
    let rc = unsafe { ffi::MPI_Get_processor_name(buf.as_mut_ptr(), &mut len) };
    if rc != ffi::MPI_SUCCESS as c_int {
        return "(unnamed)".into();
    }
    let bytes: Vec<u8> = buf[..len.clamp(0, buf.len() as c_int) as usize]
        .iter()
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A communicator freed on drop unless handed on.
struct Owned {
    comm: ffi::MPI_Comm,
}

impl Owned {
    fn into_raw(self) -> ffi::MPI_Comm {
        let c = self.comm;
        std::mem::forget(self);
        c
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: created by `split`, not used after.
        unsafe { ffi::MPI_Comm_free(&mut self.comm) };
    }
}

/// Collective over `world`: this rank's real node communicator (`colour` `None`) or the
/// communicator of the ranks of colour `colour`; members ordered by world rank.
fn split(world: &Comm, colour: Option<usize>) -> Result<Owned, TeamError> {
    // SAFETY: a predefined handle.
    let mut comm = unsafe { ffi::RSMPI_COMM_NULL };
    let key = world.rank() as c_int;
    let rc = match colour {
        // SAFETY: a valid communicator; the new handle is written to `comm`.
        None => unsafe {
            ffi::MPI_Comm_split_type(
                world.raw(),
                ffi::RSMPI_COMM_TYPE_SHARED,
                key,
                ffi::RSMPI_INFO_NULL,
                &mut comm,
            )
        },
        // SAFETY: as above; colours are small non-negative ints (< the rank count).
        Some(c) => unsafe { ffi::MPI_Comm_split(world.raw(), c as c_int, key, &mut comm) },
    };
    check(
        if colour.is_some() {
            "MPI_Comm_split"
        } else {
            "MPI_Comm_split_type"
        },
        rc,
    )?;
    Ok(Owned { comm })
}

/// [`ENV_NODES`] as a node count for `size` ranks, if set.
fn pretend_nodes(size: usize) -> Result<Option<usize>, TeamError> {
    let Ok(v) = std::env::var(ENV_NODES) else {
        return Ok(None);
    };
    match v.trim().parse::<usize>() {
        Ok(k) if (1..=size).contains(&k) => Ok(Some(k)),
        _ => Err(TeamError::BadEnv {
            var: ENV_NODES,
            value: v,
            why: format!("expected a node count from 1 to the job's {size} ranks"),
        }),
    }
}

/// The window a team allocates.
pub(crate) enum Kind {
    Shared,
    Mixed,
    Rma,
}

/// [`ENV_WINDOW`] for the job's `nodes`.
pub(crate) fn window_from_env(nodes: &Nodes) -> Result<Kind, TeamError> {
    let one_node = nodes.count() == 1;
    Ok(match std::env::var(ENV_WINDOW).as_deref() {
        Err(_) | Ok("auto") if one_node => Kind::Shared,
        Err(_) | Ok("auto") if nodes.crowded() => Kind::Mixed,
        Err(_) | Ok("auto") => Kind::Rma,
        Ok("shared") if one_node => Kind::Shared,
        Ok("shared") => {
            return Err(TeamError::BadEnv {
                var: ENV_WINDOW,
                value: "shared".into(),
                why: "the ranks run on more than one node; a shared window needs one \
                      (use mixed or auto)"
                    .into(),
            })
        }
        Ok("mixed") => Kind::Mixed,
        Ok("rma") => Kind::Rma,
        Ok(other) => {
            return Err(TeamError::BadEnv {
                var: ENV_WINDOW,
                value: other.into(),
                why: "expected auto, shared, mixed or rma".into(),
            })
        }
    })
}
