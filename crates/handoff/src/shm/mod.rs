//! Segment layout: named shared segments with a validated header. (Being built.)

/// Why a segment failed validation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SegmentError {
    /// Placeholder until the segment header lands.
    #[error("segment is not valid: {0}")]
    Invalid(String),
}
