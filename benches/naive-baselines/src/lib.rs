//! What a t-of-N threshold certificate costs without a proof.
//!
//! The verifier holds the N public keys of the committee and the message. The certificate is a
//! signer bitmap (ceil(N / 8) bytes) and the t signers' signatures, or for BLS aggregate one
//! aggregate signature; verification parses the bitmap and checks every signature (BLS
//! aggregate: sums the signers' keys and checks one pairing equation). These are the baselines
//! the proved certificates of this workspace are compared with.
//!
//! - [`measure`]: one scheme at one (N, t): sizes, key generation and signing time, and the
//!   single-threaded wall time of verifying the whole certificate, per sample.
//! - [`Certificate`]: the certificate and its verifier, for any [`SignatureScheme`]
//!   ([`Certificate::verify`]) and for BLS aggregation ([`Certificate::verify_bls_aggregate`]).
//! - [`wots`], [`merkle_wots`]: the hash-based one-time and few-time schemes, written here.

#![deny(missing_docs)]

pub mod certificate;
pub mod merkle_wots;
pub mod schemes;
pub mod wots;

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use tms_gadgets::{message::message_to_field, signature::bls};

pub use certificate::{bitmap_bytes, decode_bitmap, encode_bitmap, Certificate};
pub use schemes::{
    BlsIndividual, LamportPlus, MerkleWots, SchnorrGrumpkin, SignatureScheme, SlhDsaSha2_128s,
    WotsPlus,
};

/// Largest committee [`measure`] accepts.
pub const MAX_COMMITTEE: usize = 1 << 16;
/// Most distinct key pairs a pooled scheme signs with: P = min(t, POOL_SIZE).
pub const POOL_SIZE: usize = 8;

/// Errors of certificate building, verification and measurement.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The threshold is zero.
    #[error("threshold t must be at least 1")]
    ThresholdZero,
    /// The threshold exceeds the committee.
    #[error("threshold t = {t} exceeds the committee size n = {n}")]
    ThresholdAboveCommittee {
        /// The threshold.
        t: usize,
        /// The committee size.
        n: usize,
    },
    /// The committee is larger than [`MAX_COMMITTEE`].
    #[error("committee size n = {n} exceeds {max}")]
    CommitteeTooLarge {
        /// The committee size.
        n: usize,
        /// The largest accepted.
        max: usize,
    },
    /// No samples were asked for.
    #[error("at least one verification sample is needed")]
    NoSamples,
    /// The bitmap has the wrong length.
    #[error("bitmap of {got} bytes, expected {expected}")]
    BitmapLength {
        /// ceil(n / 8).
        expected: usize,
        /// The length received.
        got: usize,
    },
    /// A padding bit past the committee is set.
    #[error("bitmap marks a member past the committee")]
    BitmapPadding,
    /// A signer index is outside the committee.
    #[error("signer {signer} outside a committee of {n}")]
    SignerOutOfRange {
        /// The index.
        signer: usize,
        /// The committee size.
        n: usize,
    },
    /// Signer indices are not strictly increasing.
    #[error("signer indices must be strictly increasing")]
    SignersNotIncreasing,
    /// The number of signatures differs from the number of signers.
    #[error("{signers} signers but {signatures} signatures")]
    SignatureCount {
        /// Signers.
        signers: usize,
        /// Signatures.
        signatures: usize,
    },
    /// The signature bytes do not match the signers the bitmap marks.
    #[error("signature bytes {got}, expected {expected}")]
    SignatureLength {
        /// Bytes expected from the bitmap's signer count.
        expected: usize,
        /// Bytes received.
        got: usize,
    },
    /// Fewer signers than the threshold.
    #[error("{signers} signers, below the threshold {t}")]
    BelowThreshold {
        /// Signers marked.
        signers: usize,
        /// The threshold.
        t: usize,
    },
    /// A member's signature does not verify (or does not parse).
    #[error("signature of member {member} rejected")]
    Rejected {
        /// The member.
        member: usize,
    },
    /// The BLS aggregate signature does not verify.
    #[error("aggregate signature rejected")]
    AggregateRejected,
    /// A one-time key signed twice, or a few-time key has no leaf left.
    #[error("signing key exhausted")]
    KeyExhausted,
    /// The underlying signer failed.
    #[error("signing failed: {0}")]
    Signing(String),
}

