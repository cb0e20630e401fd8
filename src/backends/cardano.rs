//! The Cardano backend ([`Cardano`]: KZG over BLS12-381, midnight-proofs' Blake2b transcript),
//! all that its schemes share: the encodings of Jubjub and BLS12-381 values, member key files,
//! proving and verifying key files, parameters (`tms setup --backend cardano`), and the Plutus V3
//! validators of `tms export-plutus` (crate `tms-cardano`) with their budgets.
//!
//! Encodings (guide, formats.md): a Jubjub key or nonce point is its 32-byte compressed form
//! (midnight-curves' `GroupEncoding`; decoding checks the prime-order subgroup); a Jubjub scalar
//! is its 32-byte little-endian `to_repr`, in byte order; a BLS12-381 scalar-field element (the
//! commitment) is 64 hex digits, big-endian, as on BN254. Parameters are midnight-proofs'
//! `RawBytes` KZG format; a proving key file is one JSON line (header and shape) then
//! midnight-proofs' `RawBytes` proving key; a verifying key file is JSON holding the shape and
//! the `Processed` key bytes.

use std::{fs, path::Path};

use ff::{Field, PrimeField};
use group::GroupEncoding;
use midnight_curves::JubjubSubgroup as Point;
use midnight_proofs::{
    poly::{commitment::Params as _, kzg::params::ParamsKZG},
    utils::SerdeFormat,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use schnorr_atms_jubjub::{Base, JubjubScalar, Signature, SigningKey};
use serde::{Deserialize, Serialize};
use tms_cardano::{
    backend::{self, Bls12, Vk},
    ceremony,
    plutus::{self, uplc::MsmMode, Entry},
    scheme::{MidnightScheme, SchemeKeys},
};
use tms_gadgets::proving::{keys::fingerprint, params::sha256_file_hex, Transcript};

use crate::{
    formats::{bytes_from_hex, bytes_to_hex, Header, MemberFile, PublicFile},
    interface::{KeyTrust, ProofOutput, ProvingBackend, VerifyArgs},
    io::{
        at, read_bytes, read_json_on, read_recorded_params_bytes, spinner, usage, write_atomic,
        write_params_bytes, CliError, MemberSecret, Result, INSECURE_WARNING,
    },
    options::{PlutusForm, Scheme},
};

/// The backend's name in files.
pub const BACKEND: &str = "cardano";

/// Mainnet's per-transaction limits (Conway): CPU steps, memory units, bytes.
const TX_CPU: i64 = 10_000_000_000;

const TX_MEM: i64 = 16_500_000;

const TX_BYTES: usize = 16_384;

pub(crate) fn point_to_hex(p: &Point) -> String {
    bytes_to_hex(&p.to_bytes())
}

pub(crate) fn point_from_hex(s: &str, what: &str) -> std::result::Result<Point, String> {
    let bytes: [u8; 32] = bytes_from_hex(s, what)?
        .try_into()
        .map_err(|_| format!("{what} must be 0x followed by 64 hex digits"))?;
    Option::from(Point::from_bytes(&bytes))
        .ok_or_else(|| format!("{what} is not a point of Jubjub's prime-order subgroup"))
}

pub(crate) fn scalar_to_hex(x: &JubjubScalar) -> String {
    bytes_to_hex(x.to_repr().as_ref())
}

pub(crate) fn scalar_from_hex(s: &str, what: &str) -> std::result::Result<JubjubScalar, String> {
    let bytes: [u8; 32] = bytes_from_hex(s, what)?
        .try_into()
        .map_err(|_| format!("{what} must be 0x followed by 64 hex digits"))?;
    Option::from(JubjubScalar::from_repr(bytes))
        .ok_or_else(|| format!("{what} is not below Jubjub's subgroup order"))
}

/// `0x`-hex, big-endian, of a BLS12-381 scalar-field element.
pub fn base_to_hex(x: &Base) -> String {
    let mut b = x.to_repr();
    b.as_mut().reverse();
    bytes_to_hex(b.as_ref())
}

/// Parses `0x` + 64 hex digits (big-endian) below BLS12-381's scalar-field order.
pub fn base_from_hex(s: &str, what: &str) -> std::result::Result<Base, String> {
    let mut bytes: [u8; 32] = bytes_from_hex(s, what)?
        .try_into()
        .map_err(|_| format!("{what} must be 0x followed by 64 hex digits"))?;
    bytes.reverse();
    Option::from(Base::from_repr(bytes))
        .ok_or_else(|| format!("{what} is not below the BLS12-381 scalar field modulus"))
}

pub(crate) fn signature_to_hex(sig: &Signature) -> String {
    let mut bytes = sig.r.to_bytes().to_vec();
    bytes.extend_from_slice(sig.s.to_repr().as_ref());
    bytes_to_hex(&bytes)
}

pub(crate) fn signature_from_hex(hex: &str, what: &str) -> std::result::Result<Signature, String> {
    let bytes = bytes_from_hex(hex, what)?;
    if bytes.len() != 64 {
        return Err(format!("{what} must be 0x followed by 128 hex digits"));
    }
    Ok(Signature {
        r: point_from_hex(&bytes_to_hex(&bytes[..32]), what)?,
        s: scalar_from_hex(&bytes_to_hex(&bytes[32..]), what)?,
    })
}

/// The verifying key file, of a scheme whose shape file is `F` (its layout is `tms-cardano`'s,
/// which the WebAssembly verifier reads too).
pub type VkFile<F> = tms_cardano::key_file::VkFile<Header, F>;

/// The proving key file's first line (midnight-proofs' `RawBytes` proving key follows it).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct PkHeader<F> {
    /// Version, scheme, backend.
    #[serde(flatten)]
    pub header: Header,
    /// The circuit shape.
    pub shape: F,
}

