//! Interop with mithril-stm 0.13.0 itself: a registration closed and single signatures made by
//! the mithril-stm crate, read through its public API and serde formats, aggregated and proved by
//! our mithril-stm mode (`mithril_jubjub::stm`), verified by our verifier against the statement
//! built from mithril-stm's aggregate verification key and the message bytes. Also: our lottery
//! targets equal the registration's, our tree's root equals its aggregate key's, what
//! mithril-stm's single-signature check refuses (a changed response, a low-order commitment
//! point, another message) we refuse and cannot prove, and a certificate mithril-stm's clerk
//! aggregates into a SNARK proof (which its verifier accepts) we prove and accept.
//!
//! Run (release: both provers run for real, at quorum 5 of m = 50):
//! `cargo test --release --manifest-path benches/mithril-compare/Cargo.toml interop`.

use std::path::PathBuf;
use std::sync::Arc;

use ciborium::Value;
use mithril_jubjub::{
    native::Base,
    stm::{
        chain::link_message,
        native::{
            aggregate, hash_to_point, lottery_target, message_to_field, winning_indices, StmLeaf,
            StmSignature, StmTree,
        },
        prover, StmCircuit, StmInstance, StmShape, StmWitness,
    },
    PhiF,
};
use mithril_stm::{
    AggregateSignature, AggregateSignatureType, AncillaryGenesisData, AncillaryProofInput,
    AncillaryVerifierData, Clerk, ClosedKeyRegistration, Initializer, KeyRegistration,
    MithrilMembershipDigest, NoTrustedSetupDownload, Parameters, RegistrationEntryForSnark,
    SingleSignature, SnarkProverSetupWarmer, TrustedSetupProvider,
};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use crate::stm::{prepare_srs, sha256_file, SrsSource};
use crate::stm_read;

type D = MithrilMembershipDigest;

const PARTIES: usize = 10;
const M: u64 = 50;
const QUORUM: u64 = 5;
/// phi_f = 0.5: mithril-stm reads it with `Ratio::approximate_float`, 1/2.
const PHI_F: f64 = 0.5;
const MESSAGE: [u8; 32] = [42; 32];

/// A closed registration, its initializers and every party's single signature.
struct Setup {
    parameters: Parameters,
    closed: ClosedKeyRegistration,
    stakes: Vec<u64>,
    signatures: Vec<SingleSignature>,
}

fn setup() -> Setup {
    seeded_setup(3, Some(&MESSAGE))
}

/// A registration closed by mithril-stm from `seed`, and (with a message) every party's single
/// signature of it.
fn seeded_setup(seed: u64, message: Option<&[u8; 32]>) -> Setup {
    let parameters = Parameters {
        m: M,
        k: QUORUM,
        phi_f: PHI_F,
    };
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let stakes: Vec<u64> = (0..PARTIES as u64).map(|i| 1_000 + 137 * i).collect();
    let mut registration = KeyRegistration::initialize();
    let mut initializers = Vec::new();
    for &stake in &stakes {
        let initializer = Initializer::new(parameters, stake, &mut rng);
        registration
            .register(
                initializer.stake,
                &initializer.get_verification_key_proof_of_possession_for_concatenation(),
                initializer.get_verification_key_for_snark(),
            )
            .unwrap();
        initializers.push(initializer);
    }
    let closed = registration.close_registration(&parameters).unwrap();
    let signatures = initializers
        .into_iter()
        .filter_map(|initializer| {
            let signer = initializer.try_create_signer::<D>(&closed).ok()?;
            signer.create_single_signature(message?).ok()
        })
        .filter(|s| s.get_snark_signature_indices().is_some())
        .collect();
    Setup {
        parameters,
        closed,
        stakes,
        signatures,
    }
}

fn from_value<T: serde::de::DeserializeOwned>(value: &Value) -> T {
    let mut bytes = Vec::new();
    ciborium::ser::into_writer(value, &mut bytes).unwrap();
    ciborium::de::from_reader(bytes.as_slice()).unwrap()
}

