//! KZG parameters from a powers-of-tau ceremony.
//!
//! [`params_from_ptau`] reads snarkjs's `.ptau` format (BN254, "bn128" in snarkjs): a `ptau`
//! magic, a version, then sections `(type u32, size u64, data)`. Section 1 is the header
//! (`n8 = 32`, the base field modulus, the power), section 2 the `tau^i G1` points, section 3
//! the `tau^i G2` points; coordinates are 32-byte little-endian Montgomery-form field elements.
//! halo2's KZG needs `tau^i G1` for `i < 2^k`, `G2` and `tau G2`. Every point is checked to be on
//! its curve, the first ones to be the generators, and `e(tau G1, G2) == e(G1, tau G2)`.
//!
//! halo2's own raw format is read by `ParamsKZG::read`. [`sha256_hex`] is what the command-line
//! tool records beside each parameters file and checks on load.
//!
//! # Insecure test parameters
//! [`kzg_params`] reads `params/kzg_bn254_<k>.insecure-test.srs`, creating it from a fixed seed
//! ([`INSECURE_SEED`]) when absent. **Such parameters are insecure**: anyone can recompute the
//! toxic waste. They are for tests and benchmarks only. Set `TMS_PARAMS_DIR` to use another
//! folder.

use std::{
    collections::HashMap,
    fs::{self, File},
    io::BufWriter,
    path::PathBuf,
};

use halo2_base::halo2_proofs::{
    halo2curves::{
        bn256::{pairing, Bn256, Fq, Fq2, G1Affine, G2Affine, G1},
        ff::{BatchInvert, Field, PrimeField},
        group::{prime::PrimeCurveAffine, Curve, Group},
        CurveAffine,
    },
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
    SerdeFormat,
};
use rand_chacha::{rand_core::SeedableRng, ChaCha20Rng};
use sha2::{Digest, Sha256};

