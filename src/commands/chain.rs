//! `tms chain prove|extend|wrap|verify`: a chain of SNARK-Mithril certificates in one proof, for light
//! clients (`tms-aggregation`'s chain tree, or its chain step one epoch at a time).
//!
//! Epoch `e`'s certificate is made with `tms sign|certify --scheme mithril --next-registration
//! <registration e+1> --epoch e`: it signs `link_message(digest(registration e+1),
//! keccak(message), e)`, epochs counted from the genesis registration (epoch 0).
//! `tms chain prove` checks the chain natively (each certificate signed by the registration the
//! previous one handed over to), proves every certificate in the Poseidon transcript and
//! aggregates them in a tree whose root proof is in the EVM transcript. `tms chain extend` proves
//! one more epoch on a chain proof (a recursive step over the previous step proof, or over a
//! stand-in for the genesis epoch); `tms chain wrap` turns its last proof into one a contract
//! verifies as it does a tree's root (`ChainVerifier`). `tms chain verify` builds the statement from what the
//! verifier holds: the genesis registration, the claimed last registration digest, the last
//! application message and the number of epochs (and, for a step proof, its own step key).

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use mithril_snark::{
    chain::{chain_statement, ChainLink, ChainStatement},
    prove_with_transcript, MithrilInstance, MithrilKeys, MithrilWitness,
};
use tms_aggregation::{
    aggregation_verify, certificate_snark,
    chain::{
        chain_keygen, prove_chain, verify_chain_proof, ChainCertificate, ChainKeys, ChainShape,
        Link,
    },
    chain_step::{
        chain_wrap_keygen, extend_chain, step_keygen, verify_extended_chain, wrap_chain, StepKeys,
        STEP_INPUTS,
    },
    proof_file, read_vk_file,
    snark::split_proof_file_words,
    split_proof_file, ACCUMULATOR_LIMBS,
};
use tms_gadgets::{
    message::message_to_field,
    proving::{keys::fingerprint, Transcript},
    timing::phase,
    Fr,
};

use crate::checks::{check_params_k, describe_message};
use crate::interface::KeyTrust;
use crate::options::Format;
use crate::schemes::mithril::{
    bn254::{load_certificate, load_registration, signed_field, HandOver},
    LoadedCertificate,
};
use crate::{
    commands::{step_keys::StepKeyCache, JsonArgs},
    formats::{bytes_to_hex, fr_from_str, fr_to_hex},
    io::{at, load_params, read_bytes, spinner, stage, usage, write_atomic, CliError, Result},
};

pub(crate) use tms_aggregation::chain::{
    ROOT_STATEMENT as STATEMENT, STEP_STATEMENT, WRAPPED_STATEMENT,
};

/// Parses `--tree per_leaf,per_node,levels`.
pub fn parse_tree(tree: &str, k: u32) -> Result<ChainShape> {
    let numbers: Vec<usize> = tree
        .split(',')
        .map(|n| n.trim().parse::<usize>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| {
            usage(format!(
                "--tree {tree:?}: expected PER_LEAF,PER_NODE,LEVELS"
            ))
        })?;
    match numbers[..] {
        [per_leaf @ 1..=16, per_node @ 1..=16, levels @ 0..=8] => Ok(ChainShape {
            per_leaf,
            per_node,
            levels,
            k,
        }),
        _ => Err(usage(format!(
            "--tree {tree:?}: expected PER_LEAF,PER_NODE,LEVELS with 1..=16 proofs per leaf and \
             per node and at most 8 levels"
        ))),
    }
}

/// The SNARK-Mithril certificates' prover: their parameters and proving key.
#[derive(clap::Args, Debug)]
pub struct CertificateProver {
    /// KZG parameters of the certificates' circuit.
    #[arg(long)]
    pub params: PathBuf,
    /// SNARK-Mithril proving key (`tms keygen --scheme mithril`).
    #[arg(long)]
    pub pk: PathBuf,
}

impl CertificateProver {
    /// The parameters and the proving key, refusing parameters smaller than the key's circuit.
    fn load(&self) -> Result<(ParamsKZG<Bn256>, MithrilKeys)> {
        let params = load_params(&self.params)?;
        let keys =
            MithrilKeys::from_pk_bytes(&read_bytes(&self.pk)?).map_err(|e| at(&self.pk, e))?;
        check_params_k(&self.params, params.k(), keys.shape.k)?;
        Ok((params, keys))
    }
}

