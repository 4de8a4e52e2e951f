//! The exchange experiment's configuration and its validation (done before anything runs).

use super::mode::Mode;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Everything that defines one `bench exchange` invocation; recorded verbatim in the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExchangeConfig {
    /// Modes to run.
    #[serde(with = "mode_names")]
    pub modes: Vec<Mode>,
    /// Block sizes in bytes (each a non-zero multiple of 4).
    pub sizes: Vec<usize>,
    /// The producer's CPU.
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
    #[serde(
        default,
        with = "super::fault::as_text",
        skip_serializing_if = "Option::is_none"
    )]
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
            modes: Mode::ALL.to_vec(),
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

impl ExchangeConfig {
    /// Checks the configuration against this machine; the error is one line for the user.
    pub fn validate(&self, allowed_cpus: &[usize]) -> Result<(), String> {
        if self.modes.is_empty() {
            return Err("no mode selected".into());
        }
        if self.sizes.is_empty() {
            return Err("no size selected".into());
        }
        for &s in &self.sizes {
            if s == 0 {
                return Err(
                    "size 0 is not allowed: the block needs at least one 4-byte integer".into(),
                );
            }
            if s % 4 != 0 {
                return Err(format!(
                    "size {s} B is not a multiple of 4: the block is an array of 32-bit integers"
                ));
            }
        }
        if self.reps == 0 {
            return Err("--reps must be at least 1".into());
        }
        if self.runs == 0 {
            return Err("--runs must be at least 1".into());
        }
        if self
            .reps
            .checked_add(self.warmup)
            .is_none_or(|t| t > MAX_REPS_PER_RUN)
        {
            return Err(format!(
                "--reps {} plus --warmup {} is more than {MAX_REPS_PER_RUN} repetitions per \
                 run: use fewer repetitions and more --runs",
                self.reps, self.warmup
            ));
        }
        if self.runs > MAX_RUNS {
            return Err(format!(
                "--runs {} is more than {MAX_RUNS}: use fewer runs",
                self.runs
            ));
        }
        crate::kernels::Kernel::choose(&self.kernel).map_err(|e| e.to_string())?;
        if let Some(f) = self.fault {
            if f.kills_the_process() && self.modes.iter().any(|m| !m.is_processes()) {
                return Err(format!(
                    "--fault {f} kills the producer's process: use it with process modes only"
                ));
            }
        }
        if self.flush_cache.is_empty() {
            return Err("no cache state selected".into());
        }
        let list = handoff::sys::affinity::format_cpu_list(allowed_cpus);
        for &cpu in std::iter::once(&self.producer_core).chain(&self.consumer_cores) {
            if !allowed_cpus.contains(&cpu) {
                return Err(format!(
                    "CPU {cpu} is not available: this process may use CPUs {list}"
                ));
            }
        }
        if self.consumer_cores.is_empty() {
            return Err("no consumer core selected".into());
        }
        if self.modes.contains(&Mode::File) && !self.file_dir.is_dir() {
            return Err(format!(
                "--file-dir {} is not a directory",
                self.file_dir.display()
            ));
        }
        Ok(())
    }

    /// Total repetitions per run, warm-up included.
    pub fn total_reps(&self) -> u32 {
        self.reps + self.warmup
    }
}

mod mode_names {
    use super::Mode;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(modes: &[Mode], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(modes.iter().map(|m| m.as_str()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Mode>, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        names
            .iter()
            .map(|n| n.parse().map_err(serde::de::Error::custom))
            .collect()
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
            let err = c.validate(&[0, 1]).unwrap_err();
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
