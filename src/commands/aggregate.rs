//! `tms aggregate prove|verify`: N certificate proofs of one scheme in one proof
//! (`tms-aggregation`'s `ExposeAll`: the aggregation proof exposes every certificate's public
//! inputs, in order, after its accumulator).
//!
//! The certificates are proved with `tms prove --transcript poseidon` (the transcript the
//! aggregation circuit replays). Statements are the `public.json` format: commitment (committee
//! commitment, BLS committee digest or Mithril registration digest), message bytes and threshold.
//! The prover reads its own; `verify` reads the verifier's, which it holds or has checked (for
//! example with `tms verify --public`), never the prover's.

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::G1Affine, plonk::VerifyingKey, poly::commitment::Params,
};
use tms_aggregation::{
    aggregation_keygen, aggregation_prove, aggregation_verify, certificate_snark, proof_file,
    read_vk_file, split_proof_file, ExposeAll, Snark, Statement, VkHeader,
};
use tms_gadgets::{
    message::message_to_field,
    proving::{keys::fingerprint, Transcript},
    Fr,
};

use super::{check_params_k, describe_message};
use crate::{
    formats::{bytes_from_hex, fr_from_str, fr_to_hex, PublicFile},
    io::{at, load_params, read_bytes, read_json, usage, write_atomic, CliError, Result},
    options::Scheme,
};

/// At most this many proofs in one aggregation (each costs millions of cells).
pub const MAX_PROOFS: usize = 16;

/// The public inputs of a statement file for `scheme`, built as each scheme's verifier builds
/// them from a commitment, message bytes and threshold.
fn statement_inputs(scheme: Scheme, path: &Path) -> Result<(Vec<Fr>, String)> {
    let file: PublicFile<serde_json::Value> = read_json(path, scheme)?;
    let commitment = fr_from_str(&file.commitment, "commitment").map_err(|e| at(path, e))?;
    let message = bytes_from_hex(&file.message, "message").map_err(|e| at(path, e))?;
    let t = file.threshold;
    let inputs = match scheme {
        Scheme::SchnorrAtms => {
            schnorr_atms::AtmsInstance::from_trusted_commitment(commitment, &message, t)
                .to_public_inputs()
        }
        Scheme::BlsAtms => {
            bls_atms::AtmsInstance::from_trusted_digest(commitment, &message, t).to_public_inputs()
        }
        Scheme::Mithril => {
            mithril_snark::MithrilInstance::public_inputs(commitment, message_to_field(&message))
        }
    };
    let shown = format!(
        "commitment {}, {}, threshold {t}",
        fr_to_hex(&commitment),
        describe_message(&message, &message_to_field(&message))
    );
    Ok((inputs, shown))
}

/// The inner verifying key of `scheme` and its circuit's k.
fn inner_vk(
    scheme: Scheme,
    bytes: &[u8],
) -> std::result::Result<(u32, VerifyingKey<G1Affine>), String> {
    match scheme {
        Scheme::SchnorrAtms => schnorr_atms::read_vk(bytes)
            .map(|(s, vk)| (s.k, vk))
            .map_err(|e| e.to_string()),
        Scheme::BlsAtms => bls_atms::read_vk(bytes)
            .map(|(s, vk)| (s.k, vk))
            .map_err(|e| e.to_string()),
        Scheme::Mithril => mithril_snark::read_vk(bytes)
            .map(|(s, vk)| (s.k, vk))
            .map_err(|e| e.to_string()),
    }
}

fn statement_name(scheme: Scheme, count: usize) -> String {
    format!("aggregate {} x{count}", scheme.name())
}

/// `tms aggregate prove`.
#[allow(clippy::too_many_arguments)]
pub fn prove(
    scheme: Scheme,
    params_path: &Path,
    vk_path: &Path,
    proofs: &[PathBuf],
    publics: &[PathBuf],
    aggregation_params: &Path,
    out_proof: &Path,
    out_vk: &Path,
) -> Result<()> {
    if proofs.is_empty() || proofs.len() > MAX_PROOFS || proofs.len() != publics.len() {
        return Err(usage(format!(
            "give 1..={MAX_PROOFS} proofs and one --publics statement per proof ({} and {} \
             given)",
            proofs.len(),
            publics.len()
        )));
    }
    let params = load_params(params_path)?;
    let (k, vk) = inner_vk(scheme, &read_bytes(vk_path)?).map_err(|e| at(vk_path, e))?;
    check_params_k(params_path, params.k(), k)?;
    let mut snarks = Vec::with_capacity(proofs.len());
    for (proof, public) in proofs.iter().zip(publics) {
        let (inputs, _) = statement_inputs(scheme, public)?;
        let snark = certificate_snark(&params, &vk, &inputs, read_bytes(proof)?).map_err(|_| {
            at(
                proof,
                format!(
                    "does not verify for {} in the Poseidon transcript (prove with `tms prove \
                     --transcript poseidon`)",
                    public.display()
                ),
            )
        })?;
        snarks.push(snark);
    }
    let written = prove_and_write(
        aggregation_params,
        snarks,
        &ExposeAll,
        &statement_name(scheme, proofs.len()),
        Transcript::Evm,
        out_proof,
        out_vk,
    )?;
    println!(
        "{} {} proofs in one: {written}",
        proofs.len(),
        scheme.name()
    );
    Ok(())
}

