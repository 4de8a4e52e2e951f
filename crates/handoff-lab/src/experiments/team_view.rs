//! [`PhaseView`]: a fresh team over a transport that has joined already, for one phase of
//! a command that runs many team runs on one job (`mpirun -n N handoff bench ...`, see
//! [`super::team_session`]).
//!
//! A [`Team`](handoff::team::Team) allocates its heap and counters from zero and never
//! frees them; a job's transport lives for the whole command. So each phase builds a new
//! `Team` over a `PhaseView` of the job's transport: the phase allocates from offset 0
//! again (the session zeroes what the previous phase used, between barriers), and its
//! members can be a subset of the job's ranks (ping-pong: rank 0 with each other rank in
//! turn), renumbered `0..members.len()`.

use handoff::sync::{Until, Wait};
use handoff::team::{AtomicOp, Route, SignalOp, TeamError, Transport};

/// A phase's view of a joined transport: members `members[i]` as ranks `i`.
pub struct PhaseView<'a, X: Transport> {
    x: &'a X,
    members: Vec<usize>,
    me: usize,
}

impl<'a, X: Transport> PhaseView<'a, X> {
    /// The view of `x` with `members` (the job's ranks, distinct) as ranks `0..len`;
    /// `None` when this PE is not a member.
    pub fn new(x: &'a X, members: Vec<usize>) -> Option<Self> {
        let me = members.iter().position(|&r| r == x.rank())?;
        Some(PhaseView { x, members, me })
    }

    /// Every rank of the job, in order.
    pub fn all(x: &'a X) -> Self {
        PhaseView {
            x,
            members: (0..x.size()).collect(),
            me: x.rank(),
        }
    }

    fn pe(&self, pe: usize) -> Result<usize, TeamError> {
        self.members.get(pe).copied().ok_or(TeamError::NoSuchPe {
            pe,
            size: self.members.len(),
        })
    }
}

/// The name a record keeps for a pair's route: the route's stable name, `"none"` for a PE
/// outside the team.
pub fn route_name(route: Option<Route>) -> String {
    route.map_or_else(|| "none".to_string(), |r| r.to_string())
}

impl<X: Transport> Transport for PhaseView<'_, X> {
    fn rank(&self) -> usize {
        self.me
    }
    fn size(&self) -> usize {
        self.members.len()
    }
    fn heap_len(&self) -> usize {
        self.x.heap_len()
    }
    fn wait_strategy(&self) -> Wait {
        self.x.wait_strategy()
    }
    fn route(&self, pe: usize) -> Option<Route> {
        self.members.get(pe).and_then(|&r| self.x.route(r))
    }
    fn local_heap(&self) -> *mut u8 {
        self.x.local_heap()
    }
    fn peer_heap(&self, pe: usize) -> Option<*mut u8> {
        self.x.peer_heap(self.pe(pe).ok()?)
    }
    fn put(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        self.x.put(self.pe(pe)?, offset, src)
    }
    fn put_nbi(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        self.x.put_nbi(self.pe(pe)?, offset, src)
    }
    fn get(&self, pe: usize, offset: usize, dst: &mut [u8]) -> Result<(), TeamError> {
        self.x.get(self.pe(pe)?, offset, dst)
    }
    fn fence(&self) {
        self.x.fence()
    }
    fn quiet(&self) {
        self.x.quiet()
    }
    fn atomic64(&self, pe: usize, offset: usize, op: AtomicOp<u64>) -> Result<u64, TeamError> {
        self.x.atomic64(self.pe(pe)?, offset, op)
    }
    fn atomic32(&self, pe: usize, offset: usize, op: AtomicOp<u32>) -> Result<u32, TeamError> {
        self.x.atomic32(self.pe(pe)?, offset, op)
    }
    fn signal(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        self.x.signal(self.pe(pe)?, sig, op)
    }
    fn signal_unrung(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        self.x.signal_unrung(self.pe(pe)?, sig, op)
    }
    fn ring_signal(&self, pe: usize, sig: usize) -> Result<(), TeamError> {
        self.x.ring_signal(self.pe(pe)?, sig)
    }
    fn put_signal(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        sig: usize,
        op: SignalOp,
    ) -> Result<(), TeamError> {
        self.x.put_signal(self.pe(pe)?, offset, src, sig, op)
    }
    fn counter_add(&self, pe: usize, ct: usize, n: u64) -> Result<(), TeamError> {
        self.x.counter_add(self.pe(pe)?, ct, n)
    }
    fn put_counted(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        ct: usize,
    ) -> Result<(), TeamError> {
        self.x.put_counted(self.pe(pe)?, offset, src, ct)
    }
    fn counter_get(&self, ct: usize) -> u64 {
        self.x.counter_get(ct)
    }
    fn counter_set(&self, ct: usize, value: u64) {
        self.x.counter_set(ct, value)
    }
    fn counter_wait(&self, ct: usize, target: u64, until: Until) -> Result<u64, TeamError> {
        self.x.counter_wait(ct, target, until)
    }
    fn wait_local(
        &self,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        self.x.wait_local(poll, until, what)
    }
    fn barrier(&self, ranks: &[usize], until: Until) -> Result<(), TeamError> {
        let mut job = ranks
            .iter()
            .map(|&r| self.pe(r))
            .collect::<Result<Vec<_>, _>>()?;
        job.sort_unstable();
        self.x.barrier(&job, until)
    }
    /// Over the whole job, the job's agreement; over a subset, a barrier of the members
    /// only (the job's agreement is a collective of every rank, which the others are not
    /// in): every member runs the same experiment body, so a mismatch would be a bug of
    /// the body, which its own checks report.
    fn agree(&self, seq: u64, value: u64, until: Until) -> Result<(), TeamError> {
        if self.members.len() == self.x.size() {
            self.x.agree(seq, value, until)
        } else {
            let mut job = self.members.clone();
            job.sort_unstable();
            self.x.barrier(&job, until)
        }
    }
    /// Nothing: the job's transport ends with the command, not with the phase.
    fn finish(&self) {}
}
