//! What the runtime-queue experiments (`malloc`, `kneighbor`, `queue`, `aggregation`,
//! `channels`) share: their errors, statistics helpers, cancellation bookkeeping and the
//! worker processes of their cross-process runs (started as `handoff __worker NAME ARGS...`,
//! watched by a deadline and killed past it, so a dead or stuck worker is an error, never a
//! hang).

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::bench::experiment::BenchError;
use crate::bench::{BenchResults, MetricRecord};

/// The report section of every runtime-queue experiment.
pub const SECTION: &str = "Runtime queues (Charm++, many-core)";

/// How long a point may take before its workers are declared stuck.
pub const POINT_DEADLINE: Duration = Duration::from_secs(60);

/// A usage error of `experiment`.
pub fn usage(experiment: &'static str, message: impl Into<String>) -> BenchError {
    BenchError::Usage {
        experiment,
        message: message.into(),
    }
}

/// A failure of `experiment` while measuring.
pub fn failed(experiment: &'static str, message: impl std::fmt::Display) -> BenchError {
    BenchError::Failed {
        experiment,
        message: message.to_string(),
    }
}

/// [`MetricRecord::from_runs`] with the experiment's error.
pub fn metric(
    experiment: &'static str,
    unit: &str,
    higher_is_better: bool,
    per_run: &[Vec<f64>],
) -> Result<MetricRecord, BenchError> {
    MetricRecord::from_runs(unit, higher_is_better, per_run).map_err(|e| failed(experiment, e))
}

/// When `cancel` is set, marks `res` partial (after its records of `total` points) and
/// returns true.
pub fn stopped(res: &mut BenchResults, cancel: &AtomicBool, total: usize) -> bool {
    if !cancel.load(Ordering::Relaxed) {
        return false;
    }
    let done = res.records.len();
    res.partial = true;
    res.stopped_early = Some(format!("interrupted after {done} of {total} points"));
    true
}

/// The `q`-quantile (0..=1) of sorted samples, nearest rank; 0 for none.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// 1, 2, 4, … doubling up to `max` (which is always included).
pub fn doubling_to(max: usize) -> Vec<usize> {
    let mut v = vec![1];
    while v[v.len() - 1] < max {
        let next = (v[v.len() - 1] * 2).min(max);
        v.push(next);
    }
    v
}

/// The byte at `i` of a message tagged `tag` (what senders write and receivers check).
#[inline]
pub fn pattern(tag: u64, i: usize) -> u8 {
    (tag as usize).wrapping_mul(31).wrapping_add(i) as u8
}

/// Fills `buf` with the pattern of `tag`.
pub fn fill(buf: &mut [u8], tag: u64) {
    for (i, b) in buf.iter_mut().enumerate() {
        *b = pattern(tag, i);
    }
}

/// Reads every byte of `buf` and checks it against the pattern of `tag`.
pub fn check(buf: &[u8], tag: u64) -> bool {
    buf.iter()
        .enumerate()
        .fold(true, |ok, (i, &b)| ok & (b == pattern(tag, i)))
}

/// Worker processes of one point, killed when dropped.
#[derive(Debug, Default)]
pub struct Workers {
    children: Vec<(Child, Option<BufReader<ChildStdout>>)>,
}

impl Workers {
    /// No workers yet.
    pub fn new() -> Workers {
        Workers::default()
    }

    /// Starts `exe args... experiment worker_args...` with its stdout captured.
    pub fn spawn(
        &mut self,
        experiment: &'static str,
        exe: &Path,
        args: &[OsString],
        worker_args: &[String],
    ) -> Result<(), BenchError> {
        let child = Command::new(exe)
            .args(args)
            .arg(experiment)
            .args(worker_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| failed(experiment, format!("starting a worker process: {e}")))?;
        let mut child = child;
        let out = child.stdout.take().map(BufReader::new);
        self.children.push((child, out));
        Ok(())
    }

    /// The start gate: waits until every worker has printed `ready` (see [`gate_wait`]), then
    /// lets them all go at once. A worker that exits first is an error.
    pub fn gate(&mut self, experiment: &'static str) -> Result<(), BenchError> {
        for (i, (_, out)) in self.children.iter_mut().enumerate() {
            let mut line = String::new();
            let n = out.as_mut().map_or(Ok(0), |o| o.read_line(&mut line));
            if !matches!(n, Ok(n) if n > 0) || line.trim() != "ready" {
                return Err(failed(
                    experiment,
                    format!("worker {i} ended before it was ready; its error is on stderr above"),
                ));
            }
        }
        for (i, (child, _)) in self.children.iter_mut().enumerate() {
            let sent = child.stdin.take().map(|mut s| s.write_all(b"go\n"));
            if !matches!(sent, Some(Ok(()))) {
                return Err(failed(
                    experiment,
                    format!("worker {i} is gone before the start"),
                ));
            }
        }
        Ok(())
    }

