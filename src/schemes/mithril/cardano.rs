//! SNARK-Mithril on the Cardano backend (`--scheme mithril --backend cardano`; crate
//! `mithril-jubjub`: Jubjub unique signatures, Poseidon registration trees over BLS12-381's
//! scalar field): its side of the scheme's files ([`super::MithrilFiles`]) and of the tool's one
//! interface ([`MithrilCardano`]).
//!
//! The files are the scheme's ([`super`]'s stakes, registration, signature and certificate
//! shapes) with a `cardano` header and Jubjub encodings (a point: 32-byte compressed;
//! a scalar: 32-byte little-endian `to_repr`; a BLS12-381 field element: `0x` + 64 hex digits,
//! big-endian). Certificate chains stay on BN254 (`tms chain`).

use std::{convert::Infallible, path::Path};

use midnight_proofs::poly::{commitment::Params as _, kzg::params::ParamsKZG};
use mithril_jubjub::{
    aggregate,
    native::{
        message_to_field, verify as native_verify, verify_single, Base, IndexSlot,
        JubjubStm as NativeStm, SigningKey, UniqueSignature, VerifyingKey,
    },
    prover::{self, MithrilKeys},
    Certificate, MithrilError, MithrilInstance, MithrilShape, MithrilWitness, Parameters, PhiF,
    Registration, Signer, SingleSignature,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use tms_cardano::backend::{Bls12, Vk};
use tms_gadgets::proving::Transcript;

use super::{
    native_calls, scheme_calls, trusted_registration, MithrilFiles, MithrilStatement, MAX_DEPTH,
};
use crate::backends::cardano::ShapeFileOf;
use crate::backends::cardano::{
    base_from_hex, base_to_hex, load_member_of as load_member, load_params, point_from_hex,
    point_to_hex, print_plutus_budgets, scalar_from_hex, scalar_to_hex, write_plutus_export,
    Cardano, ExportPlutusArgs, BACKEND,
};
use crate::checks::{check_params_k, describe_message_bytes};
use crate::{
    formats::{bytes_from_hex, bytes_to_hex, Header, PublicFile},
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, Rejection, ShapeOptions,
        SignArgs, Trusted, Verdict, VerifyArgs,
    },
    io::{at, usage, CliError, Result},
    options::Scheme,
};

const SCHEME: Scheme = Scheme::Mithril;

fn header() -> Header {
    Header::on(SCHEME, Some(BACKEND))
}

/// The circuit shape in key and statement files.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapeFile {
    /// Signer slots (distinct signers).
    pub signer_slots: usize,
    /// Index slots: the quorum k.
    pub index_slots: usize,
    /// Registration tree depth.
    pub depth: usize,
    /// log2 rows.
    pub k: u32,
}

impl ShapeFileOf for ShapeFile {
    type Shape = MithrilShape;

    fn of(shape: &MithrilShape) -> Self {
        Self {
            signer_slots: shape.signer_slots,
            index_slots: shape.index_slots,
            depth: shape.depth,
            k: shape.k,
        }
    }

    /// The shape, bounded before anything is laid out (a key file is outside data).
    fn shape(&self) -> std::result::Result<MithrilShape, String> {
        if self.depth > MAX_DEPTH || self.index_slots > 1 << 16 || self.signer_slots > 1 << 16 {
            return Err("shape: out of range".into());
        }
        let shape = MithrilShape {
            signer_slots: self.signer_slots,
            index_slots: self.index_slots,
            depth: self.depth,
            k: self.k,
        };
        shape.validate().map_err(|e| format!("shape: {e}"))?;
        Ok(shape)
    }
}

/// Reads a registration file (Jubjub keys) and rebuilds the registration.
pub fn load_registration(path: &Path) -> Result<Registration> {
    super::load_registration::<MithrilCardano>(path)
}

fn public_file(
    shape: &MithrilShape,
    digest: &Base,
    message: &[u8],
    k: u64,
) -> PublicFile<ShapeFile> {
    PublicFile {
        header: header(),
        shape: ShapeFile::of(shape),
        commitment: base_to_hex(digest),
        message: bytes_to_hex(message),
        threshold: k,
    }
}