/// Keygen and a proof in `transcript` (EVM for a verifier, Poseidon for a next aggregation) of
/// the aggregation of `snarks` with `statement` (keys named `name`); writes the proof file and
/// the verifying key file and says what it wrote.
pub(crate) fn prove_and_write(
    aggregation_params: &Path,
    snarks: Vec<Snark>,
    statement: &dyn Statement,
    name: &str,
    transcript: Transcript,
    out_proof: &Path,
    out_vk: &Path,
) -> Result<String> {
    let aggregation = load_params(aggregation_params)?;
    let start = Instant::now();
    eprintln!(
        "aggregating {} proofs at k = {} (minutes, several GiB)",
        snarks.len(),
        aggregation.k()
    );
    let keys = aggregation_keygen(&aggregation, aggregation.k(), snarks.clone(), statement)
        .map_err(|e| CliError(e.to_string()))?;
    let (public_inputs, proof) =
        aggregation_prove(&aggregation, &keys, snarks, statement, transcript)
            .map_err(|e| CliError(e.to_string()))?;
    let vk_bytes = keys.vk_file(name, None);
    let bytes = proof_file(&public_inputs[..tms_aggregation::ACCUMULATOR_LIMBS], &proof);
    write_atomic(out_vk, &vk_bytes)?;
    write_atomic(out_proof, &bytes)?;
    Ok(format!(
        "proof ({} bytes, {} transcript, {:.0} s, {} advice cells) written to {}; verifying \
         key written to {} (fingerprint {})",
        bytes.len(),
        transcript.name(),
        start.elapsed().as_secs_f64(),
        keys.advice_cells,
        out_proof.display(),
        out_vk.display(),
        fingerprint(&vk_bytes)
    ))
}

/// Whether the aggregation proof file at `proof_path` (EVM transcript) verifies under `vk` for
/// `statement` (the verifier's public inputs after the accumulator), accumulator included.
pub(crate) fn verifies(
    params_path: &Path,
    header: &VkHeader,
    vk: &VerifyingKey<G1Affine>,
    proof_path: &Path,
    statement: Vec<Fr>,
) -> Result<bool> {
    let params = load_params(params_path)?;
    check_params_k(params_path, params.k(), header.config.degree)?;
    let (mut public_inputs, proof) =
        split_proof_file(&read_bytes(proof_path)?).map_err(|e| at(proof_path, e))?;
    public_inputs.extend(statement);
    Ok(public_inputs.len() == header.num_instances
        && aggregation_verify(&params, vk, &public_inputs, &proof, Transcript::Evm))
}

/// `tms aggregate verify`: `statements` are the verifier's, in the order of the aggregation.
pub fn verify(
    scheme: Scheme,
    params_path: &Path,
    vk_path: &Path,
    proof_path: &Path,
    statements: &[PathBuf],
) -> Result<()> {
    let (header, vk) = read_vk_file(&read_bytes(vk_path)?).map_err(|e| at(vk_path, e))?;
    let expected = statement_name(scheme, statements.len());
    if header.statement != expected {
        return Err(at(
            vk_path,
            format!(
                "a key for {:?}; {} statements of {} were given",
                header.statement,
                statements.len(),
                scheme.name()
            ),
        ));
    }
    let mut statement = Vec::new();
    let mut shown = Vec::with_capacity(statements.len());
    for path in statements {
        let (inputs, text) = statement_inputs(scheme, path)?;
        statement.extend(inputs);
        shown.push(text);
    }
    if !verifies(params_path, &header, &vk, proof_path, statement)? {
        return Err(at(
            proof_path,
            "the aggregation proof does not verify for these trusted statements (in this order)",
        ));
    }
    println!(
        "verified: {} {} certificates in one proof",
        statements.len(),
        scheme.name()
    );
    for (i, text) in shown.iter().enumerate() {
        println!("  {i}: {text}");
    }
    Ok(())
}
