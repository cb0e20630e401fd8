//! Importing a real BLS12-381 powers-of-tau SRS: Midnight's ceremony (2025, run on top of
//! Filecoin's phase-1 powers of tau, 38 contributions), as Midnight publishes it.
//!
//! **Format** (`bls_midnight_2p<K>`, midnight-proofs 0.8's `ParamsKZG` in `RawBytes`): `K` as 4
//! little-endian bytes, then `2^K` G1 points `[tau^i]_1` (monomial basis), `2^K` G1 points in
//! the Lagrange basis, then `[1]_2` and `[tau]_2`; each point uncompressed (96 and 192 bytes) and
//! checked on the curve and in the subgroup when read. A file of any `K >= k` gives parameters
//! for `2^k` rows: the first `2^k` monomial points are kept and the Lagrange points recomputed
//! from them (the file's own are skipped, never trusted).
//!
//! **What is checked**: the first G1 point and `[1]_2` are the generators, and the powers are
//! powers of one `tau`: with random weights `r_i`, `e(sum r_i [tau^(i+1)]_1, [1]_2) = e(sum r_i
//! [tau^i]_1, [tau]_2)` (a wrong point passes with probability about 1/r). That makes the file a
//! structurally valid SRS; that its `tau` is unknown to anyone is the ceremony's claim, which
//! [`MIDNIGHT_SHA256`] ties to Midnight's published files (their catalog's checksums).

use std::{
    fs::File,
    io::{self, BufReader, Read, Seek, SeekFrom},
    path::Path,
};

use ff::Field;
use group::{prime::PrimeCurveAffine, Curve, Group};
use midnight_curves::{pairing::Engine, G1Projective, G2Affine, G2Projective};
use midnight_proofs::utils::{helpers::ProcessedSerdeObject, SerdeFormat};
use rand_core::OsRng;

use crate::backend::{Bls12, Fr, Params12};

/// Bytes of an uncompressed G1 and G2 point.
const G1_BYTES: u64 = 96;
const G2_BYTES: u64 = 192;
/// The largest SRS Midnight publishes (and midnight-proofs' FFTs allow here).
pub const MAX_K: u32 = 25;

/// SHA-256 of Midnight's published `bls_midnight_2p<k>` files, k = 1..=25 (Midnight's
/// `MIDNIGHT_SRS_CATALOG.md`, ceremony ended 2025-12-16).
pub const MIDNIGHT_SHA256: [&str; 25] = [
    "bbe04fe3c70d0c138447cb086b4baddc30cb8bb2a004114bc02e6f739516280e",
    "80e15568fa1a0117db893239be7fa5e34a6bcc3a8c3bfa7709534b9cb88eb6c1",
    "4be827a6472193df80d8f08b4b25a85baef436fdd1965d89b6af89f4ec4e99e2",
    "232f401fad10c7ddf8828d2aa4c85c6506c5da09795998cecaeb9f75fc8f6ada",
    "0a1c9229f315fc1868ff25f668fb83aec4d09f4f23a706b5197c692c619d72c6",
    "cf2ad6be7d0fedf5bec2aaa35f6be4aca33053d74268fdf5aa54fcb2891ea6df",
    "e82ae890c080188355f37feaffe91372584cd810615082d9143d4dec0453fd9d",
    "909b707551eaaea79828e883cde6fc46ab15986c3b1d791bed462c9e2805c933",
    "b9009f1098bcefffec3c461ab3a5e3a17f7e5599f0f08c70fcdc55a89227bcbd",
    "46b2290933cbed4c378889e4ba971f1a92888331ffb09466acd4ff61a1e2cb42",
    "9901589d7956ff58be0d85569b2f455b77b58c3758026ffb5bbe4807000b96d1",
    "ef08eb3fcf62df8f72c515cffa027e681808b530cb016eea104115545ef6d5c8",
    "d3324910969c4cc54143b8045b649e5c3a4bd5fb7b8f85fe1b770f640ce1c803",
    "fc253016885ec830e97808c9ec920bb5cab5c21af590380a6cb5eb0538e2b244",
    "724c7c3d779148bb113c7ee9c034b2f27db16e6bdf315fde90105a9bad00b1de",
    "09c877216d6589b370263e18af40a030a901b41a7a7c37ef58c9901db41f05c6",
    "4a9ef6c7c0619aab74eede44b13e753e3ba54508a02dd3b7106a949aabb73b74",
    "e8436dc5d8b598f169c127c745135d889744007e6d384ff126df8d1332522f86",
    "8e8dc15c4362f05c912f1e770559a3945db3e58a374def416ed5d3e65ad5b10e",
    "1cc62978558fdc1e445cd70cfd9a86ec3c2e2151b6d74811232d37faf9133ff1",
    "9cf1644a87f0f027ae5fc6278f91d823a6334ff3e338a29e2f2ef57d071ed64d",
    "e8ad5eed936d657a0fb59d2a55ba19f81a3083bb3554ef88f464f5377e9b2c2f",
    "09399d05f9f50875dfdd87dc9903d40c897eaafa9ec8cbb08bace853ecc36c0c",
    "b0e6fa7a4ab4a79a1e6560966f267556409db44bab6d5fab3711ad6c6b623207",
    "3289a751c938988cd2f54154d8722d1eda2cd11593064afdde82099b24ff4a58",
];

