//! The certificate schemes: one folder per scheme with its files, encodings and statement, and
//! one module per backend it is proved on (its side of [`crate::interface::CertificateScheme`]).

pub mod bls;
pub mod mithril;
pub mod schnorr;
