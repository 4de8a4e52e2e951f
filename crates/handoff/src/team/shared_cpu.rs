//! Whether this PE shares its CPU with another PE of the team, so that its adaptive waits
//! yield to that PE instead of pausing ([`crate::sync`] docs, "The same-CPU trap").
//!
//! Each PE publishes where it may run when it joins (`PeCtrl::cpu`, [`placed`]): its CPU
//! when its affinity mask holds one CPU, [`UNPINNED`] otherwise, [`NOT_JOINED`] (the zero
//! fill) before it joins. The verdict ([`shares_cpu`]):
//!
//! - **pinned** to CPU `c`: shared when another PE is pinned to `c` too, or when another PE is
//!   unpinned and the team has more PEs than the machine has online CPUs;
//! - **unpinned**: shared when the team has more PEs than this PE's mask has CPUs.
//!
//! What it must not do is count a pinned PE's own mask (one CPU) as the CPUs the team runs
//! on: two PEs pinned to CPUs 0 and 1 each see a mask of one CPU, and "2 PEs > 1 CPU" made
//! every wait of theirs yield (a `sched_yield` per hand-off: 5× a spinning wait's latency).
//!
//! A heuristic like the rest of the hint: a wrong verdict costs some yields, or pauses for
//! at most the spin budget before the futex sleep, never correctness.

/// `PeCtrl::cpu` of a PE that has not joined yet (the segment's zero fill).
pub(super) const NOT_JOINED: u32 = 0;
/// `PeCtrl::cpu` of a PE whose affinity mask holds more than one CPU.
pub(super) const UNPINNED: u32 = u32::MAX;

/// What a PE with affinity mask `mask` publishes: its CPU + 1 when pinned to one, else
/// [`UNPINNED`].
pub(super) fn placed(mask: &[usize]) -> u32 {
    match mask {
        [cpu] => u32::try_from(*cpu)
            .ok()
            .and_then(|c| c.checked_add(1))
            .filter(|&v| v != UNPINNED)
            .unwrap_or(UNPINNED),
        _ => UNPINNED,
    }
}

/// Whether PE `me` of `size`, whose own mask is `mask`, shares its CPU with another PE
/// (module docs); `placed_of(r)` is PE `r`'s published placement, `online` the machine's
/// online CPU count. `None` while the answer depends on a PE that has not joined yet.
pub(super) fn shares_cpu(
    me: usize,
    size: usize,
    mask: &[usize],
    online: usize,
    placed_of: impl Fn(usize) -> u32,
) -> Option<bool> {
    let mine = placed(mask);
    if mine == UNPINNED {
        return Some(size > mask.len().max(1));
    }
    let mut unknown = false;
    let mut unpinned = false;
    for r in (0..size).filter(|&r| r != me) {
        match placed_of(r) {
            NOT_JOINED => unknown = true,
            UNPINNED => unpinned = true,
            p if p == mine => return Some(true),
            _ => {}
        }
    }
    if unpinned && size > online.max(1) {
        Some(true)
    } else if unknown {
        None
    } else {
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placements of a team, by rank.
    fn team(p: &[u32]) -> impl Fn(usize) -> u32 + '_ {
        |r| p[r]
    }

    #[test]
    fn publishes_a_single_cpu_or_unpinned() {
        assert_eq!(placed(&[0]), 1);
        assert_eq!(placed(&[5]), 6);
        assert_eq!(placed(&[0, 1]), UNPINNED);
        assert_eq!(placed(&[]), UNPINNED);
    }

    /// The case that made `handoff bench pingpong --placement shared-l3` and a pinned
    /// `shmem_barrier_all` yield on every wait: PEs pinned to distinct CPUs share nothing,
    /// however small each one's own mask.
    #[test]
    fn pes_pinned_to_distinct_cpus_share_nothing() {
        let p = [placed(&[0]), placed(&[1])];
        assert_eq!(shares_cpu(0, 2, &[0], 2, team(&p)), Some(false));
        assert_eq!(shares_cpu(1, 2, &[1], 2, team(&p)), Some(false));
        // Four PEs on four CPUs of a bigger machine.
        let p = [1, 2, 3, 4];
        for me in 0..4 {
            let mask = [me];
            assert_eq!(shares_cpu(me, 4, &mask, 8, team(&p)), Some(false));
        }
    }

    #[test]
    fn pes_pinned_to_one_cpu_share_it() {
        // Both on CPU 3.
        let p = [4, 4];
        assert_eq!(shares_cpu(0, 2, &[3], 2, team(&p)), Some(true));
        // Four PEs compact on 2 CPUs: 0,1,0,1.
        let p = [1, 2, 1, 2];
        for me in 0..4 {
            assert_eq!(shares_cpu(me, 4, &[me % 2], 2, team(&p)), Some(true));
        }
        // Three PEs on CPUs 0, 1, 1: PE 0 has its CPU alone, PEs 1 and 2 share theirs.
        let p = [1, 2, 2];
        assert_eq!(shares_cpu(0, 3, &[0], 2, team(&p)), Some(false));
        assert_eq!(shares_cpu(1, 3, &[1], 2, team(&p)), Some(true));
    }

    #[test]
    fn unpinned_pes_count_the_cpus_of_their_mask() {
        let p = [UNPINNED; 4];
        assert_eq!(shares_cpu(0, 2, &[0, 1], 2, team(&p)), Some(false));
        assert_eq!(shares_cpu(0, 4, &[0, 1], 2, team(&p)), Some(true));
        // A pinned PE beside unpinned ones: shared only when the team outnumbers the CPUs.
        let p = [1, UNPINNED, UNPINNED];
        assert_eq!(shares_cpu(0, 3, &[0], 2, team(&p)), Some(true));
        assert_eq!(shares_cpu(0, 3, &[0], 4, team(&p)), Some(false));
    }

    #[test]
    fn undecided_until_the_peers_joined() {
        let p = [1, NOT_JOINED];
        assert_eq!(shares_cpu(0, 2, &[0], 2, team(&p)), None);
        // A PE already known to share the CPU decides it early.
        let p = [1, NOT_JOINED, 1];
        assert_eq!(shares_cpu(0, 3, &[0], 2, team(&p)), Some(true));
        // An unpinned PE needs nobody else.
        assert_eq!(shares_cpu(0, 2, &[0, 1], 2, |_| NOT_JOINED), Some(false));
    }
}