/// `tms chain prove`'s options.
#[derive(clap::Args, Debug)]
pub struct ChainProveArgs {
    /// Registration files 0..=E: epoch e's signers, then the registration the last epoch
    /// hands over to.
    #[arg(long, num_args = 1.., required = true)]
    pub registrations: Vec<PathBuf>,
    /// Certificate files 0..E (`tms certify --scheme mithril --next-registration`).
    #[arg(long, num_args = 1.., required = true)]
    pub certificates: Vec<PathBuf>,
    /// The certificates' parameters and proving key.
    #[command(flatten)]
    pub prover: CertificateProver,
    /// KZG parameters of the aggregation tree, from the same setup (2^22 rows for
    /// preprod-size certificates two at a time).
    #[arg(long)]
    pub chain_params: PathBuf,
    /// The tree: certificates per leaf, proofs per node, node levels (their product of
    /// powers is E).
    #[arg(long, default_value = "2,2,2")]
    pub tree: String,
    /// Chain proof file to write (accumulator words, then the EVM-transcript proof).
    #[arg(long)]
    pub proof: PathBuf,
    /// Root verifying key file to write.
    #[arg(long)]
    pub vk: PathBuf,
}

/// `tms chain prove`.
pub fn prove(args: &ChainProveArgs) -> Result<()> {
    let epochs = args.certificates.len();
    if epochs == 0 || args.registrations.len() != epochs + 1 {
        return Err(usage(format!(
            "{epochs} certificates need {} registrations (each epoch's signers, then the last \
             hand-over); {} given",
            epochs + 1,
            args.registrations.len()
        )));
    }
    // The tree's shape and the chain itself first: a broken chain fails before any file of
    // parameters or keys is read, naming the epoch and the file.
    let mut shape = parse_tree(&args.tree, 0)?;
    if shape.epochs() != epochs {
        return Err(usage(format!(
            "--tree {} proves {} epochs; {epochs} certificates given",
            &args.tree,
            shape.epochs()
        )));
    }
    let registrations = args
        .registrations
        .iter()
        .map(|p| load_registration(p))
        .collect::<Result<Vec<_>>>()?;
    let mut links = Vec::with_capacity(epochs);
    let mut application_bytes = Vec::new();
    for (e, path) in args.certificates.iter().enumerate() {
        let LoadedCertificate {
            message,
            certificate,
            hand_over,
        } = load_certificate(path, &registrations[e])?;
        let expected = HandOver {
            next: registrations[e + 1].commitment().digest(),
            epoch: e as u64,
        };
        check_hand_over(
            path,
            &format!("epoch {e}'s certificate"),
            hand_over,
            (&args.registrations[e + 1], expected),
        )?;
        links.push(ChainLink {
            signers: registrations[e].commitment(),
            next_registration: expected.next,
            application: message_to_field(&message),
            epoch: expected.epoch,
            certificate,
        });
        application_bytes = message;
    }
    let genesis = registrations[0].commitment().digest();
    let statement = chain_statement(genesis, &links).map_err(|e| CliError(e.to_string()))?;

    let chain_params = load_params(&args.chain_params)?;
    shape.k = chain_params.k();
    let (params, keys) = args.prover.load()?;

    let start = Instant::now();
    let bar = spinner("proving the certificates");
    let mut certificates = Vec::with_capacity(epochs);
    for (e, link) in links.iter().enumerate() {
        stage(&bar, format!("proving certificate {} of {epochs}", e + 1));
        certificates.push(certificate_proof(
            (&params, &keys, &args.prover.pk),
            link,
            &args.certificates[e],
        )?);
    }
    let (chain_keys, proved) = prove_chain(
        &chain_params,
        shape,
        (&params, keys.vk()),
        certificates,
        None,
        Transcript::Evm,
        &mut |level, index, count| {
            stage(
                &bar,
                format!(
                    "aggregating: level {level}, proof {} of {count} ({:.0} s)",
                    index + 1,
                    start.elapsed().as_secs_f64()
                ),
            )
        },
    )
    .map_err(|e| CliError(e.to_string()))?;
    bar.finish_and_clear();
    let vk_bytes = root_key_file(&chain_keys);
    let proof_bytes = proved.to_bytes();
    write_atomic(&args.vk, &vk_bytes)?;
    write_atomic(&args.proof, &proof_bytes)?;
    println!(
        "chain of {epochs} certificates from genesis {} to registration {}, last {}: proof \
         ({} bytes, EVM transcript, {:.0} s) written to {}; root verifying key written to {} \
         (fingerprint {})",
        fr_to_hex(&statement.genesis),
        fr_to_hex(&statement.last_registration),
        describe_message(&application_bytes, &statement.last_application),
        proof_bytes.len(),
        start.elapsed().as_secs_f64(),
        args.proof.display(),
        args.vk.display(),
        fingerprint(&vk_bytes)
    );
    Ok(())
}

