//! Finding a segment's object: resolving a short name among live creators' segments,
//! waiting for its creation if asked, and explaining a name that is taken. (Validating the
//! header found is `header`'s job.)

use super::cleanup::list_segments;
use super::error::seg_err;
use super::names::{self, canonical_name, parse_segment_name};
use super::{Result, SegmentError, ShmError};
use crate::sys::mem::{self, ShmFile};
use crate::sys::Deadline;
use std::time::Duration;

/// [`SegmentError::OpenTimedOut`]'s state for a segment that exists but is not `READY`.
pub(super) const NOT_READY: &str =
    "created but not yet ready (its creator is still initializing it)";

/// How often an open that waits for the segment's creation looks for it.
pub(super) const CREATION_POLL: Duration = Duration::from_millis(1);

/// Resolves `name` and opens its object; with `wait`, a missing name is looked up again
/// every [`CREATION_POLL`] until the deadline.
pub(super) fn open_file(name: &str, deadline: Deadline, wait: bool) -> Result<(String, ShmFile)> {
    loop {
        let found = resolve_name(name).and_then(|full| {
            let file = ShmFile::open(&full)?;
            Ok((full, file))
        });
        match found {
            Err(ShmError::Segment(SegmentError::NotFound { .. })) if wait => {
                if deadline.expired() {
                    return Err(seg_err(SegmentError::OpenTimedOut {
                        name: name.to_string(),
                        state: "not yet created",
                    }));
                }
                std::thread::sleep(CREATION_POLL);
            }
            r => return r,
        }
    }
}

/// Why a name we want to create is taken: something planted there, another user's object,
/// or (else) our own leftover.
pub(super) fn explain_taken(name: String) -> ShmError {
    match mem::lstat(&name) {
        Ok(Some(info)) if info.kind != mem::FileKind::Regular => {
            seg_err(SegmentError::NotRegular {
                name,
                kind: info.kind.describe().into(),
                uid: info.uid,
            })
        }
        Ok(Some(info)) if info.uid != mem::current_uid() => seg_err(SegmentError::Squatted {
            name,
            uid: info.uid,
        }),
        _ => seg_err(SegmentError::AlreadyExists { name }),
    }
}

/// A full name as is; a short name resolved among live creators' segments.
pub(super) fn resolve_name(name: &str) -> Result<String> {
    if name.starts_with('/') || parse_segment_name(name).is_some() {
        return canonical_name(name);
    }
    names::validate_user_name(name)?;
    let candidates: Vec<String> = list_segments()?
        .into_iter()
        .filter(|full| {
            parse_segment_name(full)
                .is_some_and(|(pid, user)| user == name && !mem::pid_is_gone(pid))
        })
        .collect();
    match candidates.len() {
        0 => Err(seg_err(SegmentError::NotFound {
            name: name.to_string(),
        })),
        1 => Ok(candidates.into_iter().next().unwrap()),
        _ => Err(seg_err(SegmentError::Ambiguous {
            name: name.to_string(),
            candidates,
        })),
    }
}
