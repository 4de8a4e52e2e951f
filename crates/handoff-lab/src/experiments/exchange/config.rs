//! The exchange experiment's configuration and its validation (done before anything runs).

use super::fault::Fault;
use super::mode::Mode;
use crate::bench::experiment::ReportFlags;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use thiserror::Error;

/// Everything that defines one `bench exchange` invocation; recorded verbatim in the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExchangeConfig {
    pub modes: Vec<Mode>,
    /// Block sizes in bytes (each a non-zero multiple of 4).
    pub sizes: Vec<usize>,
    pub producer_core: usize,
    /// The consumer CPUs to try, one record each.
    pub consumer_cores: Vec<usize>,
    /// Measured repetitions per run.
    pub reps: u32,
    /// Repetitions discarded before measuring.
    pub warmup: u32,
    /// Runs, each with a fresh pair of threads or processes.
    pub runs: u32,
    /// Cache states to measure: `false` = cached, `true` = block flushed after writing.
    pub flush_cache: Vec<bool>,
    /// Where `file` mode writes its file.
    pub file_dir: PathBuf,
    /// Extra producer delay before each fill, in microseconds (0 = none). Used to watch what a
    /// waiting consumer costs in CPU while the producer is slow.
    #[serde(default)]
    pub producer_delay_us: u64,
    /// The fill and sum kernel: `auto` (the widest this CPU has) or one of
    /// [`crate::kernels::Isa`]'s names.
    #[serde(default = "auto")]
    pub kernel: String,
    /// A deliberate fault, for tests of the failure paths (hidden `--fault`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<super::fault::Fault>,
}

fn auto() -> String {
    "auto".into()
}

/// Most repetitions (measured + warm-up) one run may have: the samples alone take 40 bytes
/// each in the shared segment; more belongs in more runs.
pub const MAX_REPS_PER_RUN: u32 = 10_000_000;
/// Most runs per point.
pub const MAX_RUNS: u32 = 100_000;

impl Default for ExchangeConfig {
    fn default() -> Self {
        ExchangeConfig {
            modes: Mode::all().to_vec(),
            sizes: vec![1 << 20],
            producer_core: 0,
            consumer_cores: vec![0],
            reps: 100,
            warmup: 10,
            runs: 5,
            flush_cache: vec![false],
            file_dir: std::env::temp_dir(),
            producer_delay_us: 0,
            kernel: auto(),
            fault: None,
        }
    }
}

/// Why a configuration cannot run on this machine; each message is one line for the user and
/// says what to change.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// An empty list: no mode, size, cache state or consumer core.
    #[error("no {0} selected")]
    Nothing(&'static str),
    /// A size of 0 bytes.
    #[error("size 0 is not allowed: the block needs at least one 4-byte integer")]
    ZeroSize,
    /// A size that is not a whole number of 32-bit integers.
    #[error("size {0} B is not a multiple of 4: the block is an array of 32-bit integers")]
    SizeNotMultipleOf4(usize),
    /// `--reps 0` or `--runs 0`.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// More repetitions per run than the sample arrays hold.
    #[error(
        "--reps {reps} plus --warmup {warmup} is more than {MAX_REPS_PER_RUN} repetitions per \
         run: use fewer repetitions and more --runs"
    )]
    TooManyReps { reps: u32, warmup: u32 },
    /// More runs than a point may have.
    #[error("--runs {0} is more than {MAX_RUNS}: use fewer runs")]
    TooManyRuns(u32),
    /// The kernel is unknown or not available on this CPU.
    #[error(transparent)]
    Kernel(#[from] crate::kernels::KernelError),
    /// A fault that kills a process, with a mode that has none of its own.
    #[error("--fault {0} kills the producer's process: use it with process modes only")]
    FaultNeedsProcesses(Fault),
    /// A CPU outside this process's affinity mask.
    #[error("CPU {cpu} is not available: this process may use CPUs {allowed}")]
    CpuNotAllowed {
        /// The CPU asked for.
        cpu: usize,
        /// The CPUs this process may use, as a list.
        allowed: String,
    },
    /// `--consumer-core` names a CPU only one-thread modes would use (they run on the
    /// producer's CPU).
    #[error(
        "--consumer-core {cpu}: {modes} has one thread, which runs on the producer's CPU \
         ({producer}); use --producer-core {cpu} to run it on CPU {cpu}"
    )]
    OneThreadConsumer {
        /// The consumer CPU that would be dropped.
        cpu: usize,
        /// The modes, `single-thread and file`.
        modes: String,
        producer: usize,
    },
    /// A mode name that is not in [`super::mode::MODES`].
    #[error(transparent)]
    Mode(#[from] super::mode::ModeError),
    /// `--file-dir` is not a directory.
    #[error("--file-dir {} is not a directory", .0.display())]
    FileDir(PathBuf),
}

