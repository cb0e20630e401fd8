//! KZG over BLS12-381 with midnight-proofs: parameters, keys, prove, verify.
//!
//! Any `midnight_proofs::plonk::Circuit<Fr>` goes through these functions unchanged (`Fr` is
//! BLS12-381's scalar field, which midnight-curves calls `Fq`). The transcript is midnight-proofs'
//! own [`Blake2b256`]: it absorbs raw bytes and each challenge is the blake2b-256 hash of everything
//! since the previous challenge (prefixed by that challenge), so a Plutus script replays it with the
//! `blake2b_256` builtin over slices of the proof.
//!
//! # Insecure test parameters
//! [`kzg_params`] reads `params/kzg_bls12_381_<k>.insecure-test.srs`, creating it from the fixed
//! seed [`INSECURE_SEED`] when absent. **Such parameters are insecure**: anyone can recompute the
//! toxic waste. They are for tests and benchmarks only. `TMS_PARAMS_DIR` names another folder.

use std::{
    fs::{self, File},
    io::{self, BufWriter, Read},
    path::PathBuf,
};

use midnight_proofs::{
    plonk::{self, Circuit, ProvingKey, VerifyingKey},
    poly::{
        commitment::{Guard, Params},
        kzg::{
            params::{ParamsKZG, ParamsVerifierKZG},
            KZGCommitmentScheme,
        },
    },
    transcript::{Blake2b256, CircuitTranscript, Transcript},
    utils::{
        helpers::{byte_length, ProcessedSerdeObject},
        SerdeFormat,
    },
};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use rayon::prelude::*;

/// BLS12-381's scalar field (midnight-curves names it `Fq`).
pub type Fr = midnight_curves::Fq;
/// The pairing engine.
pub type Bls12 = midnight_curves::Bls12;
/// The commitment scheme.
pub type Kzg = KZGCommitmentScheme<Bls12>;
/// Prover parameters.
pub type Params12 = ParamsKZG<Bls12>;
/// Verifier parameters (`[tau] G2` and `G2`).
pub type VerifierParams = ParamsVerifierKZG<Bls12>;
/// A verifying key of this backend.
pub type Vk = VerifyingKey<Fr, Kzg>;
/// A proving key of this backend.
pub type Pk = ProvingKey<Fr, Kzg>;
/// The Fiat-Shamir transcript that Plutus replays with `blake2b_256`.
pub type PlutusTranscript = CircuitTranscript<Blake2b256>;

/// Errors of this backend.
#[derive(Debug)]
pub enum BackendError {
    /// midnight-proofs refused (keygen or proving).
    Plonk(plonk::Error),
    /// Bytes that do not parse.
    Bytes(String),
    /// Parameters of another size than the circuit's.
    Params(String),
}

impl std::fmt::Display for BackendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Plonk(e) => write!(f, "midnight-proofs: {e:?}"),
            Self::Bytes(e) => write!(f, "bad bytes: {e}"),
            Self::Params(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BackendError {}

impl From<plonk::Error> for BackendError {
    fn from(e: plonk::Error) -> Self {
        Self::Plonk(e)
    }
}

/// The seed of the insecure test parameters.
pub const INSECURE_SEED: [u8; 32] = *b"tms insecure BLS12-381 params  1";

/// KZG parameters for `2^k` rows from [`INSECURE_SEED`], uncached.
///
/// **Insecure, for tests**: the toxic waste is a function of a public seed.
pub fn insecure_test_params(k: u32) -> Params12 {
    ParamsKZG::unsafe_setup(k, ChaCha20Rng::from_seed(INSECURE_SEED))
}

/// The folder holding cached parameters: `$TMS_PARAMS_DIR`, else the workspace's `params/`.
pub fn params_dir() -> PathBuf {
    std::env::var_os("TMS_PARAMS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("params")
        })
}

/// The largest `k` a parameter file may declare (its points are allocated before they are read).
pub const MAX_PARAMS_K: u32 = 26;

/// Which of a parameter file's points [`params_from_raw_bytes_with`] checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointChecks {
    /// Every point: the checks of midnight-proofs' `RawBytes` reader (every coordinate below the
    /// modulus, every point on its curve and in its subgroup).
    Every,
    /// Every point's encoding and curve equation, but the subgroup only of the points a
    /// verifier uses (the two G2 points and the first G1 point, `[1] G1`): not of the
    /// `2^(k+1) - 1` other G1 points, which only keygen and the prover use as MSM bases and which
    /// no check here could make trustworthy (a pairing check against the ceremony does that,
    /// [`crate::ceremony`]). For bytes the caller already checked once: the tool takes it for a
    /// file whose SHA-256 equals the record `tms setup` wrote beside it. The subgroup checks were
    /// about 2 s of a 72-of-102 prove's 10.6 s on the 2-core machine.
    VerifierPoints,
}

