//! The Schnorr ATMS on Cardano ([`SchnorrCardano`]: Jubjub keys, Poseidon commitments, KZG over
//! BLS12-381; crate `schnorr-atms-jubjub`): its files and `tms export-plutus` for its keys.
//! Encodings and key files are the backend's ([`crate::backends::cardano`]).

use std::path::Path;

use midnight_proofs::poly::{commitment::Params as _, kzg::params::ParamsKZG};
use schnorr_atms_jubjub::{
    message_to_field,
    prover::{self, AtmsKeys, DefaultTranscriptHash},
    AtmsError, AtmsInstance, AtmsShape, AtmsWitness, Base, Certificate, CommitmentMode, Committee,
    Signature, SigningKey, VerifyingKey,
};
use serde::{Deserialize, Serialize};
use tms_cardano::backend::{Bls12, Vk};
use tms_gadgets::proving::Transcript;

use super::{
    circuit_calls, demo, load_registered, scheme_calls, CommitteeFile, RegisteredKey, SchnorrFiles,
};
use crate::backends::cardano::ShapeFileOf;
use crate::{
    backends::cardano::{
        base_from_hex, base_to_hex, load_member_of, load_params, point_from_hex, point_to_hex,
        print_plutus_budgets, scalar_from_hex, scalar_to_hex, signature_from_hex, signature_to_hex,
        write_plutus_export, Cardano, ExportPlutusArgs, BACKEND,
    },
    checks::{check_members, describe_message_bytes},
    formats::{bytes_from_hex, bytes_to_hex, Header, PublicFile},
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, Rejection, ShapeOptions,
        SignArgs, Trusted, Verdict, VerifyArgs,
    },
    io::{at, member_keys, usage, write_json, CliError, Result},
    options::Scheme,
};

const SCHEME: Scheme = Scheme::SchnorrAtms;

fn header() -> Header {
    Header::on(SCHEME, Some(BACKEND))
}

/// The circuit shape in files.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapeFile {
    /// Committee size.
    pub n: usize,
    /// Signer slots in Merkle mode; absent in flat mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merkle_slots: Option<usize>,
    /// log2 rows.
    pub k: u32,
}

impl ShapeFileOf for ShapeFile {
    type Shape = AtmsShape;

    fn of(shape: &AtmsShape) -> Self {
        Self {
            n: shape.n,
            merkle_slots: match shape.mode {
                CommitmentMode::Flat => None,
                CommitmentMode::Merkle { slots } => Some(slots),
            },
            k: shape.k,
        }
    }

    fn shape(&self) -> std::result::Result<AtmsShape, String> {
        let shape = AtmsShape {
            n: self.n,
            mode: match self.merkle_slots {
                None => CommitmentMode::Flat,
                Some(slots) => CommitmentMode::Merkle { slots },
            },
            k: self.k,
        };
        shape.validate().map_err(|e| format!("shape: {e}"))?;
        if shape.n > crate::io::MAX_MEMBERS {
            return Err(format!(
                "shape: more than {} members",
                crate::io::MAX_MEMBERS
            ));
        }
        Ok(shape)
    }
}

/// Reads and registers a committee file: every key in the subgroup with a valid proof of
/// possession, none repeated.
pub fn load_committee(path: &Path) -> Result<Committee> {
    load_registered::<SchnorrCardano>(path).map(|(committee, _)| committee)
}

/// `tms committee --backend cardano`.
pub fn committee(size: usize, seed: Option<u64>, out: &Path, keys_dir: &Path) -> Result<()> {
    let sks = member_keys(SCHEME, size, seed, keys_dir)?;
    let committee = Committee::new(sks.iter().map(SigningKey::verifying_key).collect())
        .map_err(|e| CliError(e.to_string()))?;
    let file = CommitteeFile {
        header: header(),
        members: sks
            .iter()
            .zip(committee.keys())
            .map(|(sk, k)| RegisteredKey {
                public_key: point_to_hex(&k.0),
                proof_of_possession: Some(signature_to_hex(&sk.prove_possession())),
            })
            .collect(),
    };
    write_json(out, &file)?;
    println!(
        "committee of {size} Jubjub keys with proofs of possession written to {} (secret keys in \
         {})",
        out.display(),
        keys_dir.display()
    );
    Ok(())
}

