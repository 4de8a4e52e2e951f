//! [`Mixed`]: the mixed path, for a job that spans nodes with two ranks or more on some
//! node. Each node allocates a shared window over its node communicator
//! (`MPI_Win_allocate_shared`) and every rank maps its node mates' parts
//! (`MPI_Win_shared_query`); the team's world window is then `MPI_Win_create` over each
//! rank's part of that memory, so one byte of a rank's heap has two names: its node mates'
//! mapping and the world window.
//!
//! # One word, one kind of atomic
//!
//! Only bulk data use the mapping: `put` and `get` between node mates are memory copies.
//! Every update of a word that may be updated remotely — signal words, counters, atomic
//! targets — is an MPI atomic on the world window (`MPI_Accumulate`, `MPI_Fetch_and_op`,
//! `MPI_Compare_and_swap`), between node mates too, and the owner only loads its words.
//! MPI promises atomicity only among its own accumulate-class calls on one word (§11.7.1),
//! and not that an accumulate to a node mate is a CPU atomic that CPU atomics could be
//! mixed with, so no word is ever touched by a CPU RMW on this path (nor a doorbell: the
//! waits poll, as on the RMA path).
//!
//! # Put-with-signal to a node mate: why the target sees the data after the signal
//!
//! 1. The origin copies the data into the target's part through its mapping (stores).
//! 2. It calls `MPI_Win_sync` on the node window: in the unified model (§11.4) that makes
//!    its stores to the shared memory visible to every process before anything after it
//!    (a full memory barrier in MPICH and Open MPI; the sync that §11.2.3's example puts
//!    between a store to a shared window and the flag that announces it).
//! 3. Only then it issues the `MPI_Accumulate` on the target's signal word (world window).
//!    Whoever performs that update — the origin's CPU through the library's shared memory,
//!    or the target's progress engine after a message — does so after step 2, so the
//!    signal's new value cannot become visible before the data.
//! 4. The target polls: `MPI_Win_sync` (world window), an Acquire load of the signal; once
//!    it sees the value it calls `MPI_Win_sync` on both windows again before returning
//!    (§11.7's "sync, then load" for the data it is about to read), so its later loads of
//!    the data cannot be satisfied from before the signal.
//!
//! Between ranks of different nodes the RMA path's order holds (`MPI_Put`,
//! `MPI_Win_flush(pe)`, `MPI_Accumulate`; crate docs), so one put-with-signal sequence
//! serves both kinds of pairs, differing only in how the data travel and what completes
//! them before the signal (step 2, or the flush).

use std::alloc::Layout;

use handoff::team::TeamError;

use crate::comm::Comm;
use crate::direct::Direct;
use crate::nodes::Nodes;
use crate::rma::Window;

/// Alignment of a lone rank's own memory (the heap starts page aligned).
const PAGE: usize = 4096;

/// The node window and its mapping; this rank's part is also the world window's memory.
pub(crate) struct Mixed {
    /// Every node mate's part, by world rank (null for other nodes' ranks).
    map: Direct,
    /// The memory `map` points into; freed before the transport's node communicator,
    /// after the world window made over it.
    mem: Memory,
}

/// A node's memory: its shared window, or for a rank alone on its node (nothing to share)
/// a page-aligned allocation of its own (MPICH gives a one-rank "shared" window malloc'd,
/// unaligned memory).
enum Memory {
    Shared(Window),
    Alone { base: *mut u8, layout: Layout },
}

impl Mixed {
    /// Collective over the job (`world`): allocates `len` bytes per rank in its node's
    /// shared window and maps every node mate's part; an error on every rank if any rank
    /// cannot use its mapping.
    pub(crate) fn new(world: &Comm, nodes: &Nodes, len: usize) -> Result<Mixed, TeamError> {
        let me = world.rank();
        let mates = nodes.mates(me);
        if mates.len() == 1 {
            let layout = Layout::from_size_align(len, PAGE).map_err(|_| {
                TeamError::InvalidArgument(format!("a heap of {len} bytes is too large"))
            })?;
            // SAFETY: `layout` has a non-zero size (the control area at least).
            let base = unsafe { std::alloc::alloc_zeroed(layout) };
            let mine = if base.is_null() {
                Err(TeamError::InvalidArgument(format!(
                    "no memory for a heap of {len} bytes; ask for a smaller one"
                )))
            } else {
                Ok(())
            };
            let mem = Memory::Alone { base, layout };
            world.agree(mine)?;
            let map = Direct::alone(me, world.size(), base, len);
            return Ok(Mixed { map, mem });
        }
        let shared = Window::allocate(nodes.raw(), len, true)?;
        // Dropped (a collective free over the node) only after every rank agreed.
        let map = world.agree(Direct::new(&shared, &mates, world.size(), len));
        let mem = Memory::Shared(shared);
        Ok(Mixed { map: map?, mem })
    }

    /// This rank's part (`len` bytes, valid while `self` lives): the memory the world
    /// window is created over.
    pub(crate) fn base(&self) -> *mut u8 {
        match &self.mem {
            Memory::Shared(w) => w.base(),
            Memory::Alone { base, .. } => *base,
        }
    }

    /// Node mate `pe`'s part (`len` bytes), or `None` for a rank of another node.
    pub(crate) fn part(&self, pe: usize) -> Option<*mut u8> {
        self.map.part(pe)
    }

    /// Whether `pe` is a node mate (its heap is mapped here).
    pub(crate) fn maps(&self, pe: usize) -> bool {
        self.map.maps(pe)
    }

    /// Copies `src` into node mate `pe`'s part at `disp` (a plain copy; published by the
    /// next [`publish`](Self::publish), see the module docs).
    pub(crate) fn put(&self, pe: usize, disp: usize, src: &[u8]) {
        self.map.copy_in(pe, disp, src);
    }

    /// Copies node mate `pe`'s bytes at `disp` into `dst`.
    pub(crate) fn get(&self, pe: usize, disp: usize, dst: &mut [u8]) {
        self.map.get(pe, disp, dst);
    }

    /// `MPI_Win_sync` on the node window: this process's earlier stores into node mates'
    /// parts are visible before anything it does next (step 2 of the module docs), and its
    /// later loads see what node mates published before (step 4). Alone on its node a rank
    /// copies only into its own memory, which program order covers.
    pub(crate) fn publish(&self) -> Result<(), TeamError> {
        match &self.mem {
            Memory::Shared(w) => w.sync(),
            Memory::Alone { .. } => Ok(()),
        }
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        if let Memory::Alone { base, layout } = self {
            if !base.is_null() {
                // SAFETY: allocated in `Mixed::new` with this layout; the world window over
                // it was freed first (the transport's field order).
                unsafe { std::alloc::dealloc(*base, *layout) };
            }
        }
    }
}
