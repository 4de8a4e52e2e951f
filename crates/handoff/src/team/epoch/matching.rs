//! The matching of generalized active target (post / start / complete / wait), foMPI's
//! counter design: a target's `post` adds one to a word *at each origin* of its group (one
//! word per possible target, so a start matches exactly the targets it names); an origin's
//! `start` waits until each of its k targets' words passed what it has consumed; its
//! `complete` adds one to a completion counter at each target; the target's `wait` waits
//! until k completions arrived. Each side costs O(k) remote atomics and O(k) local words
//! read, independent of the team size.
//!
//! Epochs cannot cross: a target posts again only after its `wait` saw the completions of
//! every origin of its previous epoch, and an origin completes only toward targets whose
//! post it consumed, so the completions a `wait` counts are those of its own epoch.
//!
//! # Memory ordering
//!
//! Both counters are signal words: the increments are the team's Release signal updates
//! (`ops::apply_signal`) and the waits poll with the Acquire `ops::load_signal` — partners.
//! `complete` runs `quiet` first, so the origin's puts of the epoch are visible to a target
//! that saw its completion; a post, likewise, publishes what the target wrote before it.

#![cfg_attr(loom, allow(dead_code))] // the team that calls these is not built under loom

/// The counter words, wherever they live.
pub(crate) trait PscwWords {
    /// Why an access failed.
    type Err;
    /// Adds one to `origin`'s post word for this PE (Release, wakes `origin`).
    fn post_to(&self, origin: usize) -> Result<(), Self::Err>;
    /// This PE's post word for `target` (Acquire).
    fn posts_from(&self, target: usize) -> u64;
    /// Adds one to `target`'s completion word (Release, wakes `target`); the caller ran
    /// `quiet` before, so the epoch's puts are visible first.
    fn complete_to(&self, target: usize) -> Result<(), Self::Err>;
    /// This PE's completion word (Acquire).
    fn completions(&self) -> u64;
}

/// What one PE has consumed of its counters.
#[derive(Debug, Clone)]
pub(crate) struct Matching {
    /// Posts consumed, per target.
    posts_seen: Vec<u64>,
    /// Completions consumed.
    completions_seen: u64,
}

impl Matching {
    /// Nothing consumed, for a team of `size` PEs.
    pub(crate) fn new(size: usize) -> Self {
        Matching {
            posts_seen: vec![0; size],
            completions_seen: 0,
        }
    }

    /// `post`: one increment at each origin of `group`.
    pub(crate) fn post<W: PscwWords>(&self, w: &W, group: &[usize]) -> Result<(), W::Err> {
        group.iter().try_for_each(|&o| w.post_to(o))
    }

    /// Whether `target` posted an epoch this PE has not started yet.
    pub(crate) fn posted<W: PscwWords>(&self, w: &W, target: usize) -> bool {
        w.posts_from(target) > self.posts_seen[target]
    }

    /// Consumes one post of `target` (after [`posted`](Self::posted) held).
    pub(crate) fn consume_post(&mut self, target: usize) {
        self.posts_seen[target] += 1;
    }

    /// `complete`: one completion at each target of `group`.
    pub(crate) fn complete<W: PscwWords>(&self, w: &W, group: &[usize]) -> Result<(), W::Err> {
        group.iter().try_for_each(|&t| w.complete_to(t))
    }

    /// Whether the `k` origins of this PE's exposure epoch have all completed.
    pub(crate) fn completed<W: PscwWords>(&self, w: &W, k: usize) -> bool {
        w.completions() >= self.completions_seen + k as u64
    }

    /// Consumes the `k` completions of an exposure epoch.
    pub(crate) fn consume_completions(&mut self, k: usize) {
        self.completions_seen += k as u64;
    }
}