use crate::{Fr, GadgetError};

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// SHA-256 (hex) of a file, read in pieces (ceremony files run to gigabytes).
pub fn sha256_file_hex(path: &std::path::Path) -> std::io::Result<String> {
    use sha2::Digest as _;
    use std::io::Read as _;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

fn bad(msg: impl Into<String>) -> GadgetError {
    GadgetError::MalformedPtau(msg.into())
}

/// A Montgomery-form little-endian Fq element as stored by snarkjs.
fn fq_from_montgomery(bytes: &[u8]) -> Result<Fq, GadgetError> {
    let limbs: [u64; 4] = std::array::from_fn(|i| {
        u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
    });
    // from_raw takes the canonical integer; the stored value is x * 2^256 mod q.
    let mut repr = [0u8; 32];
    repr.copy_from_slice(&bytes[..32]);
    if bool::from(Fq::from_repr(repr).is_none()) {
        return Err(bad("a coordinate is not below the field modulus"));
    }
    let r_inv = Fq::from(2)
        .pow_vartime([256])
        .invert()
        .expect("2 is invertible");
    Ok(Fq::from_raw(limbs) * r_inv)
}

fn g1_at(data: &[u8], i: usize) -> Result<G1Affine, GadgetError> {
    let p = data
        .get(64 * i..64 * i + 64)
        .ok_or_else(|| bad("section 2 holds too few G1 points"))?;
    let (x, y) = (fq_from_montgomery(&p[..32])?, fq_from_montgomery(&p[32..])?);
    Option::from(G1Affine::from_xy(x, y))
        .ok_or_else(|| bad(format!("tau^{i} G1 is not on the curve")))
}

fn g2_at(data: &[u8], i: usize) -> Result<G2Affine, GadgetError> {
    let p = data
        .get(128 * i..128 * i + 128)
        .ok_or_else(|| bad("section 3 holds too few G2 points"))?;
    let fq2 = |o: usize| -> Result<Fq2, GadgetError> {
        Ok(Fq2 {
            c0: fq_from_montgomery(&p[o..o + 32])?,
            c1: fq_from_montgomery(&p[o + 32..o + 64])?,
        })
    };
    let point = G2Affine {
        x: fq2(0)?,
        y: fq2(64)?,
    };
    if !bool::from(point.is_on_curve()) {
        return Err(bad(format!("tau^{i} G2 is not on the curve")));
    }
    Ok(point)
}

/// KZG parameters for `2^k` rows from a snarkjs `.ptau` file's bytes.
pub fn params_from_ptau(bytes: &[u8], k: u32) -> Result<ParamsKZG<Bn256>, GadgetError> {
    if bytes.get(..4) != Some(b"ptau") {
        return Err(bad("not a .ptau file (no 'ptau' magic)"));
    }
    let word = |o: usize| -> Result<u32, GadgetError> {
        Ok(u32::from_le_bytes(
            bytes
                .get(o..o + 4)
                .ok_or_else(|| bad("truncated"))?
                .try_into()
                .expect("4 bytes"),
        ))
    };
    if word(4)? != 1 {
        return Err(bad(format!("unsupported .ptau version {}", word(4)?)));
    }
    let mut sections: HashMap<u32, &[u8]> = HashMap::new();
    let mut offset = 12usize;
    for _ in 0..word(8)? {
        let kind = word(offset)?;
        let size = u64::from_le_bytes(
            bytes
                .get(offset + 4..offset + 12)
                .ok_or_else(|| bad("truncated"))?
                .try_into()
                .expect("8 bytes"),
        );
        let start = offset + 12;
        let end = start
            .checked_add(size as usize)
            .filter(|e| *e <= bytes.len())
            .ok_or_else(|| bad("truncated section"))?;
        sections.entry(kind).or_insert(&bytes[start..end]);
        offset = end;
    }
    let header = sections.get(&1).ok_or_else(|| bad("no header section"))?;
    if header.len() < 44 || u32::from_le_bytes(header[..4].try_into().expect("4 bytes")) != 32 {
        return Err(bad("header is not for a 32-byte field"));
    }
    let q = (-Fq::ONE).to_repr();
    let mut q_minus_1 = [0u8; 32];
    q_minus_1.copy_from_slice(&header[4..36]);
    q_minus_1[0] -= 1; // q is odd
    if q_minus_1 != *q.as_ref() {
        return Err(bad("not a BN254 (bn128) ceremony"));
    }
    let power = u32::from_le_bytes(header[36..40].try_into().expect("4 bytes"));
    if k > power {
        return Err(bad(format!(
            "the ceremony has 2^{power} powers, 2^{k} are needed"
        )));
    }
    let tau_g1 = sections.get(&2).ok_or_else(|| bad("no tauG1 section"))?;
    let tau_g2 = sections.get(&3).ok_or_else(|| bad("no tauG2 section"))?;
    let g: Vec<G1Affine> = (0..1usize << k)
        .map(|i| g1_at(tau_g1, i))
        .collect::<Result<_, _>>()?;
    let (g2, s_g2) = (g2_at(tau_g2, 0)?, g2_at(tau_g2, 1)?);
    if g[0] != G1Affine::generator() || g2 != G2Affine::generator() {
        return Err(bad("the first powers are not the generators"));
    }
    if pairing(&g[1], &g2) != pairing(&g[0], &s_g2) {
        return Err(bad("tau in G1 and tau in G2 disagree"));
    }
    // from_parts takes a receiver only to name the type; a 2-row setup serves.
    let shell = ParamsKZG::<Bn256>::setup(1, ChaCha20Rng::from_seed([0; 32]));
    Ok(shell.from_parts(k, g, None, g2, s_g2))
}

/// The largest `k` a parameters file may claim (2^28 rows: 32 GiB of points).
pub const MAX_PARAMS_K: u32 = 28;
/// Bytes of one G1 point in halo2's raw format (x and y, 32 bytes each).
const G1_RAW: usize = 64;
/// Bytes of one G2 point in halo2's raw format.
const G2_RAW: usize = 128;

/// Reads parameters in halo2's KZG format, checking the header and the length *before* halo2's
/// reader (which unwraps and allocates `2^k` points from the header's `k`) sees them, and every
/// point on its curve.
pub fn read_params(bytes: &[u8]) -> Result<ParamsKZG<Bn256>, GadgetError> {
    let bad = |m: String| GadgetError::MalformedParams(m);
    let k = bytes
        .get(..4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
        .ok_or_else(|| bad(format!("{} bytes, too short for a header", bytes.len())))?;
    if k > MAX_PARAMS_K {
        return Err(bad(format!("k = {k} is above {MAX_PARAMS_K}")));
    }
    let expected = 4 + 2 * (1usize << k) * G1_RAW + 2 * G2_RAW;
    if bytes.len() != expected {
        return Err(bad(format!(
            "{} bytes, parameters for k = {k} have {expected}",
            bytes.len()
        )));
    }
    ParamsKZG::<Bn256>::read_custom(&mut &bytes[..], SerdeFormat::RawBytes)
        .map_err(|e| bad(e.to_string()))
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

/// The seed of the insecure test parameters.
pub const INSECURE_SEED: [u8; 32] = *b"tms insecure test params, seed 1";

/// KZG parameters for `2^k` rows made from [`INSECURE_SEED`], uncached. The seed fixes tau
/// whatever `k` is, so these are also what cutting larger ones down to `2^k` gives.
///
/// **Insecure**: the toxic waste is a function of a public seed. Tests and benchmarks only.
pub fn insecure_test_params(k: u32) -> ParamsKZG<Bn256> {
    setup_from_tau(k, Fr::random(ChaCha20Rng::from_seed(INSECURE_SEED)))
}

/// Bits of a scalar per window of [`FixedBase`].
const WINDOW: usize = 8;

/// Multiples of one point by any scalar, from a table of `d * 2^(8 j) * P` for every window `j`
/// and digit `d`: 32 mixed additions per product instead of a 254-bit double-and-add, which
/// makes 2^23-row parameters in minutes rather than most of an hour.
struct FixedBase {
    table: Vec<Vec<G1Affine>>,
}

impl FixedBase {
    fn new(point: G1Affine) -> Self {
        let windows = 256usize.div_ceil(WINDOW);
        let mut base = G1::from(point);
        let table = (0..windows)
            .map(|_| {
                let mut row = vec![G1::identity(); (1 << WINDOW) - 1];
                let mut multiple = base;
                for entry in row.iter_mut() {
                    *entry = multiple;
                    multiple += base;
                }
                base = multiple;
                let mut affine = vec![G1Affine::identity(); row.len()];
                G1::batch_normalize(&row, &mut affine);
                affine
            })
            .collect();
        Self { table }
    }

    fn mul(&self, scalar: &Fr) -> G1 {
        let repr = scalar.to_repr();
        let mut acc = G1::identity();
        for (j, &digit) in repr.as_ref().iter().enumerate() {
            if digit != 0 {
                acc += self.table[j][digit as usize - 1];
            }
        }
        acc
    }
}

/// `ParamsKZG::setup`'s parameters for `tau` (the same points: `[tau^i]G1`, the Lagrange basis
/// `[L_i(tau)]G1`, `G2`, `[tau]G2`), computed with [`FixedBase`].
fn setup_from_tau(k: u32, tau: Fr) -> ParamsKZG<Bn256> {
    use halo2_base::halo2_proofs::arithmetic::parallelize;
    let n = 1usize << k;
    let generator = FixedBase::new(G1Affine::generator());
    let to_affine = |points: Vec<G1>| {
        let mut affine = vec![G1Affine::identity(); points.len()];
        parallelize(&mut affine, |chunk, start| {
            G1::batch_normalize(&points[start..start + chunk.len()], chunk);
        });
        affine
    };
    let mut powers = vec![G1::identity(); n];
    parallelize(&mut powers, |chunk, start| {
        let mut power = tau.pow_vartime([start as u64]);
        for point in chunk.iter_mut() {
            *point = generator.mul(&power);
            power *= tau;
        }
    });
    let g = to_affine(powers);
    // L_i(tau) = (tau^n - 1) / n * omega^i / (tau - omega^i), as halo2's setup computes it.
    let mut omega = Fr::ROOT_OF_UNITY_INV.invert().unwrap();
    for _ in k..Fr::S {
        omega = omega.square();
    }
    let multiplier = (tau.pow_vartime([n as u64]) - Fr::ONE) * Fr::from(n as u64).invert().unwrap();
    let mut lagrange = vec![G1::identity(); n];
    parallelize(&mut lagrange, |chunk, start| {
        let mut omega_i = omega.pow_vartime([start as u64]);
        let mut denominators = Vec::with_capacity(chunk.len());
        let mut numerators = Vec::with_capacity(chunk.len());
        for _ in 0..chunk.len() {
            denominators.push(tau - omega_i);
            numerators.push(multiplier * omega_i);
            omega_i *= omega;
        }
        denominators.iter_mut().batch_invert();
        for ((point, numerator), inverse) in chunk.iter_mut().zip(numerators).zip(denominators) {
            *point = generator.mul(&(numerator * inverse));
        }
    });
    let g_lagrange = to_affine(lagrange);
    let g2 = G2Affine::generator();
    let s_g2 = (g2 * tau).into();
    // from_parts takes a receiver only to name the type; a 2-row setup serves.
    let shell = ParamsKZG::<Bn256>::setup(1, ChaCha20Rng::from_seed([0; 32]));
    shell.from_parts(k, g, Some(g_lagrange), g2, s_g2)
}

/// KZG parameters for `2^k` rows: read from the cache, or made from [`INSECURE_SEED`] and cached.
///
/// **Insecure**: the toxic waste is a function of a public seed. Tests and benchmarks only.
pub fn kzg_params(k: u32) -> ParamsKZG<Bn256> {
    let dir = params_dir();
    let path = dir.join(format!("kzg_bn254_{k}.insecure-test.srs"));
    if let Ok(bytes) = fs::read(&path) {
        if let Ok(params) = read_params(&bytes) {
            if params.k() == k {
                return params;
            }
        }
    }
    eprintln!(
        "WARNING: making INSECURE KZG parameters for k = {k} from a fixed public seed (tests only): {}",
        path.display()
    );
    let params = insecure_test_params(k);
    // Written to a temporary name then renamed, so a concurrent reader never sees half a file.
    if fs::create_dir_all(&dir).is_ok() {
        let tmp = dir.join(format!(".kzg_bn254_{k}.{}.tmp", std::process::id()));
        let written = File::create(&tmp).and_then(|f| params.write(&mut BufWriter::new(f)));
        if written.is_ok() {
            let _ = fs::rename(&tmp, &path);
        } else {
            let _ = fs::remove_file(&tmp);
        }
    }
    params
}

/// Whether `params` were made from [`INSECURE_SEED`] (by [`kzg_params`] or `tms setup
/// --insecure-test`), whatever their size: their `tau` is the first scalar that seed yields.
pub fn is_insecure_test_params(params: &ParamsKZG<Bn256>) -> bool {
    use halo2_base::halo2_proofs::{
        halo2curves::group::Curve, poly::commitment::ParamsProver as _,
    };
    let tau = Fr::random(ChaCha20Rng::from_seed(INSECURE_SEED));
    let g = params.get_g();
    g.len() > 1 && g[1] == (G1Affine::generator() * tau).to_affine()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_base_setup_gives_halo2s_parameters() {
        for k in [1, 6] {
            let ours = insecure_test_params(k);
            let halo2s = ParamsKZG::<Bn256>::setup(k, ChaCha20Rng::from_seed(INSECURE_SEED));
            let bytes = |p: &ParamsKZG<Bn256>| {
                let mut out = vec![];
                p.write(&mut out).unwrap();
                out
            };
            assert_eq!(bytes(&ours), bytes(&halo2s), "k = {k}");
        }
    }
}
