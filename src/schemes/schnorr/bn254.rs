//! Schnorr ATMS on BN254 (Grumpkin keys, Rescue-Prime commitments): its files (committee,
//! signatures, certificates) and its side of the tool's one interface ([`SchnorrBn254`]).

use std::path::Path;

use halo2_base::halo2_proofs::{halo2curves::bn256::Bn256, poly::kzg::commitment::ParamsKZG};
use rand_chacha::ChaCha20Rng;
use schnorr_atms::{
    keygen as atms_keygen, AtmsInstance, AtmsKeys, AtmsShape, AtmsWitness, Certificate,
    CommitmentMode, Committee, Verification,
};
use tms_gadgets::{
    hash::RescuePrime,
    message::message_to_field,
    signature::schnorr::{Signature, SigningKey, VerifyingKey},
};

use crate::formats::{
    grumpkin_from_hex as point_from_hex, schnorr_signature_from_hex as signature_from_hex,
};

use super::{
    circuit_calls, demo, load_registered, scheme_calls, CommitteeFile, RegisteredKey, SchnorrFiles,
};
use crate::{
    backends::bn254::Bn254,
    checks::describe_message,
    formats::*,
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, ShapeOptions, SignArgs,
        Trusted, VerifyArgs,
    },
    io::{at, member_keys, read_json, usage, write_json, CliError, MemberSecret, Result},
    options::Scheme,
};

const SCHEME: Scheme = Scheme::SchnorrAtms;

/// The most advice columns keygen accepts before asking for larger parameters.
const MAX_ADVICE_COLUMNS: usize = 32;

/// halo2-base advice columns the demo allows itself (beside the custom gates' columns).
const DEMO_ADVICE_COLUMNS: usize = 4;

impl RegisteredKey {
    /// The entry of `sk`'s key with its proof of possession.
    pub fn of(sk: &SigningKey) -> Result<Self> {
        let pop = sk
            .prove_possession(&RescuePrime)
            .map_err(|e| CliError(e.to_string()))?;
        Ok(Self {
            public_key: point_to_hex(&sk.verifying_key().0),
            proof_of_possession: Some(schnorr_signature_to_hex(&pop)),
        })
    }
}

/// Reads and registers a committee file: every key on the curve with a valid proof of
/// possession, none repeated.
pub fn load_committee(path: &Path) -> Result<Committee> {
    load_registered::<SchnorrBn254>(path).map(|(committee, _)| committee)
}

/// Grumpkin member keys (Schnorr ATMS and SNARK-Mithril on BN254).
impl MemberSecret for SigningKey {
    const BACKEND: Option<&'static str> = None;
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

/// Reads a Grumpkin member key file, checking the public key matches the secret key.
pub fn load_member(scheme: Scheme, key: &Path) -> Result<SigningKey> {
    let file: MemberFile = read_json(key, scheme)?;
    let sk = SigningKey(scalar_from_hex(&file.secret_key, "secret_key").map_err(|e| at(key, e))?);
    let pk = grumpkin_from_hex(&file.public_key, "public_key").map_err(|e| at(key, e))?;
    if sk.verifying_key().0 != pk {
        return Err(at(key, "public_key does not match secret_key"));
    }
    Ok(sk)
}

/// `tms committee --scheme schnorr-atms`: keys with proofs of possession.
pub fn committee(size: usize, seed: Option<u64>, out: &Path, keys_dir: &Path) -> Result<()> {
    let sks = member_keys::<SigningKey>(SCHEME, size, seed, keys_dir)?;
    // Refuses repeated keys before writing anything.
    Committee::new(sks.iter().map(SigningKey::verifying_key).collect())
        .map_err(|e| CliError(e.to_string()))?;
    let file = CommitteeFile {
        header: Header::new(SCHEME),
        members: sks.iter().map(RegisteredKey::of).collect::<Result<_>>()?,
    };
    write_json(out, &file)?;
    println!(
        "committee of {size} keys with proofs of possession written to {} (secret keys in {})",
        out.display(),
        keys_dir.display()
    );
    Ok(())
}

/// The Schnorr ATMS on BN254: Grumpkin keys, Rescue-Prime commitments, KZG over BN254.
pub struct SchnorrBn254;

impl CertificateScheme for SchnorrBn254 {
    type Backend = Bn254;
    const SCHEME: Scheme = SCHEME;
    type Committee = Committee;
    type Shape = AtmsShape;
    type ShapeFile = AtmsShape;
    type Keys = AtmsKeys;
    type Witness = AtmsWitness;
    type Instance = AtmsInstance;

    scheme_calls!();

    fn min_k(shape: &AtmsShape) -> Result<Option<u32>> {
        schnorr_atms::min_k(shape, MAX_ADVICE_COLUMNS)
            .map(Some)
            .map_err(|e| CliError(e.to_string()))
    }

    fn keygen(params: &ParamsKZG<Bn256>, shape: &AtmsShape, path: &Path) -> Result<AtmsKeys> {
        atms_keygen(params, *shape).map_err(|e| at(path, e))
    }

    crate::backends::bn254::hybrid_calls!(schnorr_atms, verify: AtmsError);

    fn describe_keys(keys: &AtmsKeys) -> String {
        format!("{} members ({})", keys.shape.n, keys.stats)
    }

    crate::schemes::bn254_atms_calls!(
        "Schnorr ATMS certificate (BN254, Poseidon transcript): [commitment, m, t]",
        |committee, shape| committee.commitment(shape.mode),
        AtmsInstance::from_trusted_commitment
    );

    fn verdict(shape: &AtmsShape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String {
        let instance = &trusted.instance;
        format!(
            "verified (schnorr-atms): at least {} of {} committee members signed {}; committee \
             commitment {}",
            trusted.public.threshold,
            shape.n,
            describe_message(&args.message, &instance.message),
            fr_to_hex(&instance.commitment)
        )
    }
}

impl SchnorrFiles for SchnorrBn254 {
    fn load_member(key: &Path) -> Result<SigningKey> {
        load_member(SCHEME, key)
    }

    fn shape_of(n: usize, mode: CommitmentMode, k: u32) -> AtmsShape {
        AtmsShape {
            n,
            mode,
            k,
            verification: Verification::PerSignature,
        }
    }

    circuit_calls!(Signature);

    fn statement_file(
        shape: &AtmsShape,
        instance: &AtmsInstance,
        message: &[u8],
    ) -> PublicFile<AtmsShape> {
        let (commitment, threshold) = (&instance.commitment, instance.threshold);
        PublicFile::new(SCHEME, *shape, commitment, message, threshold)
    }

    fn sign_message(sk: &SigningKey, message: &[u8]) -> std::result::Result<Signature, String> {
        sk.sign(&RescuePrime, message_to_field(message))
            .map_err(|e| e.to_string())
    }

    fn demo_shape() -> Result<AtmsShape> {
        let shape = Self::shape_of(demo::COMMITTEE, CommitmentMode::Flat, 20);
        let k = schnorr_atms::min_k(&shape, DEMO_ADVICE_COLUMNS)
            .map_err(|e| CliError(e.to_string()))?;
        Ok(AtmsShape { k, ..shape })
    }

    fn describe_demo(instance: &AtmsInstance) -> String {
        format!(
            "committee: {} Grumpkin keys, flat Rescue-Prime commitment {}",
            demo::COMMITTEE,
            fr_to_hex(&instance.commitment)
        )
    }

    fn describe_message(message: &[u8]) -> String {
        describe_message(message, &message_to_field(message))
    }
}
