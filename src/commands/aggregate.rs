//! `tms aggregate keygen|prove|verify`: N certificate proofs of one scheme in one proof
//! (`tms-aggregation`'s `ExposeAll`: the aggregation proof exposes every certificate's public
//! inputs, in order, after its accumulator).
//!
//! The certificates are proved with `tms prove --transcript poseidon` (the transcript the
//! aggregation circuit replays). The aggregation key depends only on the certificates'
//! verifying key and their number, so a verifier makes it with `tms aggregate keygen` (no proof
//! needed) and pins the fingerprint it prints, or regenerates it at `verify --regenerate-vk`.
//! `verify` builds every certificate's statement from what the verifier holds: a committee or
//! registration file (or its commitment), the message bytes and the threshold, as `tms verify`
//! does, never from the prover's files.

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use tms_aggregation::{
    aggregation_keygen, aggregation_prove, aggregation_verify, certificate_sample,
    certificate_snark,
    key_cache::{fr_hex, AggregationKeysFor},
    proof_file, read_vk_file,
    snark::certificate_key_digest,
    split_proof_file, ExposeAll, Snark, Statement, VkHeader,
};
use tms_gadgets::{
    message::message_to_field,
    proving::{keys::fingerprint, Transcript},
    Fr,
};

use crate::checks::{check_members, check_params_k, describe_message};
use crate::interface::{KeyTrust, WrapSetup};
use crate::{
    commands::step_keys::AggregationKeyCache,
    formats::{bytes_from_hex, fr_from_str, fr_to_hex, PublicFile},
    io::{at, load_params, read_bytes, read_json, usage, write_atomic, CliError, Result},
    options::Scheme,
};

/// At most this many proofs in one aggregation (each costs millions of cells).
pub const MAX_PROOFS: usize = 16;

/// The public inputs of a statement file for `scheme` (the prover's own, `public.json`).
fn public_file_inputs(scheme: Scheme, path: &Path) -> Result<Vec<Fr>> {
    let file: PublicFile<serde_json::Value> = read_json(path, scheme)?;
    let commitment = fr_from_str(&file.commitment, "commitment").map_err(|e| at(path, e))?;
    let message = bytes_from_hex(&file.message, "message").map_err(|e| at(path, e))?;
    Ok(public_inputs(scheme, commitment, &message, file.threshold))
}

/// A certificate's public inputs, built as each scheme's verifier builds them from a commitment,
/// message bytes and threshold (Mithril's quorum is not a public input).
fn public_inputs(scheme: Scheme, commitment: Fr, message: &[u8], t: u64) -> Vec<Fr> {
    match scheme {
        Scheme::SchnorrAtms => {
            schnorr_atms::AtmsInstance::from_trusted_commitment(commitment, message, t)
                .to_public_inputs()
        }
        Scheme::BlsAtms => {
            bls_atms::AtmsInstance::from_trusted_digest(commitment, message, t).to_public_inputs()
        }
        Scheme::Mithril => {
            mithril_snark::MithrilInstance::public_inputs(commitment, message_to_field(message))
        }
    }
}

/// A certificate's verifying key: its circuit's k, the key, the shape its file states, and the
/// number of public inputs.
struct InnerKey {
    k: u32,
    vk: VerifyingKey<G1Affine>,
    shape: serde_json::Value,
    inputs: usize,
}

fn shape_json<S: serde::Serialize>(shape: &S) -> serde_json::Value {
    serde_json::to_value(shape).expect("a serialisable shape")
}

/// Reads a certificate key file of `scheme`.
fn inner_key(scheme: Scheme, bytes: &[u8]) -> std::result::Result<InnerKey, String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    Ok(match scheme {
        Scheme::SchnorrAtms => {
            let (s, vk) = schnorr_atms::read_vk(bytes).map_err(|e| err(&e))?;
            InnerKey {
                k: s.k,
                vk,
                shape: shape_json(&s),
                inputs: schnorr_atms::AtmsInstance::NUM_PUBLIC_INPUTS,
            }
        }
        Scheme::BlsAtms => {
            let (s, vk) = bls_atms::read_vk(bytes).map_err(|e| err(&e))?;
            InnerKey {
                k: s.k,
                vk,
                shape: shape_json(&s),
                inputs: bls_atms::AtmsInstance::NUM_PUBLIC_INPUTS,
            }
        }
        Scheme::Mithril => {
            let (s, vk) = mithril_snark::read_vk(bytes).map_err(|e| err(&e))?;
            InnerKey {
                k: s.k,
                vk,
                shape: shape_json(&s),
                inputs: mithril_snark::MithrilInstance::NUM_PUBLIC_INPUTS,
            }
        }
    })
}

