//! Generalized active target on [`Epochs`]: `post` / `start` / `complete` / `wait` (and
//! `try_wait`, MPI's `MPI_Win_test`),
//! on the counters of [`super::matching`] (the protocol and its ordering are there).

use std::time::Duration;

use super::matching::PscwWords;
use super::Epochs;
use crate::team::api::Limit;
use crate::team::ops::load_signal;
use crate::team::{SignalOp, TeamError, Transport};

impl<X: Transport> PscwWords for Epochs<'_, X> {
    type Err = TeamError;
    fn post_to(&self, origin: usize) -> Result<(), TeamError> {
        self.team
            .signal(self.posts.at(self.team.rank()), SignalOp::Add(1), origin)
    }
    fn posts_from(&self, target: usize) -> u64 {
        // `team.word` checked bounds when the object was made; `target < size` = its length.
        let w = self.team.word(&self.posts.at(target), "start");
        w.map(load_signal).unwrap_or(0)
    }
    fn complete_to(&self, target: usize) -> Result<(), TeamError> {
        self.team
            .signal(self.completions.at(0), SignalOp::Add(1), target)
    }
    fn completions(&self) -> u64 {
        let w = self.team.word(&self.completions.at(0), "wait");
        w.map(load_signal).unwrap_or(0)
    }
}

impl<X: Transport> Epochs<'_, X> {
    /// `MPI_Win_post`: opens an exposure epoch for the origins in `group` (each told by one
    /// remote increment). Returns at once; [`wait`](Self::wait) or
    /// [`try_wait`](Self::try_wait) closes it.
    pub fn post(&mut self, group: &[usize]) -> Result<(), TeamError> {
        if self.exposure.is_some() {
            return Err(TeamError::EpochOpen {
                op: "post",
                open: "an exposure epoch (post)",
                how: "call wait() or try_wait() first",
            });
        }
        let group = self.group("post", group)?;
        // Publish this PE's local writes to its heap before the origins may read it.
        self.team.quiet();
        self.matching.post(self, &group)?;
        self.exposure = Some(group.len());
        Ok(())
    }

    /// `MPI_Win_start`: opens an access epoch to the targets in `group`, waiting until each
    /// of them has posted (in group order). Without a matching post the wait ends with
    /// [`TeamError::EpochTimeout`] naming the target after the epochs' timeout. A failed `start`
    /// may have consumed the posts of the targets before the failing one: treat it as the
    /// end of the epochs (as MPI treats a failed synchronization).
    pub fn start(&mut self, group: &[usize]) -> Result<(), TeamError> {
        self.start_within(group, Limit::Patience)
    }

    /// [`start`](Self::start) waiting at most `timeout` in all.
    pub fn start_timeout(&mut self, group: &[usize], timeout: Duration) -> Result<(), TeamError> {
        self.start_within(group, Limit::Within(timeout))
    }

    /// [`start`](Self::start) without waiting: opens the access epoch when every target
    /// of `group` has posted, else returns [`TeamError::WouldBlock`]
    /// and consumes no post, so it may be called again.
    pub fn try_start(&mut self, group: &[usize]) -> Result<(), TeamError> {
        self.start_within(group, Limit::Now)
    }

    fn start_within(&mut self, group: &[usize], limit: Limit) -> Result<(), TeamError> {
        if self.access.is_some() {
            return Err(TeamError::EpochOpen {
                op: "start",
                open: "an access epoch (start)",
                how: "call complete() first",
            });
        }
        if self.all || self.held.iter().any(Option::is_some) {
            return Err(TeamError::EpochOpen {
                op: "start",
                open: "a lock epoch",
                how: "unlock (or unlock_all) first: an access epoch is either active or passive",
            });
        }
        let group = self.group("start", group)?;
        let Some(until) = self.until(limit) else {
            // `try_start`: all posts there, or none consumed.
            if group.iter().any(|&t| !self.matching.posted(self, t)) {
                return Err(TeamError::WouldBlock { what: "a post" });
            }
            for &t in &group {
                self.matching.consume_post(t);
            }
            self.access = Some(group);
            return Ok(());
        };
        for &t in &group {
            let this = &*self;
            this.team
                .x
                .wait_local_on(
                    this.posts.offset + t * 8,
                    8,
                    &mut || this.matching.posted(this, t).then_some(0),
                    until,
                    "a post",
                )
                .map_err(self.timed("start", "post", Some(t), limit))?;
            self.matching.consume_post(t);
        }
        self.access = Some(group);
        Ok(())
    }

    /// `MPI_Win_complete`: completes this PE's puts of the access epoch (`quiet`) and tells
    /// each target (one remote increment each). Does not wait.
    pub fn complete(&mut self) -> Result<(), TeamError> {
        let group = self.access.take().ok_or(TeamError::NoEpoch {
            op: "complete",
            needs: "start",
        })?;
        self.team.quiet();
        self.matching.complete(self, &group)?;
        Ok(())
    }

    /// `MPI_Win_wait`: waits until every origin of the exposure epoch has completed; their
    /// puts are then visible here.
    pub fn wait(&mut self) -> Result<(), TeamError> {
        self.wait_within(Limit::Patience)
    }

    /// [`wait`](Self::wait) waiting at most `timeout`.
    pub fn wait_timeout(&mut self, timeout: Duration) -> Result<(), TeamError> {
        self.wait_within(Limit::Within(timeout))
    }

    /// `MPI_Win_test`: [`wait`](Self::wait) without waiting: closes the exposure epoch if
    /// every origin has completed, else returns [`TeamError::WouldBlock`]
    /// and leaves it open.
    pub fn try_wait(&mut self) -> Result<(), TeamError> {
        self.wait_within(Limit::Now)
    }

    fn wait_within(&mut self, limit: Limit) -> Result<(), TeamError> {
        let k = self.exposure.ok_or(TeamError::NoEpoch {
            op: "wait",
            needs: "post",
        })?;
        let Some(until) = self.until(limit) else {
            if !self.matching.completed(self, k) {
                return Err(TeamError::WouldBlock {
                    what: "the completes of every origin",
                });
            }
            self.matching.consume_completions(k);
            self.exposure = None;
            return Ok(());
        };
        let this = &*self;
        this.team
            .x
            .wait_local_on(
                this.completions.offset,
                8,
                &mut || this.matching.completed(this, k).then_some(0),
                until,
                "completions",
            )
            .map_err(self.timed("wait", "complete of every origin", None, limit))?;
        self.matching.consume_completions(k);
        self.exposure = None;
        Ok(())
    }
}