/// Reads a Jubjub member key file of `scheme`, checking the public key matches the secret key.
pub(crate) fn load_member_of(scheme: Scheme, key: &Path) -> Result<SigningKey> {
    let file: MemberFile = read_json_on(key, scheme, Some(BACKEND))?;
    let sk = SigningKey(scalar_from_hex(&file.secret_key, "secret_key").map_err(|e| at(key, e))?);
    let pk = point_from_hex(&file.public_key, "public_key").map_err(|e| at(key, e))?;
    if sk.verifying_key().0 != pk {
        return Err(at(key, "public_key does not match secret_key"));
    }
    Ok(sk)
}

/// Jubjub member keys (Schnorr ATMS and SNARK-Mithril on the Cardano backend).
impl MemberSecret for SigningKey {
    const BACKEND: Option<&'static str> = Some(BACKEND);
    fn random(rng: &mut ChaCha20Rng) -> Self {
        SigningKey::random(rng)
    }
    fn to_hex(&self) -> (String, String) {
        (
            scalar_to_hex(&self.0),
            point_to_hex(&self.verifying_key().0),
        )
    }
}

/// `tms setup --backend cardano`: BLS12-381 KZG parameters for `2^k` rows, imported from
/// Midnight's ceremony SRS (`srs`: a `bls_midnight_2p<K>` file, `K >= k`, its structure checked;
/// named when its SHA-256 is one Midnight publishes) or, without one, from the fixed public seed
/// (INSECURE; the same as `tms-cardano`'s and the circuit crates').
pub fn setup(k: u32, srs: Option<&Path>, out: &Path) -> Result<()> {
    if !(10..=22).contains(&k) {
        return Err(usage(format!("--k: {k} is outside 10..=22")));
    }
    let (params, source) = match srs {
        None => {
            eprintln!("{INSECURE_WARNING}");
            let _bar = spinner("making the parameters");
            (backend::insecure_test_params(k), "INSECURE test".to_owned())
        }
        Some(path) => {
            let bar = spinner("hashing the SRS file");
            let sha = sha256_file_hex(path).map_err(|e| at(path, format!("cannot read: {e}")))?;
            bar.set_message("reading and checking the SRS (a pairing check of every power)");
            let (params, file_k) =
                ceremony::import_midnight_srs(path, k).map_err(|e| at(path, e))?;
            bar.finish_and_clear();
            let provenance = match ceremony::midnight_file_k(&sha) {
                Some(published) if published == file_k => format!(
                    "Midnight's published bls_midnight_2p{file_k} (sha256 {sha}, the checksum \
                     in Midnight's SRS catalog)"
                ),
                _ => format!(
                    "{} (sha256 {sha}: not one of Midnight's published files; its structure \
                     is checked, where its tau came from is not)",
                    path.display()
                ),
            };
            (
                params,
                format!("BLS12-381 ceremony parameters from {provenance},"),
            )
        }
    };
    let mut bytes = vec![];
    params
        .write_custom(&mut bytes, SerdeFormat::RawBytes)
        .expect("writing to memory");
    let digest = write_params_bytes(out, &bytes)?;
    match srs {
        None => println!(
            "INSECURE test BLS12-381 parameters for 2^{k} rows written to {} (sha256 {digest})",
            out.display()
        ),
        Some(_) => println!(
            "{source} cut to 2^{k} rows, written to {} (sha256 {digest})",
            out.display()
        ),
    }
    Ok(())
}