/// Refuses a chain certificate (`what`, at `path`) that does not hand over to `next_path`'s
/// registration at the expected epoch.
fn check_hand_over(
    path: &Path,
    what: &str,
    hand_over: Option<HandOver>,
    (next_path, expected): (&Path, HandOver),
) -> Result<()> {
    if hand_over == Some(expected) {
        return Ok(());
    }
    Err(at(
        path,
        format!(
            "{what} does not hand over to {} at epoch {} (it signs for: {}); sign chain \
             certificates with --next-registration and --epoch",
            next_path.display(),
            expected.epoch,
            hand_over
                .map(|h| h.to_string())
                .unwrap_or_else(|| "no chain".into())
        ),
    ))
}

/// The proof (Poseidon transcript) of the chain certificate `link` (from the file at `path`),
/// checked natively, with the link it binds.
fn certificate_proof(
    (params, keys, pk_path): (&ParamsKZG<Bn256>, &MithrilKeys, &Path),
    link: &ChainLink,
    path: &Path,
) -> Result<ChainCertificate> {
    let instance = MithrilInstance {
        commitment: link.signers,
        message: link.message().map_err(usage)?,
    };
    let witness = MithrilWitness::new(keys.shape, instance, &link.certificate)
        .map_err(|err| at(path, err))?;
    let proof = prove_with_transcript(params, keys, &witness, Transcript::Poseidon)
        .map_err(|err| at(pk_path, err))?;
    let snark = certificate_snark(params, keys.vk(), &instance.to_public_inputs(), proof)
        .map_err(|err| at(path, err))?;
    Ok(ChainCertificate {
        snark,
        link: Link {
            next_registration: link.next_registration,
            application: link.application,
        },
    })
}

