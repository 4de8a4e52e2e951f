//! The signal side of [`Team`]: put-with-signal and the waits on signal words, the seed's
//! counters, and one-cache-line puts. Orderings: `super::ops` (signal updates are Release,
//! every poll Acquire) and `crate::sync::doorbell` (who sleeps and who wakes).

use std::time::Duration;

use bytemuck::Pod;

use super::api::{byte_offset, bytes_of, Limit, Team, TAG_COUNTER};
use super::ops::{Cmp, SignalOp};
use super::sym::{Counter, Line, Sym, SymAt, LINE_PAYLOAD};
use super::transport::Transport;
use super::{TeamError, MAX_COUNTERS};

impl<X: Transport> Team<X> {
    // ---- signals ---------------------------------------------------------------------

    /// Put with signal: copies `src` into PE `pe`'s `dst` from element `offset`, then
    /// updates PE `pe`'s signal word `sig` by `op`; PE `pe` sees the new signal only after
    /// the data is visible, and a waiter asleep there is woken.
    #[inline(always)]
    pub fn put_signal<T: Pod>(
        &self,
        dst: &Sym<T>,
        offset: usize,
        src: &[T],
        sig: impl Into<SymAt<u64>>,
        op: SignalOp,
        pe: usize,
    ) -> Result<(), TeamError> {
        let sig = sig.into();
        let at = byte_offset(dst, offset, src.len(), "put_signal")?;
        let s = byte_offset(&sig.sym, sig.index, 1, "put_signal (signal word)")?;
        self.x.put_signal(pe, at, bytes_of(src), s, op)
    }

    /// Updates PE `pe`'s signal word `sig` by `op` after this PE's earlier puts to it
    /// (`shmem_signal_add/set`), waking its waiter.
    pub fn signal(
        &self,
        sig: impl Into<SymAt<u64>>,
        op: SignalOp,
        pe: usize,
    ) -> Result<(), TeamError> {
        let sig = sig.into();
        let s = byte_offset(&sig.sym, sig.index, 1, "signal")?;
        self.x.signal(pe, s, op)
    }

    /// This PE's signal word `sig` (Acquire), `shmem_signal_fetch`.
    pub fn signal_fetch(&self, sig: impl Into<SymAt<u64>>) -> Result<u64, TeamError> {
        let w = self.word(&sig.into(), "signal_fetch")?;
        Ok(super::ops::load_signal(w))
    }

    /// Waits until this PE's signal word `sig` satisfies `cmp value`, with the team's
    /// patience; returns the value seen.
    #[inline(always)]
    pub fn signal_wait_until(
        &self,
        sig: impl Into<SymAt<u64>>,
        cmp: Cmp,
        value: u64,
    ) -> Result<u64, TeamError> {
        self.signal_wait_within(sig.into(), cmp, value, Limit::Patience)
    }

    /// [`signal_wait_until`](Self::signal_wait_until) waiting at most `timeout`.
    pub fn signal_wait_until_timeout(
        &self,
        sig: impl Into<SymAt<u64>>,
        cmp: Cmp,
        value: u64,
        timeout: Duration,
    ) -> Result<u64, TeamError> {
        self.signal_wait_within(sig.into(), cmp, value, Limit::Within(timeout))
    }

    /// [`signal_wait_until`](Self::signal_wait_until) without waiting: the value when it
    /// satisfies `cmp value`, else [`TeamError::WouldBlock`] (`shmem_signal_wait_until` has
    /// no test form; this is `shmem_test` on a signal word).
    pub fn try_signal_wait_until(
        &self,
        sig: impl Into<SymAt<u64>>,
        cmp: Cmp,
        value: u64,
    ) -> Result<u64, TeamError> {
        self.signal_wait_within(sig.into(), cmp, value, Limit::Now)
    }

    #[inline(always)]
    fn signal_wait_within(
        &self,
        sig: SymAt<u64>,
        cmp: Cmp,
        value: u64,
        limit: Limit,
    ) -> Result<u64, TeamError> {
        let w = self.word(&sig, "signal_wait_until")?;
        // A signal that is there at once is taken inline; the rest of the wait is out of
        // line (as in `wait_line`).
        let v = super::ops::load_signal(w);
        if cmp.holds(v, value) {
            return Ok(v);
        }
        self.signal_wait_slow(w, cmp, value, limit)
    }