/// The `k` of Midnight's published file with this SHA-256, if it is one.
pub fn midnight_file_k(sha256_hex: &str) -> Option<u32> {
    MIDNIGHT_SHA256
        .iter()
        .position(|h| h.eq_ignore_ascii_case(sha256_hex))
        .map(|i| i as u32 + 1)
}

/// Why an SRS file was refused.
#[derive(Debug, thiserror::Error)]
pub enum CeremonyError {
    /// Reading failed or the file ended early.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The header's size is out of range or smaller than asked.
    #[error("{0}")]
    Size(String),
    /// A point is not where a powers-of-tau SRS has it.
    #[error("not a powers-of-tau SRS: {0}")]
    Structure(String),
}

/// Parameters for `2^k` rows from a midnight-format SRS file of any size `K >= k`, its
/// structure checked (see the module docs). Returns them with the file's `K`.
pub fn import_midnight_srs(path: &Path, k: u32) -> Result<(Params12, u32), CeremonyError> {
    let mut file = BufReader::new(File::open(path)?);
    let mut header = [0u8; 4];
    file.read_exact(&mut header)?;
    let file_k = u32::from_le_bytes(header);
    if !(1..=MAX_K).contains(&file_k) {
        return Err(CeremonyError::Size(format!(
            "header says 2^{file_k} points: not a midnight-format SRS (k from 1 to {MAX_K})"
        )));
    }
    if file_k < k {
        return Err(CeremonyError::Size(format!(
            "an SRS for 2^{file_k} rows; the circuit needs 2^{k}"
        )));
    }
    let expected = 4 + 2 * (G1_BYTES << file_k) + 2 * G2_BYTES;
    let actual = file.get_ref().metadata()?.len();
    if actual != expected {
        return Err(CeremonyError::Size(format!(
            "{actual} bytes; an SRS of 2^{file_k} points has {expected}"
        )));
    }
    let n = 1usize << k;
    let g = (0..n)
        .map(|_| G1Projective::read(&mut file, SerdeFormat::RawBytes))
        .collect::<io::Result<Vec<_>>>()?;
    // The rest of the monomial points and all the Lagrange ones are not used.
    file.seek(SeekFrom::Start(4 + 2 * (G1_BYTES << file_k)))?;
    let g2 = G2Projective::read(&mut file, SerdeFormat::RawBytes)?;
    let s_g2 = G2Projective::read(&mut file, SerdeFormat::RawBytes)?;
    check_powers(&g, &g2, &s_g2)?;
    Ok((Params12::from_parts(k, g, None, g2, s_g2), file_k))
}

/// The structure checks of the module docs.
fn check_powers(
    g: &[G1Projective],
    g2: &G2Projective,
    s_g2: &G2Projective,
) -> Result<(), CeremonyError> {
    if g[0] != G1Projective::generator() {
        return Err(CeremonyError::Structure(
            "the first G1 point is not the generator".into(),
        ));
    }
    if *g2 != G2Projective::generator() {
        return Err(CeremonyError::Structure(
            "[1]_2 is not the G2 generator".into(),
        ));
    }
    if bool::from(s_g2.is_identity()) || *s_g2 == G2Projective::generator() {
        return Err(CeremonyError::Structure(
            "[tau]_2 is the identity or the generator (tau = 0 or 1)".into(),
        ));
    }
    if g.len() < 2 {
        return Ok(());
    }
    let weights: Vec<Fr> = (0..g.len() - 1).map(|_| Fr::random(OsRng)).collect();
    let next = G1Projective::multi_exp(&g[1..], &weights);
    let this = G1Projective::multi_exp(&g[..g.len() - 1], &weights);
    let lhs = Bls12::pairing(&next.to_affine(), &G2Affine::generator());
    let rhs = Bls12::pairing(&this.to_affine(), &s_g2.to_affine());
    if lhs != rhs {
        return Err(CeremonyError::Structure(
            "the G1 points are not successive powers of the [tau]_2's tau".into(),
        ));
    }
    Ok(())
}