/// `tms chain extend`'s options.
#[derive(clap::Args, Debug)]
pub struct ChainExtendArgs {
    /// The registration that signs this epoch (the one the previous epoch handed over to).
    #[arg(long)]
    pub registration: PathBuf,
    /// The registration this epoch hands over to.
    #[arg(long)]
    pub next_registration: PathBuf,
    /// This epoch's certificate (`tms certify --scheme mithril --next-registration`).
    #[arg(long)]
    pub certificate: PathBuf,
    /// The certificates' parameters and proving key.
    #[command(flatten)]
    pub prover: CertificateProver,
    /// KZG parameters of the step circuit, from the same setup (2^22 rows for preprod-size
    /// certificates).
    #[arg(long)]
    pub chain_params: PathBuf,
    /// The chain proof so far (written by `tms chain extend`); none for the genesis epoch.
    #[arg(long)]
    pub previous: Option<PathBuf>,
    /// Chain proof file to write (public inputs as words, then the Poseidon-transcript proof).
    #[arg(long)]
    pub proof: PathBuf,
    /// Step verifying key file to write (the same for every epoch of a chain).
    #[arg(long)]
    pub vk: PathBuf,
    /// Where the step keys are kept between epochs, and whether to replace them.
    #[command(flatten)]
    pub cache: StepKeyCache,
    /// `--json`.
    #[command(flatten)]
    pub json: JsonArgs,
    /// Whose files: tms's own (SNARK-Mithril on BN254) or mithril-stm's (its registration, a
    /// `tms certify --format mithril-stm --next-registration` certificate, keys of `tms keygen
    /// --format mithril-stm`, whose shape the chain's certificates are proved in, laid out for
    /// the step's in-circuit verifier; the step on the Cardano backend).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// Public inputs at the front of a step proof file: the accumulator, then the chain's
/// statement and the step key's digest.
const STEP_WORDS: usize = ACCUMULATOR_LIMBS + STEP_INPUTS;

/// `tms chain extend`: one epoch more on a chain proof; says so in lines, or with `--json` in
/// one object (the chain's statement, the files, the timings).
pub fn extend(args: &ChainExtendArgs) -> Result<()> {
    if args.format == Format::MithrilStm {
        return Err(usage(
            "--format mithril-stm: chains of mithril-stm certificates are extended by \
             commands::stm_chain::extend",
        ));
    }
    let start = Instant::now();
    let outcome = extend_chain_proof(args);
    super::say(
        "extended",
        ("mithril", "bn254"),
        args.json.json,
        start,
        &outcome,
    );
    outcome.map(|_| ())
}

/// `tms chain extend`'s work: the lines it says and its `--json` fields.
fn extend_chain_proof(args: &ChainExtendArgs) -> Result<(Vec<String>, serde_json::Value)> {
    // The link first: a certificate that does not continue the chain fails before any
    // parameters or keys are read.
    let registration = load_registration(&args.registration)?;
    let next = load_registration(&args.next_registration)?
        .commitment()
        .digest();
    let LoadedCertificate {
        message,
        certificate,
        hand_over,
    } = load_certificate(&args.certificate, &registration)?;
    let signers = registration.commitment();
    let previous = match args.previous.as_deref() {
        None => None,
        Some(path) => {
            let (inputs, proof) =
                split_proof_file_words(&read_bytes(path)?, STEP_WORDS).map_err(|e| at(path, e))?;
            let last = inputs[ACCUMULATOR_LIMBS + 1];
            if last != signers.digest() {
                return Err(at(
                    &args.certificate,
                    format!(
                        "signed by registration {}, but the chain of {} ends at {}",
                        fr_to_hex(&signers.digest()),
                        path.display(),
                        fr_to_hex(&last)
                    ),
                ));
            }
            Some((inputs, proof))
        }
    };
    // The new certificate is epoch E of a chain of E epochs so far (0 at genesis).
    let expected = HandOver {
        next,
        epoch: previous
            .as_ref()
            .map_or(0, |(inputs, _)| epochs_word(&inputs[ACCUMULATOR_LIMBS + 3])),
    };
    check_hand_over(
        &args.certificate,
        "the certificate",
        hand_over,
        (&args.next_registration, expected),
    )?;
    let link = ChainLink {
        signers,
        next_registration: next,
        application: message_to_field(&message),
        epoch: expected.epoch,
        certificate,
    };

    let read = Instant::now();
    let chain_params = load_params(&args.chain_params)?;
    let (params, keys) = args.prover.load()?;
    let reading = read.elapsed().as_secs_f64();
    let start = Instant::now();
    // The step keys before the certificate's proof: a refused cache fails in seconds.
    let bar = spinner("step keys");
    let (step_keys, step_keys_said) = phase("chain extend: step keys", || {
        args.cache
            .step_keys(&args.proof, &chain_params, (&params, keys.vk()), || {
                stage(
                    &bar,
                    format!("step keys at k = {} (minutes, GiB)", chain_params.k()),
                )
            })
    })?;
    stage(
        &bar,
        format!(
            "proving the certificate ({:.0} s so far)",
            start.elapsed().as_secs_f64()
        ),
    );
    log_memory("chain extend: step keys");
    let step_keys_seconds = start.elapsed().as_secs_f64();
    let certificate = phase("chain extend: certificate proof", || {
        certificate_proof((&params, &keys, &args.prover.pk), &link, &args.certificate)
    })?;
    log_memory("chain extend: certificate proof");
    let certificate_seconds = start.elapsed().as_secs_f64() - step_keys_seconds;
    stage(
        &bar,
        format!(
            "extending the chain ({:.0} s so far)",
            start.elapsed().as_secs_f64()
        ),
    );
    let previous_ref = previous
        .as_ref()
        .map(|(inputs, proof)| (inputs.as_slice(), proof.clone()));
    let (public_inputs, proof) = phase("chain extend: step proof", || {
        extend_chain(&chain_params, &step_keys, previous_ref, certificate)
    })
    .map_err(|e| match args.previous.as_deref() {
        Some(path) => at(path, e),
        None => CliError(e.to_string()),
    })?;
    log_memory("chain extend: step proof");
    // Checked before it is written: keys read back from a cache prove only what verifies under
    // the key written beside the proof.
    let verified = phase("chain extend: step proof verified", || {
        aggregation_verify(
            &chain_params,
            step_keys.keys.vk(),
            &public_inputs,
            &proof,
            Transcript::Poseidon,
        )
    });
    if !verified {
        return Err(CliError(
            "the new step proof does not verify under the step key (a damaged step key cache?)"
                .into(),
        ));
    }
    bar.finish_and_clear();
    let vk_bytes = step_key_file(&step_keys);
    let proof_bytes = proof_file(&public_inputs, &proof);
    write_atomic(&args.vk, &vk_bytes)?;
    write_atomic(&args.proof, &proof_bytes)?;
    let statement = &public_inputs[ACCUMULATOR_LIMBS..];
    let epochs = epochs_word(&statement[3]);
    let seconds = start.elapsed().as_secs_f64();
    let line = format!(
        "chain of {epochs} epoch{} from genesis {} to registration {}, last {}: proof ({} bytes, \
         Poseidon transcript, {seconds:.0} s) written to {}; step verifying key written to {} \
         (fingerprint {})",
        if epochs == 1 { "" } else { "s" },
        fr_to_hex(&statement[0]),
        fr_to_hex(&statement[1]),
        describe_message(&message, &statement[2]),
        proof_bytes.len(),
        args.proof.display(),
        args.vk.display(),
        fingerprint(&vk_bytes)
    );
    let json = serde_json::json!({
        "statement": {
            "genesis": fr_to_hex(&statement[0]),
            "last_registration": fr_to_hex(&statement[1]),
            "last_message": bytes_to_hex(&message),
            "epochs": epochs,
        },
        "proof": args.proof,
        "bytes": proof_bytes.len(),
        "vk": args.vk,
        "fingerprint": fingerprint(&vk_bytes),
        "step_keys": step_keys_said,
        "seconds": {
            "parameters": reading,
            "step_keys": step_keys_seconds,
            "certificate": certificate_seconds,
            "step": seconds - step_keys_seconds - certificate_seconds,
        },
    });
    Ok((vec![line, format!("  {step_keys_said}")], json))
}

/// Logs this process's resident and peak memory after `what` (`RUST_LOG=tms::phase=debug`):
/// where a long command's high-water mark is reached.
fn log_memory(what: &str) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = |field: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0)
    };
    tracing::debug!(
        target: "tms::phase",
        phase = what,
        rss_mib = kib("VmRSS:") >> 10,
        peak_mib = kib("VmHWM:") >> 10,
        "memory"
    );
}