/// Every refusal of a registration is its stakes file's.
fn by_stakes(_: &MithrilError) -> bool {
    true
}

/// SNARK-Mithril on Cardano: Jubjub unique signatures, KZG over BLS12-381.
pub struct MithrilCardano;

impl MithrilFiles for MithrilCardano {
    type Field = Base;
    // Certificate chains stay on BN254.
    type Place = Infallible;
    const KEYS: &'static str = "Jubjub";

    native_calls!();

    fn field_hex(x: &Base) -> String {
        base_to_hex(x)
    }

    fn parse_field(hex: &str, what: &str) -> std::result::Result<Base, String> {
        base_from_hex(hex, what)
    }

    fn describe_message(message: &[u8], field: &Base) -> String {
        describe_message_bytes(message, &base_to_hex(field))
    }

    fn place(next: Option<&Path>, _: Option<u64>) -> Result<Option<Infallible>> {
        match next {
            Some(_) => Err(usage(
                "--next-registration: Mithril certificate chains are on --backend bn254 (tms \
                 chain)",
            )),
            None => Ok(None),
        }
    }

    fn place_entries(_: Option<Infallible>) -> (Option<String>, Option<u64>) {
        (None, None)
    }

    fn file_place(
        path: &Path,
        what: &str,
        next: Option<&str>,
        _: Option<u64>,
    ) -> Result<Option<Infallible>> {
        match next {
            Some(_) => Err(at(
                path,
                format!("a chain {what}: chains are on --backend bn254"),
            )),
            None => Ok(None),
        }
    }

    fn signed_field(message: &[u8], _: Option<Infallible>) -> Result<Base> {
        Ok(message_to_field(message))
    }
}

impl CertificateScheme for MithrilCardano {
    type Backend = Cardano;
    const SCHEME: Scheme = SCHEME;
    const TAKES_THRESHOLD: bool = false;
    type Committee = Registration;
    type Shape = MithrilShape;
    type ShapeFile = ShapeFile;
    type Keys = MithrilKeys;
    type Witness = MithrilWitness;
    type Instance = MithrilStatement<Self>;

    scheme_calls!();

    fn min_k(shape: &MithrilShape) -> Result<Option<u32>> {
        Ok(Some(prover::min_k(&MithrilShape { k: 10, ..*shape })))
    }

    fn needed_k(shape: &MithrilShape, k: u32) -> Result<Option<u32>> {
        Ok(tms_cardano::scheme::needed_k(&MithrilShape { k, ..*shape }))
    }

    fn keygen(params: &ParamsKZG<Bls12>, shape: &MithrilShape, path: &Path) -> Result<MithrilKeys> {
        prover::keygen(params, *shape).map_err(|e| at(path, e))
    }

    crate::backends::cardano::midnight_calls!(ShapeFile);

    fn describe_keys(keys: &MithrilKeys) -> String {
        format!(
            "quorum {}, {} signer slots, depth {} (Jubjub SNARK-Mithril, k = {})",
            keys.shape.index_slots, keys.shape.signer_slots, keys.shape.depth, keys.shape.k
        )
    }

    fn verify(
        params: &ParamsKZG<Bls12>,
        shape: &MithrilShape,
        vk: &Vk,
        statement: &MithrilStatement<Self>,
        proof: &[u8],
        _: Transcript,
    ) -> Verdict {
        let vp = params.verifier_params();
        match &statement.statement {
            Some(instance) => prover::verify(&vp, shape, vk, instance, proof),
            None => prover::verify_digest(&vp, vk, statement.digest, statement.message, proof),
        }
        .map_err(|e| Rejection::of(matches!(e, MithrilError::ProofRejected), e))
    }