/// Reads parameters in midnight-proofs' `RawBytes` form with the checks of
/// `ParamsKZG::read_custom(.., RawBytes)` (every coordinate below the modulus, every point on
/// its curve), the `2^(k+1)` G1 points parsed and checked on every thread: the same parameters,
/// where `read_custom` checks them one after another (about 20 s for k = 17 on a 16-core
/// machine, most of `tms prove`'s time outside the proof).
pub fn params_from_raw_bytes(bytes: &[u8]) -> io::Result<Params12> {
    params_from_raw_bytes_with(bytes, PointChecks::Every)
}

/// [`params_from_raw_bytes`] with the given [`PointChecks`].
pub fn params_from_raw_bytes_with(bytes: &[u8], checks: PointChecks) -> io::Result<Params12> {
    type G1 = midnight_curves::G1Projective;
    type G2 = midnight_curves::G2Projective;
    let mut reader = bytes;
    let mut k = [0u8; 4];
    reader.read_exact(&mut k)?;
    let k = u32::from_le_bytes(k);
    if k > MAX_PARAMS_K {
        return Err(io::Error::other(format!(
            "parameters for k = {k}: above the largest supported, {MAX_PARAMS_K}"
        )));
    }
    let n = 1usize << k;
    let point_len = byte_length::<G1>(SerdeFormat::RawBytes);
    let points_len = 2 * n * point_len;
    if reader.len() < points_len {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let (points, mut rest) = reader.split_at(points_len);
    let mut g = points
        .par_chunks(point_len)
        .enumerate()
        .map(|(i, mut point)| match checks {
            PointChecks::VerifierPoints if i > 0 => g1_on_curve(point),
            _ => <G1 as ProcessedSerdeObject>::read(&mut point, SerdeFormat::RawBytes),
        })
        .collect::<io::Result<Vec<G1>>>()?;
    let g_lagrange = g.split_off(n);
    let g2 = <G2 as ProcessedSerdeObject>::read(&mut rest, SerdeFormat::RawBytes)?;
    let s_g2 = <G2 as ProcessedSerdeObject>::read(&mut rest, SerdeFormat::RawBytes)?;
    Ok(Params12::from_parts(k, g, Some(g_lagrange), g2, s_g2))
}

/// A G1 point in the `RawBytes` encoding (uncompressed affine), its coordinates and curve
/// equation checked, not its subgroup ([`PointChecks::VerifierPoints`]); an error, not a panic,
/// for bytes off the curve (midnight-curves' `RawBytesUnchecked` reader panics there).
fn g1_on_curve(bytes: &[u8]) -> io::Result<midnight_curves::G1Projective> {
    use group::UncompressedEncoding;
    type Affine = midnight_curves::G1Affine;
    let mut encoding = <Affine as UncompressedEncoding>::Uncompressed::default();
    encoding.as_mut().copy_from_slice(bytes);
    Option::<Affine>::from(<Affine as UncompressedEncoding>::from_uncompressed_unchecked(&encoding))
        .map(Into::into)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "a G1 point off the curve"))
}

/// Parameters for `2^k` rows: read from the cache, or made from [`INSECURE_SEED`] and cached.
///
/// **Insecure, for tests**: the toxic waste is a function of a public seed.
pub fn kzg_params(k: u32) -> Params12 {
    let dir = params_dir();
    let path = dir.join(format!("kzg_bls12_381_{k}.insecure-test.srs"));
    if let Ok(bytes) = fs::read(&path) {
        if let Ok(params) = params_from_raw_bytes(&bytes) {
            if params.max_k() == k {
                return params;
            }
        }
    }
    eprintln!(
        "WARNING: making INSECURE BLS12-381 KZG parameters for k = {k} from a fixed public seed (tests only): {}",
        path.display()
    );
    let params = insecure_test_params(k);
    // A temporary name then a rename, so a concurrent reader never sees half a file.
    if fs::create_dir_all(&dir).is_ok() {
        let tmp = dir.join(format!(".kzg_bls12_381_{k}.{}.tmp", std::process::id()));
        let written = File::create(&tmp)
            .and_then(|f| params.write_custom(&mut BufWriter::new(f), SerdeFormat::RawBytes));
        if written.is_ok() {
            let _ = fs::rename(&tmp, &path);
        } else {
            let _ = fs::remove_file(&tmp);
        }
    }
    params
}