fn read_signature(signature: &SingleSignature) -> (usize, StmSignature) {
    stm_read::read_signature(signature).unwrap()
}

/// The single signature with one field of its Schnorr part replaced, through serde.
fn with_schnorr_field(signature: &SingleSignature, field: &str, bytes: &[u8]) -> SingleSignature {
    let mut value = stm_read::to_value(signature).unwrap();
    let Value::Map(top) = &mut value else {
        panic!()
    };
    let (_, snark) = top
        .iter_mut()
        .find(|(k, _)| matches!(k, Value::Text(t) if t == "snark_signature"))
        .unwrap();
    let Value::Map(snark) = snark else { panic!() };
    let (_, schnorr) = snark
        .iter_mut()
        .find(|(k, _)| matches!(k, Value::Text(t) if t == "schnorr_signature"))
        .unwrap();
    let Value::Map(schnorr) = schnorr else {
        panic!()
    };
    let (_, slot) = schnorr
        .iter_mut()
        .find(|(k, _)| matches!(k, Value::Text(t) if t == field))
        .unwrap();
    *slot = Value::Array(bytes.iter().map(|b| Value::Integer((*b).into())).collect());
    from_value(&value)
}

fn leaves(closed: &ClosedKeyRegistration) -> Vec<StmLeaf> {
    let leaves = stm_read::read_leaves(closed).unwrap();
    assert_eq!(leaves.len(), PARTIES);
    leaves
}

fn stm_root(setup: &Setup) -> Base {
    stm_read::read_root(&setup.parameters, &setup.closed).unwrap()
}

/// mithril-stm's own check of one single signature (both parts).
fn stm_accepts(setup: &Setup, signature: &SingleSignature, message: &[u8]) -> bool {
    let clerk =
        Clerk::<D>::new_clerk_from_closed_key_registration(&setup.parameters, &setup.closed);
    let avk = clerk.compute_aggregate_verification_key();
    let entry = setup
        .closed
        .get_registration_entry_for_index(&signature.signer_index)
        .unwrap();
    signature
        .verify::<D>(
            &setup.parameters,
            &entry.get_verification_key_for_concatenation(),
            &entry.get_stake(),
            &avk,
            message,
            Option::<RegistrationEntryForSnark>::from(entry),
        )
        .is_ok()
}

#[test]
fn interop_targets_root_and_signatures() {
    let setup = setup();
    let leaves = leaves(&setup.closed);
    let total: u64 = setup.stakes.iter().sum();
    for (i, leaf) in leaves.iter().enumerate() {
        let entry = setup
            .closed
            .get_registration_entry_for_index(&(i as u64))
            .unwrap();
        assert_eq!(
            lottery_target(PhiF::new(1, 2).unwrap(), entry.get_stake(), total).unwrap(),
            leaf.target,
            "party {i}'s target"
        );
    }
    let tree = StmTree::new(&leaves).unwrap();
    let root = stm_root(&setup);
    assert_eq!(tree.root(), root, "our tree's root is mithril-stm's");

    let message = message_to_field(&MESSAGE);
    let h = hash_to_point(root, message);
    assert!(!setup.signatures.is_empty());
    for signature in &setup.signatures {
        assert!(stm_accepts(&setup, signature, &MESSAGE));
        let (position, ours) = read_signature(signature);
        assert!(ours.verify(&leaves[position].key, &h), "ours accepts");
        // Both sides won indices: ours are the indices mithril-stm's lottery accepts.
        assert!(!winning_indices(M, root, message, &leaves[position], &ours).is_empty());
    }
}

