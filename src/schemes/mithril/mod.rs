//! SNARK-Mithril: on BN254/Grumpkin ([`bn254`]) and on Cardano's BLS12-381/Jubjub
//! ([`cardano`]); mithril-stm 0.13's own files on Cardano ([`stm`], `--format mithril-stm`).

pub mod bn254;
pub mod cardano;
pub mod stm;
