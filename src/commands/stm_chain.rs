//! `tms chain link|keygen|extend|verify --format mithril-stm`: chains of mithril-stm certificates
//! on the Cardano backend, extended one epoch at a time (`mithril_jubjub::stm::chain`: a step
//! circuit over BLS12-381 that verifies the previous step proof and the epoch's certificate
//! proof with midnight-circuits' in-circuit verifier).
//!
//! Epoch `E`'s signers (mithril-stm's own) sign the 32 bytes `tms chain link` prints: the link of
//! the next registration's root, the application message and `E`. `tms certify --format
//! mithril-stm --next-registration --epoch` checks their signatures on it and records the
//! hand-over; `tms chain extend --format mithril-stm` proves the certificate (Poseidon
//! transcript) and the step; `tms chain verify --format mithril-stm` builds the statement from
//! the genesis registration, the last registration, the last application message and the
//! number of epochs, with the step key it pins or regenerates from the certificate key.

use std::{io::Read, path::Path, time::Instant};

use ff::PrimeField;
use midnight_proofs::{poly::commitment::Params, utils::SerdeFormat};
use mithril_jubjub::{
    native::Base,
    stm::{
        chain::{
            self as stm_chain, accumulator_to_bytes, link_message, ChainProof, ChainStatement,
            StepCircuit, StepLayout,
        },
        prover::{self, StmKeys},
        StmInstance, StmShape, StmWitness,
    },
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use tms_cardano::backend::{vk_from_bytes, vk_to_bytes, Params12, Pk, Vk};
use tms_gadgets::proving::keys::fingerprint;

use crate::{
    backends::cardano::{base_from_hex, base_to_hex, load_params, BACKEND},
    checks::check_params_k,
    commands::{chain::ChainExtendArgs, JsonArgs},
    formats::{bytes_from_hex, bytes_to_hex, Header},
    interface::{CertificateScheme, KeyTrust},
    io::{at, read_json_on, spinner, stage, usage, write_atomic, write_json, CliError, Result},
    options::Scheme,
    schemes::mithril::stm::{
        check_parameters, load_chain_certificate, load_registration, stm_message, MithrilStm,
    },
};

/// The relation of a chain proof file.
pub const CHAIN_RELATION: &str = "mithril-stm-0.13-chain";
/// The step proving key's cache file, in the step key cache's directory.
pub const STEP_PK_FILE: &str = "chain-step-stm.pk";
const STEP_PK_MAGIC: &[u8] = b"tms mithril-stm chain step pk v1\n";

fn header() -> Header {
    Header::on(Scheme::Mithril, Some(BACKEND))
}

/// A registration's root: a mithril-stm registration (or aggregate key) file, or the root itself
/// (`0x`-hex, big-endian).
pub fn registration_root(arg: &crate::commands::chain::RegistrationArg) -> Result<Base> {
    match arg {
        crate::commands::chain::RegistrationArg::File(path) => Ok(load_registration(path)?.root),
        crate::commands::chain::RegistrationArg::Digest(hex) => {
            base_from_hex(hex, "registration root").map_err(usage)
        }
    }
}

/// `tms chain link --format mithril-stm`: the 32 bytes epoch `epoch`'s signers sign.
pub fn link(next_registration: &Path, epoch: u64, application: &[u8]) -> Result<()> {
    let application = stm_message(application).map_err(usage)?;
    let next_root = load_registration(next_registration)?.root;
    println!(
        "{}",
        bytes_to_hex(&link_message(next_root, &application, epoch))
    );
    Ok(())
}

/// A chain proof file.
#[derive(Serialize, Deserialize)]
struct ChainProofFile {
    #[serde(flatten)]
    header: Header,
    relation: String,
    genesis: String,
    last_registration: String,
    application: String,
    epochs: u64,
    accumulator: String,
    proof: String,
}

fn write_chain_proof(path: &Path, chain: &ChainProof) -> Result<()> {
    let s = &chain.statement;
    write_json(
        path,
        &ChainProofFile {
            header: header(),
            relation: CHAIN_RELATION.into(),
            genesis: base_to_hex(&s.genesis),
            last_registration: base_to_hex(&s.last_root),
            application: bytes_to_hex(&s.application),
            epochs: s.epochs,
            accumulator: bytes_to_hex(&accumulator_to_bytes(&chain.accumulator)),
            proof: bytes_to_hex(&chain.proof),
        },
    )
}

/// A chain proof file, its accumulator decoded for `layout`. The statement is the prover's: a
/// verifier compares it with its own.
fn read_chain_proof(path: &Path, layout: &StepLayout) -> Result<ChainProof> {
    let file: ChainProofFile = read_json_on(path, Scheme::Mithril, Some(BACKEND))?;
    if file.relation != CHAIN_RELATION {
        return Err(at(
            path,
            "not a mithril-stm chain proof (tms chain extend --format mithril-stm writes one)",
        ));
    }
    let e = |e: String| at(path, e);
    let accumulator = layout
        .accumulator_from_bytes(&bytes_from_hex(&file.accumulator, "accumulator").map_err(e)?)
        .ok_or_else(|| at(path, "the accumulator does not decode for this step key"))?;
    Ok(ChainProof {
        statement: ChainStatement {
            genesis: base_from_hex(&file.genesis, "genesis").map_err(e)?,
            last_root: base_from_hex(&file.last_registration, "last_registration").map_err(e)?,
            application: stm_message(&bytes_from_hex(&file.application, "application").map_err(e)?)
                .map_err(e)?,
            epochs: file.epochs,
        },
        accumulator,
        proof: bytes_from_hex(&file.proof, "proof").map_err(e)?,
    })
}

/// The step proving key for `certificate_vk` at `chain_params`: read back from the cache
/// (`DIR/chain-step-stm.pk`, for this certificate key and size), else made and stored.
fn step_keys(
    cache: &Path,
    regenerate: bool,
    chain_params: &Params12,
    certificate_vk: &Vk,
    on_keygen: impl FnOnce(),
) -> Result<(StepLayout, Pk, String)> {
    let layout = StepLayout::new(chain_params.max_k(), certificate_vk);
    let mut tag = STEP_PK_MAGIC.to_vec();
    tag.extend_from_slice(certificate_vk.transcript_repr().to_repr().as_ref());
    tag.extend_from_slice(&chain_params.max_k().to_le_bytes());
    let start = Instant::now();
    if cache.exists() && !regenerate {
        let mut file = std::io::BufReader::new(
            std::fs::File::open(cache).map_err(|e| at(cache, format!("cannot read: {e}")))?,
        );
        let mut head = vec![0; tag.len()];
        file.read_exact(&mut head)
            .map_err(|e| at(cache, format!("cannot read: {e}")))?;
        if head != tag {
            return Err(at(
                cache,
                "cached step keys for another certificate key or size: give \
                 --regenerate-step-keys to replace them, or --step-cache DIR",
            ));
        }
        let pk = Pk::read::<_, StepCircuit>(&mut file, SerdeFormat::RawBytes, ())
            .map_err(|e| at(cache, format!("not a step proving key: {e}")))?;
        let said = format!(
            "step keys reused from {} ({:.0} s)",
            cache.display(),
            start.elapsed().as_secs_f64()
        );
        return Ok((layout, pk, said));
    }
    on_keygen();
    let (layout, pk) = stm_chain::step_keygen(chain_params, certificate_vk)
        .map_err(|e| CliError(e.to_string()))?;
    let made = start.elapsed().as_secs_f64();
    let mut bytes = tag;
    pk.write(&mut bytes, SerdeFormat::RawBytes)
        .map_err(|e| at(cache, e.to_string()))?;
    write_atomic(cache, &bytes)?;
    let said = format!(
        "step keys made ({made:.0} s) and kept in {} ({} MiB) for the next epochs",
        cache.display(),
        bytes.len() >> 20
    );
    Ok((layout, pk, said))
}

/// `tms chain extend --format mithril-stm`.
pub fn extend(args: &ChainExtendArgs) -> Result<()> {
    let start = Instant::now();
    let outcome = extend_chain(args);
    super::say(
        "extended",
        ("mithril", "cardano"),
        args.json.json,
        start,
        &outcome,
    );
    outcome.map(|_| ())
}

fn extend_chain(args: &ChainExtendArgs) -> Result<(Vec<String>, serde_json::Value)> {
    // The link first: a certificate that does not continue the chain fails before any
    // parameters or keys are read.
    let registration = load_registration(&args.registration)?;
    let tree = registration.tree(&args.registration)?;
    let next_root = load_registration(&args.next_registration)?.root;
    let (message, certificate, hand_over) = load_chain_certificate(&args.certificate, tree)?;
    let hand_over = hand_over.ok_or_else(|| {
        at(
            &args.certificate,
            "not a chain certificate: make it with tms certify --format mithril-stm \
             --next-registration --epoch",
        )
    })?;
    let application = stm_message(
        &bytes_from_hex(&hand_over.application, "application")
            .map_err(|e| at(&args.certificate, e))?,
    )
    .map_err(|e| at(&args.certificate, e))?;
    let previous_file = args.previous.as_deref();
    let epochs_so_far = match previous_file {
        None => 0,
        Some(path) => {
            let file: ChainProofFile = read_json_on(path, Scheme::Mithril, Some(BACKEND))?;
            file.epochs
        }
    };
    if hand_over.epoch != epochs_so_far
        || hand_over.next_root != base_to_hex(&next_root)
        || message != link_message(next_root, &application, hand_over.epoch)
    {
        return Err(at(
            &args.certificate,
            format!(
                "signs the link of epoch {} to registration {}; this chain needs epoch \
                 {epochs_so_far} to {} ({})",
                hand_over.epoch,
                hand_over.next_root,
                base_to_hex(&next_root),
                args.next_registration.display()
            ),
        ));
    }

    let read = Instant::now();
    let chain_params = load_params(&args.chain_params)?;
    let params = load_params(&args.prover.params)?;
    let standalone: StmKeys = MithrilStm::read_pk(&args.prover.pk)?;
    check_params_k(&args.prover.params, params.max_k(), standalone.shape.k)?;
    check_parameters(
        &args.prover.pk,
        &standalone.shape,
        registration.parameters,
        "proving key",
    )?;
    let reading = read.elapsed().as_secs_f64();
    let start = Instant::now();
    let bar = spinner("step keys");
    stage(&bar, "certificate keys of the chain layout".into());
    let keys = chain_certificate_keys(&params, standalone.shape, &args.prover.pk)?;
    let cache = args.cache.path(&args.proof).with_file_name(STEP_PK_FILE);
    let (layout, step_pk, step_keys_said) = step_keys(
        &cache,
        args.cache.regenerate_step_keys,
        &chain_params,
        keys.vk(),
        || {
            stage(
                &bar,
                format!(
                    "step keys at k = {} (a minute or more, GiB)",
                    chain_params.max_k()
                ),
            )
        },
    )?;
    let step_keys_seconds = start.elapsed().as_secs_f64();
    let previous = previous_file
        .map(|path| read_chain_proof(path, &layout))
        .transpose()?;
    if let (Some(p), Some(path)) = (&previous, previous_file) {
        if p.statement.last_root != registration.root {
            return Err(at(
                &args.certificate,
                format!(
                    "signed by registration {}, but the chain of {} ends at {}",
                    base_to_hex(&registration.root),
                    path.display(),
                    base_to_hex(&p.statement.last_root)
                ),
            ));
        }
    }
    stage(&bar, "proving the certificate".into());
    let instance = StmInstance::from_trusted(registration.root, &message);
    let witness = StmWitness::new(keys.shape, instance, &certificate)
        .map_err(|e| at(&args.certificate, e))?;
    let rng = || ChaCha20Rng::from_rng(rand::rngs::OsRng).expect("OS randomness");
    let certificate_proof = stm_chain::prove_certificate(&params, &keys, &witness, rng())
        .map_err(|e| at(&args.certificate, e))?;
    let certificate_seconds = start.elapsed().as_secs_f64() - step_keys_seconds;
    stage(&bar, "proving the step (minutes)".into());
    let chain = stm_chain::extend(
        &chain_params,
        (&layout, &step_pk),
        previous.as_ref(),
        registration.root,
        &certificate_proof,
        next_root,
        &application,
        rng(),
    )
    .map_err(|e| match previous_file {
        Some(path) => at(path, e),
        None => CliError(e.to_string()),
    })?;
    // Checked before it is written: keys read back from a cache prove only what verifies under
    // the key written beside the proof.
    let step_vk = step_pk.get_vk();
    stm_chain::verify(
        &chain_params.verifier_params(),
        &layout,
        step_vk,
        &chain.statement,
        &chain.accumulator,
        &chain.proof,
    )
    .map_err(|_| {
        CliError(
            "the new step proof does not verify under the step key (a damaged step key cache?)"
                .into(),
        )
    })?;
    bar.finish_and_clear();
    let vk_bytes = vk_to_bytes(step_vk);
    write_atomic(&args.vk, &vk_bytes)?;
    write_chain_proof(&args.proof, &chain)?;
    let s = &chain.statement;
    let seconds = start.elapsed().as_secs_f64();
    let line = format!(
        "chain of {} epoch{} from genesis {} to registration {}, last application message {}: \
         proof ({} bytes, Poseidon transcript, {seconds:.0} s) written to {}; step verifying key \
         written to {} (fingerprint {}); {step_keys_said}",
        s.epochs,
        if s.epochs == 1 { "" } else { "s" },
        base_to_hex(&s.genesis),
        base_to_hex(&s.last_root),
        bytes_to_hex(&s.application),
        chain.proof.len(),
        args.proof.display(),
        args.vk.display(),
        fingerprint(&vk_bytes)
    );
    let json = serde_json::json!({
        "statement": {
            "genesis": base_to_hex(&s.genesis),
            "last_registration": base_to_hex(&s.last_root),
            "last_message": bytes_to_hex(&s.application),
            "epochs": s.epochs,
        },
        "proof": args.proof,
        "bytes": chain.proof.len(),
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
    Ok((vec![line], json))
}

/// The certificate key of a chain as a verifier may use it: pinned, or regenerated from the
/// shape its file states; the chain's certificate key is that shape's chain layout, made here.
fn trusted_certificate_key(params: &Params12, trust: &KeyTrust) -> Result<(Vk, Vec<u8>)> {
    let bytes = trust.read()?;
    let (shape, _) = MithrilStm::read_vk(trust.vk, &bytes)?;
    trust.check_regenerated(&bytes, "its shape", || {
        MithrilStm::regenerate_vk(params, &shape, trust.vk)
    })?;
    check_params_k(trust.vk, params.max_k(), shape.k)?;
    let keys = chain_certificate_keys(params, shape, trust.vk)?;
    Ok((keys.vk().clone(), bytes))
}

/// The keys of a chain's certificate proofs: the certificate key's shape (at `path`) laid out
/// for a step's in-circuit verifier ([`StmShape::for_chain`]), made from `params` (seconds: the
/// certificate circuit is small beside the step).
fn chain_certificate_keys(params: &Params12, shape: StmShape, path: &Path) -> Result<StmKeys> {
    let shape = shape.for_chain();
    if let Some(k) = tms_cardano::scheme::needed_k(&shape) {
        return Err(at(
            path,
            format!(
                "a chain lays this shape out at k = {k} (the key is for k = {}): make the \
                 certificate key and its parameters with --k {k}",
                shape.k
            ),
        ));
    }
    prover::keygen(params, shape).map_err(|e| at(path, e))
}

/// `tms chain keygen --step --format mithril-stm`: the step key from the certificate key alone.
pub fn keygen(
    params: &Path,
    certificate_key: &KeyTrust,
    chain_params: &Path,
    out_vk: &Path,
) -> Result<()> {
    let chain_params = load_params(chain_params)?;
    let params = load_params(params)?;
    let (certificate_vk, _) = trusted_certificate_key(&params, certificate_key)?;
    let start = Instant::now();
    let bar = spinner("keygen: the step circuit (a minute or more)");
    let (_, pk) = stm_chain::step_keygen(&chain_params, &certificate_vk)
        .map_err(|e| CliError(e.to_string()))?;
    bar.finish_and_clear();
    let bytes = vk_to_bytes(pk.get_vk());
    write_atomic(out_vk, &bytes)?;
    println!(
        "mithril-stm chain step key (k = {}, {:.0} s) written to {} (fingerprint {})",
        chain_params.max_k(),
        start.elapsed().as_secs_f64(),
        out_vk.display(),
        fingerprint(&bytes)
    );
    Ok(())
}

/// What `tms chain verify --format mithril-stm` is given.
pub struct StmChainVerifyArgs<'a> {
    /// The genesis registration's root (from its file or given).
    pub genesis: Base,
    /// The root of the registration the chain is claimed to hand over to.
    pub last_root: Base,
    /// The last application message.
    pub application: &'a [u8],
    /// The number of epochs claimed.
    pub epochs: u64,
    /// The step circuit's KZG parameters.
    pub chain_params: &'a Path,
    /// The step key and how it is trusted.
    pub key: KeyTrust<'a>,
    /// The certificate key (pinned or regenerated) and its parameters: the step key is laid out
    /// over it, and the accumulator's pairing takes its fixed commitments.
    pub certificate: (KeyTrust<'a>, &'a Path),
    /// The chain proof file.
    pub proof: &'a Path,
    /// `--json`.
    pub json: &'a JsonArgs,
}

/// `tms chain verify --format mithril-stm`: the statement built from what the verifier holds.
pub fn verify(args: &StmChainVerifyArgs) -> Result<()> {
    let start = Instant::now();
    let outcome = verify_chain(args);
    super::say(
        "verified",
        ("mithril", "cardano"),
        args.json.json,
        start,
        &outcome,
    );
    outcome.map(|_| ())
}

fn verify_chain(args: &StmChainVerifyArgs) -> Result<(Vec<String>, serde_json::Value)> {
    let application = stm_message(args.application).map_err(usage)?;
    let statement = ChainStatement {
        genesis: args.genesis,
        last_root: args.last_root,
        application,
        epochs: args.epochs,
    };
    if args.epochs == 0 {
        return Err(usage("--epochs: a chain proof shows at least one epoch"));
    }
    let chain_params = load_params(args.chain_params)?;
    let (certificate_trust, certificate_params) = &args.certificate;
    let params = load_params(certificate_params)?;
    let (certificate_vk, certificate_file) = trusted_certificate_key(&params, certificate_trust)?;
    let step_file = args.key.read()?;
    let step_vk = vk_from_bytes::<StepCircuit>(&step_file, ())
        .map_err(|e| at(args.key.vk, format!("not a step verifying key: {e}")))?;
    args.key
        .check_regenerated(&step_file, "the certificate key", || {
            stm_chain::step_keygen(&chain_params, &certificate_vk)
                .map(|(_, pk)| vk_to_bytes(pk.get_vk()))
                .map_err(|e| CliError(e.to_string()))
        })?;
    let layout = StepLayout::new(chain_params.max_k(), &certificate_vk);
    let chain = read_chain_proof(args.proof, &layout)?;
    let verified = Instant::now();
    stm_chain::verify(
        &chain_params.verifier_params(),
        &layout,
        &step_vk,
        &statement,
        &chain.accumulator,
        &chain.proof,
    )
    .map_err(|_| {
        at(
            args.proof,
            if chain.statement != statement {
                "refused: the proof is for another statement (genesis, last registration, \
                 application message or epochs) than the one given"
            } else {
                "refused: the chain proof does not verify under this step key"
            },
        )
    })?;
    let ms = verified.elapsed().as_secs_f64() * 1e3;
    let line = format!(
        "verified: a chain of {} mithril-stm certificate{} from genesis {} to registration {}, \
         last application message {} ({}; certificate key {}; {ms:.1} ms)",
        args.epochs,
        if args.epochs == 1 { "" } else { "s" },
        base_to_hex(&statement.genesis),
        base_to_hex(&statement.last_root),
        bytes_to_hex(&application),
        args.key.describe(&step_file),
        certificate_trust.describe(&certificate_file),
    );
    let json = serde_json::json!({
        "statement": {
            "genesis": base_to_hex(&statement.genesis),
            "last_registration": base_to_hex(&statement.last_root),
            "last_message": bytes_to_hex(&application),
            "epochs": args.epochs,
        },
        "fingerprint": fingerprint(&step_file),
        "milliseconds": ms,
    });
    Ok((vec![line], json))
}