/// Reads BLS12-381 parameters (checked against `<file>.sha256` when there is one); warns when
/// they are the insecure test parameters. A file matching its record (bytes `tms setup` made or
/// checked) has only the points a verifier uses checked again
/// ([`backend::PointChecks::VerifierPoints`]); any other file has every point checked.
pub fn load_params(path: &Path) -> Result<ParamsKZG<Bls12>> {
    let bar = spinner("reading the parameters");
    let (bytes, recorded) = read_recorded_params_bytes(path)?;
    let checks = if recorded {
        backend::PointChecks::VerifierPoints
    } else {
        backend::PointChecks::Every
    };
    let params = backend::params_from_raw_bytes_with(&bytes, checks).map_err(|e| {
        at(
            path,
            format!("not BLS12-381 KZG parameters (midnight-proofs raw bytes): {e}"),
        )
    })?;
    bar.finish_and_clear();
    if is_insecure_test(&params) {
        eprintln!("{INSECURE_WARNING}: {}", path.display());
    }
    Ok(params)
}

/// Whether `params` are the insecure test parameters of any size: their `[s] G2` is the
/// generator times the seed's first draw (midnight-proofs' `unsafe_setup` draws `s` first).
fn is_insecure_test(params: &ParamsKZG<Bls12>) -> bool {
    let s = Base::random(ChaCha20Rng::from_seed(backend::INSECURE_SEED));
    params.s_g2() == params.g2() * s
}

/// A verifying key file of `scheme` on this backend: JSON with the header, the shape and the
/// `Processed` key bytes.
pub(crate) fn key_file_vk<F: Serialize>(scheme: Scheme, shape: &F, vk: &Vk) -> Vec<u8> {
    let file = VkFile {
        header: Header::on(scheme, Some(BACKEND)),
        shape,
        vk: bytes_to_hex(&backend::vk_to_bytes(vk)),
    };
    let mut text = serde_json::to_string_pretty(&file).expect("serializable");
    text.push('\n');
    text.into_bytes()
}

/// Parses a verifying key file of `scheme` for circuit `C`: its shape file and key
/// (`tms-cardano`'s reader, the one the WebAssembly verifier uses).
pub(crate) fn read_key_file_vk<F, C>(scheme: Scheme, path: &Path, bytes: &[u8]) -> Result<(F, Vk)>
where
    F: serde::de::DeserializeOwned,
    C: midnight_proofs::plonk::Circuit<Base>,
{
    tms_cardano::key_file::read_vk_file::<Header, F, C>(bytes, |header| {
        header.check_on(scheme, Some(BACKEND))
    })
    .map_err(|e| at(path, e))
}

/// A proving key file of `scheme`: one JSON header line (with the shape), then midnight-proofs'
/// `RawBytes` proving key.
pub(crate) fn key_file_pk<F: Serialize>(scheme: Scheme, shape: &F, pk: &backend::Pk) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(&PkHeader {
        header: Header::on(scheme, Some(BACKEND)),
        shape,
    })
    .expect("serializable");
    bytes.push(b'\n');
    pk.write(&mut bytes, SerdeFormat::RawBytes)
        .expect("writing to memory");
    bytes
}

/// Reads a proving key file of `scheme` for circuit `C`: its shape file and key.
pub(crate) fn read_key_file_pk<F, C>(scheme: Scheme, path: &Path) -> Result<(F, backend::Pk)>
where
    F: serde::de::DeserializeOwned,
    C: midnight_proofs::plonk::Circuit<Base>,
{
    let bytes = read_bytes(path)?;
    let split = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| at(path, "not a Cardano proving key file (no header line)"))?;
    let head: PkHeader<F> = serde_json::from_slice(&bytes[..split])
        .map_err(|e| at(path, format!("malformed header: {e}")))?;
    head.header
        .check_on(scheme, Some(BACKEND))
        .map_err(|e| at(path, e))?;
    let pk = backend::Pk::read::<_, C>(
        &mut &bytes[split + 1..],
        SerdeFormat::RawBytes,
        C::Params::default(),
    )
    .map_err(|e| at(path, format!("malformed proving key: {e}")))?;
    Ok((head.shape, pk))
}

