//! Finding a segment's object: creating it under a fresh unguessable name (or the full name
//! the caller chose), resolving a short name among the caller's live segments, waiting for
//! its creation if asked, and explaining a name that is taken. (Validating the
//! header found is `header`'s job.)

use super::cleanup;
use super::cleanup::list_segments;
use super::names::{self, canonical_name, parse_segment_name, CREATE_TRIES};
use super::{Result, SegmentError};
use crate::sys::mem::{self, ShmFile};
use crate::sys::{Deadline, Error as SysError};
use std::time::Duration;

/// [`SegmentError::OpenTimedOut`]'s state for a segment that exists but is not `READY`.
pub(super) const NOT_READY: &str =
    "created but not yet ready (its creator is still initializing it)";

/// How often an open that waits for the segment's creation looks for it.
pub(super) const CREATION_POLL: Duration = Duration::from_millis(1);

/// Creates the object for `name` (`O_CREAT | O_EXCL`): under a fresh random full name,
/// retried with another while one is taken (at most [`CREATE_TRIES`] times); or, for a full
/// name the caller chose, under exactly that name (a stale leftover of ours removed first,
/// anything else at the name an error that says what it is).
pub(super) fn create_file(name: &str, total: usize, mode: u32) -> Result<(String, ShmFile)> {
    let (mut full, generated) = names::name_to_create(name)?;
    if !generated {
        let file = match ShmFile::create(&full, total, mode) {
            Err(SysError::AlreadyExists { .. }) if cleanup::remove_if_stale(&full) => {
                ShmFile::create(&full, total, mode)?
            }
            Err(SysError::AlreadyExists { name }) => return Err(explain_taken(name)),
            r => r?,
        };
        return Ok((full, file));
    }
    for _ in 1..CREATE_TRIES {
        match ShmFile::create(&full, total, mode) {
            Err(SysError::AlreadyExists { .. }) => full = names::segment_name(name)?,
            r => return Ok((full, r?)),
        }
    }
    match ShmFile::create(&full, total, mode) {
        Err(SysError::AlreadyExists { .. }) => Err(SegmentError::NoFreeName {
            name: name.to_string(),
            tries: CREATE_TRIES,
        }),
        r => Ok((full, r?)),
    }
}

/// Resolves `name` and opens its object; with `wait`, a missing name is looked up again
/// every [`CREATION_POLL`] until the deadline.
pub(super) fn open_file(
    name: &str,
    deadline: Deadline,
    wait: bool,
    any_owner: bool,
) -> Result<(String, ShmFile)> {
    loop {
        let found = resolve_name(name, any_owner).and_then(|full| {
            let file = ShmFile::open(&full)?;
            Ok((full, file))
        });
        match found {
            Err(SegmentError::NotFound { .. }) if wait => {
                if deadline.expired() {
                    return Err(SegmentError::OpenTimedOut {
                        name: name.to_string(),
                        state: "not yet created",
                    });
                }
                std::thread::sleep(CREATION_POLL);
            }
            r => return r,
        }
    }
}

/// Why a name we want to create is taken: something planted there, another user's object,
/// or (else) our own leftover.
pub(super) fn explain_taken(name: String) -> SegmentError {
    match mem::lstat(&name) {
        Ok(Some(info)) if info.kind != mem::FileKind::Regular => SegmentError::NotRegular {
            name,
            kind: info.kind.describe().into(),
            uid: info.uid,
        },
        Ok(Some(info)) if info.uid != mem::current_uid() => SegmentError::Squatted {
            name,
            uid: info.uid,
        },
        _ => SegmentError::AlreadyExists { name },
    }
}

/// A full name as is; a short name resolved among live creators' segments: only our own
/// (owned by our uid), unless `any_owner`, so another user's object of the same name can
/// neither take the lookup nor make it ambiguous.
pub(super) fn resolve_name(name: &str, any_owner: bool) -> Result<String> {
    if name.starts_with('/') || parse_segment_name(name).is_some() {
        return canonical_name(name);
    }
    names::validate_user_name(name)?;
    let uid = mem::current_uid();
    let owned = |full: &str| {
        any_owner
            || mem::lstat(full)
                .is_ok_and(|i| i.is_some_and(|i| i.uid == uid && i.kind == mem::FileKind::Regular))
    };
    let candidates: Vec<String> = list_segments()?
        .into_iter()
        .filter(|full| {
            parse_segment_name(full)
                .is_some_and(|(pid, user)| user == name && !mem::pid_is_gone(pid))
                && owned(full)
        })
        .collect();
    match candidates.len() {
        0 => Err(SegmentError::NotFound {
            name: name.to_string(),
        }),
        1 => Ok(candidates.into_iter().next().unwrap()),
        _ => Err(SegmentError::Ambiguous {
            name: name.to_string(),
            candidates,
        }),
    }
}