    /// 5 parties (stakes 100 to 500), m = 40, k = 3, phi_f = 0.7: every party signs.
    fn demo_certificate() -> Result<DemoCertificate<Self>> {
        let err = |e: MithrilError| CliError(e.to_string());
        let params = PhiF::new(7, 10)
            .and_then(|phi_f| Parameters::new(40, 3, phi_f))
            .map_err(|e| CliError(e.to_string()))?;
        let mut rng = ChaCha20Rng::seed_from_u64(2026);
        let sks: Vec<SigningKey> = (0..5).map(|_| SigningKey::random(&mut rng)).collect();
        let entries: Vec<_> = sks
            .iter()
            .enumerate()
            .map(|(i, sk)| (sk.verifying_key(), 100 * (i as u64 + 1)))
            .collect();
        let registration = Registration::new(params, &entries).map_err(err)?;
        let message = b"tms demo: Mithril epoch 7".to_vec();
        let m = message_to_field(&message);
        let singles = sks
            .iter()
            .map(|sk| Signer::new(*sk, &registration)?.sign(m))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(err)?;
        let singles: Vec<SingleSignature> = singles.into_iter().flatten().collect();
        let certificate = aggregate(&registration, m, &singles).map_err(err)?;
        // The verifier's statement, from the registration and message it holds.
        let instance = MithrilInstance::from_trusted(&registration, &message);
        let mut shape = MithrilShape {
            signer_slots: certificate.signers.len(),
            index_slots: params.k() as usize,
            depth: registration.depth(),
            k: 10,
        };
        shape.k = prover::min_k(&shape);
        let witness = MithrilWitness::new(shape, instance, &certificate).map_err(err)?;
        let digest = registration.commitment().digest();
        let description = vec![
            format!(
                "registration: 5 Jubjub parties (stakes 100 to 500), m = 40, k = 3, phi_f = 7/10, \
                 digest {} (BLS12-381 scalar field)",
                base_to_hex(&digest)
            ),
            format!(
                "certificate: {} indices over {} signers on {}",
                certificate.indices.len(),
                certificate.signers.len(),
                describe_message_bytes(&message, &base_to_hex(&m))
            ),
        ];
        Ok(DemoCertificate {
            shape,
            witness,
            trusted: Trusted {
                public: public_file(&shape, &digest, &message, params.k()),
                instance: MithrilStatement {
                    digest,
                    message: m,
                    statement: Some(instance),
                    registered: None,
                },
            },
            description,
        })
    }

    fn describe_circuit(keys: &MithrilKeys) -> String {
        format!(
            "SNARK-Mithril on Jubjub, quorum {}, {} signer slots, depth {}, k = {} (KZG over \
             BLS12-381)",
            keys.shape.index_slots, keys.shape.signer_slots, keys.shape.depth, keys.shape.k
        )
    }

    /// The Plutus validator of the demo's key (the registration digest a script parameter),
    /// evaluated on its certificate at protocol versions 10 and 11.
    fn after_demo(
        params: &ParamsKZG<Bls12>,
        keys: &MithrilKeys,
        demo: &DemoCertificate<Self>,
        proof: &[u8],
    ) -> Result<()> {
        let message =
            bytes_from_hex(&demo.trusted.public.message, "message").expect("the demo wrote it");
        print_plutus_budgets(
            SCHEME,
            params,
            keys.vk(),
            &[Some(demo.trusted.instance.digest), None],
            &message,
            proof,
        )
    }
}

/// `tms export-plutus --scheme mithril`: the validator with the trusted registration digest as
/// its parameter (the quorum and depth are in the key).
pub fn export_plutus(a: &ExportPlutusArgs) -> Result<()> {
    if a.threshold.is_some() {
        return Err(usage(
            "--threshold: a Mithril certificate proves the registration's quorum k",
        ));
    }
    let params = load_params(a.params)?;
    let vk_file = a.trust.read()?;
    let (shape, vk) = MithrilCardano::read_vk(a.vk, &vk_file)?;
    check_params_k(a.params, params.max_k(), shape.k)?;
    a.trust.check_regenerated(&vk_file, "its shape", || {
        MithrilCardano::regenerate_vk(&params, &shape, a.vk)
    })?;
    let (_, digest) = trusted_registration::<MithrilCardano>(a.committee, a.commitment)?;
    write_plutus_export(
        a,
        SCHEME,
        &format!(
            "quorum {}, {} signer slots, depth {}",
            shape.index_slots, shape.signer_slots, shape.depth
        ),
        &params,
        (&vk_file, &vk),
        &[Some(digest), None],
        None,
        tms_cardano::plutus::MessageRule::Blake2bBls12381,
    )
}
