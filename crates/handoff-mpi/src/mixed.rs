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

use handoff::team::TeamError;

use crate::comm::Comm;
use crate::direct::Direct;
use crate::nodes::Nodes;
use crate::rma::Window;

/// The node window and its mapping; this rank's part is also the world window's memory.
pub(crate) struct Mixed {
    /// Every node mate's part, by world rank (null for other nodes' ranks).
    map: Direct,
    /// The node's shared window (a window of one rank when it is alone on its node), the
    /// memory `map` points into; freed before the transport's node communicator, after the
    /// world window made over it. `None` when the world window is itself shared (see
    /// [`within`](Self::within)).
    node: Option<Window>,
}

impl Mixed {
    /// Collective over the job (`world`): allocates `len` bytes per rank in its node's
    /// shared window (the control area and a heap of `heap_len` bytes) and maps every node
    /// mate's part; an error on every rank if any rank cannot use its mapping. Also returns
    /// this rank's part (`len` bytes, valid while the `Mixed` lives): the memory the world
    /// window is created over.
    pub(crate) fn new(
        world: &Comm,
        nodes: &Nodes,
        len: usize,
        heap_len: usize,
    ) -> Result<(Mixed, *mut u8), TeamError> {
        let mates = nodes.mates(world.rank());
        let node = Window::allocate(nodes.raw(), len, true)?;
        // `node` is dropped (a collective free over the node) only after every rank agreed.
        let parts = mates.iter().copied().enumerate();
        let map = world.agree(Direct::new(&node, parts, world.size(), heap_len))?;
        let base = node.base();
        let mixed = Mixed {
            map,
            node: Some(node),
        };
        Ok((mixed, base))
    }

    /// The node mates' parts of `shared`, a shared world window (every rank on one real
    /// node): for an MPI library that cannot serve a created world window on one node (see
    /// `join`). Data between node mates are copies through this mapping, everything else MPI
    /// RMA on `shared`, as with a window per node. Not collective.
    pub(crate) fn within(
        shared: &Window,
        world: &Comm,
        nodes: &Nodes,
        heap_len: usize,
    ) -> Result<Mixed, TeamError> {
        let mates = nodes.mates(world.rank()).into_iter().map(|r| (r, r));
        let map = Direct::new(shared, mates, world.size(), heap_len)?;
        Ok(Mixed { map, node: None })
    }

    /// Node mate `pe`'s part (the control area, then the heap), or `None` for a rank of
    /// another node.
    pub(crate) fn part(&self, pe: usize) -> Option<*mut u8> {
        self.map.part(pe)
    }

    /// Whether `pe` is a node mate (its heap is mapped here).
    pub(crate) fn maps(&self, pe: usize) -> bool {
        self.map.maps(pe)
    }

    /// Copies `src` into node mate `pe`'s heap at `offset` (a plain copy, checked, waking
    /// nobody: published by the next [`publish`](Self::publish), see the module docs).
    pub(crate) fn put(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        self.map.heap().copy_in(pe, offset, src)
    }

    /// Copies node mate `pe`'s heap bytes at `offset` into `dst` (checked).
    pub(crate) fn get(&self, pe: usize, offset: usize, dst: &mut [u8]) -> Result<(), TeamError> {
        self.map.heap().get(pe, offset, dst)
    }

    /// `MPI_Win_sync` on the node window (or on `world`, the team's window, when that is
    /// the shared one): this process's earlier stores into node mates' parts are visible
    /// before anything it does next (step 2 of the module docs), and its later loads see
    /// what node mates published before (step 4).
    pub(crate) fn publish(&self, world: &Window) -> Result<(), TeamError> {
        self.node.as_ref().unwrap_or(world).sync()
    }
}
