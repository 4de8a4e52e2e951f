//! Segment names and their rules.
//!
//! A name the library makes is `/handoff-<creator pid>-<user part>~<random>`: the pid traces
//! a stale object back to the process that made it (see `cleanup`), the user part is what
//! the creator passed (what short-name lookups match), and the random part (16 hex digits
//! from the kernel's random source) makes the name unguessable, so another user cannot
//! squat it in advance. Creation is `O_CREAT | O_EXCL` and retried with a new random part
//! when the name is taken ([`CREATE_TRIES`] times).
//!
//! A full name the caller chooses (`/handoff-<own pid>-<user part>`, without or with a
//! random part) is used exactly as given: a taken one is an error, never a retry.

use super::Result;
use super::SegmentError;
use std::io::Read;

/// The project prefix every segment name starts with (after the leading `/`).
pub const NAME_PREFIX: &str = "handoff-";

/// Longest user part of a name, in bytes. `NAME_MAX` (255) leaves room for the prefix, a
/// pid, the random part and the separators.
pub const MAX_USER_NAME_LEN: usize = 200;

/// Separates the user part from the random part (never in a user part).
const RANDOM_SEPARATOR: char = '~';

/// Hex digits of the random part (64 bits).
const RANDOM_LEN: usize = 16;

/// How many random names a creation tries before it gives up (each taken one was a
/// collision of 64 random bits, or someone filling `/dev/shm` with guesses).
pub(super) const CREATE_TRIES: u32 = 8;

/// Checks the user part of a segment name: non-empty, at most [`MAX_USER_NAME_LEN`] bytes,
/// only ASCII letters, digits, `.`, `_` and `-` (so never a `/`), and not `.` or `..`.
pub fn validate_user_name(user: &str) -> Result<()> {
    let bad = |reason: String| {
        Err(SegmentError::InvalidName {
            name: user.to_string(),
            reason,
        })
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

/// 64 bits from the kernel's random source, as [`RANDOM_LEN`] lowercase hex digits.
fn random_part() -> Result<String> {
    let mut bytes = [0u8; RANDOM_LEN / 2];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| {
            SegmentError::io("reading /dev/urandom for a segment name's random part", e)
        })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A fresh full name for a segment this process creates under `user`:
/// `/handoff-<pid>-<user>~<random>` (a new random part on every call).
pub fn segment_name(user: &str) -> Result<String> {
    validate_user_name(user)?;
    Ok(format!(
        "/{NAME_PREFIX}{}-{user}{RANDOM_SEPARATOR}{}",
        std::process::id(),
        random_part()?
    ))
}

/// The full name a creation asked for by `name` uses: a fresh random one for a user part
/// (`Ok((name, true))`: retry with another on a clash), or `name` itself for a full name
/// the caller chose (`Ok((name, false))`), which must carry this process's pid.
pub(super) fn name_to_create(name: &str) -> Result<(String, bool)> {
    if !name.starts_with('/') {
        return Ok((segment_name(name)?, true));
    }
    let me = std::process::id();
    match parse_segment_name(name) {
        Some((pid, _)) if pid == me => Ok((name.to_string(), false)),
        _ => Err(SegmentError::InvalidName {
            name: name.to_string(),
            reason: format!(
                "a full name chosen by the caller has the form \"/{NAME_PREFIX}{me}-<name>\" \
                 (this process's pid, {me}, so stale objects can be traced and cleaned up); or \
                 pass just <name> and handoff makes an unguessable full name"
            ),
        }),
    }
}

/// Splits a full name (`/handoff-<pid>-<user>[~<random>]`, the leading `/` optional) into
/// the creator pid and the user part (without the random part); `None` if it is not a
/// handoff name.
pub fn parse_segment_name(name: &str) -> Option<(u32, &str)> {
    let rest = name.strip_prefix('/').unwrap_or(name);
    let rest = rest.strip_prefix(NAME_PREFIX)?;
    let (pid, tag) = rest.split_once('-')?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let pid: u32 = pid.parse().ok()?;
    let user = match tag.rsplit_once(RANDOM_SEPARATOR) {
        Some((user, random)) => {
            let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
            if random.len() != RANDOM_LEN || !random.bytes().all(hex) {
                return None;
            }
            user
        }
        None => tag,
    };
    if pid == 0 || validate_user_name(user).is_err() {
        return None;
    }
    Some((pid, user))
}

/// Normalizes a full name to its canonical `/handoff-<pid>-<user>[~<random>]` form (the
/// leading `/` added), or explains why it is not one.
pub fn canonical_name(name: &str) -> Result<String> {
    match parse_segment_name(name) {
        Some(_) => Ok(format!("/{}", name.strip_prefix('/').unwrap_or(name))),
        None => Err(SegmentError::InvalidName {
            name: name.to_string(),
            reason: format!(
                "a full segment name has the form \"/{NAME_PREFIX}<pid>-<name>~<random>\" \
                 (what the creator's name() returns)"
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shm::SegmentError;

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
    fn generated_names_carry_a_fresh_random_part() {
        let a = segment_name("field").unwrap();
        let b = segment_name("field").unwrap();
        assert_ne!(a, b, "two creations of one user part must not share a name");
        let prefix = format!("/{NAME_PREFIX}{}-field~", std::process::id());
        assert!(a.starts_with(&prefix), "{a}");
        assert_eq!(a.len(), prefix.len() + RANDOM_LEN, "{a}");
        assert_eq!(parse_segment_name(&a).unwrap().1, "field");
        // A user part may itself hold '-' and '.', never '~'.
        assert_eq!(
            parse_segment_name("/handoff-7-a-b.c~0123456789abcdef"),
            Some((7, "a-b.c"))
        );
        // A malformed random part is no handoff name; one without is (an explicit name).
        for bad in [
            "/handoff-7-x~",
            "/handoff-7-x~0123",
            "/handoff-7-x~0123456789ABCDEF",
        ] {
            assert!(parse_segment_name(bad).is_none(), "{bad}");
        }
        assert_eq!(parse_segment_name("/handoff-7-x"), Some((7, "x")));
    }

    #[test]
    fn explicit_full_names_are_used_as_given_with_our_pid_only() {
        let mine = format!("/{NAME_PREFIX}{}-chosen", std::process::id());
        assert_eq!(name_to_create(&mine).unwrap(), (mine.clone(), false));
        let (generated, retry) = name_to_create("chosen").unwrap();
        assert!(retry && generated != mine && generated.starts_with(&mine));
        let other = format!("/{NAME_PREFIX}{}-chosen", std::process::id() + 1);
        assert!(name_to_create(&other).is_err());
        assert!(name_to_create("/elsewhere").is_err());
    }

    #[test]
    fn bad_user_names() {
        for bad in ["", "a/b", ".", "..", "sp ace", "\0", "é"] {
            assert!(
                matches!(segment_name(bad), Err(SegmentError::InvalidName { .. })),
                "{bad:?}"
            );
        }
        let long = "x".repeat(MAX_USER_NAME_LEN + 1);
        assert!(segment_name(&long).is_err());
        let ok = "x".repeat(MAX_USER_NAME_LEN);
        assert!(segment_name(&ok).unwrap().len() < 255);
    }
}