/// A scheme's shape as its Cardano files write it (key files, statement files).
pub(crate) trait ShapeFileOf: Serialize + serde::de::DeserializeOwned {
    /// The shape in memory.
    type Shape: MidnightScheme;
    /// The file form of `shape`.
    fn of(shape: &Self::Shape) -> Self;
    /// The shape of a file, refused if no circuit can have it.
    fn shape(&self) -> std::result::Result<Self::Shape, String>;
}

/// The proving key file of `keys`.
pub(crate) fn pk_file<F: ShapeFileOf>(scheme: Scheme, keys: &SchemeKeys<F::Shape>) -> Vec<u8> {
    key_file_pk(scheme, &F::of(&keys.shape), &keys.pk)
}

/// The verifying key file of `keys`.
pub(crate) fn vk_file<F: ShapeFileOf>(scheme: Scheme, keys: &SchemeKeys<F::Shape>) -> Vec<u8> {
    key_file_vk(scheme, &F::of(&keys.shape), keys.vk())
}

/// Reads a proving key file of `scheme`: its shape, checked, and key.
pub(crate) fn read_pk<F>(scheme: Scheme, path: &Path) -> Result<SchemeKeys<F::Shape>>
where
    F: ShapeFileOf,
    <F::Shape as MidnightScheme>::Circuit: midnight_proofs::plonk::Circuit<Base>,
{
    let (shape, pk) = read_key_file_pk::<F, <F::Shape as MidnightScheme>::Circuit>(scheme, path)?;
    Ok(SchemeKeys {
        shape: shape.shape().map_err(|e| at(path, e))?,
        pk,
    })
}

/// Reads a verifying key file of `scheme`: its shape, checked, and key.
pub(crate) fn read_vk<F>(scheme: Scheme, path: &Path, bytes: &[u8]) -> Result<(F::Shape, Vk)>
where
    F: ShapeFileOf,
    <F::Shape as MidnightScheme>::Circuit: midnight_proofs::plonk::Circuit<Base>,
{
    let (shape, vk) =
        read_key_file_vk::<F, <F::Shape as MidnightScheme>::Circuit>(scheme, path, bytes)?;
    Ok((shape.shape().map_err(|e| at(path, e))?, vk))
}

/// A proof of `witness` in midnight-proofs' Blake2b transcript (the one Plutus replays), blinded
/// with the operating system's randomness.
pub(crate) fn prove<S>(
    params: &ParamsKZG<Bls12>,
    keys: &SchemeKeys<S>,
    witness: &S::Witness,
) -> std::result::Result<Vec<u8>, String>
where
    S: MidnightScheme,
    S::Error: std::fmt::Display,
{
    let rng = ChaCha20Rng::from_rng(rand::rngs::OsRng).expect("OS randomness");
    tms_cardano::scheme::prove(params, keys, witness, rng).map_err(|e| e.to_string())
}

/// The key-file and proving methods of [`crate::interface::CertificateScheme`] for a circuit on
/// this backend (keys `SchemeKeys` of the shape, written in key files as `$file`), written once.
macro_rules! midnight_calls {
    ($file:ty) => {
        fn pk_file(keys: &Self::Keys) -> Vec<u8> {
            $crate::backends::cardano::pk_file::<$file>(Self::SCHEME, keys)
        }

        fn vk_file(keys: &Self::Keys) -> Vec<u8> {
            $crate::backends::cardano::vk_file::<$file>(Self::SCHEME, keys)
        }

        fn read_pk(path: &std::path::Path) -> $crate::io::Result<Self::Keys> {
            $crate::backends::cardano::read_pk::<$file>(Self::SCHEME, path)
        }

        fn read_vk(
            path: &std::path::Path,
            bytes: &[u8],
        ) -> $crate::io::Result<(Self::Shape, tms_cardano::backend::Vk)> {
            $crate::backends::cardano::read_vk::<$file>(Self::SCHEME, path, bytes)
        }

        fn prove(
            params: &<Self::Backend as $crate::interface::ProvingBackend>::Params,
            keys: &Self::Keys,
            witness: &Self::Witness,
            _: tms_gadgets::proving::Transcript,
        ) -> std::result::Result<Vec<u8>, String> {
            $crate::backends::cardano::prove(params, keys, witness)
        }
    };
}
pub(crate) use midnight_calls;