#[test]
fn interop_refusals_agree() {
    let setup = setup();
    let leaves = leaves(&setup.closed);
    let root = stm_root(&setup);
    let message = message_to_field(&MESSAGE);
    let h = hash_to_point(root, message);
    let signature = &setup.signatures[0];
    let (position, ours) = read_signature(signature);
    let key = leaves[position].key;

    // A changed response.
    let mut response = ours.s.to_bytes();
    response[0] ^= 1;
    let changed = with_schnorr_field(signature, "response", &response);
    assert!(!stm_accepts(&setup, &changed, &MESSAGE));
    assert!(!read_signature(&changed).1.verify(&key, &h));

    // A low-order commitment point: sigma + (0, -1), mithril-stm's subgroup check refuses it.
    let low =
        midnight_curves::JubjubExtended::from(midnight_curves::JubjubAffine::from_raw_unchecked(
            <Base as ff::Field>::ZERO,
            -<Base as ff::Field>::ONE,
        ));
    let translated = StmSignature {
        sigma: ours.sigma + low,
        ..ours
    }
    .to_bytes();
    let translated = &translated[..32];
    let changed = with_schnorr_field(signature, "commitment_point", translated);
    assert!(!stm_accepts(&setup, &changed, &MESSAGE));
    assert!(!read_signature(&changed).1.verify(&key, &h));

    // Another message.
    let other = [43u8; 32];
    assert!(!stm_accepts(&setup, signature, &other));
    assert!(!ours.verify(&key, &hash_to_point(root, message_to_field(&other))));

    // The changed response cannot be proved: our aggregator refuses it, and a witness made
    // anyway does not satisfy the circuit.
    let mut signatures: Vec<(usize, StmSignature)> =
        setup.signatures.iter().map(read_signature).collect();
    let tree = StmTree::new(&leaves).unwrap();
    let certificate = aggregate(&tree, (M, QUORUM), message, &signatures).unwrap();
    signatures[0].1.s += <mithril_jubjub::native::JubjubScalar as ff::Field>::ONE;
    assert!(aggregate(&tree, (M, QUORUM), message, &signatures).is_err());
    let shape = StmShape {
        signer_slots: certificate.signers.len(),
        index_slots: QUORUM as usize,
        m: M,
        k: 12,
        ladder: Default::default(),
    };
    let instance = StmInstance::from_trusted(root, &MESSAGE);
    let mut witness = StmWitness::new(shape, instance, &certificate).unwrap();
    let honest = midnight_proofs::dev::MockProver::run(
        &StmCircuit::new(witness.clone()),
        vec![instance.to_public_inputs()],
    )
    .unwrap()
    .verify();
    assert!(honest.is_ok(), "the honest witness: {honest:?}");
    witness.signers[0].signature.s += <mithril_jubjub::native::JubjubScalar as ff::Field>::ONE;
    let cheating = midnight_proofs::dev::MockProver::run(
        &StmCircuit::new(witness),
        vec![instance.to_public_inputs()],
    )
    .unwrap()
    .verify();
    assert!(
        cheating.is_err(),
        "a changed response satisfied the circuit"
    );
}

