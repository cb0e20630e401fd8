//! `tms-wasm`: the tms certificate verifiers for WebAssembly (browsers, Node), packaged for npm
//! as `tms-verifier` (`wasm/npm`, built by `wasm/build.sh`; see `docs/src/guides/browser.md`).
//!
//! A client verifies a certificate proof of the Schnorr ATMS or SNARK-Mithril on BN254 from the
//! statement it trusts (the committee's commitment or the registration digest, the message
//! bytes, the threshold) with a verifying key and KZG verifier parameters it pins by SHA-256:
//! [`verifier::PinnedVerifier`] checks both pins before parsing either, builds the public
//! inputs itself and refuses as `tms verify` does. It proves nothing.
//!
//! Feature `bn254` (the default) builds the BN254 verifiers ([`verifier`], [`chain`]); feature
//! `cardano` the Cardano backend's ([`cardano`]: the Schnorr ATMS and SNARK-Mithril on Jubjub,
//! KZG over BLS12-381), a second module (`tms_verifier_cardano.wasm`, built without the atomics
//! cfg the BN254 module needs: see `wasm/build.sh`).
//!
//! The verifier is plain Rust returning one-line errors (the native test runs it against the
//! library verifiers); [`abi`] is the module's C-style interface, which the package's
//! JavaScript (`wasm/npm/tms_verifier.js`) wraps into a class throwing one-line `Error`s.
#![deny(missing_docs)]

pub mod abi;
#[cfg(feature = "bn254")]
pub mod aggregate;
#[cfg(feature = "cardano")]
pub mod cardano;
#[cfg(feature = "bn254")]
pub mod chain;
#[cfg(feature = "bn254")]
pub mod fr_table;
#[cfg(feature = "bn254")]
pub mod params;
pub mod pin;
#[cfg(feature = "bn254")]
pub mod verifier;