/// The protocol version a Plutus figure assumes and its MSM mode.
pub fn msm_mode(pv: u16) -> Result<MsmMode> {
    match pv {
        10 => Ok(MsmMode::Fold),
        11 => Ok(MsmMode::Builtin),
        _ => Err(usage(format!(
            "--protocol-version: {pv}; 10 (mainnet today: the MSM as a fold) or 11 (the \
             CIP-0133 MSM builtin)"
        ))),
    }
}

/// A statement's entries: each a script parameter, `None` the message.
fn entries(statement: &[Option<Base>]) -> Vec<Entry> {
    statement
        .iter()
        .map(|e| e.map_or(Entry::Message, Entry::Param))
        .collect()
}

/// The validator's script bytes and, for a proof, the honest evaluation.
pub(crate) struct Evaluated {
    /// The script bytes (flat UPLC in CBOR).
    pub script: Vec<u8>,
    /// With a certificate: the evaluation's budget and the redeemer bytes.
    pub run: Option<(plutus::Budget, Vec<u8>)>,
}

/// The public inputs of `statement` (each entry a trusted script parameter, or `None` for the
/// message) for the message bytes `message`, made by `v`'s rule.
fn instance_of(
    v: &dyn plutus::ScriptVerifier,
    statement: &[Option<Base>],
    message: &[u8],
) -> Vec<Base> {
    plutus::statement_instance(&entries(statement), &v.message_rule().fields(message))
}

/// The example validator of `v` whose statement is `statement` in instance order: each entry a
/// trusted script parameter, or `None` for the message the redeemer carries (its entries made by
/// `v`'s rule); with a certificate (message bytes, proof), its evaluation.
pub(crate) fn validator(
    v: &plutus::Halo2Verifier,
    statement: &[Option<Base>],
    certificate: Option<(&[u8], &[u8])>,
) -> Result<Evaluated> {
    plutus::with_big_stack(|| {
        let program = plutus::validator_with(v, &entries(statement))
            .map_err(|e| usage(format!("the Plutus validator: {e}")))?;
        let script = plutus::script_bytes(&program);
        let run = certificate.map(|(message, proof)| {
            let pi = instance_of(v, statement, message);
            let (budget, red) = plutus::run_example(&program, v, message, proof, &pi);
            let red_bytes = uplc::ast::Data::to_hex(red);
            let red_bytes =
                bytes_from_hex(&format!("0x{red_bytes}"), "redeemer").expect("uplc writes hex");
            (budget, red_bytes)
        });
        Ok(Evaluated { script, run })
    })
}

/// Where and how `tms export-plutus` writes a bridge validator.
pub struct BridgeOut<'a> {
    /// Which script (state-thread or observer).
    pub form: PlutusForm,
    /// The state thread's token: policy id and asset name (hex).
    pub thread: Option<(&'a str, &'a str)>,
    /// The protocol version the script targets (printed).
    pub protocol_version: u16,
    /// The folder to write.
    pub out: &'a Path,
}