    /// Waits for every worker until `deadline` and returns each one's stdout, in start
    /// order. A worker that fails or is still running at the deadline (it is killed) is an
    /// error naming it.
    pub fn finish(
        mut self,
        experiment: &'static str,
        deadline: Instant,
    ) -> Result<Vec<String>, BenchError> {
        let mut outs = Vec::new();
        for (i, (child, out)) in self.children.iter_mut().enumerate() {
            drop(child.stdin.take());
            let status = loop {
                match child.try_wait() {
                    Ok(Some(s)) => break s,
                    Ok(None) if Instant::now() >= deadline => {
                        let _ = child.kill();
                        let _ = child.wait();
                        return Err(failed(
                            experiment,
                            format!(
                                "worker {i} did not finish in time and was killed (a stuck peer?)"
                            ),
                        ));
                    }
                    Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                    Err(e) => {
                        return Err(failed(experiment, format!("waiting for worker {i}: {e}")))
                    }
                }
            };
            let mut text = String::new();
            if let Some(out) = out.as_mut() {
                let _ = out.read_to_string(&mut text);
            }
            if !status.success() {
                return Err(failed(
                    experiment,
                    format!("worker {i} failed ({status}); its error is on stderr above"),
                ));
            }
            outs.push(text);
        }
        self.children.clear();
        Ok(outs)
    }
}

/// The worker's side of [`Workers::gate`]: says `ready` and waits for the word to go (an
/// error when the parent is gone).
pub fn gate_wait(experiment: &'static str) -> Result<(), BenchError> {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "ready");
    let _ = stdout.flush();
    drop(stdout);
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(n) if n > 0 => Ok(()),
        _ => Err(failed(experiment, "the parent went away before the start")),
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        for (c, _) in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Parses worker argument `i` as `T`.
pub fn arg<T: std::str::FromStr>(
    experiment: &'static str,
    args: &[String],
    i: usize,
) -> Result<T, BenchError> {
    args.get(i).and_then(|a| a.parse().ok()).ok_or_else(|| {
        usage(
            experiment,
            format!("worker argument {i} missing or malformed: {args:?}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let s: Vec<f64> = (1..=1000).map(f64::from).collect();
        assert_eq!(quantile(&s, 0.5), 500.0);
        assert_eq!(quantile(&s, 0.99), 990.0);
        assert_eq!(quantile(&s, 0.999), 999.0);
        assert_eq!(quantile(&s, 1.0), 1000.0);
        assert_eq!(quantile(&[7.0], 0.999), 7.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn doubling_ends_at_the_max() {
        assert_eq!(doubling_to(4), vec![1, 2, 4]);
        assert_eq!(doubling_to(6), vec![1, 2, 4, 6]);
        assert_eq!(doubling_to(1), vec![1]);
    }

    fn sh(script: &str) -> (std::path::PathBuf, Vec<OsString>) {
        ("/bin/sh".into(), vec!["-c".into(), script.into()])
    }

    #[test]
    fn a_worker_that_fails_or_hangs_is_an_error_not_a_hang() {
        let (exe, args) = sh("echo hello");
        let mut w = Workers::new();
        w.spawn("t", &exe, &args, &[]).unwrap();
        let out = w
            .finish("t", Instant::now() + Duration::from_secs(30))
            .unwrap();
        assert_eq!(out, vec!["hello\n".to_string()]);

        let (exe, args) = sh("exit 3");
        let mut w = Workers::new();
        w.spawn("t", &exe, &args, &[]).unwrap();
        let err = w
            .finish("t", Instant::now() + Duration::from_secs(30))
            .unwrap_err();
        assert!(err.to_string().contains("worker 0 failed"), "{err}");

        // A stuck worker is killed at the deadline.
        let (exe, args) = sh("sleep 30");
        let mut w = Workers::new();
        w.spawn("t", &exe, &args, &[]).unwrap();
        let err = w
            .finish("t", Instant::now() + Duration::from_millis(200))
            .unwrap_err();
        assert!(err.to_string().contains("did not finish in time"), "{err}");
    }

    #[test]
    fn a_flipped_byte_fails_the_check() {
        let mut b = vec![0u8; 300];
        fill(&mut b, 9);
        assert!(check(&b, 9));
        assert!(!check(&b, 10));
        b[299] ^= 1;
        assert!(!check(&b, 9));
    }
}
