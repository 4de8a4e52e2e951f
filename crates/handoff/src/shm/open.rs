//! Opening a segment: finding the name (waiting for its creation if asked), explaining a
//! taken name, and validating a header against our layout, the object and its creator.

use super::*;

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
            Err(Error::Segment(SegmentError::NotFound { .. })) if wait => {
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
pub(super) fn explain_taken(name: String) -> Error {
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

/// What validation established.
pub(super) struct Validated {
    pub(super) total: usize,
    pub(super) payload_offset: usize,
    pub(super) payload_len: usize,
    pub(super) creator: ProcessId,
}

/// Checks a `READY` header against our layout and the object's current size and owner.
pub(super) fn validate(
    h: &Header,
    file: &ShmFile,
    name: &str,
    uid: u32,
    opts: &OpenOptions,
) -> Result<Validated> {
    if h.magic != MAGIC {
        return Err(seg_err(SegmentError::BadMagic { found: h.magic }));
    }
    if h.version != LAYOUT_VERSION {
        return Err(seg_err(SegmentError::BadVersion {
            found: h.version,
            expected: LAYOUT_VERSION,
        }));
    }
    if h.header_size != HEADER_SIZE as u32 {
        return Err(seg_err(SegmentError::HeaderSizeMismatch {
            found: h.header_size,
            expected: HEADER_SIZE as u32,
        }));
    }
    if h.slot_count != MAX_ATTACHED as u32 {
        return Err(seg_err(SegmentError::SlotCountMismatch {
            found: h.slot_count,
            expected: MAX_ATTACHED as u32,
        }));
    }
    // The creator: our uid (unless any_owner), the object's owner, and the pid in the name.
    let info = file.stat()?;
    if !opts.any_owner && h.creator_uid != uid {
        return Err(seg_err(SegmentError::ForeignOwner { uid: h.creator_uid }));
    }
    if h.creator_uid != info.uid {
        return Err(seg_err(SegmentError::Corrupt {
            detail: format!(
                "the header names uid {} as creator but uid {} owns the object",
                h.creator_uid, info.uid
            ),
        }));
    }
    let name_pid = parse_segment_name(name).map_or(0, |(pid, _)| pid);
    if h.creator.pid != name_pid {
        return Err(seg_err(SegmentError::CreatorMismatch {
            name: name.to_string(),
            name_pid,
            header_pid: h.creator.pid,
        }));
    }
    let (total, payload_offset, payload_len) = (h.total_size, h.payload_offset, h.payload_len);
    let page = mem::page_size() as u64;
    let consistent = payload_offset >= HEADER_SIZE as u64
        && payload_offset % page == 0
        && payload_len > 0
        && total % page == 0
        && payload_offset
            .checked_add(payload_len)
            .is_some_and(|end| end <= total && total - end < page)
        && usize::try_from(total).is_ok();
    if !consistent {
        return Err(seg_err(SegmentError::Corrupt {
            detail: format!(
                "payload offset {payload_offset}, payload length {payload_len}, total size \
                 {total}, page size {page}"
            ),
        }));
    }
    if info.size < total {
        return Err(seg_err(SegmentError::Truncated {
            file_len: info.size,
            needed: total,
        }));
    }
    if let Some(expected) = opts.payload_len {
        if expected as u64 != payload_len {
            return Err(seg_err(SegmentError::SizeMismatch {
                expected: expected as u64,
                found: payload_len,
            }));
        }
    }
    Ok(Validated {
        total: total as usize,
        payload_offset: payload_offset as usize,
        payload_len: payload_len as usize,
        creator: h.creator,
    })
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
