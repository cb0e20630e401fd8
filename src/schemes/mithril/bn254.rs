//! SNARK-Mithril on BN254 (stake-based certificates on Grumpkin unique signatures, Poseidon
//! registration trees): its side of the scheme's files ([`super::MithrilFiles`]: Grumpkin
//! encodings, chain hand-overs) and of the tool's one interface ([`MithrilBn254`]).

use std::path::Path;

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey as Halo2Vk,
    poly::kzg::commitment::ParamsKZG,
};
use mithril_core::CoreError;
use mithril_snark::{
    aggregate,
    chain::link_message,
    keygen as m_keygen,
    signature::UniqueSignature,
    stm::{verify_single, GrumpkinStm as NativeStm, IndexSlot},
    verify as native_verify, Certificate, MithrilError, MithrilInstance, MithrilKeys, MithrilShape,
    MithrilWitness, Parameters, PhiF, Registration, Signer, SingleSignature,
};
use tms_gadgets::{
    message::message_to_field,
    proving::Transcript,
    signature::schnorr::{SigningKey, VerifyingKey},
    Fr,
};

use crate::backends::bn254::Bn254;
use crate::checks::describe_message;
use crate::interface::VerifyArgs;
use crate::schemes::schnorr::bn254::load_member;

use crate::formats::grumpkin_from_hex as point_from_hex;

use super::{native_calls, scheme_calls, LoadedCertificate, MithrilFiles, MithrilStatement};
use crate::{
    formats::*,
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, Rejection, ShapeOptions,
        SignArgs, Trusted, Verdict,
    },
    io::{at, usage, CliError, Result},
    options::{Preset, Scheme},
};

const SCHEME: Scheme = Scheme::Mithril;
/// The most halo2-base advice columns keygen accepts.
const MAX_ADVICE_COLUMNS: usize = 32;

/// The parameters of `--preset` or of explicit `--m`, `--k`, `--phi-f num/den`.
pub fn parameters(
    preset: Option<Preset>,
    m: Option<u64>,
    k: Option<u64>,
    phi_f: Option<&str>,
) -> Result<Parameters> {
    match (preset, m, k, phi_f) {
        (Some(Preset::Mainnet), None, None, None) => Ok(Parameters::MAINNET),
        (Some(Preset::Preprod), None, None, None) => Ok(Parameters::PREPROD),
        (None, Some(m), Some(k), Some(phi)) => {
            let (num, den) = phi
                .split_once('/')
                .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
                .ok_or_else(|| usage("--phi-f: a fraction num/den, e.g. 1/5"))?;
            PhiF::new(num, den)
                .and_then(|phi_f| Parameters::new(m, k, phi_f))
                .map_err(|e| usage(format!("parameters: {e}")))
        }
        _ => Err(usage(
            "give --preset mainnet|preprod, or all of --m, --k and --phi-f",
        )),
    }
}

/// Where a chain certificate sits: the registration it hands over to and its epoch, counted from
/// the chain's genesis registration (which signs epoch 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandOver {
    /// The digest of the registration that signs the next epoch.
    pub next: Fr,
    /// The epoch the certificate is for.
    pub epoch: u64,
}

impl std::fmt::Display for HandOver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "epoch {}, next registration {}",
            self.epoch,
            fr_to_hex(&self.next)
        )
    }
}

/// The field element a certificate signs: `message_to_field(message)`, or in a chain the link
/// message `link_message(next, message_to_field(message), epoch)`.
pub fn signed_field(message: &[u8], hand_over: Option<HandOver>) -> Result<Fr> {
    let application = message_to_field(message);
    match hand_over {
        None => Ok(application),
        Some(h) => link_message(h.next, application, h.epoch).map_err(usage),
    }
}

/// A chain certificate's place from the command line: the next registration's digest (from its
/// file) and `--epoch`, both or neither.
pub fn hand_over(next_registration: Option<&Path>, epoch: Option<u64>) -> Result<Option<HandOver>> {
    match (next_registration, epoch) {
        (None, None) => Ok(None),
        (Some(path), Some(epoch)) => Ok(Some(HandOver {
            next: load_registration(path)?.commitment().digest(),
            epoch,
        })),
        (Some(_), None) => Err(usage(
            "--next-registration needs --epoch: the chain epoch the certificate signs for (0 \
             for the genesis registration's)",
        )),
        (None, Some(_)) => Err(usage(
            "--epoch applies to chain certificates (with --next-registration)",
        )),
    }
}

/// A chain certificate's place as its file (at `path`) records it: both fields or neither.
fn parse_hand_over(
    path: &Path,
    next: Option<&str>,
    epoch: Option<u64>,
) -> Result<Option<HandOver>> {
    match (next, epoch) {
        (None, None) => Ok(None),
        (Some(hex), Some(epoch)) => Ok(Some(HandOver {
            next: fr_from_str(hex, "next_registration").map_err(|e| at(path, e))?,
            epoch,
        })),
        (Some(_), None) => Err(at(
            path,
            "a chain certificate without its epoch (made before chain links bound their \
             epoch): sign it again with --epoch",
        )),
        (None, Some(_)) => Err(at(path, "an epoch without a next registration")),
    }
}

/// Reads a registration file (Grumpkin keys) and rebuilds the registration.
pub fn load_registration(path: &Path) -> Result<Registration> {
    super::load_registration::<MithrilBn254>(path)
}

/// Rebuilds a certificate from its file against the registration.
pub(crate) fn load_certificate(
    path: &Path,
    registration: &Registration,
) -> Result<LoadedCertificate<MithrilBn254>> {
    super::load_certificate::<MithrilBn254>(path, registration)
}