/// The certificate key file that keygen makes for the shape `bytes` states (keygen is
/// deterministic): equal to `bytes` exactly when the file is an honest key of our circuit.
fn regenerate_inner(
    scheme: Scheme,
    params: &ParamsKZG<Bn256>,
    bytes: &[u8],
) -> std::result::Result<Vec<u8>, String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    match scheme {
        Scheme::SchnorrAtms => {
            let (s, _) = schnorr_atms::read_vk(bytes).map_err(|e| err(&e))?;
            schnorr_atms::keygen(params, s)
                .map(|k| k.vk_bytes())
                .map_err(|e| err(&e))
        }
        Scheme::BlsAtms => {
            let (s, _) = bls_atms::read_vk(bytes).map_err(|e| err(&e))?;
            bls_atms::keygen(params, s)
                .map(|k| k.vk_bytes())
                .map_err(|e| err(&e))
        }
        Scheme::Mithril => {
            let (s, _) = mithril_snark::read_vk(bytes).map_err(|e| err(&e))?;
            mithril_snark::keygen(params, s)
                .map(|k| k.vk_bytes())
                .map_err(|e| err(&e))
        }
    }
}

/// The inner (certificate) key as a verifier may use it: the file at `trust.vk`, pinned by
/// fingerprint or regenerated from its shape with `params`.
fn trusted_inner_key(
    scheme: Scheme,
    params: &ParamsKZG<Bn256>,
    trust: KeyTrust,
) -> Result<InnerKey> {
    let bytes = trust.read()?;
    trust.check_regenerated(&bytes, "its shape", || {
        regenerate_inner(scheme, params, &bytes).map_err(|e| at(trust.vk, e))
    })?;
    let key = inner_key(scheme, &bytes).map_err(|e| at(trust.vk, e))?;
    Ok(key)
}

/// The aggregation key of `count` certificates under `inner`, made from stand-ins
/// ([`certificate_sample`]): the same bytes for the prover and for a verifier that regenerates.
fn keygen_file(
    scheme: Scheme,
    inner_params: &ParamsKZG<Bn256>,
    inner: &InnerKey,
    count: usize,
    aggregation: &ParamsKZG<Bn256>,
) -> Result<(Vec<u8>, usize)> {
    let samples = vec![certificate_sample(inner_params, &inner.vk, inner.inputs); count];
    let keys = aggregation_keygen(aggregation, aggregation.k(), samples, &ExposeAll)
        .map_err(|e| CliError(e.to_string()))?;
    let bytes = keys.vk_file_with_inner(
        &statement_name(scheme, count),
        None,
        Some(inner.shape.clone()),
    );
    Ok((bytes, keys.advice_cells))
}

/// What an aggregation of `count` certificates of `scheme` says it proves (its key's header).
pub(crate) fn statement_name(scheme: Scheme, count: usize) -> String {
    format!("aggregate {} x{count}", scheme.name())
}

/// `tms aggregate keygen`: the aggregation key of `count` certificates under the certificate
/// key at `inner.vk` (pinned or regenerated: the aggregation key fixes it), made without any
/// proof; prints its fingerprint for `verify --vk-fingerprint`.
pub fn keygen(
    scheme: Scheme,
    params_path: &Path,
    inner: KeyTrust,
    count: usize,
    aggregation_params: &Path,
    out_vk: &Path,
) -> Result<()> {
    if !(1..=MAX_PROOFS).contains(&count) {
        return Err(usage(format!(
            "--count {count}: 1..={MAX_PROOFS} certificates"
        )));
    }
    let params = load_params(params_path)?;
    let key = trusted_inner_key(scheme, &params, inner)?;
    check_params_k(params_path, params.k(), key.k)?;
    let aggregation = load_params(aggregation_params)?;
    let bar = crate::io::spinner("aggregation keygen (minutes, several GiB)");
    let (bytes, cells) = keygen_file(scheme, &params, &key, count, &aggregation)?;
    bar.finish_and_clear();
    write_atomic(out_vk, &bytes)?;
    println!(
        "aggregation key of {count} {} certificates at k = {} ({cells} advice cells) written to \
         {} (fingerprint {})",
        scheme.name(),
        aggregation.k(),
        out_vk.display(),
        fingerprint(&bytes)
    );
    Ok(())
}

