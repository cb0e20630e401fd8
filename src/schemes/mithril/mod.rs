//! SNARK-Mithril: on BN254/Grumpkin ([`bn254`]) and on Cardano's BLS12-381/Jubjub
//! ([`cardano`]).

pub mod bn254;
pub mod cardano;
