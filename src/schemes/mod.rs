//! The certificate schemes: one folder per scheme with its files, encodings and statement, and
//! one module per backend it is proved on (its side of [`crate::interface::CertificateScheme`]).
//! A scheme on a new backend is one module in its folder and one line in
//! [`crate::commands::driver`].

pub mod bls;
pub mod mithril;
pub mod schnorr;

use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use tms_gadgets::Fr;

use crate::{
    formats::{bytes_from_hex, bytes_to_hex, fr_from_str, PublicFile},
    interface::{CertificateScheme, Trusted, VerifyArgs},
    io::{at, usage, MemberSecret, Result},
};

/// Refuses a signature file over other bytes than `message`.
pub fn check_signed_message(path: &Path, signed: &str, message: &[u8]) -> Result<()> {
    let signed = bytes_from_hex(signed, "message").map_err(|e| at(path, e))?;
    if signed != message {
        return Err(at(
            path,
            format!(
                "signature over another message ({}, expected {})",
                bytes_to_hex(&signed),
                bytes_to_hex(message)
            ),
        ));
    }
    Ok(())
}

/// What an ATMS verifier is told when it gives neither a committee nor a commitment.
pub const NO_COMMITTEE: &str = "give the trusted --committee FILE or --commitment HEX";

/// The commitment a verifier holds: that of its `--committee` file (`of_file` reads and checks
/// it), or its `--commitment`, parsed by `parse`; refused with `missing` unless exactly one is
/// given.
pub fn trusted_commitment<C>(
    (committee, commitment): (Option<&Path>, Option<&str>),
    of_file: impl FnOnce(&Path) -> Result<C>,
    parse: impl FnOnce(&str, &str) -> std::result::Result<C, String>,
    missing: &str,
) -> Result<C> {
    match (committee, commitment) {
        (Some(path), None) => of_file(path),
        (None, Some(hex)) => parse(hex, "--commitment").map_err(usage),
        _ => Err(usage(missing)),
    }
}

/// The trusted statement of an ATMS certificate on BN254: the committee's commitment (from
/// `--commitment`, or `commitment_of` the `--committee` file, its size checked against the
/// key's), the message and the threshold the verifier requires; `instance` builds the circuit's
/// instance from them.
pub fn trusted_bn254_atms<S, Shape>(
    shape: &Shape,
    args: &VerifyArgs,
    public: Option<&PublicFile<Shape>>,
    commitment_of: impl FnOnce(&S::Committee) -> Fr,
    instance: impl FnOnce(Fr, &[u8], u64) -> S::Instance,
) -> Result<Trusted<S>>
where
    S: CertificateScheme<Shape = Shape, ShapeFile = Shape>,
    Shape: Clone,
{
    let of_file = |path: &Path| -> Result<Fr> {
        let committee = S::load_committee(path)?;
        S::check_committee(path, &committee, shape, "verifying key")?;
        Ok(commitment_of(&committee))
    };
    let given = (args.committee.as_deref(), args.commitment.as_deref());
    let commitment = trusted_commitment(given, of_file, fr_from_str, NO_COMMITTEE)?;
    let threshold = args.threshold(public)?;
    Ok(Trusted {
        public: PublicFile::new(
            S::SCHEME,
            shape.clone(),
            &commitment,
            &args.message,
            threshold,
        ),
        instance: instance(commitment, &args.message, threshold),
    })
}

/// The verifier's side of [`CertificateScheme`] an ATMS scheme on BN254 has: `trusted`
/// ([`trusted_bn254_atms`]; `|committee, shape| commitment` is the committee's commitment under
/// the key's shape, `instance` makes the circuit's statement of (commitment, message bytes,
/// threshold)) and the Groth16 wrapper's program of the statement `[commitment, m, t]`
/// (`label` describes it).
macro_rules! bn254_atms_calls {
    ($label:expr, |$committee:ident, $shape:ident| $commitment:expr, $instance:path) => {
        fn trusted(
            shape: &Self::Shape,
            args: &$crate::interface::VerifyArgs,
            public: Option<&$crate::formats::PublicFile<Self::ShapeFile>>,
        ) -> $crate::io::Result<$crate::interface::Trusted<Self>> {
            let commitment_of = |$committee: &Self::Committee| {
                let $shape = shape;
                $commitment
            };
            $crate::schemes::trusted_bn254_atms(shape, args, public, commitment_of, $instance)
        }

        $crate::backends::bn254::bn254_wrapper!(Atms, $label, |instance| instance
            .to_public_inputs());
    };
}
pub(crate) use bn254_atms_calls;

/// `n` member keys of `tms demo`: the same on every run (seeded; a demo, not a committee).
pub fn demo_keys<K: MemberSecret>(n: usize) -> Vec<K> {
    let mut rng = ChaCha20Rng::seed_from_u64(2026);
    (0..n).map(|_| K::random(&mut rng)).collect()
}

/// Refuses Mithril's registration options on the ATMS schemes.
pub fn refuse_registration(registration: Option<&Path>, next: Option<&Path>) -> Result<()> {
    if next.is_some() {
        return Err(usage(
            "--next-registration applies to --scheme mithril only",
        ));
    }
    if registration.is_some() {
        return Err(usage("--registration applies to --scheme mithril only"));
    }
    Ok(())
}