fn check_count(proofs: usize, publics: usize) -> Result<()> {
    if proofs == 0 || proofs > MAX_PROOFS || proofs != publics {
        return Err(usage(format!(
            "give 1..={MAX_PROOFS} proofs and one --publics statement per proof ({proofs} and \
             {publics} given)"
        )));
    }
    Ok(())
}

/// `tms aggregate prove`.
#[allow(clippy::too_many_arguments)]
pub fn prove(
    scheme: Scheme,
    transcript: Transcript,
    params_path: &Path,
    vk_path: &Path,
    proofs: &[PathBuf],
    publics: &[PathBuf],
    aggregation_params: &Path,
    out_proof: &Path,
    out_vk: &Path,
    cache: &AggregationKeyCache,
) -> Result<()> {
    check_count(proofs.len(), publics.len())?;
    let params = load_params(params_path)?;
    let key = inner_key(scheme, &read_bytes(vk_path)?).map_err(|e| at(vk_path, e))?;
    check_params_k(params_path, params.k(), key.k)?;
    let mut snarks = Vec::with_capacity(proofs.len());
    for (proof, public) in proofs.iter().zip(publics) {
        let inputs = public_file_inputs(scheme, public)?;
        let snark =
            certificate_snark(&params, &key.vk, &inputs, read_bytes(proof)?).map_err(|_| {
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
    let aggregation = load_params(aggregation_params)?;
    // The keys `tms aggregate keygen` makes (`keygen_file`): the same samples and header.
    let samples = vec![certificate_sample(&params, &key.vk, key.inputs); proofs.len()];
    let name = statement_name(scheme, proofs.len());
    let written = prove_and_write(
        &aggregation,
        snarks,
        KeySource {
            samples,
            cache: Some((
                cache,
                AggregationKeysFor {
                    inner_key: fr_hex(&certificate_key_digest(&params, &key.vk, key.inputs)),
                    statement: name.clone(),
                },
            )),
        },
        &ExposeAll,
        transcript,
        (out_proof, out_vk),
        |keys| keys.vk_file_with_inner(&name, None, Some(key.shape.clone())),
    )?;
    println!(
        "{} {} proofs in one: {written}",
        proofs.len(),
        scheme.name()
    );
    Ok(())
}

/// Where [`prove_and_write`] gets its aggregation keys: keygen over `samples` (stand-ins of the
/// inner proofs), kept in and read back from `cache` when one is given for what they are for.
pub(crate) struct KeySource<'a> {
    /// Stand-ins of the inner proofs: [`certificate_sample`], `node_sample`.
    pub samples: Vec<Snark>,
    /// The cache and what the keys are for.
    pub cache: Option<(&'a AggregationKeyCache, AggregationKeysFor)>,
}

/// The aggregation keys ([`KeySource`]: made, or read back from a cache) and a proof in
/// `transcript` (EVM for a verifier, Poseidon for a next aggregation) of the aggregation of
/// `snarks` with `statement`, checked by the native verifier; writes the proof file and the
/// verifying key file (`vk_file` of the keys) to `out` and says what it wrote.
pub(crate) fn prove_and_write(
    aggregation: &ParamsKZG<Bn256>,
    snarks: Vec<Snark>,
    KeySource { samples, cache }: KeySource,
    statement: &dyn Statement,
    transcript: Transcript,
    (out_proof, out_vk): (&Path, &Path),
    vk_file: impl FnOnce(&tms_aggregation::AggregationKeys) -> Vec<u8>,
) -> Result<String> {
    let start = Instant::now();
    let bar = crate::io::spinner("aggregating");
    crate::io::stage(
        &bar,
        format!(
            "aggregation keygen: {} proofs at k = {} (minutes, several GiB)",
            snarks.len(),
            aggregation.k()
        ),
    );
    let keygen = || {
        aggregation_keygen(aggregation, aggregation.k(), samples, statement)
            .map_err(|e| CliError(e.to_string()))
    };
    let (keys, kept) = match cache {
        Some((cache, wanted)) => cache.keys(aggregation, &wanted, keygen)?,
        None => (keygen()?, None),
    };
    crate::io::stage(
        &bar,
        format!(
            "aggregating ({:.0} s so far)",
            start.elapsed().as_secs_f64()
        ),
    );
    // A key read back from a cache carries the inner keys and layout its header names only on
    // the prover's word: a key for other ones makes halo2-base panic on its break points or
    // gives a proof that is caught below, before it is written.
    let not_these = "the kept aggregation key is not for these inner proofs (pass \
                     --regenerate-keys)";
    let (public_inputs, proof) = crate::io::catch_quietly(|| {
        aggregation_prove(aggregation, &keys, snarks, statement, transcript)
    })
    .map_err(|panic| {
        CliError(match kept {
            Some(_) => format!("the aggregation prover failed ({panic}): {not_these}"),
            None => format!("the aggregation prover failed: {panic}"),
        })
    })?
    .map_err(|e| CliError(e.to_string()))?;
    if !aggregation_verify(aggregation, keys.vk(), &public_inputs, &proof, transcript) {
        return Err(CliError(match kept {
            Some(_) => format!("the aggregation proof does not verify: {not_these}"),
            None => "the aggregation proof does not verify under its own key".into(),
        }));
    }
    bar.finish_and_clear();
    if let Some(kept) = kept {
        println!("{kept}");
    }
    let vk_bytes = vk_file(&keys);
    let bytes = proof_file(&public_inputs[..tms_aggregation::ACCUMULATOR_LIMBS], &proof);
    write_atomic(out_vk, &vk_bytes)?;
    write_atomic(out_proof, &bytes)?;
    // The EVM verifier's gas follows the columns: one advice column is the final wrapper's
    // layout. For `tms aggregate wrap` (Poseidon) one column makes the smaller Groth16 circuit
    // but the costlier final wrapper (docs/src/guides/cardano-groth16.md measures both).
    let columns = keys.config.num_advice;
    let one_column_k = tms_aggregation::one_column_k(keys.advice_cells);
    let layout = match (columns, transcript) {
        (1, _) => "1 advice column: the final wrapper's layout".to_string(),
        (_, Transcript::Poseidon) => format!(
            "{columns} advice columns; k = {one_column_k} gives one: a smaller Groth16 circuit \
             for `tms aggregate wrap`, a slower final wrapper"
        ),
        _ => format!(
            "{columns} advice columns; k = {one_column_k} gives one, the cheapest on-chain verifier"
        ),
    };
    Ok(format!(
        "proof ({} bytes, {} transcript, {:.0} s, {} advice cells, {layout}) written to {}; \
         verifying key written to {} (fingerprint {})",
        bytes.len(),
        transcript.name(),
        start.elapsed().as_secs_f64(),
        keys.advice_cells,
        out_proof.display(),
        out_vk.display(),
        fingerprint(&vk_bytes)
    ))
}

/// An aggregation proof file that verified: its parameters, public inputs (the accumulator's
/// limbs, then the statement) and proof.
pub(crate) struct VerifiedAggregation {
    /// The aggregation circuit's parameters.
    pub params: ParamsKZG<Bn256>,
    /// The accumulator's limbs, then the statement.
    pub public_inputs: Vec<Fr>,
    /// The halo2 proof (after the accumulator).
    pub proof: Vec<u8>,
}

/// The aggregation proof file at `proof_path` (made in `transcript`) if it verifies under `vk`
/// for `statement` (the verifier's public inputs after the accumulator), accumulator included.
pub(crate) fn verified(
    params_path: &Path,
    header: &VkHeader,
    vk: &VerifyingKey<G1Affine>,
    proof_path: &Path,
    statement: Vec<Fr>,
    transcript: Transcript,
) -> Result<Option<VerifiedAggregation>> {
    let params = load_params(params_path)?;
    check_params_k(params_path, params.k(), header.config.degree)?;
    let (mut public_inputs, proof) =
        split_proof_file(&read_bytes(proof_path)?).map_err(|e| at(proof_path, e))?;
    public_inputs.extend(statement);
    let holds = public_inputs.len() == header.num_instances
        && aggregation_verify(&params, vk, &public_inputs, &proof, transcript);
    Ok(holds.then_some(VerifiedAggregation {
        params,
        public_inputs,
        proof,
    }))
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
    Ok(verified(
        params_path,
        header,
        vk,
        proof_path,
        statement,
        Transcript::Evm,
    )?
    .is_some())
}

/// One certificate's statement as the verifier holds it: `COMMITTEE,MESSAGE[,THRESHOLD]`, the
/// committee (or registration) file or its commitment (`0x`-hex or decimal), the message bytes
/// (`0x`-hex) and, for the ATMS schemes, the threshold.
fn trusted_inputs(
    scheme: Scheme,
    shape: &serde_json::Value,
    text: &str,
) -> Result<(Vec<Fr>, String)> {
    let bad = |why: &str| {
        usage(format!(
            "--statement {text:?}: {why}; expected COMMITTEE,MESSAGE,THRESHOLD (Mithril: \
             REGISTRATION,MESSAGE) with COMMITTEE a file or its 0x commitment"
        ))
    };
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    let (committee, message, threshold) = match (scheme, &fields[..]) {
        (Scheme::Mithril, [c, m]) => (*c, *m, None),
        (Scheme::SchnorrAtms | Scheme::BlsAtms, [c, m, t]) => (
            *c,
            *m,
            Some(
                t.parse::<u64>()
                    .ok()
                    .filter(|&t| t > 0)
                    .ok_or_else(|| bad("the threshold is not a number of at least 1"))?,
            ),
        ),
        _ => return Err(bad("wrong number of fields")),
    };
    let message = bytes_from_hex(message, "message").map_err(|e| bad(&e))?;
    let is_number = committee.starts_with("0x") || committee.bytes().all(|b| b.is_ascii_digit());
    let shape_of = |what: &str| {
        usage(format!(
            "the aggregation key states no {what} shape: pass commitments instead of files"
        ))
    };
    let commitment = if is_number {
        fr_from_str(committee, "commitment").map_err(|e| bad(&e))?
    } else {
        let path = Path::new(committee);
        match scheme {
            Scheme::SchnorrAtms => {
                let shape: schnorr_atms::AtmsShape =
                    serde_json::from_value(shape.clone()).map_err(|_| shape_of("Schnorr ATMS"))?;
                let c = crate::schemes::schnorr::bn254::load_committee(path)?;
                check_members(path, c.keys().len(), shape.n, "certificate key")?;
                c.commitment(shape.mode)
            }
            Scheme::BlsAtms => {
                let shape: bls_atms::AtmsShape =
                    serde_json::from_value(shape.clone()).map_err(|_| shape_of("BLS ATMS"))?;
                let c = crate::schemes::bls::bn254::load_committee(path)?;
                check_members(path, c.len(), shape.n, "certificate key")?;
                c.digest(shape.hash)
            }
            Scheme::Mithril => {
                let registration = crate::schemes::mithril::bn254::load_registration(path)?;
                registration.commitment().digest()
            }
        }
    };
    let t = threshold.unwrap_or(0);
    let shown = match threshold {
        Some(t) => format!(
            "commitment {}, {}, threshold {t}",
            fr_to_hex(&commitment),
            describe_message(&message, &message_to_field(&message))
        ),
        None => format!(
            "registration {}, {}",
            fr_to_hex(&commitment),
            describe_message(&message, &message_to_field(&message))
        ),
    };
    Ok((public_inputs(scheme, commitment, &message, t), shown))
}

/// What `tms aggregate verify` is given.
pub struct AggregateVerifyArgs<'a> {
    /// The scheme of the certificates.
    pub scheme: Scheme,
    /// KZG parameters of the aggregation circuit.
    pub params: &'a Path,
    /// The aggregation key and how it is trusted.
    pub key: KeyTrust<'a>,
    /// For `--regenerate-vk`: the certificate key (regenerated from its shape itself) and its
    /// parameters.
    pub inner: Option<(&'a Path, &'a Path)>,
    /// The aggregation proof.
    pub proof: &'a Path,
    /// The verifier's statements, in the order of the aggregation.
    pub statements: &'a [String],
    /// The transcript the aggregation proof was made in.
    pub transcript: Transcript,
}

/// `tms aggregate verify`.
pub fn verify(args: &AggregateVerifyArgs) -> Result<()> {
    let checked = check(args)?;
    println!(
        "verified: {} {} certificates in one proof; {}",
        args.statements.len(),
        args.scheme.name(),
        checked.key
    );
    for (i, text) in checked.shown.iter().enumerate() {
        println!("  {i}: {text}");
    }
    Ok(())
}

/// What [`check`] verified: the proof and its parts, how the key was trusted, and each
/// statement as the verifier gave it.
struct Checked {
    aggregation: VerifiedAggregation,
    vk: VerifyingKey<G1Affine>,
    key: String,
    shown: Vec<String>,
}

/// `tms aggregate verify`'s checks: the key trusted (pinned or regenerated), its header for
/// these statements, and the proof for the statements the verifier holds.
fn check(args: &AggregateVerifyArgs) -> Result<Checked> {
    let (scheme, count) = (args.scheme, args.statements.len());
    let vk_file = args.key.read()?;
    // A malformed file is refused before any regeneration (minutes).
    let (header, vk) = read_vk_file(&vk_file).map_err(|e| at(args.key.vk, e))?;
    let expected = statement_name(scheme, count);
    if header.statement != expected {
        return Err(at(
            args.key.vk,
            format!(
                "a key for {:?}; {count} statements of {} were given",
                header.statement,
                scheme.name()
            ),
        ));
    }
    args.key.check_regenerated(
        &vk_file,
        "the certificate key and the number of certificates",
        || {
            let Some((inner_vk, inner_params)) = args.inner else {
                return Err(usage(
                    "--regenerate-vk needs the certificate key (--inner-vk, itself regenerated \
                     from its shape) and its --inner-params",
                ));
            };
            let params = load_params(inner_params)?;
            let inner = KeyTrust {
                vk: inner_vk,
                fingerprint: None,
                regenerate: true,
            };
            let key = trusted_inner_key(scheme, &params, inner)?;
            check_params_k(inner_params, params.k(), key.k)?;
            let aggregation = load_params(args.params)?;
            Ok(keygen_file(scheme, &params, &key, count, &aggregation)?.0)
        },
    )?;
    let shape = header.inner.clone().unwrap_or_default();
    let mut statement = Vec::new();
    let mut shown = Vec::with_capacity(count);
    for text in args.statements {
        let (inputs, line) = trusted_inputs(scheme, &shape, text)?;
        statement.extend(inputs);
        shown.push(line);
    }
    let Some(aggregation) = verified(
        args.params,
        &header,
        &vk,
        args.proof,
        statement,
        args.transcript,
    )?
    else {
        return Err(at(
            args.proof,
            format!(
                "the aggregation proof does not verify for these trusted statements (in this \
                 order) in the {} transcript",
                args.transcript.name()
            ),
        ));
    };
    Ok(Checked {
        aggregation,
        vk,
        key: args.key.describe(&vk_file),
        shown,
    })
}

/// `tms aggregate wrap`: the final wrapper of one certificate (an aggregation of one proof, in
/// the Poseidon transcript) checked as `tms aggregate verify` checks it, its verifier recorded
/// with the accumulator a private input and the statement the public one, then wrapped in
/// Groth16 as `tms wrap` wraps a certificate.
pub fn wrap(args: &AggregateVerifyArgs, wrapper: &WrapSetup) -> Result<()> {
    if args.statements.len() != 1 {
        return Err(usage(
            "tms aggregate wrap: one --statement (the final wrapper of one certificate)",
        ));
    }
    let checked = check(args)?;
    println!(
        "verified: the final wrapper of one {} certificate ({}); {}",
        args.scheme.name(),
        checked.shown[0],
        checked.key
    );
    let a = &checked.aggregation;
    let statement: Vec<usize> =
        (tms_aggregation::ACCUMULATOR_LIMBS..a.public_inputs.len()).collect();
    let kind = match args.scheme {
        Scheme::Mithril => tms_evm::certificate::StatementKind::Mithril,
        Scheme::SchnorrAtms | Scheme::BlsAtms => tms_evm::certificate::StatementKind::Atms,
    };
    let description = format!(
        "final wrapper of one {} certificate (BN254, Poseidon transcript, KZG accumulator carried)",
        args.scheme.name()
    );
    let (program, witness) = tms_evm::groth16::record(
        &a.params,
        &checked.vk,
        &a.public_inputs,
        true,
        &a.proof,
        &statement,
        &description,
    )
    .map_err(|e| {
        CliError(format!(
            "the final wrapper's verifier could not be recorded: {e}"
        ))
    })?;
    program
        .replay(&witness)
        .map_err(|e| CliError(format!("the recorded program refuses its witness: {e}")))?;
    let words = crate::backends::bn254::wrap_words(&a.public_inputs[statement[0]..]);
    // The parameters (GiB at the final wrapper's k) are not needed by the Go program's setup.
    drop(checked);
    super::wrap::run(
        wrapper,
        &program.with_statement_kind(kind),
        &witness,
        &words,
    )
}