#[test]
fn interop_clerk_certificate_proves_and_verifies_on_both_sides() {
    let setup = setup();
    let leaves = leaves(&setup.closed);
    let root = stm_root(&setup);

    // mithril-stm's clerk proves the signatures (its SNARK, an unsafe SRS) and its verifier
    // accepts the proof.
    let srs_dir: PathBuf = std::env::temp_dir().join("tms-interop-srs");
    let degree = mithril_stm::circuits::halo2::bench::helpers::compute_circuit_degree(
        QUORUM as u32,
        M as u32,
    )
    .unwrap()
        // The helper sizes a depth-12 tree; the SNARK's is 13 (the bench retries up to +2).
        + 2;
    let (srs_file, verifier_params, _) =
        prepare_srs(&SrsSource::Generated(srs_dir), degree).unwrap();
    let folder = srs_file.parent().and_then(|p| p.parent()).unwrap();
    let provider = TrustedSetupProvider::new(
        folder.to_path_buf(),
        sha256_file(&srs_file).unwrap(),
        Arc::new(NoTrustedSetupDownload),
    );
    SnarkProverSetupWarmer::warm(&setup.parameters, AggregateSignatureType::Snark, &provider)
        .unwrap();
    let clerk =
        Clerk::<D>::new_clerk_from_closed_key_registration(&setup.parameters, &setup.closed);
    let (aggregate_signature, ancillary) = clerk
        .aggregate_signatures_with_type(
            &setup.signatures,
            &MESSAGE,
            AggregateSignatureType::Snark,
            AncillaryProofInput::new(
                None,
                AncillaryGenesisData::new(Vec::new(), None, None),
                Vec::new(),
            ),
        )
        .unwrap();
    let AggregateSignature::Snark(stm_proof) = &aggregate_signature else {
        panic!("not a SNARK proof")
    };
    let Some(data @ AncillaryVerifierData::Snark(_)) = ancillary.verifier_data() else {
        panic!("no SNARK verifier data")
    };
    let verifier_data = data.as_snark_verifier_data().unwrap().clone();
    let avk = clerk.compute_aggregate_verification_key();
    let snark_avk = avk.to_snark_aggregate_verification_key().unwrap();
    stm_proof
        .verify(&MESSAGE, snark_avk, &verifier_data, &verifier_params)
        .unwrap();

    // The same signatures: our aggregator, prover and verifier, the statement built from the
    // aggregate key's root and the message bytes.
    let signatures: Vec<(usize, StmSignature)> =
        setup.signatures.iter().map(read_signature).collect();
    let tree = StmTree::new(&leaves).unwrap();
    let message = message_to_field(&MESSAGE);
    let certificate = aggregate(&tree, (M, QUORUM), message, &signatures).unwrap();
    let probe = StmShape {
        signer_slots: certificate.signers.len(),
        index_slots: QUORUM as usize,
        m: M,
        k: 10,
        ladder: Default::default(),
    };
    let shape = StmShape {
        k: prover::min_k(&probe),
        ..probe
    };
    let instance = StmInstance::from_trusted(root, &MESSAGE);
    let witness = StmWitness::new(shape, instance, &certificate).unwrap();
    let kzg = tms_cardano::backend::kzg_params(shape.k);
    let keys = prover::keygen(&kzg, shape).unwrap();
    let proof = prover::prove(&kzg, &keys, &witness, rand_core::OsRng).unwrap();
    let vp = kzg.verifier_params();
    prover::verify(&vp, keys.vk(), &instance, &proof).unwrap();
    let other = StmInstance::from_trusted(root, &[43; 32]);
    assert!(prover::verify(&vp, keys.vk(), &other, &proof).is_err());
    eprintln!(
        "[interop] quorum {QUORUM} of m = {M}: ours k = {}, {} signer slots, proof {} B",
        shape.k,
        shape.signer_slots,
        proof.len()
    );
}

/// Where the tool's fixtures live: `tests/fixtures/mithril-stm/` of the root workspace.
fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/mithril-stm")
}

/// The registration file `tms --format mithril-stm` reads: mithril-stm's `Parameters` and its
/// closed registration's entries in signer-index order, each as mithril-stm's serde writes it
/// (`ClosedKeyRegistration` itself has no serde form).
fn registration_json(setup: &Setup) -> serde_json::Value {
    let entries: Vec<_> = (0..PARTIES as u64)
        .map(|i| setup.closed.get_registration_entry_for_index(&i).unwrap())
        .collect();
    serde_json::json!({
        "parameters": setup.parameters,
        "closed_registration_entries": entries,
    })
}

/// What a verifier holds instead: the parameters and mithril-stm's
/// `AggregateVerificationKeyForSnark`, serde as mithril-stm writes it.
fn aggregate_key_json(setup: &Setup) -> serde_json::Value {
    let clerk =
        Clerk::<D>::new_clerk_from_closed_key_registration(&setup.parameters, &setup.closed);
    let avk = clerk.compute_aggregate_verification_key();
    serde_json::json!({
        "parameters": setup.parameters,
        "aggregate_verification_key": avk.to_snark_aggregate_verification_key().unwrap(),
    })
}

/// A registration of the same parameters and stakes from another seed (the tool's "another
/// registration" refusals).
fn other_setup() -> Setup {
    seeded_setup(4, None)
}

fn line(value: &impl serde::Serialize) -> String {
    format!("{}\n", serde_json::to_string(value).unwrap())
}