/// Keys for `circuit` (its witness-free shape is enough) at exactly `2^k` rows, `k = params.max_k()`.
pub fn keygen<C: Circuit<Fr>>(params: &Params12, circuit: &C) -> Result<(Pk, Vk), BackendError> {
    let vk = plonk::keygen_vk_with_k::<Fr, Kzg, C>(params, circuit, params.max_k())?;
    let pk = plonk::keygen_pk(vk.clone(), circuit)?;
    Ok((pk, vk))
}

/// A proof that `circuit` is satisfied with public inputs `instances` (one slice per instance
/// column). `seed` fixes the blinding so that proofs are reproducible in tests.
pub fn prove<C: Circuit<Fr>>(
    params: &Params12,
    pk: &Pk,
    circuit: C,
    instances: &[&[Fr]],
    seed: u64,
) -> Result<Vec<u8>, BackendError> {
    let mut transcript = PlutusTranscript::init();
    plonk::create_proof::<Fr, Kzg, PlutusTranscript, C>(
        params,
        pk,
        &[circuit],
        0,
        &[instances],
        &mut transcript,
        ChaCha20Rng::seed_from_u64(seed),
    )?;
    Ok(transcript.finalize())
}

/// Whether `proof` is valid for `vk` and `instances`. Trailing bytes are refused (midnight-proofs
/// 0.8.3's `prepare` alone would accept them), as the Plutus verifier refuses them.
pub fn verify(vp: &VerifierParams, vk: &Vk, proof: &[u8], instances: &[&[Fr]]) -> bool {
    let mut transcript = PlutusTranscript::init_from_bytes(proof);
    let Ok(guard) =
        plonk::prepare::<Fr, Kzg, PlutusTranscript>(vk, &[&[]], &[instances], &mut transcript)
    else {
        return false;
    };
    transcript.assert_empty().is_ok() && guard.verify(vp).is_ok()
}

/// The verifier parameters of `params`.
pub fn verifier_params(params: &Params12) -> VerifierParams {
    params.verifier_params()
}

/// The bytes of [`verifier_params_file`]: `[τ]₂`, compressed.
pub const VERIFIER_PARAMS_BYTES: usize = 96;

/// The verifier's part of `params` as a file: `[τ]₂`, compressed (96 bytes), all that
/// midnight-proofs' KZG verifier reads besides the generators. A verifier pins its SHA-256 (a
/// wrong `[τ]₂` would let anyone forge proofs). Refuses parameters whose `g2` is not the
/// generator: the verifier part assumes it, as midnight-proofs' `ParamsVerifierKZG::read` does.
pub fn verifier_params_file(params: &Params12) -> Result<Vec<u8>, BackendError> {
    use group::Group;
    if params.g2() != midnight_curves::G2Projective::generator() {
        return Err(BackendError::Params(
            "parameters whose g2 is not the generator have no verifier part file".into(),
        ));
    }
    let mut bytes = Vec::with_capacity(VERIFIER_PARAMS_BYTES);
    params
        .verifier_params()
        .write(&mut bytes, SerdeFormat::Processed)
        .expect("writing to memory");
    Ok(bytes)
}

/// Verifier parameters from a [`verifier_params_file`] (the point is decompressed and checked
/// to be in G2's prime-order subgroup).
pub fn verifier_params_from_file(bytes: &[u8]) -> Result<VerifierParams, BackendError> {
    if bytes.len() != VERIFIER_PARAMS_BYTES {
        return Err(BackendError::Bytes(format!(
            "verifier parameters: {} bytes, expected {VERIFIER_PARAMS_BYTES} (a compressed G2 \
             point)",
            bytes.len()
        )));
    }
    VerifierParams::read(&mut &bytes[..], SerdeFormat::Processed)
        .map_err(|e| BackendError::Bytes(format!("verifier parameters: {e}")))
}

/// A verifying key as bytes (midnight-proofs' `Processed` format: compressed points).
pub fn vk_to_bytes(vk: &Vk) -> Vec<u8> {
    vk.to_bytes(SerdeFormat::Processed)
}

/// A verifying key from bytes, given the circuit type and its parameters (the constraint system
/// is rebuilt from them).
pub fn vk_from_bytes<C: Circuit<Fr>>(bytes: &[u8], params: C::Params) -> Result<Vk, BackendError> {
    Vk::from_bytes::<C>(bytes, SerdeFormat::Processed, params)
        .map_err(|e| BackendError::Bytes(e.to_string()))
}