/// The baselines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    /// Schnorr on Grumpkin with the Rescue-Prime challenge: t signatures of 64 B.
    SchnorrGrumpkin,
    /// BN254 BLS, t signatures of 64 B each checked with its own pairing product.
    BlsBn254Individual,
    /// BN254 BLS, one 64 B aggregate signature; the verifier sums the t signer keys.
    BlsBn254Aggregate,
    /// Lamport+ over winterfell's Rescue-Prime (the STARK baseline's one-time keys).
    LamportPlus,
    /// WOTS+ with SHA-256, w = 16 (one-time).
    WotsPlus,
    /// 2^10 WOTS+ keys under a SHA-256 Merkle tree (few-time).
    MerkleWots,
    /// FIPS 205 SLH-DSA-SHA2-128s.
    #[serde(rename = "slh-dsa-sha2-128s")]
    SlhDsaSha2_128s,
}

impl Scheme {
    /// Every baseline, in table order.
    pub const ALL: [Scheme; 7] = [
        Scheme::SchnorrGrumpkin,
        Scheme::BlsBn254Individual,
        Scheme::BlsBn254Aggregate,
        Scheme::LamportPlus,
        Scheme::WotsPlus,
        Scheme::MerkleWots,
        Scheme::SlhDsaSha2_128s,
    ];

    /// Short name (the serde name).
    pub fn key(self) -> &'static str {
        match self {
            Scheme::SchnorrGrumpkin => "schnorr-grumpkin",
            Scheme::BlsBn254Individual => "bls-bn254-individual",
            Scheme::BlsBn254Aggregate => "bls-bn254-aggregate",
            Scheme::LamportPlus => "lamport-plus",
            Scheme::WotsPlus => "wots-plus",
            Scheme::MerkleWots => "merkle-wots",
            Scheme::SlhDsaSha2_128s => "slh-dsa-sha2-128s",
        }
    }

    /// Name for tables.
    pub fn label(self) -> &'static str {
        match self {
            Scheme::SchnorrGrumpkin => "Schnorr (Grumpkin, Rescue-Prime)",
            Scheme::BlsBn254Individual => "BLS BN254, individual",
            Scheme::BlsBn254Aggregate => "BLS BN254, aggregate",
            Scheme::LamportPlus => "Lamport+ (Rescue-Prime 64)",
            Scheme::WotsPlus => "WOTS+ (SHA-256, w = 16)",
            Scheme::MerkleWots => "Merkle-WOTS+ (h = 10)",
            Scheme::SlhDsaSha2_128s => "SLH-DSA-SHA2-128s",
        }
    }

    /// The scheme with short name `key`.
    pub fn from_key(key: &str) -> Option<Scheme> {
        Scheme::ALL.into_iter().find(|s| s.key() == key)
    }
}

/// One measurement of a baseline at (n, t).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NaiveRun {
    /// The scheme.
    pub scheme: Scheme,
    /// Committee size.
    pub n: usize,
    /// Threshold (and number of signers).
    pub t: usize,
    /// Bytes of the certificate: bitmap plus signatures.
    pub certificate_bytes: usize,
    /// Bytes of one signature (for BLS aggregate, the aggregate).
    pub signature_bytes: usize,
    /// Bytes of one public key as the verifier stores it.
    pub public_key_bytes: usize,
    /// Wall time of verifying the whole certificate, one entry per sample, in milliseconds
    /// (single thread: bitmap parsing, signature decoding, every check).
    pub verify_ms: Vec<f64>,
    /// Distinct key pairs behind the t signatures (t unless pooled).
    pub distinct_signers: usize,
    /// Seconds for key generation, signing and certificate assembly.
    pub keygen_sign_s: f64,
    /// How the figures were obtained.
    pub notes: String,
}

