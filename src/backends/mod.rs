//! The proving backends, each in one place with its parameters, key files, transcripts and
//! proof files (its side of [`crate::interface::ProvingBackend`]): KZG over BN254 on halo2-base
//! ([`bn254`]) and Cardano's BLS12-381 on IOG's midnight stack ([`cardano`]).

pub mod bn254;
pub mod cardano;