/// `tms export-plutus --form state-thread|observer`: the bridge validator of a certificate
/// verifier (the halo2 verifier of a key, or a Groth16 wrapper's) (the statement's parameters are
/// the observer's script parameters, or the state thread's genesis datum, written beside it as
/// `genesis-datum.cbor` with epoch 0 and an empty payload). `threshold_at` is the threshold's
/// place in the statement.
pub(crate) fn write_bridge_export(
    a: &BridgeOut,
    scheme: Scheme,
    verifier: &(dyn plutus::ScriptVerifier + Sync),
    statement: &[Option<Base>],
    threshold_at: Option<usize>,
    insecure_note: Option<&str>,
) -> Result<()> {
    use tms_cardano::plutus::bridge::{self, Slot, ThreadLayout, ThreadState, ThreadToken};
    let params: Vec<Base> = statement.iter().flatten().copied().collect();
    let stem = match a.form {
        PlutusForm::StateThread => "state-thread",
        _ => "observer",
    };
    let bar = spinner("generating the Plutus validator");
    let program = plutus::with_big_stack(|| match a.form {
        PlutusForm::StateThread => {
            let (policy, name) = a.thread.ok_or_else(|| {
                usage("--form state-thread: give --thread-policy and --thread-name")
            })?;
            let policy: [u8; 28] = bytes_from_hex(policy, "--thread-policy")
                .map_err(usage)?
                .try_into()
                .map_err(|_| usage("--thread-policy: 28 bytes (0x + 56 hex digits)"))?;
            let token = ThreadToken {
                policy,
                name: bytes_from_hex(name, "--thread-name").map_err(usage)?,
            };
            // Each parameter becomes a datum entry, in order; the message stays the message.
            let mut k = 0;
            let instance = statement
                .iter()
                .map(|e| match e {
                    Some(_) => {
                        k += 1;
                        Slot::State(k - 1)
                    }
                    None => Slot::Message,
                })
                .collect();
            let thresholds = threshold_at
                .map(|t| statement[..t].iter().flatten().count())
                .into_iter()
                .collect();
            let layout = ThreadLayout {
                statement_len: params.len(),
                instance,
                thresholds,
            };
            let genesis = ThreadState {
                statement: params.clone(),
                epoch: 0,
                payload: vec![],
            };
            let p = bridge::state_thread_with(verifier, &layout, &token)
                .map_err(|e| usage(format!("--form state-thread: {e}")))?;
            Ok((plutus::script_bytes(&p), Some(genesis.to_data())))
        }
        _ => {
            let p = bridge::observer_with(verifier, &entries(statement))
                .map_err(|e| usage(format!("--form observer: {e}")))?;
            Ok((plutus::script_bytes(&p), None))
        }
    });
    bar.finish_and_clear();
    let (script, datum) = program?;
    let name = if insecure_note.is_some() {
        format!("{stem}.INSECURE-TEST.cbor")
    } else {
        format!("{stem}.cbor")
    };
    fs::create_dir_all(a.out).map_err(|err| at(a.out, format!("cannot create: {err}")))?;
    write_atomic(&a.out.join(&name), &script)?;
    if let Some(note) = insecure_note {
        write_atomic(&a.out.join(INSECURE_NOTE), note.as_bytes())?;
    }
    if let Some(d) = datum {
        write_atomic(
            &a.out.join("genesis-datum.cbor"),
            &uplc::plutus_data_to_bytes(&d),
        )?;
    }
    println!(
        "Plutus V3 {stem} validator ({}, protocol version {}): {} script bytes (deploy it as a \
         reference script); {name}{}",
        scheme.name(),
        a.protocol_version,
        script.len(),
        if a.form == PlutusForm::StateThread {
            ", genesis-datum.cbor (epoch 0)"
        } else {
            ""
        }
    );
    println!("written to {}", a.out.display());
    Ok(())
}

/// The file name of a script made from the INSECURE test parameters, and the note beside it.
pub const INSECURE_SCRIPT: &str = "validator.INSECURE-TEST.cbor";

/// The note written beside [`INSECURE_SCRIPT`].
pub const INSECURE_NOTE: &str = "INSECURE-TEST-PARAMETERS.txt";

const INSECURE_NOTE_TEXT: &str = "This script was made from the INSECURE seeded test parameters (tms setup --insecure-test): anyone can forge proofs under them, so it accepts forged certificates. For tests only: never deploy it. Export from a ceremony SRS (tms setup --backend cardano --srs) for a deployable script.\n";

/// One `plutus-budget` line (the format `.ci/run` greps).
pub(crate) fn budget_line(
    scheme: Scheme,
    case: &str,
    b: &plutus::Budget,
    script: usize,
    redeemer: usize,
    pv: u16,
) -> String {
    format!(
        "plutus-budget scheme={} case={case} cpu={} mem={} script_bytes={script} tx_bytes={} \
         pv={pv}",
        scheme.name(),
        b.cpu,
        b.mem,
        script + redeemer
    )
}

fn percent(x: i64, of: i64) -> f64 {
    100.0 * x as f64 / of as f64
}