/// Whether a registration is refused for its stakes file (else for the command line's options).
fn by_stakes(e: &MithrilError) -> bool {
    matches!(
        e,
        MithrilError::Core(
            CoreError::ZeroStake(_)
                | CoreError::DuplicateKey(_)
                | CoreError::EmptyRegistration
                | CoreError::StakeOverflow
        )
    )
}

/// The prover's statement on BN254.
fn public_file(
    shape: &MithrilShape,
    digest: &Fr,
    message: &[u8],
    k: u64,
) -> PublicFile<MithrilShape> {
    PublicFile::new(SCHEME, *shape, digest, message, k)
}

/// SNARK-Mithril on BN254: Grumpkin unique signatures, Poseidon registration trees.
pub struct MithrilBn254;

impl MithrilFiles for MithrilBn254 {
    type Field = Fr;
    type Place = HandOver;
    const KEYS: &'static str = "secret";

    native_calls!();

    fn field_hex(x: &Fr) -> String {
        fr_to_hex(x)
    }

    fn parse_field(hex: &str, what: &str) -> std::result::Result<Fr, String> {
        fr_from_str(hex, what)
    }

    fn describe_message(message: &[u8], field: &Fr) -> String {
        describe_message(message, field)
    }

    fn place(next: Option<&Path>, epoch: Option<u64>) -> Result<Option<HandOver>> {
        hand_over(next, epoch)
    }

    fn place_entries(place: Option<HandOver>) -> (Option<String>, Option<u64>) {
        (place.map(|h| fr_to_hex(&h.next)), place.map(|h| h.epoch))
    }

    fn file_place(
        path: &Path,
        _: &str,
        next: Option<&str>,
        epoch: Option<u64>,
    ) -> Result<Option<HandOver>> {
        parse_hand_over(path, next, epoch)
    }

    fn signed_field(message: &[u8], place: Option<HandOver>) -> Result<Fr> {
        signed_field(message, place)
    }
}

impl CertificateScheme for MithrilBn254 {
    type Backend = Bn254;
    const SCHEME: Scheme = SCHEME;
    const TAKES_THRESHOLD: bool = false;
    type Committee = Registration;
    type Shape = MithrilShape;
    type ShapeFile = MithrilShape;
    type Keys = MithrilKeys;
    type Witness = MithrilWitness;
    type Instance = MithrilStatement<Self>;

    scheme_calls!();

    fn min_k(shape: &MithrilShape) -> Result<Option<u32>> {
        mithril_snark::min_k(shape, MAX_ADVICE_COLUMNS)
            .map(Some)
            .map_err(usage)
    }

    fn keygen(params: &ParamsKZG<Bn256>, shape: &MithrilShape, path: &Path) -> Result<MithrilKeys> {
        m_keygen(params, *shape).map_err(|e| at(path, e))
    }

    crate::backends::bn254::hybrid_calls!(mithril_snark);

    fn describe_keys(keys: &MithrilKeys) -> String {
        format!(
            "quorum {}, {} signer slots, depth {} ({})",
            keys.shape.index_slots, keys.shape.signer_slots, keys.shape.depth, keys.stats
        )
    }

    fn verify(
        params: &ParamsKZG<Bn256>,
        shape: &MithrilShape,
        vk: &Halo2Vk<G1Affine>,
        statement: &MithrilStatement<Self>,
        proof: &[u8],
        transcript: Transcript,
    ) -> Verdict {
        match &statement.statement {
            Some(instance) => mithril_snark::prover::verify_with_vk(
                params, shape, vk, instance, proof, transcript,
            ),
            None => mithril_snark::prover::verify_digest_with_vk(
                params,
                vk,
                statement.digest,
                statement.message,
                proof,
                transcript,
            ),
        }
        .map_err(|e| Rejection::of(matches!(e, MithrilError::ProofRejected), e))
    }

    crate::backends::bn254::bn254_wrapper!(
        Mithril,
        "SNARK-Mithril certificate (BN254, Poseidon transcript): [registration, m]",
        |statement| MithrilInstance::public_inputs(statement.digest, statement.message)
    );

    /// 8 parties on preprod parameters (m = 100, k = 5, phi_f = 0.7).
    fn demo_certificate() -> Result<DemoCertificate<Self>> {
        let err = |e: MithrilError| CliError(e.to_string());
        let example = mithril_snark::example_certificate(Parameters::PREPROD, 8, None, 2026, false)
            .map_err(err)?;
        let witness = example.witness(4).map_err(err)?;
        let shape = witness.shape;
        let registration = &example.registration;
        let digest = registration.commitment().digest();
        let description = vec![
            format!(
                "registration: 8 parties, preprod parameters (m = 100, k = 5, phi_f = 0.7), \
                 digest {}",
                fr_to_hex(&digest)
            ),
            format!(
                "certificate: {} indices over {} signers",
                example.certificate.indices.len(),
                example.certificate.signers.len()
            ),
        ];
        let instance = MithrilInstance {
            commitment: registration.commitment(),
            message: example.message,
        };
        Ok(DemoCertificate {
            shape,
            witness,
            trusted: Trusted {
                public: PublicFile {
                    header: Header::new(SCHEME),
                    shape,
                    commitment: fr_to_hex(&digest),
                    message: fr_to_hex(&example.message),
                    threshold: registration.params().k(),
                },
                instance: MithrilStatement {
                    digest,
                    message: example.message,
                    statement: Some(instance),
                    registered: None,
                },
            },
            description,
        })
    }
}