/// The message every certificate of a measurement signs.
pub fn message_for(seed: u64) -> Vec<u8> {
    format!("naive-baselines certificate message, seed {seed}").into_bytes()
}

fn check_parameters(n: usize, t: usize, samples: usize) -> Result<(), Error> {
    if t == 0 {
        return Err(Error::ThresholdZero);
    }
    if n > MAX_COMMITTEE {
        return Err(Error::CommitteeTooLarge {
            n,
            max: MAX_COMMITTEE,
        });
    }
    if t > n {
        return Err(Error::ThresholdAboveCommittee { t, n });
    }
    if samples == 0 {
        return Err(Error::NoSamples);
    }
    Ok(())
}

/// A uniformly random set of `t` signers out of `n`, increasing.
fn choose_signers(rng: &mut ChaCha20Rng, n: usize, t: usize) -> Vec<usize> {
    let mut signers = rand::seq::index::sample(rng, n, t).into_vec();
    signers.sort_unstable();
    signers
}

/// Times `samples` verifications of the whole certificate; fails on the first rejection.
fn time_samples(
    samples: usize,
    mut verify: impl FnMut() -> Result<(), Error>,
) -> Result<Vec<f64>, Error> {
    (0..samples)
        .map(|_| {
            let start = Instant::now();
            verify()?;
            Ok(start.elapsed().as_secs_f64() * 1e3)
        })
        .collect()
}

/// Measures one baseline: a committee of `n` keys, a certificate of `t` random signers on one
/// message, and `samples` timed verifications of it (each must accept). Deterministic in `seed`
/// apart from the timings.
pub fn measure(
    scheme: Scheme,
    n: usize,
    t: usize,
    samples: usize,
    seed: u64,
) -> Result<NaiveRun, Error> {
    check_parameters(n, t, samples)?;
    match scheme {
        Scheme::SchnorrGrumpkin => {
            measure_individual::<SchnorrGrumpkin>(scheme, n, t, samples, seed)
        }
        Scheme::BlsBn254Individual => {
            measure_individual::<BlsIndividual>(scheme, n, t, samples, seed)
        }
        Scheme::BlsBn254Aggregate => measure_bls_aggregate(n, t, samples, seed),
        Scheme::LamportPlus => measure_individual::<LamportPlus>(scheme, n, t, samples, seed),
        Scheme::WotsPlus => measure_individual::<WotsPlus>(scheme, n, t, samples, seed),
        Scheme::MerkleWots => measure_individual::<MerkleWots>(scheme, n, t, samples, seed),
        Scheme::SlhDsaSha2_128s => {
            measure_individual::<SlhDsaSha2_128s>(scheme, n, t, samples, seed)
        }
    }
}

