//! KZG (SHPLONK) proving and verification over BN254 with a Blake2b transcript, behind one pair
//! of functions so that a feature flag can swap the prover (halo2-base's `cuda` backend).

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::{create_proof, verify_proof, Circuit, ProvingKey, VerifyingKey},
    poly::{
        commitment::ParamsProver,
        kzg::{
            commitment::{KZGCommitmentScheme, ParamsKZG},
            multiopen::{ProverSHPLONK, VerifierSHPLONK},
            strategy::SingleStrategy,
        },
    },
    transcript::{
        Blake2bRead, Blake2bWrite, Challenge255, TranscriptReadBuffer, TranscriptWriterBuffer,
    },
};
use rand::rngs::OsRng;

use crate::Fr;

/// A SHPLONK proof of `circuit` for one instance column `public_values`, blinded with OS
/// randomness. Returns `None` if the prover fails (a malformed circuit, not a false statement:
/// halo2's prover does not check satisfaction, the verifier does).
pub fn prove_shplonk(
    params: &ParamsKZG<Bn256>,
    pk: &ProvingKey<G1Affine>,
    circuit: impl Circuit<Fr>,
    public_values: &[Fr],
) -> Option<Vec<u8>> {
    let mut transcript = Blake2bWrite::<_, G1Affine, Challenge255<_>>::init(vec![]);
    create_proof::<KZGCommitmentScheme<Bn256>, ProverSHPLONK<'_, Bn256>, _, _, _, _>(
        params,
        pk,
        &[circuit],
        &[&[public_values]],
        OsRng,
        &mut transcript,
    )
    .ok()?;
    Some(transcript.finalize())
}

/// Whether `proof` verifies for `public_values` (one instance column) under `vk`.
pub fn verify_shplonk(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    proof: &[u8],
    public_values: &[Fr],
) -> bool {
    let strategy = SingleStrategy::new(params);
    let mut transcript = Blake2bRead::<_, G1Affine, Challenge255<_>>::init(proof);
    verify_proof::<KZGCommitmentScheme<Bn256>, VerifierSHPLONK<'_, Bn256>, _, _, _>(
        params.verifier_params(),
        vk,
        strategy,
        &[&[public_values]],
        &mut transcript,
    )
    .is_ok()
}

/// The header of a key file: a format tag, the circuit's shape, the column configuration and the
/// break points: what is needed to read a key back and rebuild the layout the prover reproduces.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct KeyHeader<S> {
    /// The file's format tag (e.g. `tms-schnorr-atms-pk-v2`), checked on reading.
    pub format: String,
    /// The circuit's shape.
    pub shape: S,
    /// The column configuration.
    pub config: crate::hybrid::HybridParams,
    /// halo2-base's break points.
    pub break_points: Vec<Vec<usize>>,
}

/// A key file: the header as JSON after its length (4 bytes, little-endian), then what `body`
/// writes (halo2's raw key).
pub fn write_key_file<S: serde::Serialize>(
    header: &KeyHeader<S>,
    body: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>,
) -> Vec<u8> {
    let json = serde_json::to_vec(header).expect("header serializes");
    let mut out = (json.len() as u32).to_le_bytes().to_vec();
    out.extend(json);
    body(&mut out).expect("writing to memory");
    out
}

/// Splits a key file written by [`write_key_file`] into its header and body, checking the format
/// tag; the error says what is malformed.
pub fn read_key_file<'a, S: serde::de::DeserializeOwned>(
    bytes: &'a [u8],
    format: &str,
) -> Result<(KeyHeader<S>, &'a [u8]), String> {
    let len = bytes.get(..4).ok_or("too short")?;
    let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
    let json = bytes.get(4..4 + len).ok_or("truncated header")?;
    let header: KeyHeader<S> = serde_json::from_slice(json).map_err(|e| format!("header: {e}"))?;
    if header.format != format {
        return Err(format!("expected a {format} file, found {}", header.format));
    }
    Ok((header, &bytes[4 + len..]))
}
