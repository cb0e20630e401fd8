//! The proving backends (their side of [`crate::interface::ProvingBackend`]): Cardano's
//! BLS12-381 on IOG's midnight stack ([`cardano`]).

pub mod cardano;