/// The trusted commitment: from the committee file (its commitment in `shape`'s mode) or the
/// given hex.
fn trusted_commitment(
    committee: Option<&Path>,
    commitment: Option<&str>,
    shape: &AtmsShape,
) -> Result<Base> {
    let of_file = |path: &Path| -> Result<Base> {
        let committee = load_committee(path)?;
        check_members(path, committee.keys().len(), shape.n, "verifying key")?;
        Ok(committee.commitment(shape.mode))
    };
    crate::schemes::trusted_commitment(
        (committee, commitment),
        of_file,
        base_from_hex,
        crate::schemes::NO_COMMITTEE,
    )
}

/// `tms export-plutus` for the Schnorr ATMS: the validator with the trusted commitment and
/// threshold as parameters.
pub fn export_plutus(a: &ExportPlutusArgs) -> Result<()> {
    let threshold = a
        .threshold
        .ok_or_else(|| usage("--threshold: give the threshold the script requires"))?;
    if threshold == 0 {
        // A threshold-0 certificate needs no signature: the script would accept anyone's.
        return Err(usage(
            "--threshold: 0 accepts a certificate without signatures",
        ));
    }
    let params = load_params(a.params)?;
    let vk_file = a.trust.read()?;
    let (shape, vk) = SchnorrCardano::read_vk(a.vk, &vk_file)?;
    crate::checks::check_params_k(a.params, params.max_k(), shape.k)?;
    a.trust.check_regenerated(&vk_file, "its shape", || {
        SchnorrCardano::regenerate_vk(&params, &shape, a.vk)
    })?;
    let commitment = trusted_commitment(a.committee, a.commitment, &shape)?;
    AtmsInstance::from_trusted_commitment(commitment, b"", threshold)
        .validate(&shape)
        .map_err(|e| usage(format!("--threshold: {e}")))?;
    write_plutus_export(
        a,
        SCHEME,
        &format!("n = {}, t = {threshold}", shape.n),
        &params,
        (&vk_file, &vk),
        &[Some(commitment), None, Some(Base::from(threshold))],
        Some(2),
        tms_cardano::plutus::MessageRule::Blake2bBls12381,
    )
}

/// The prover's statement on this backend: [`PublicFile`] with a `cardano` header.
fn public_file(
    shape: &AtmsShape,
    commitment: &Base,
    message: &[u8],
    t: u64,
) -> PublicFile<ShapeFile> {
    PublicFile {
        header: header(),
        shape: ShapeFile::of(shape),
        commitment: base_to_hex(commitment),
        message: bytes_to_hex(message),
        threshold: t,
    }
}

/// The Schnorr ATMS on Cardano: Jubjub keys, Poseidon commitments, KZG over BLS12-381.
pub struct SchnorrCardano;

impl CertificateScheme for SchnorrCardano {
    type Backend = Cardano;
    const SCHEME: Scheme = SCHEME;
    type Committee = Committee;
    type Shape = AtmsShape;
    type ShapeFile = ShapeFile;
    type Keys = AtmsKeys;
    type Witness = AtmsWitness;
    type Instance = AtmsInstance;

    scheme_calls!();

    fn min_k(shape: &AtmsShape) -> Result<Option<u32>> {
        Ok(Some(prover::min_k(&AtmsShape { k: 10, ..*shape })))
    }

    fn needed_k(shape: &AtmsShape, k: u32) -> Result<Option<u32>> {
        Ok(tms_cardano::scheme::needed_k(&AtmsShape { k, ..*shape }))
    }

    fn keygen(params: &ParamsKZG<Bls12>, shape: &AtmsShape, path: &Path) -> Result<AtmsKeys> {
        prover::keygen(params, *shape).map_err(|e| at(path, e))
    }

    crate::backends::cardano::midnight_calls!(ShapeFile);