/// The step key file (the header says what it proves).
fn step_key_file(keys: &StepKeys) -> Vec<u8> {
    keys.keys.vk_file(STEP_STATEMENT, None)
}

/// `tms chain wrap`'s options.
#[derive(clap::Args, Debug)]
pub struct ChainWrapArgs {
    /// The chain proof (written by `tms chain extend`).
    #[arg(long)]
    pub proof: PathBuf,
    /// The step verifying key (written by `tms chain extend`).
    #[arg(long)]
    pub vk: PathBuf,
    /// KZG parameters of the step circuit, which the wrapper uses too.
    #[arg(long)]
    pub chain_params: PathBuf,
    /// Wrapped proof file to write (accumulator words, then the EVM-transcript proof).
    #[arg(long)]
    pub out_proof: PathBuf,
    /// Wrapper verifying key file to write.
    #[arg(long)]
    pub out_vk: PathBuf,
}

/// `tms chain wrap`: the final wrapper over an extended chain's proof, at the step's
/// parameters: it verifies the step proof under the step key (a constant of the wrapper, which
/// also ties the statement's step-key digest to it) and exposes `[genesis, last registration,
/// last application message, epochs]` in the EVM transcript, as a tree's root.
pub fn wrap(args: &ChainWrapArgs) -> Result<()> {
    let vk_file = read_bytes(&args.vk)?;
    let (header, step_vk) = read_vk_file(&vk_file).map_err(|e| at(&args.vk, e))?;
    if header.statement != STEP_STATEMENT {
        return Err(at(
            &args.vk,
            format!(
                "a key for {:?}, not a chain step key (tms chain extend's)",
                header.statement
            ),
        ));
    }
    let (inputs, proof) = split_proof_file_words(&read_bytes(&args.proof)?, STEP_WORDS)
        .map_err(|e| at(&args.proof, e))?;
    let params = load_params(&args.chain_params)?;
    check_params_k(&args.chain_params, params.k(), header.config.degree)?;
    let start = Instant::now();
    let bar = spinner("wrapping the chain");
    stage(
        &bar,
        format!("wrapper keys at k = {} (minutes, GiB)", params.k()),
    );
    let keys = wrap_keygen(&params, &step_vk)?;
    stage(
        &bar,
        format!("wrapping ({:.0} s so far)", start.elapsed().as_secs_f64()),
    );
    let (public_inputs, wrapped) = wrap_chain(
        &params,
        &keys,
        (&params, &step_vk),
        (&inputs, proof),
        Transcript::Evm,
    )
    .map_err(|e| at(&args.proof, e))?;
    bar.finish_and_clear();
    let vk_bytes = keys.vk_file(WRAPPED_STATEMENT, None);
    let proof_bytes = proof_file(&public_inputs[..ACCUMULATOR_LIMBS], &wrapped);
    write_atomic(&args.out_vk, &vk_bytes)?;
    write_atomic(&args.out_proof, &proof_bytes)?;
    let statement = &public_inputs[ACCUMULATOR_LIMBS..];
    let epochs = epochs_word(&statement[3]);
    println!(
        "chain of {epochs} epoch{} from genesis {} to registration {} wrapped: proof ({} bytes, \
         EVM transcript, {:.0} s) written to {}; wrapper verifying key ({} advice cells, {} \
         advice column{}) written to {} (fingerprint {}); `tms export-verifier` on it gives the \
         chain's ChainVerifier",
        if epochs == 1 { "" } else { "s" },
        fr_to_hex(&statement[0]),
        fr_to_hex(&statement[1]),
        proof_bytes.len(),
        start.elapsed().as_secs_f64(),
        args.out_proof.display(),
        keys.advice_cells,
        keys.config.num_advice,
        if keys.config.num_advice == 1 { "" } else { "s" },
        args.out_vk.display(),
        fingerprint(&vk_bytes)
    );
    Ok(())
}

