//! The waits of the RMA and mixed paths: MPI has no wake-up for a passive-target update,
//! so every [`Wait`] strategy polls the PE's own words. Each poll is preceded by an
//! `MPI_Win_sync` (the process's loads then see what MPI completed in its window, the
//! unified model of §11.4); a poll that succeeds is followed by another sync of every
//! window the data may have come through (§11.7: sync, then load the data the value
//! announced). Between polls the wait drives MPI's progress (for libraries whose RMA needs
//! the target to call MPI) and, except under `spin`, gives up the CPU so an oversubscribed
//! peer runs.

use std::time::{Duration, Instant};

use handoff::sync::Wait;
use handoff::sys::Deadline;
use handoff::team::TeamError;

/// How long an `Adaptive` wait polls before it starts yielding the CPU at every poll.
const SPIN_POLLS: u32 = 64;

/// Polls `poll` until it returns a value or `deadline` passes: `before` (a window sync)
/// ahead of each poll, `after` (the sync of every window) once it succeeds, `progress`
/// between polls, pacing per `how` (`block`: yields, then sleeps 50 µs between polls once
/// the wait is longer than 1 ms).
pub(crate) fn wait(
    before: &dyn Fn() -> Result<(), TeamError>,
    after: &dyn Fn() -> Result<(), TeamError>,
    progress: &dyn Fn(),
    poll: &mut dyn FnMut() -> Option<usize>,
    how: Wait,
    deadline: Option<Deadline>,
    what: &'static str,
) -> Result<usize, TeamError> {
    let start = Instant::now();
    let mut polls: u32 = 0;
    loop {
        before()?;
        if let Some(v) = poll() {
            after()?;
            return Ok(v);
        }
        progress();
        if deadline.is_some_and(|d| d.expired()) {
            return Err(TeamError::Timeout { what });
        }
        polls = polls.saturating_add(1);
        match how {
            Wait::Spin => std::hint::spin_loop(),
            Wait::SpinYield => std::thread::yield_now(),
            Wait::Adaptive { spin_budget } => {
                if polls > SPIN_POLLS || start.elapsed() > spin_budget {
                    std::thread::yield_now();
                }
            }
            // No futex to sleep on: yield, then short sleeps once the wait is long.
            Wait::Block => {
                if start.elapsed().as_millis() >= 1 {
                    std::thread::sleep(Duration::from_micros(50));
                } else {
                    std::thread::yield_now();
                }
            }
        }
    }
}
