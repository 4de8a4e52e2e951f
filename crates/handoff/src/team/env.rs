//! The one reader of a team PE's environment: what the launcher (`handoff run`, [`Launch`])
//! or an MPI launcher's `-x`/`-genv` passes ([`ENV_TEAM`], [`ENV_RANK`], [`ENV_SIZE`],
//! [`ENV_WAIT`], [`ENV_CPU`], [`ENV_HEAP`]), each parsed once here with the workspace's size
//! rule ([`crate::units::parse_size`]) and wait names, and a bad value named in the error.
//!
//! [`Launch`]: super::Launch

use super::{TeamError, ENV_CPU, ENV_HEAP, ENV_WAIT};
use crate::sync::Wait;
use crate::units::SizeError;

/// The value of `var`, which a team PE must have ([`TeamError::NotInTeam`] without it).
pub(super) fn var(var: &'static str) -> Result<String, TeamError> {
    std::env::var(var).map_err(|_| TeamError::NotInTeam { var })
}

/// The number in `var`, which a team PE must have.
pub(super) fn number(var: &'static str) -> Result<usize, TeamError> {
    let v = self::var(var)?;
    v.trim().parse().map_err(|_| TeamError::BadEnv {
        var,
        value: v.clone(),
        why: "not a number".into(),
    })
}

/// The CPU a PE pins itself to ([`ENV_CPU`]), if set.
pub(super) fn cpu() -> Result<Option<usize>, TeamError> {
    match std::env::var(ENV_CPU) {
        Ok(cpu) => cpu.trim().parse().map(Some).map_err(|_| TeamError::BadEnv {
            var: ENV_CPU,
            value: cpu.clone(),
            why: "not a CPU number".into(),
        }),
        Err(_) => Ok(None),
    }
}

/// The team's wait strategy from [`ENV_WAIT`] (`spin`, `spin-yield`, `block`, `adaptive`),
/// [`Wait::ADAPTIVE`] when unset; a bad name is [`TeamError::BadEnv`].
pub fn wait_from_env() -> Result<Wait, TeamError> {
    match std::env::var(ENV_WAIT) {
        Ok(w) => w.parse().map_err(|e: crate::sys::Error| TeamError::BadEnv {
            var: ENV_WAIT,
            value: w.clone(),
            why: e.to_string(),
        }),
        Err(_) => Ok(Wait::ADAPTIVE),
    }
}

/// The per-PE heap size in [`ENV_HEAP`] (e.g. `64M`, `1GiB`; [`crate::units::parse_size`]),
/// `None` when unset; a bad size is [`TeamError::BadEnv`] saying how to write one.
#[cfg_attr(not(feature = "implementor"), allow(dead_code))] // MPI's join reads it
pub fn heap_from_env() -> Result<Option<usize>, TeamError> {
    match heap_text() {
        None => Ok(None),
        Some((_, Ok(bytes))) => Ok(Some(bytes)),
        Some((value, Err(e))) => Err(TeamError::BadEnv {
            var: ENV_HEAP,
            value,
            why: e.to_string(),
        }),
    }
}

/// [`ENV_HEAP`]'s text and its size, when set (the launcher reports a bad one later, unless
/// told the heap's size).
pub(super) fn heap_text() -> Option<(String, Result<usize, SizeError>)> {
    let h = std::env::var(ENV_HEAP).ok()?;
    let size = crate::units::parse_size(&h);
    Some((h, size))
}
