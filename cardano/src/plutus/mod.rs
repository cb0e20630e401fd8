//! Plutus verifiers generated from a verifying key.

pub mod native;
pub mod program;