/// The wrapper's keys over step proofs under `step_vk`, both at `params`.
fn wrap_keygen(
    params: &ParamsKZG<Bn256>,
    step_vk: &VerifyingKey<G1Affine>,
) -> Result<tms_aggregation::AggregationKeys> {
    chain_wrap_keygen(params, params.k(), (params, step_vk)).map_err(|e| CliError(e.to_string()))
}

/// The epoch count of a statement word.
fn epochs_word(word: &Fr) -> u64 {
    u64::from_le_bytes(word.to_bytes()[..8].try_into().expect("8 bytes"))
}

/// What `tms chain verify` trusts.
pub struct ChainVerifyArgs<'a> {
    /// The genesis registration file, or its digest.
    pub genesis: RegistrationArg<'a>,
    /// The registration the chain is claimed to hand over to: a file or a digest.
    pub last_registration: RegistrationArg<'a>,
    /// The last application message's bytes.
    pub application: &'a [u8],
    /// The number of epochs claimed.
    pub epochs: usize,
    /// KZG parameters of the tree.
    pub params: &'a Path,
    /// The root verifying key and how it is trusted.
    pub key: KeyTrust<'a>,
    /// For `--regenerate-vk`: the tree (`PER_LEAF,PER_NODE,LEVELS`), the certificate key
    /// (itself regenerated from its shape) and its parameters.
    pub regenerate_from: Option<(&'a str, &'a Path, &'a Path)>,
    /// The chain proof.
    pub proof: &'a Path,
}

/// The SNARK-Mithril certificate key as a verifier may use it: pinned, or regenerated from the
/// shape its file states.
fn trusted_certificate_key(
    params: &ParamsKZG<Bn256>,
    trust: KeyTrust,
) -> Result<VerifyingKey<G1Affine>> {
    let bytes = trust.read()?;
    let (shape, vk) = mithril_snark::read_vk(&bytes).map_err(|e| at(trust.vk, e))?;
    trust.check_regenerated(&bytes, "its shape", || {
        mithril_snark::keygen(params, shape)
            .map(|k| k.vk_bytes())
            .map_err(|e| at(trust.vk, e))
    })?;
    check_params_k(trust.vk, params.k(), shape.k)?;
    Ok(vk)
}

/// The root key file of a chain tree (the header states the tree's shape).
fn root_key_file(keys: &ChainKeys) -> Vec<u8> {
    keys.levels
        .last()
        .expect("a root level")
        .vk_file(STATEMENT, Some(keys.shape))
}

/// Which key of a chain `tms chain keygen` makes.
pub enum ChainKey<'a> {
    /// A tree's root key, for the tree `PER_LEAF,PER_NODE,LEVELS`.
    Root(&'a str),
    /// The step key (`tms chain extend`'s).
    Step,
    /// The wrapped chain's key (`tms chain wrap`'s).
    Wrapped,
}

/// What `tms chain keygen` is given.
pub struct ChainKeygenArgs<'a> {
    /// The certificates' KZG parameters.
    pub params: &'a Path,
    /// The SNARK-Mithril certificate key, pinned or regenerated.
    pub certificate_key: KeyTrust<'a>,
    /// The tree's (or step circuit's) KZG parameters.
    pub chain_params: &'a Path,
    /// Which key.
    pub key: ChainKey<'a>,
    /// Where the verifying key goes.
    pub out_vk: &'a Path,
}