/// The tool's fixtures (`tests/fixtures/mithril-stm/`, read by the root workspace's
/// `tests/cli_mithril_stm.rs`) are mithril-stm's own files: with `TMS_STM_FIXTURES=write` this
/// writes them (the registration, the verifier's aggregate key, another registration, every
/// single signature of `setup()` on `MESSAGE`); otherwise it checks the committed ones: the
/// registrations and the aggregate key equal this seeded setup's, and mithril-stm itself reads
/// back every committed signature with its own deserializer and accepts it.
#[test]
fn interop_tool_fixtures_are_mithril_stm_files() {
    let setup = setup();
    let dir = fixture_dir();
    let other = other_setup();
    let files = [
        ("registration.json", line(&registration_json(&setup))),
        ("aggregate-key.json", line(&aggregate_key_json(&setup))),
        ("other-registration.json", line(&registration_json(&other))),
    ];
    if std::env::var("TMS_STM_FIXTURES").as_deref() == Ok("write") {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        for signature in &setup.signatures {
            let name = format!("signature-{}.json", signature.signer_index);
            std::fs::write(dir.join(name), line(signature)).unwrap();
        }
        eprintln!(
            "[interop] wrote {} signatures and the registrations to {}",
            setup.signatures.len(),
            dir.display()
        );
        return;
    }
    for (name, text) in &files {
        let committed: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let fresh: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(committed, fresh, "{name} is this seeded setup's");
    }
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("signature-") {
            continue;
        }
        let signature: SingleSignature =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(
            stm_accepts(&setup, &signature, &MESSAGE),
            "mithril-stm accepts {name}"
        );
        read += 1;
    }
    assert!(read >= QUORUM as usize, "{read} committed signatures");
}

/// The application messages of the tool's chain fixtures, epochs 0 and 1.
const CHAIN_APPLICATIONS: [[u8; 32]; 2] = [[1; 32], [2; 32]];

/// The tool's chain fixtures (`tests/fixtures/mithril-stm/chain-epoch<E>-signature-<i>.json`,
/// read by the root workspace's `tests/cli_mithril_stm.rs`) are mithril-stm's own single
/// signatures of the chain links `tms chain link` prints: epoch 0, the registration (seed 3)
/// hands over to the other one (seed 4); epoch 1, the other one hands back. With
/// `TMS_STM_FIXTURES=write` this writes them; otherwise mithril-stm reads every committed one back
/// and accepts it for its epoch's link.
#[test]
fn interop_chain_fixtures_are_mithril_stm_files() {
    let roots = [stm_root(&setup()), stm_root(&other_setup())];
    let links: Vec<[u8; 32]> = (0..2)
        .map(|epoch| link_message(roots[1 - epoch], &CHAIN_APPLICATIONS[epoch], epoch as u64))
        .collect();
    let signers = [
        seeded_setup(3, Some(&links[0])),
        seeded_setup(4, Some(&links[1])),
    ];
    let dir = fixture_dir();
    if std::env::var("TMS_STM_FIXTURES").as_deref() == Ok("write") {
        for (epoch, setup) in signers.iter().enumerate() {
            for signature in &setup.signatures {
                let name = format!(
                    "chain-epoch{epoch}-signature-{}.json",
                    signature.signer_index
                );
                std::fs::write(dir.join(name), line(signature)).unwrap();
            }
        }
        eprintln!("[interop] wrote the chain signatures to {}", dir.display());
        return;
    }
    for (epoch, setup) in signers.iter().enumerate() {
        let prefix = format!("chain-epoch{epoch}-signature-");
        let mut read = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.starts_with(&prefix) {
                continue;
            }
            let signature: SingleSignature =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert!(
                stm_accepts(setup, &signature, &links[epoch]),
                "mithril-stm accepts {name} for epoch {epoch}'s link"
            );
            read += 1;
        }
        assert!(
            read >= QUORUM as usize,
            "{read} committed signatures of epoch {epoch}"
        );
    }
}
