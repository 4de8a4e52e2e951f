//! Progress reporting: the lab says what it does; the CLI shows it (a bar on a terminal,
//! plain lines otherwise).

/// Receives progress from long runs.
pub trait Progress {
    /// A phase of `total` steps begins.
    fn begin(&mut self, total: usize, what: &str);
    /// One step is done.
    fn advance(&mut self, label: &str);
    /// The phase ended.
    fn end(&mut self);
    /// A line for the user between phases (the report's plan, its notes, its next step);
    /// nothing by default.
    fn say(&mut self, _line: &str) {}
}

/// Discards progress (tests, quiet runs).
#[derive(Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn begin(&mut self, _total: usize, _what: &str) {}
    fn advance(&mut self, _label: &str) {}
    fn end(&mut self) {}
}
