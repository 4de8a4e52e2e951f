//! Segment names and their rules: `/handoff-<creator pid>-<user part>`, so a stale object can
//! be traced back to the process that made it (see `cleanup`).

use super::error::seg_err;
use super::Result;
use super::SegmentError;

/// The project prefix every segment name starts with (after the leading `/`).
pub const NAME_PREFIX: &str = "handoff-";

/// Longest user part of a name, in bytes. `NAME_MAX` (255) leaves room for the prefix, a
/// pid and the separators.
pub const MAX_USER_NAME_LEN: usize = 200;

/// Checks the user part of a segment name: non-empty, at most [`MAX_USER_NAME_LEN`] bytes,
/// only ASCII letters, digits, `.`, `_` and `-` (so never a `/`), and not `.` or `..`.
pub fn validate_user_name(user: &str) -> Result<()> {
    let bad = |reason: String| {
        Err(seg_err(SegmentError::InvalidName {
            name: user.to_string(),
            reason,
        }))
    };
    if user.is_empty() {
        return bad("the name is empty".into());
    }
    if user.len() > MAX_USER_NAME_LEN {
        return bad(format!(
            "it is {} bytes long; at most {MAX_USER_NAME_LEN} are allowed",
            user.len()
        ));
    }
    if let Some(c) = user
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return bad(format!(
            "it contains {c:?}; use only ASCII letters, digits, '.', '_' and '-' \
             (handoff adds the \"/{NAME_PREFIX}<pid>-\" prefix itself)"
        ));
    }
    if user == "." || user == ".." {
        return bad("'.' and '..' are not names".into());
    }
    Ok(())
}

/// The full shm name a segment created by this process under `user` gets:
/// `/handoff-<pid>-<user>`.
pub fn segment_name(user: &str) -> Result<String> {
    validate_user_name(user)?;
    Ok(format!("/{NAME_PREFIX}{}-{user}", std::process::id()))
}

/// Splits a full name (`/handoff-<pid>-<user>`, the leading `/` optional) into the creator
/// pid and the user part; `None` if it is not a handoff name.
pub fn parse_segment_name(name: &str) -> Option<(u32, &str)> {
    let rest = name.strip_prefix('/').unwrap_or(name);
    let rest = rest.strip_prefix(NAME_PREFIX)?;
    let (pid, user) = rest.split_once('-')?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let pid: u32 = pid.parse().ok()?;
    if pid == 0 || validate_user_name(user).is_err() {
        return None;
    }
    Some((pid, user))
}

/// Normalizes a full name to its canonical `/handoff-<pid>-<user>` form, or explains why it
/// is not one.
pub fn canonical_name(name: &str) -> Result<String> {
    match parse_segment_name(name) {
        Some((pid, user)) => Ok(format!("/{NAME_PREFIX}{pid}-{user}")),
        None => Err(seg_err(SegmentError::InvalidName {
            name: name.to_string(),
            reason: format!(
                "a full segment name has the form \"/{NAME_PREFIX}<pid>-<name>\" (what \
                 Segment::name() returns)"
            ),
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shm::ShmError;

    #[test]
    fn names_round_trip() {
        let full = segment_name("abc.1_x-y").unwrap();
        let (pid, user) = parse_segment_name(&full).unwrap();
        assert_eq!(pid, std::process::id());
        assert_eq!(user, "abc.1_x-y");
        assert_eq!(canonical_name(&full[1..]).unwrap(), full);
        assert!(parse_segment_name("/handoff--x").is_none());
        assert!(parse_segment_name("/handoff-12x-y").is_none());
        assert!(parse_segment_name("/other-12-y").is_none());
        assert!(parse_segment_name("/handoff-12-").is_none());
        assert!(canonical_name("nope").is_err());
    }

    #[test]
    fn bad_user_names() {
        for bad in ["", "a/b", ".", "..", "sp ace", "\0", "é"] {
            assert!(
                matches!(
                    segment_name(bad),
                    Err(ShmError::Segment(SegmentError::InvalidName { .. }))
                ),
                "{bad:?}"
            );
        }
        let long = "x".repeat(MAX_USER_NAME_LEN + 1);
        assert!(segment_name(&long).is_err());
        let ok = "x".repeat(MAX_USER_NAME_LEN);
        assert!(segment_name(&ok).unwrap().len() < 255);
    }
}