    fn describe_keys(keys: &AtmsKeys) -> String {
        format!(
            "{} members (Jubjub Schnorr ATMS, k = {})",
            keys.shape.n, keys.shape.k
        )
    }

    fn trusted(
        shape: &AtmsShape,
        args: &VerifyArgs,
        public: Option<&PublicFile<ShapeFile>>,
    ) -> Result<Trusted<Self>> {
        let commitment =
            trusted_commitment(args.committee.as_deref(), args.commitment.as_deref(), shape)?;
        let threshold = args.threshold(public)?;
        Ok(Trusted {
            public: public_file(shape, &commitment, &args.message, threshold),
            instance: AtmsInstance::from_trusted_commitment(commitment, &args.message, threshold),
        })
    }

    fn verify(
        params: &ParamsKZG<Bls12>,
        shape: &AtmsShape,
        vk: &Vk,
        instance: &AtmsInstance,
        proof: &[u8],
        _: Transcript,
    ) -> Verdict {
        instance
            .validate(shape)
            .map_err(|e| Rejection::Other(usage(format!("--threshold: {e}"))))?;
        prover::verify::<DefaultTranscriptHash>(&params.verifier_params(), vk, instance, proof)
            .map_err(|e| Rejection::of(matches!(e, AtmsError::ProofRejected), e))
    }

    fn verdict(shape: &AtmsShape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String {
        let instance = &trusted.instance;
        format!(
            "verified (schnorr-atms, cardano): at least {} of {} committee members signed {}; \
             committee commitment {}",
            trusted.public.threshold,
            shape.n,
            describe_message_bytes(&args.message, &base_to_hex(&instance.message)),
            base_to_hex(&instance.commitment)
        )
    }

    fn describe_circuit(keys: &AtmsKeys) -> String {
        format!(
            "Schnorr ATMS on Jubjub, {} members, flat, k = {} (KZG over BLS12-381)",
            keys.shape.n, keys.shape.k
        )
    }

    /// The Plutus validator of the demo's key, evaluated on its certificate at protocol versions
    /// 10 and 11.
    fn after_demo(
        params: &ParamsKZG<Bls12>,
        keys: &AtmsKeys,
        demo: &DemoCertificate<Self>,
        proof: &[u8],
    ) -> Result<()> {
        let message =
            bytes_from_hex(&demo.trusted.public.message, "message").expect("the demo wrote it");
        let statement = [
            Some(demo.trusted.instance.commitment),
            None,
            Some(Base::from(demo.trusted.public.threshold)),
        ];
        print_plutus_budgets(SCHEME, params, keys.vk(), &statement, &message, proof)
    }
}

impl SchnorrFiles for SchnorrCardano {
    fn load_member(key: &Path) -> Result<SigningKey> {
        load_member_of(SCHEME, key)
    }

    fn shape_of(n: usize, mode: CommitmentMode, k: u32) -> AtmsShape {
        AtmsShape { n, mode, k }
    }

    circuit_calls!(Signature);

    fn statement_file(
        shape: &AtmsShape,
        instance: &AtmsInstance,
        message: &[u8],
    ) -> PublicFile<ShapeFile> {
        public_file(shape, &instance.commitment, message, instance.threshold)
    }

    fn sign_message(sk: &SigningKey, message: &[u8]) -> std::result::Result<Signature, String> {
        Ok(sk.sign(message_to_field(message)))
    }

    fn demo_shape() -> Result<AtmsShape> {
        let shape = Self::shape_of(demo::COMMITTEE, CommitmentMode::Flat, 10);
        Ok(AtmsShape {
            k: prover::min_k(&shape),
            ..shape
        })
    }

    fn describe_demo(instance: &AtmsInstance) -> String {
        format!(
            "committee: {} Jubjub keys, flat Poseidon commitment {} (BLS12-381 scalar field)",
            demo::COMMITTEE,
            base_to_hex(&instance.commitment)
        )
    }

    fn describe_message(message: &[u8]) -> String {
        describe_message_bytes(message, &base_to_hex(&message_to_field(message)))
    }
}
