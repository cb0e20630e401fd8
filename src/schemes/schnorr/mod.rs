//! The Schnorr ATMS: on BN254/Grumpkin ([`bn254`]).

pub mod bn254;