/// What `tms export-plutus` is given.
pub struct ExportPlutusArgs<'a> {
    /// How the verifying key file is trusted: pinned or regenerated, as for `verify`.
    pub trust: KeyTrust<'a>,
    /// Verifying key file.
    pub vk: &'a Path,
    /// BLS12-381 parameters.
    pub params: &'a Path,
    /// The trusted committee (or registration) file.
    pub committee: Option<&'a Path>,
    /// Or the trusted commitment (or registration digest).
    pub commitment: Option<&'a str>,
    /// The threshold the script requires (ATMS).
    pub threshold: Option<u64>,
    /// The protocol version (10 or 11).
    pub protocol_version: u16,
    /// A proof and its message bytes, to evaluate the honest case.
    pub proof: Option<(&'a Path, Vec<u8>)>,
    /// Whether the INSECURE seeded test parameters are accepted (then said in the file name).
    pub insecure_test: bool,
    /// Which script.
    pub form: PlutusForm,
    /// The state thread's token: policy id and asset name (hex).
    pub thread: Option<(&'a str, &'a str)>,
    /// The folder to write.
    pub out: &'a Path,
}

/// `tms export-plutus`, once the scheme has read its key and built its statement (each entry a
/// trusted script parameter, or `None` for the message, whose entries `rule` makes): the
/// validator's script bytes and, given a proof, its redeemer and the honest evaluation's budget
/// line. The proof is checked natively first, for the same statement.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_plutus_export(
    a: &ExportPlutusArgs,
    scheme: Scheme,
    what: &str,
    params: &ParamsKZG<Bls12>,
    (vk_file, vk): (&[u8], &Vk),
    statement: &[Option<Base>],
    threshold_at: Option<usize>,
    rule: plutus::MessageRule,
) -> Result<()> {
    let mode = msm_mode(a.protocol_version)?;
    // Anyone can forge proofs under the seeded test parameters, so a script made from them
    // accepts forged certificates: exported only on request, and named so.
    let insecure = is_insecure_test(params);
    if insecure && !a.insecure_test {
        return Err(usage(format!(
            "{}: the INSECURE seeded test parameters (anyone can forge proofs under them, so \
             the script would accept forged certificates); use a ceremony SRS (tms setup \
             --backend cardano --srs), or --insecure-test to export a test script",
            a.params.display()
        )));
    }
    let vp = params.verifier_params();
    let verifier = plutus::Halo2Verifier {
        message: rule,
        ..plutus::Halo2Verifier::new(&vp, vk, mode)
    };
    if a.form != PlutusForm::Example {
        if a.proof.is_some() {
            return Err(usage(
                "--proof: evaluated for --form example only (a bridge form's budget needs a \
                 transaction: tms_cardano::plutus::scenario)",
            ));
        }
        let out = BridgeOut {
            form: a.form,
            thread: a.thread,
            protocol_version: a.protocol_version,
            out: a.out,
        };
        let note = insecure.then_some(INSECURE_NOTE_TEXT);
        return write_bridge_export(&out, scheme, &verifier, statement, threshold_at, note);
    }
    let script_name = if insecure {
        INSECURE_SCRIPT
    } else {
        "validator.cbor"
    };
    let proof = match &a.proof {
        Some((path, message)) => {
            let proof = read_bytes(path)?;
            let pi = instance_of(&verifier, statement, message);
            if !backend::verify(&vp, vk, &proof, &[&pi]) {
                return Err(at(
                    path,
                    "the proof does not verify for this statement (committee or registration, \
                     message, threshold)",
                ));
            }
            Some((message.as_slice(), proof))
        }
        None => None,
    };
    let bar = spinner("generating the Plutus validator");
    let e = validator(
        &verifier,
        statement,
        proof.as_ref().map(|(m, p)| (*m, p.as_slice())),
    )?;
    bar.finish_and_clear();
    fs::create_dir_all(a.out).map_err(|err| at(a.out, format!("cannot create: {err}")))?;
    write_atomic(&a.out.join(script_name), &e.script)?;
    if insecure {
        write_atomic(&a.out.join(INSECURE_NOTE), INSECURE_NOTE_TEXT.as_bytes())?;
    }
    println!(
        "Plutus V3 validator ({}, {what}, protocol version {}, MSM {}): {} script bytes ({}); \
         verifying key sha256 {}",
        scheme.name(),
        a.protocol_version,
        if mode == MsmMode::Fold {
            "as a fold"
        } else {
            "builtin"
        },
        e.script.len(),
        if e.script.len() <= TX_BYTES {
            format!("within a transaction's {TX_BYTES}")
        } else {
            format!("OVER a transaction's {TX_BYTES}: use a reference script")
        },
        fingerprint(vk_file)
    );
    println!("  {}", a.trust.describe(vk_file));
    if let Some((budget, redeemer)) = &e.run {
        write_atomic(&a.out.join("redeemer.cbor"), redeemer)?;
        if !budget.accepted {
            return Err(CliError(format!(
                "the validator refused the honest certificate (cpu {}, mem {})",
                budget.cpu, budget.mem
            )));
        }
        println!(
            "{}",
            budget_line(
                scheme,
                "honest",
                budget,
                e.script.len(),
                redeemer.len(),
                a.protocol_version
            )
        );
        println!(
            "honest certificate accepted: {:.1}% of a transaction's CPU steps, {:.1}% of its \
             memory units",
            percent(budget.cpu, TX_CPU),
            percent(budget.mem, TX_MEM)
        );
    }
    println!("written to {}", a.out.display());
    Ok(())
}