/// `tms chain keygen`: a chain's verifying key from the certificate key alone (no proof), as
/// `tms chain prove`, `extend` or `wrap` make it; writes the key and prints its fingerprint.
pub fn keygen(args: &ChainKeygenArgs) -> Result<()> {
    let chain_params = load_params(args.chain_params)?;
    // The tree first: a bad shape fails before the certificate key is read or regenerated.
    let root = match args.key {
        ChainKey::Root(tree) => Some((tree, parse_tree(tree, chain_params.k())?)),
        ChainKey::Step | ChainKey::Wrapped => None,
    };
    let params = load_params(args.params)?;
    let certificate_vk = trusted_certificate_key(&params, args.certificate_key)?;
    let start = Instant::now();
    let bar = spinner("chain keygen (minutes, GiB)");
    let (bytes, what) = match root {
        Some((tree, shape)) => {
            let keys = chain_keygen(
                &chain_params,
                shape,
                (&params, &certificate_vk),
                &mut |level, _, _| {
                    stage(&bar, format!("keygen: level {level} of {}", shape.levels))
                },
            )
            .map_err(|e| CliError(e.to_string()))?;
            let what = format!(
                "root key of a chain tree {tree} ({} epochs, k = {})",
                shape.epochs(),
                shape.k
            );
            (root_key_file(&keys), what)
        }
        None => {
            stage(
                &bar,
                format!("keygen: the step circuit at k = {}", chain_params.k()),
            );
            let step = step_keygen(&chain_params, chain_params.k(), (&params, &certificate_vk))
                .map_err(|e| CliError(e.to_string()))?;
            if matches!(args.key, ChainKey::Step) {
                let what = format!("step key (k = {})", chain_params.k());
                (step_key_file(&step), what)
            } else {
                stage(&bar, "keygen: the wrapper".into());
                let wrapper = wrap_keygen(&chain_params, step.keys.vk())?;
                let what = format!("wrapped chain key (k = {})", chain_params.k());
                (wrapper.vk_file(WRAPPED_STATEMENT, None), what)
            }
        }
    };
    bar.finish_and_clear();
    write_atomic(args.out_vk, &bytes)?;
    println!(
        "{what} ({:.0} s) written to {} (fingerprint {})",
        start.elapsed().as_secs_f64(),
        args.out_vk.display(),
        fingerprint(&bytes)
    );
    Ok(())
}

/// A registration given as its file or as its digest (`0x`-hex).
pub enum RegistrationArg<'a> {
    /// A registration file.
    File(&'a Path),
    /// A digest.
    Digest(&'a str),
}

impl RegistrationArg<'_> {
    fn digest(&self, flag: &str) -> Result<Fr> {
        match self {
            RegistrationArg::File(path) => Ok(load_registration(path)?.commitment().digest()),
            RegistrationArg::Digest(hex) => fr_from_str(hex, flag).map_err(usage),
        }
    }
}

/// `tms chain verify`.
pub fn verify(args: &ChainVerifyArgs) -> Result<()> {
    let statement = ChainStatement {
        genesis: args.genesis.digest("--genesis-digest")?,
        last_registration: args.last_registration.digest("--last-digest")?,
        last_application: signed_field(args.application, None)?,
        epochs: args.epochs,
    };
    let vk_path = args.key.vk;
    let vk_file = args.key.read()?;
    // A malformed file is refused before any regeneration (minutes).
    let (header, vk) = read_vk_file(&vk_file).map_err(|e| at(vk_path, e))?;
    if header.statement == STEP_STATEMENT {
        return verify_step(args, &statement, &vk_file, &vk, header.config.degree);
    }
    let wrapped = header.statement == WRAPPED_STATEMENT;
    if !wrapped && header.statement != STATEMENT {
        return Err(at(
            vk_path,
            format!("a key for {:?}, not a Mithril chain", header.statement),
        ));
    }
    if let Some(shape) = header.chain.filter(|s| s.epochs() != args.epochs) {
        return Err(at(
            vk_path,
            format!(
                "the key closes chains of {} epochs; --epochs says {}",
                shape.epochs(),
                args.epochs
            ),
        ));
    }
    let from = if wrapped {
        "the certificate key (through the step key)"
    } else {
        "the certificate key and the tree"
    };
    args.key.check_regenerated(&vk_file, from, || {
        if wrapped {
            let (chain_params, step) = regenerated_step_keys(args)?;
            let keys = wrap_keygen(&chain_params, step.keys.vk())?;
            return Ok(keys.vk_file(WRAPPED_STATEMENT, None));
        }
        let Some((tree, certificate_vk, certificate_params)) =
            args.regenerate_from.filter(|(tree, _, _)| !tree.is_empty())
        else {
            return Err(usage(
                "--regenerate-vk needs --tree, the certificate key (--certificate-vk, \
                     itself regenerated from its shape) and its --certificate-params",
            ));
        };
        let chain_params = load_params(args.params)?;
        let shape = parse_tree(tree, chain_params.k())?;
        let (params, certificate_vk) =
            regenerated_certificate_key(certificate_vk, certificate_params)?;
        let keys = chain_keygen(
            &chain_params,
            shape,
            (&params, &certificate_vk),
            &mut |_, _, _| {},
        )
        .map_err(|e| CliError(e.to_string()))?;
        Ok(root_key_file(&keys))
    })?;
    let params = load_params(args.params)?;
    check_params_k(args.params, params.k(), header.config.degree)?;
    let (accumulator, proof) =
        split_proof_file(&read_bytes(args.proof)?).map_err(|e| at(args.proof, e))?;
    if !verify_chain_proof(
        &params,
        &vk,
        &statement,
        &accumulator,
        &proof,
        Transcript::Evm,
    ) {
        return Err(at(
            args.proof,
            "the chain proof does not verify for the trusted statement (genesis, last \
             registration, last application message, epochs)",
        ));
    }
    println!(
        "verified: {} SNARK-Mithril certificates, each signed by the registration the previous \
         one handed over to, from genesis {} to registration {}; last {}",
        statement.epochs,
        fr_to_hex(&statement.genesis),
        fr_to_hex(&statement.last_registration),
        describe_message(args.application, &statement.last_application)
    );
    println!("  {}", args.key.describe(&vk_file));
    Ok(())
}

