//! The BLS ATMS: on BN254 ([`bn254`]).

pub mod bn254;