/// KZG over BLS12-381 (IOG's midnight stack): proofs a Plutus V3 validator checks, in
/// midnight-proofs' Blake2b transcript.
pub struct Cardano;

impl ProvingBackend for Cardano {
    const TAG: Option<&'static str> = Some(BACKEND);
    type Params = ParamsKZG<Bls12>;
    type Scalar = Base;
    type Vk = Vk;

    fn load_params(path: &Path) -> Result<ParamsKZG<Bls12>> {
        load_params(path)
    }

    fn params_k(params: &ParamsKZG<Bls12>) -> u32 {
        params.max_k()
    }

    fn test_params(k: u32) -> ParamsKZG<Bls12> {
        backend::insecure_test_params(k)
    }

    fn check_transcript(transcript: Transcript) -> Result<()> {
        if transcript != Transcript::Blake2b {
            return Err(usage(
                "--backend cardano proves in midnight-proofs' Blake2b transcript only \
                 (--transcript blake2b)",
            ));
        }
        Ok(())
    }

    // midnight-proofs' verifier parameters are cut from the full ones at the key's size.
    fn check_verifier_params(path: &Path, params: &ParamsKZG<Bls12>, key_k: u32) -> Result<()> {
        crate::checks::check_params_k(path, params.max_k(), key_k)
    }

    fn write_proof<S: Serialize>(
        out: &ProofOutput,
        proof: &[u8],
        public: &PublicFile<S>,
        _: &[Base],
        seconds: f64,
    ) -> Result<Vec<String>> {
        out.write_without_calldata(proof, public, seconds)
    }

    fn rejected(args: &VerifyArgs) -> CliError {
        at(
            &args.proof,
            "the proof does not verify for the trusted statement (cardano backend, blake2b \
             transcript)",
        )
    }
}

/// The demos' Plutus rows: the validator of `vk` for `statement` evaluated on an honest
/// certificate at protocol versions 10 and 11, as table rows and `plutus-budget` lines.
pub(crate) fn print_plutus_budgets(
    scheme: Scheme,
    params: &ParamsKZG<Bls12>,
    vk: &Vk,
    statement: &[Option<Base>],
    message: &[u8],
    proof: &[u8],
) -> Result<()> {
    let bar = spinner("generating and evaluating the Plutus validator");
    let vp = params.verifier_params();
    let mut rows = vec![];
    for pv in [10u16, 11] {
        let verifier = plutus::Halo2Verifier::new(&vp, vk, msm_mode(pv)?);
        let e = validator(&verifier, statement, Some((message, proof)))?;
        let (budget, redeemer) = e.run.expect("a certificate was given");
        if !budget.accepted {
            return Err(CliError(format!(
                "the Plutus validator (pv {pv}) refused the honest certificate"
            )));
        }
        rows.push((pv, budget, e.script.len(), redeemer.len()));
    }
    bar.finish_and_clear();
    for (pv, b, script, redeemer) in &rows {
        println!(
            "| Plutus V3 (pv {pv}, MSM {}) | accepted: {} CPU steps ({:.1}% of a tx), {} memory \
             units ({:.1}%), script {script} bytes, tx {} bytes |",
            if *pv == 10 { "fold" } else { "builtin" },
            b.cpu,
            percent(b.cpu, TX_CPU),
            b.mem,
            percent(b.mem, TX_MEM),
            script + redeemer
        );
    }
    for (pv, b, script, redeemer) in &rows {
        println!(
            "{}",
            budget_line(scheme, "honest", b, *script, *redeemer, *pv)
        );
    }
    Ok(())
}