impl ExchangeConfig {
    /// Applies the flags the user gave. A consumer CPU that only one-thread modes would use is
    /// refused rather than dropped in silence.
    pub fn apply(&mut self, o: &ReportFlags) -> Result<(), ConfigError> {
        if let Some(m) = &o.modes {
            self.modes = m.iter().map(|n| n.parse()).collect::<Result<_, _>>()?;
        }
        if let Some(s) = &o.sizes {
            self.sizes = s.clone();
        }
        if let Some(c) = &o.consumer_cores {
            self.consumer_cores = c.clone();
            let producer = self.producer_core;
            if self.modes.iter().all(|m| m.is_single_thread()) {
                if let Some(&cpu) = self.consumer_cores.iter().find(|&&c| c != producer) {
                    let modes: Vec<&str> = self.modes.iter().map(|m| m.as_str()).collect();
                    return Err(ConfigError::OneThreadConsumer {
                        cpu,
                        modes: modes.join(" and "),
                        producer,
                    });
                }
            }
        }
        self.reps = o.reps.unwrap_or(self.reps);
        self.runs = o.runs.unwrap_or(self.runs);
        if let Some(k) = &o.kernel {
            self.kernel = k.clone();
        }
        Ok(())
    }

    /// Checks the configuration against this machine; the error is one line for the user.
    pub fn validate(&self, allowed_cpus: &[usize]) -> Result<(), ConfigError> {
        if self.modes.is_empty() {
            return Err(ConfigError::Nothing("mode"));
        }
        if self.sizes.is_empty() {
            return Err(ConfigError::Nothing("size"));
        }
        for &s in &self.sizes {
            if s == 0 {
                return Err(ConfigError::ZeroSize);
            }
            if s % 4 != 0 {
                return Err(ConfigError::SizeNotMultipleOf4(s));
            }
        }
        if self.reps == 0 {
            return Err(ConfigError::Zero("--reps"));
        }
        if self.runs == 0 {
            return Err(ConfigError::Zero("--runs"));
        }
        if self
            .reps
            .checked_add(self.warmup)
            .is_none_or(|t| t > MAX_REPS_PER_RUN)
        {
            return Err(ConfigError::TooManyReps {
                reps: self.reps,
                warmup: self.warmup,
            });
        }
        if self.runs > MAX_RUNS {
            return Err(ConfigError::TooManyRuns(self.runs));
        }
        crate::kernels::Kernel::choose(&self.kernel)?;
        if let Some(f) = self.fault {
            if f.kills_the_process() && self.modes.iter().any(|m| !m.is_processes()) {
                return Err(ConfigError::FaultNeedsProcesses(f));
            }
        }
        if self.flush_cache.is_empty() {
            return Err(ConfigError::Nothing("cache state"));
        }
        for &cpu in std::iter::once(&self.producer_core).chain(&self.consumer_cores) {
            if !allowed_cpus.contains(&cpu) {
                return Err(ConfigError::CpuNotAllowed {
                    cpu,
                    allowed: handoff::sys::format_cpu_list(allowed_cpus),
                });
            }
        }
        if self.consumer_cores.is_empty() {
            return Err(ConfigError::Nothing("consumer core"));
        }
        if self.modes.contains(&Mode::File) && !self.file_dir.is_dir() {
            return Err(ConfigError::FileDir(self.file_dir.clone()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> ExchangeConfig {
        ExchangeConfig {
            consumer_cores: vec![0, 1],
            ..Default::default()
        }
    }

    #[test]
    fn default_is_valid_on_two_cpus() {
        cfg().validate(&[0, 1]).unwrap();
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        let cases: Vec<(ExchangeConfig, &str)> = vec![
            (
                ExchangeConfig {
                    sizes: vec![0],
                    ..cfg()
                },
                "size 0",
            ),
            (
                ExchangeConfig {
                    sizes: vec![6],
                    ..cfg()
                },
                "multiple of 4",
            ),
            (ExchangeConfig { reps: 0, ..cfg() }, "--reps"),
            (ExchangeConfig { runs: 0, ..cfg() }, "--runs"),
            (
                ExchangeConfig {
                    reps: u32::MAX,
                    ..cfg()
                },
                "more than 10000000 repetitions",
            ),
            (
                ExchangeConfig {
                    reps: 10_000_000,
                    warmup: 1,
                    ..cfg()
                },
                "--warmup 1",
            ),
            (
                ExchangeConfig {
                    runs: u32::MAX,
                    ..cfg()
                },
                "--runs 4294967295 is more than",
            ),
            (
                ExchangeConfig {
                    kernel: "avx9".into(),
                    ..cfg()
                },
                "unknown kernel 'avx9'",
            ),
            (
                ExchangeConfig {
                    consumer_cores: vec![7],
                    ..cfg()
                },
                "CPU 7 is not available",
            ),
            (
                ExchangeConfig {
                    producer_core: 3,
                    ..cfg()
                },
                "CPU 3",
            ),
            (
                ExchangeConfig {
                    file_dir: "/nonexistent/dir".into(),
                    ..cfg()
                },
                "not a directory",
            ),
        ];
        for (c, want) in cases {
            let err = c.validate(&[0, 1]).unwrap_err().to_string();
            assert!(err.contains(want), "{err} should mention {want}");
        }
    }

    #[test]
    fn serde_uses_mode_names() {
        let c = cfg();
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.contains("\"processes-adaptive\""));
        let back: ExchangeConfig = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
    }
}
