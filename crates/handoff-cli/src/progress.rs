//! Progress on stderr: a bar with ETA on a terminal, plain lines otherwise (CI logs).

use handoff_lab::progress::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;

/// Shows progress on stderr.
pub struct Stderr {
    bar: Option<ProgressBar>,
    tty: bool,
    quiet: bool,
    total: usize,
    done: usize,
    what: String,
    started: Instant,
}

impl Stderr {
    /// A bar on a terminal, lines otherwise; nothing when `quiet`.
    pub fn new(quiet: bool) -> Self {
        Stderr {
            bar: None,
            tty: std::io::stderr().is_terminal(),
            // Under mpirun only rank 0 shows progress.
            quiet: quiet || crate::mpi_bench::secondary(),
            total: 0,
            done: 0,
            what: String::new(),
            started: Instant::now(),
        }
    }
}

impl Progress for Stderr {
    fn begin(&mut self, total: usize, what: &str) {
        self.total = total;
        self.done = 0;
        self.what = what.to_string();
        self.started = Instant::now();
        if self.quiet {
            return;
        }
        if self.tty {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix:>12} [{bar:30}] {pos}/{len} {elapsed_precise} eta {eta} {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_prefix(what.to_string());
            self.bar = Some(bar);
        } else {
            eprintln!("handoff: {what}: {total} steps");
        }
    }

    fn advance(&mut self, label: &str) {
        self.done += 1;
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(bar) => {
                bar.set_message(label.to_string());
                bar.inc(1);
            }
            None => eprintln!(
                "handoff: {} [{}/{}] {label} ({:.1} s)",
                self.what,
                self.done,
                self.total,
                self.started.elapsed().as_secs_f64()
            ),
        }
    }

    fn end(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn say(&mut self, line: &str) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(bar) => bar.println(format!("handoff: {line}")),
            None => eprintln!("handoff: {line}"),
        }
    }
}