    /// The rest of [`Self::signal_wait_until`]: quick polls, then the wait.
    #[inline(never)]
    fn signal_wait_slow(
        &self,
        w: &std::sync::atomic::AtomicU64,
        cmp: Cmp,
        value: u64,
        limit: Limit,
    ) -> Result<u64, TeamError> {
        // A signal that arrives soon skips the wait's setup (as in `wait_line`).
        let poll = || Some(super::ops::load_signal(w)).filter(|&v| cmp.holds(v, value));
        if let Some(v) = self.quick(poll, limit) {
            return Ok(v);
        }
        let at = w.as_ptr() as usize - self.x.local_heap() as usize;
        let mut seen = 0;
        self.wait_here(
            at,
            8,
            &mut || {
                let v = super::ops::load_signal(w);
                seen = v;
                cmp.holds(v, value).then_some(0)
            },
            limit,
            "a signal",
        )?;
        Ok(seen)
    }

    fn words<'a>(
        &'a self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        op: &'static str,
    ) -> Result<&'a [std::sync::atomic::AtomicU64], TeamError> {
        if let Some(st) = status {
            if st.len() != sigs.len {
                return Err(TeamError::InvalidArgument(format!(
                    "{op}: status has {} entries for {} signals; give one per signal",
                    st.len(),
                    sigs.len
                )));
            }
        }
        Ok(self.local_atomic(sigs))
    }

    /// Waits with `limit` until `poll` (reading this PE's heap bytes `[at, at + len)`) says
    /// so; a `try_` form ([`Limit::Now`]) polls once and returns [`TeamError::WouldBlock`].
    pub(crate) fn wait_here(
        &self,
        at: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        limit: Limit,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        match self.until(limit) {
            Some(until) => self.x.wait_local_on(at, len, poll, until, what),
            None => poll().ok_or(TeamError::WouldBlock { what }),
        }
    }

    /// Waits until every word of `sigs` not excluded by `status` (`true` = skip) satisfies
    /// `cmp value` (`shmem_wait_until_all`), with the team's patience.
    pub fn wait_until_all(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
    ) -> Result<(), TeamError> {
        self.wait_all_within(sigs, status, cmp, value, Limit::Patience)
    }

    /// [`wait_until_all`](Self::wait_until_all) waiting at most `timeout`.
    pub fn wait_until_all_timeout(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
        timeout: Duration,
    ) -> Result<(), TeamError> {
        self.wait_all_within(sigs, status, cmp, value, Limit::Within(timeout))
    }

    /// [`wait_until_all`](Self::wait_until_all) without waiting (`shmem_test_all`):
    /// [`TeamError::WouldBlock`] unless every word satisfies it now.
    pub fn try_wait_until_all(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
    ) -> Result<(), TeamError> {
        self.wait_all_within(sigs, status, cmp, value, Limit::Now)
    }

    fn wait_all_within(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
        limit: Limit,
    ) -> Result<(), TeamError> {
        let words = self.words(sigs, status, "wait_until_all")?;
        let (at, len) = (sigs.offset, sigs.len * 8);
        let skip = |i: usize| status.is_some_and(|s| s[i]);
        self.wait_here(
            at,
            len,
            &mut || {
                let all = words.iter().enumerate().all(|(i, w)| {
                    // Acquire: pairs with the Release update in `ops::apply_signal` (or the
                    // AcqRel of a remote atomic) by the PE that set the word.
                    skip(i) || cmp.holds(w.load(std::sync::atomic::Ordering::Acquire), value)
                });
                all.then_some(0)
            },
            limit,
            "all of a set of signals",
        )?;
        Ok(())
    }

    /// Waits until some word of `sigs` not excluded by `status` satisfies `cmp value` and
    /// returns its index (`shmem_wait_until_any`). Fair: each call starts scanning one past
    /// where the previous call's scan started, so a word that stays true cannot starve the
    /// others. With every word excluded, returns `None` at once. Waits with the team's
    /// patience.
    pub fn wait_until_any(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
    ) -> Result<Option<usize>, TeamError> {
        self.wait_any_within(sigs, status, cmp, value, Limit::Patience)
    }

    /// [`wait_until_any`](Self::wait_until_any) waiting at most `timeout`.
    pub fn wait_until_any_timeout(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
        timeout: Duration,
    ) -> Result<Option<usize>, TeamError> {
        self.wait_any_within(sigs, status, cmp, value, Limit::Within(timeout))
    }

    /// [`wait_until_any`](Self::wait_until_any) without waiting (`shmem_test_any`):
    /// [`TeamError::WouldBlock`] when no word satisfies it now.
    pub fn try_wait_until_any(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
    ) -> Result<Option<usize>, TeamError> {
        self.wait_any_within(sigs, status, cmp, value, Limit::Now)
    }

    fn wait_any_within(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
        limit: Limit,
    ) -> Result<Option<usize>, TeamError> {
        let words = self.words(sigs, status, "wait_until_any")?;
        let (at, len) = (sigs.offset, sigs.len * 8);
        let n = words.len();
        let skip = |i: usize| status.is_some_and(|s| s[i]);
        if (0..n).all(skip) {
            return Ok(None);
        }
        let start = self
            .any_start
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            % n;
        let i = self.wait_here(
            at,
            len,
            &mut || {
                super::ops::any_from(start, n, |i| {
                    // Acquire: as in `wait_until_all`.
                    !skip(i)
                        && cmp.holds(words[i].load(std::sync::atomic::Ordering::Acquire), value)
                })
            },
            limit,
            "any of a set of signals",
        )?;
        Ok(Some(i))
    }

    /// Waits until at least one word of `sigs` not excluded by `status` satisfies
    /// `cmp value`; returns the indices of all that do (`shmem_wait_until_some`). Waits
    /// with the team's patience.
    pub fn wait_until_some(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
    ) -> Result<Vec<usize>, TeamError> {
        self.wait_some_within(sigs, status, cmp, value, Limit::Patience)
    }

    /// [`wait_until_some`](Self::wait_until_some) waiting at most `timeout`.
    pub fn wait_until_some_timeout(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
        timeout: Duration,
    ) -> Result<Vec<usize>, TeamError> {
        self.wait_some_within(sigs, status, cmp, value, Limit::Within(timeout))
    }

    /// [`wait_until_some`](Self::wait_until_some) without waiting (`shmem_test_some`):
    /// [`TeamError::WouldBlock`] when no word satisfies it now.
    pub fn try_wait_until_some(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
    ) -> Result<Vec<usize>, TeamError> {
        self.wait_some_within(sigs, status, cmp, value, Limit::Now)
    }

    fn wait_some_within(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
        limit: Limit,
    ) -> Result<Vec<usize>, TeamError> {
        let words = self.words(sigs, status, "wait_until_some")?;
        let (at, len) = (sigs.offset, sigs.len * 8);
        let skip = |i: usize| status.is_some_and(|s| s[i]);
        if (0..words.len()).all(skip) {
            return Ok(Vec::new());
        }
        let holds = |i: usize| {
            // Acquire: as in `wait_until_all`.
            !skip(i) && cmp.holds(words[i].load(std::sync::atomic::Ordering::Acquire), value)
        };
        self.wait_here(
            at,
            len,
            &mut || (0..words.len()).find(|&i| holds(i)),
            limit,
            "some of a set of signals",
        )?;
        Ok((0..words.len()).filter(|&i| holds(i)).collect())
    }

    // ---- counters (the seed's counting puts) ------------------------------------------

    /// Collective: creates a counter, at 0, with the same index on every PE
    /// (`shmem_ct_create`). At most [`MAX_COUNTERS`] per team. Waits for the other PEs with
    /// the team's patience.
    pub fn ct_create(&self) -> Result<Counter, TeamError> {
        self.ct_create_within(Limit::Patience)
    }

    /// [`ct_create`](Self::ct_create) waiting at most `timeout` for the other PEs.
    pub fn ct_create_timeout(&self, timeout: Duration) -> Result<Counter, TeamError> {
        self.ct_create_within(Limit::Within(timeout))
    }

    fn ct_create_within(&self, limit: Limit) -> Result<Counter, TeamError> {
        let ct = self.counters.load(std::sync::atomic::Ordering::Relaxed);
        self.next_collective(TAG_COUNTER | ct as u64, limit)?;
        if ct >= MAX_COUNTERS {
            return Err(TeamError::CounterLimit { max: MAX_COUNTERS });
        }
        self.counters
            .store(ct + 1, std::sync::atomic::Ordering::Relaxed);
        Ok(Counter(ct))
    }

    /// This PE's value of counter `ct` (`shmem_ct_get`).
    pub fn ct_get(&self, ct: &Counter) -> u64 {
        self.x.counter_get(ct.0)
    }

    /// Sets this PE's counter `ct` (`shmem_ct_set`; the receiver manages its counter).
    pub fn ct_set(&self, ct: &Counter, value: u64) {
        self.x.counter_set(ct.0, value)
    }

    /// Waits until this PE's counter `ct` is at least `n` (`shmem_ct_wait`), with the team's
    /// patience; returns its value.
    pub fn ct_wait(&self, ct: &Counter, n: u64) -> Result<u64, TeamError> {
        self.ct_wait_within(ct, n, Limit::Patience)
    }

    /// [`ct_wait`](Self::ct_wait) waiting at most `timeout`.
    pub fn ct_wait_timeout(
        &self,
        ct: &Counter,
        n: u64,
        timeout: Duration,
    ) -> Result<u64, TeamError> {
        self.ct_wait_within(ct, n, Limit::Within(timeout))
    }

    /// [`ct_wait`](Self::ct_wait) without waiting: the counter's value when it is at least
    /// `n`, else [`TeamError::WouldBlock`].
    pub fn try_ct_wait(&self, ct: &Counter, n: u64) -> Result<u64, TeamError> {
        self.ct_wait_within(ct, n, Limit::Now)
    }

    fn ct_wait_within(&self, ct: &Counter, n: u64, limit: Limit) -> Result<u64, TeamError> {
        match self.until(limit) {
            Some(until) => self.x.counter_wait(ct.0, n, until),
            None => {
                let v = self.x.counter_get(ct.0);
                if v >= n {
                    Ok(v)
                } else {
                    Err(TeamError::WouldBlock { what: "a counter" })
                }
            }
        }
    }

    /// Counting put (`shmem_putct`): copies `src` into PE `pe`'s `dst` from element
    /// `offset`, then adds 1 to PE `pe`'s counter `ct`, seen only after the data.
    pub fn put_ct<T: Pod>(
        &self,
        ct: &Counter,
        dst: &Sym<T>,
        offset: usize,
        src: &[T],
        pe: usize,
    ) -> Result<(), TeamError> {
        let at = byte_offset(dst, offset, src.len(), "put_ct")?;
        self.x.put_counted(pe, at, bytes_of(src), ct.0)
    }

    /// Adds `n` to PE `pe`'s counter `ct` after this PE's earlier puts to it.
    pub fn ct_add(&self, ct: &Counter, n: u64, pe: usize) -> Result<(), TeamError> {
        self.x.counter_add(pe, ct.0, n)
    }

    /// Polls `poll` quickly before a wait's setup ([`crate::sync::poll_quickly`], with this
    /// team's wait strategy); a `try_` form ([`Limit::Now`]) polls once.
    #[inline]
    fn quick<T>(&self, mut poll: impl FnMut() -> Option<T>, limit: Limit) -> Option<T> {
        match limit {
            Limit::Now => poll(),
            _ => crate::sync::poll_quickly(self.patience.wait, self.x.crowded_cpu(), poll),
        }
    }

    // ---- lines: payload and sequence in one cache line -----------------------------------

    /// Puts `payload` (at most [`LINE_PAYLOAD`] bytes) and sequence number `seq` into PE
    /// `pe`'s line `dst`: the payload bytes, then the sequence word (Release) in the same
    /// cache line, so the line moves to the reader once.
    // Always inlined, as are `wait_line`, `put_signal`, `signal_wait_until` and the
    // transport's `put_signal`: left to itself the compiler made each a call returning the
    // 64-byte `Result` through memory, ~4 ns of a one-way hand-off's critical path
    // (`examples/line_hop` on one PE: 13.5 -> 9.5 ns per message; issue #23, session 10).
    #[inline(always)]
    pub fn put_line(
        &self,
        dst: impl Into<SymAt<Line>>,
        payload: &[u8],
        seq: u64,
        pe: usize,
    ) -> Result<(), TeamError> {
        if payload.len() > LINE_PAYLOAD {
            return Err(TeamError::LineTooLong {
                len: payload.len(),
                max: LINE_PAYLOAD,
            });
        }
        let dst = dst.into();
        let at = byte_offset(&dst.sym, dst.index, 1, "put_line")?;
        self.x
            .put_signal(pe, at, payload, at + LINE_PAYLOAD, SignalOp::Set(seq))
    }

    /// Waits until this PE's line `src` carries a sequence number `>= seq`, then copies its
    /// first `out.len()` payload bytes into `out`; returns the sequence number seen. Waits
    /// with the team's patience.
    #[inline(always)]
    pub fn wait_line(
        &self,
        src: impl Into<SymAt<Line>>,
        seq: u64,
        out: &mut [u8],
    ) -> Result<u64, TeamError> {
        self.wait_line_within(src.into(), seq, out, Limit::Patience)
    }

    /// [`wait_line`](Self::wait_line) waiting at most `timeout`.
    pub fn wait_line_timeout(
        &self,
        src: impl Into<SymAt<Line>>,
        seq: u64,
        out: &mut [u8],
        timeout: Duration,
    ) -> Result<u64, TeamError> {
        self.wait_line_within(src.into(), seq, out, Limit::Within(timeout))
    }

    /// [`wait_line`](Self::wait_line) without waiting: [`TeamError::WouldBlock`] (and `out`
    /// untouched) unless the line carries a sequence number `>= seq` now.
    pub fn try_wait_line(
        &self,
        src: impl Into<SymAt<Line>>,
        seq: u64,
        out: &mut [u8],
    ) -> Result<u64, TeamError> {
        self.wait_line_within(src.into(), seq, out, Limit::Now)
    }

    #[inline(always)]
    fn wait_line_within(
        &self,
        src: SymAt<Line>,
        seq: u64,
        out: &mut [u8],
        limit: Limit,
    ) -> Result<u64, TeamError> {
        if out.len() > LINE_PAYLOAD {
            return Err(TeamError::LineTooLong {
                len: out.len(),
                max: LINE_PAYLOAD,
            });
        }
        let at = byte_offset(&src.sym, src.index, 1, "wait_line")?;
        // SAFETY: `byte_offset` checked the line lies in the local partition; lines are
        // 64-byte aligned objects (128-byte aligned start, 64-byte elements).
        let line = unsafe { &*self.x.local_heap().add(at).cast::<Line>() };
        // A line that is there at once is taken inline, the rest of the wait is out of line:
        // the receiver's step from seeing the line to its reply is the hand-off's critical
        // path (issue #23).
        let mut seen = super::ops::load_signal(&line.seq);
        if seen < seq {
            seen = self.wait_line_slow(line, at, seq, limit)?;
        }
        // SAFETY: the payload is plain bytes inside the line; the Acquire load of the
        // sequence (here or in `wait_line_slow`; pairs with the Release store of the
        // sequence in `put_line`) makes the writer's bytes visible. A writer already
        // writing the next message may tear them: the line protocol (one message in flight
        // per line) excludes that.
        unsafe { super::ops::copy_small(line.payload.as_ptr(), out.as_mut_ptr(), out.len()) };
        Ok(seen)
    }

    /// The rest of [`Self::wait_line`] on `line` (heap offset `at`): quick polls, then the
    /// wait; returns the sequence number seen.
    #[inline(never)]
    fn wait_line_slow(
        &self,
        line: &Line,
        at: usize,
        seq: u64,
        limit: Limit,
    ) -> Result<u64, TeamError> {
        // A line that arrives within the quick polls skips the wait's setup (its deadline,
        // a clock read; its peer watch and CPU hint): a sender entering its wait for a
        // quick answer pays that on the hand-off's critical path (issue #23).
        let poll = || Some(super::ops::load_signal(&line.seq)).filter(|&v| v >= seq);
        if let Some(v) = self.quick(poll, limit) {
            return Ok(v);
        }
        let mut seen = 0;
        self.wait_here(
            at,
            std::mem::size_of::<Line>(),
            &mut || {
                let v = super::ops::load_signal(&line.seq);
                seen = v;
                (v >= seq).then_some(0)
            },
            limit,
            "a line",
        )?;
        Ok(seen)
    }
}