/// The certificates' parameters and their key at `vk`, regenerated from its shape (and refused
/// if the file differs).
fn regenerated_certificate_key(
    vk: &Path,
    params: &Path,
) -> Result<(ParamsKZG<Bn256>, VerifyingKey<G1Affine>)> {
    let params = load_params(params)?;
    let trust = KeyTrust {
        vk,
        fingerprint: None,
        regenerate: true,
    };
    let vk = trusted_certificate_key(&params, trust)?;
    Ok((params, vk))
}

/// For `--regenerate-vk` of a step key or of its wrapper's: the step keys at the chain's
/// parameters from the certificate key (itself regenerated from its shape).
fn regenerated_step_keys(args: &ChainVerifyArgs) -> Result<(ParamsKZG<Bn256>, StepKeys)> {
    let Some((_, certificate_vk, certificate_params)) = args.regenerate_from else {
        return Err(usage(
            "--regenerate-vk needs the certificate key (--certificate-vk, itself regenerated \
             from its shape) and its --certificate-params",
        ));
    };
    let chain_params = load_params(args.params)?;
    let (params, certificate_vk) = regenerated_certificate_key(certificate_vk, certificate_params)?;
    let keys = step_keygen(&chain_params, chain_params.k(), (&params, &certificate_vk))
        .map_err(|e| CliError(e.to_string()))?;
    Ok((chain_params, keys))
}

/// `tms chain verify` with a step key (`tms chain extend`'s): the proof file carries every
/// public input, of which the verifier takes only the accumulator; the statement is its own,
/// and the step key's digest that of the key it trusts.
fn verify_step(
    args: &ChainVerifyArgs,
    statement: &ChainStatement,
    vk_file: &[u8],
    vk: &VerifyingKey<G1Affine>,
    k: u32,
) -> Result<()> {
    args.key
        .check_regenerated(vk_file, "the certificate key", || {
            regenerated_step_keys(args).map(|(_, keys)| step_key_file(&keys))
        })?;
    let params = load_params(args.params)?;
    check_params_k(args.params, params.k(), k)?;
    let (inputs, proof) = split_proof_file_words(&read_bytes(args.proof)?, STEP_WORDS)
        .map_err(|e| at(args.proof, e))?;
    if !verify_extended_chain(&params, vk, statement, &inputs[..ACCUMULATOR_LIMBS], &proof) {
        return Err(at(
            args.proof,
            "the chain proof does not verify for the trusted statement (genesis, last \
             registration, last application message, epochs) under the trusted step key",
        ));
    }
    println!(
        "verified: {} SNARK-Mithril certificates, each signed by the registration the previous \
         one handed over to, from genesis {} to registration {}; last {} (every step proof \
         verified under the trusted step key)",
        statement.epochs,
        fr_to_hex(&statement.genesis),
        fr_to_hex(&statement.last_registration),
        describe_message(args.application, &statement.last_application)
    );
    println!("  {}", args.key.describe(vk_file));
    Ok(())
}