fn measure_individual<S: SignatureScheme>(
    scheme: Scheme,
    n: usize,
    t: usize,
    samples: usize,
    seed: u64,
) -> Result<NaiveRun, Error> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let message = message_for(seed);
    let signers = choose_signers(&mut rng, n, t);

    let start = Instant::now();
    let prepared = S::message(&message);
    let (pks, signatures, distinct_signers, notes) = if S::POOLED {
        // P key pairs, each signing the message once. The k-th signer (in member order) holds
        // pool key k mod P; a non-signer i holds pool key i mod P.
        let pool = t.min(POOL_SIZE);
        let mut secret = Vec::with_capacity(pool);
        let mut public = Vec::with_capacity(pool);
        for _ in 0..pool {
            let (sk, pk) = S::keygen(&mut rng)?;
            secret.push(sk);
            public.push(pk);
        }
        let mut holds: Vec<usize> = (0..n).map(|i| i % pool).collect();
        for (k, &i) in signers.iter().enumerate() {
            holds[i] = k % pool;
        }
        let pool_signatures = secret
            .iter_mut()
            .map(|sk| S::sign(sk, &prepared))
            .collect::<Result<Vec<_>, _>>()?;
        let signatures: Vec<Vec<u8>> = (0..t).map(|k| pool_signatures[k % pool].clone()).collect();
        let distinct = pool;
        let pks: Vec<S::PublicKey> = holds.iter().map(|&j| public[j].clone()).collect();
        let notes = format!(
            "pool of {pool} key pairs (the k-th signer holds pool key k mod {pool}); {pool} \
             distinct signatures repeated over the {t} certificate slots; every slot verified in \
             full"
        );
        (pks, signatures, distinct, notes)
    } else {
        let mut secret = Vec::with_capacity(n);
        let mut pks = Vec::with_capacity(n);
        for _ in 0..n {
            let (sk, pk) = S::keygen(&mut rng)?;
            secret.push(sk);
            pks.push(pk);
        }
        let signatures = signers
            .iter()
            .map(|&i| S::sign(&mut secret[i], &prepared))
            .collect::<Result<Vec<_>, _>>()?;
        (pks, signatures, t, format!("{t} distinct key pairs of {n}"))
    };
    let certificate = Certificate::new(n, &signers, &signatures)?;
    let keygen_sign_s = start.elapsed().as_secs_f64();

    let verify_ms = time_samples(samples, || certificate.verify::<S>(&pks, &message, t))?;
    Ok(NaiveRun {
        scheme,
        n,
        t,
        certificate_bytes: certificate.len(),
        signature_bytes: S::SIGNATURE_BYTES,
        public_key_bytes: S::PUBLIC_KEY_BYTES,
        verify_ms,
        distinct_signers,
        keygen_sign_s,
        notes,
    })
}

fn measure_bls_aggregate(n: usize, t: usize, samples: usize, seed: u64) -> Result<NaiveRun, Error> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let message = message_for(seed);
    let signers = choose_signers(&mut rng, n, t);

    let start = Instant::now();
    let secret: Vec<bls::SecretKey> = (0..n).map(|_| bls::SecretKey::random(&mut rng)).collect();
    let pks: Vec<bls::PublicKey> = secret.iter().map(|sk| sk.public_key()).collect();
    let m = message_to_field(&message);
    let signatures: Vec<bls::Signature> = signers.iter().map(|&i| secret[i].sign(m)).collect();
    let certificate = Certificate::bls_aggregate(n, &signers, &signatures)?;
    let keygen_sign_s = start.elapsed().as_secs_f64();

    let verify_ms = time_samples(samples, || {
        certificate.verify_bls_aggregate(&pks, &message, t)
    })?;
    Ok(NaiveRun {
        scheme: Scheme::BlsBn254Aggregate,
        n,
        t,
        certificate_bytes: certificate.len(),
        signature_bytes: schemes::G2_BYTES,
        public_key_bytes: 32,
        verify_ms,
        distinct_signers: t,
        keygen_sign_s,
        notes: format!(
            "{t} distinct key pairs of {n}; verifier sums the {t} signer keys (G1 additions) and \
             checks one pairing product; keys assumed registered with proofs of possession"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_checked() {
        let s = Scheme::WotsPlus;
        assert!(matches!(measure(s, 8, 0, 1, 0), Err(Error::ThresholdZero)));
        assert!(matches!(
            measure(s, 8, 9, 1, 0),
            Err(Error::ThresholdAboveCommittee { t: 9, n: 8 })
        ));
        assert!(matches!(
            measure(s, MAX_COMMITTEE + 1, 1, 1, 0),
            Err(Error::CommitteeTooLarge { .. })
        ));
        assert!(matches!(measure(s, 8, 4, 0, 0), Err(Error::NoSamples)));
    }

    #[test]
    fn keys_round_trip() {
        for s in Scheme::ALL {
            assert_eq!(Scheme::from_key(s.key()), Some(s));
            assert!(!s.label().is_empty());
        }
    }
}
