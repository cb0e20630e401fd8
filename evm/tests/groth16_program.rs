//! The verifier program a Groth16 wrapper replays (`tms_evm::groth16`), recorded from a real
//! proof of the final wrapper's layout.
//!
//! A shape twin of the final wrapper (`tms_aggregation::stand_in`: one advice column with the
//! range lookup on it, one fixed column, `k = 10`, a valid KZG accumulator then a Schnorr ATMS
//! statement `[commitment, m, t]` as public inputs) is proved in snark-verifier's Poseidon
//! transcript; snark-verifier's own verifier is recorded on it. The program is checked against
//! the committed fixture `evm/groth16/testdata/twin_k10.program.json` (the Go side's test input;
//! `TMS_GROTH16_FIXTURE=write` rewrites both fixture files), replayed natively, and every
//! one-change witness is refused by the replay: a proof scalar, a proof point, a statement word,
//! an accumulator limb.
//!
//! `cargo test -p tms-evm --test groth16_program -- --nocapture` (in CI, seconds).

use std::{fs, path::PathBuf};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::kzg::commitment::ParamsKZG,
};
use snark_verifier_sdk::halo2::aggregation::AggregationConfigParams;
use tms_aggregation::{
    stand_in::{stand_in, trivial_accumulator},
    ACCUMULATOR_LIMBS,
};
use tms_evm::certificate::{word_fr, StatementKind};
use tms_evm::groth16::{program_of_key, record, Op, Program, ProgramError, ProgramWitness};
use tms_gadgets::{
    message::message_to_field,
    proving::{params::kzg_params, verify_kzg, MultiOpen, Transcript},
    Fr,
};

const K: u32 = 10;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("groth16/testdata")
        .join(name)
}

struct Twin {
    params: ParamsKZG<Bn256>,
    vk: VerifyingKey<G1Affine>,
    inputs: Vec<Fr>,
    proof: Vec<u8>,
}

fn twin() -> Twin {
    twin_of(&[
        Fr::from(0xc0ffee),
        message_to_field(b"tms groth16 test: the final wrapper's twin"),
        Fr::from(3),
    ])
}

/// The final wrapper's twin whose statement (after the accumulator) is `statement`.
fn twin_of(statement: &[Fr]) -> Twin {
    let params = kzg_params(K);
    let mut inputs = trivial_accumulator(&params);
    inputs.extend_from_slice(statement);
    let layout = AggregationConfigParams {
        degree: K,
        num_advice: 1,
        num_lookup_advice: 1,
        num_fixed: 1,
        lookup_bits: K as usize - 1,
    };
    let made = stand_in(
        &params,
        layout,
        &inputs,
        Transcript::Poseidon,
        MultiOpen::Shplonk,
    )
    .unwrap();
    assert!(verify_kzg(
        &params,
        &made.vk,
        &made.proof,
        &inputs,
        Transcript::Poseidon,
        MultiOpen::Shplonk
    ));
    Twin {
        params,
        vk: made.vk,
        inputs,
        proof: made.proof,
    }
}

fn statement() -> Vec<usize> {
    (ACCUMULATOR_LIMBS..ACCUMULATOR_LIMBS + 3).collect()
}

/// `witness` with one decimal value changed by +1.
fn bumped(value: &str) -> String {
    let n = num_bigint::BigUint::parse_bytes(value.as_bytes(), 10).unwrap();
    (n + 1u32).to_str_radix(10)
}

#[test]
fn the_recorded_verifier_replays_and_refuses_every_one_change_witness() {
    let twin = twin();
    let (program, witness) = record(
        &twin.params,
        &twin.vk,
        &twin.inputs,
        true,
        &twin.proof,
        &statement(),
        "final-wrapper twin, k = 10, Schnorr ATMS statement",
    )
    .unwrap();
    let program = program.with_statement_kind(StatementKind::Atms);
    let count = |f: fn(&Op) -> bool| program.ops.iter().filter(|op| f(op)).count();
    println!(
        "record: groth16-program ops={} muls={} invs={} msms={} msm_terms={} proof_scalars={} proof_points={}",
        program.ops.len(),
        count(|op| matches!(op, Op::Mul { .. })),
        count(|op| matches!(op, Op::Inv { .. })),
        count(|op| matches!(op, Op::Msm { .. })),
        program
            .ops
            .iter()
            .map(|op| match op {
                Op::Msm { terms, .. } => terms.len(),
                _ => 0,
            })
            .sum::<usize>(),
        program.num_proof_scalars,
        program.num_proof_points,
    );
    assert!(matches!(program.ops.last(), Some(Op::PairingCheck { .. })));
    program.replay(&witness).unwrap();

    // The program is the key's, not the proof's: a second proof records the same program.
    // A second proof of the same twin (fresh blinding; keygen is deterministic).
    let again = self::twin().proof;
    let (program_again, witness_again) = record(
        &twin.params,
        &twin.vk,
        &twin.inputs,
        true,
        &again,
        &statement(),
        "final-wrapper twin, k = 10, Schnorr ATMS statement",
    )
    .unwrap();
    assert_eq!(
        program,
        program_again.with_statement_kind(StatementKind::Atms)
    );
    // And the key alone gives it: what a verifier regenerates from the key it trusts.
    let of_key = program_of_key(
        &twin.params,
        &twin.vk,
        twin.inputs.len(),
        true,
        &statement(),
        "final-wrapper twin, k = 10, Schnorr ATMS statement",
    )
    .unwrap();
    assert_eq!(of_key.with_statement_kind(StatementKind::Atms), program);
    assert_ne!(witness.proof_scalars, witness_again.proof_scalars);
    program.replay(&witness_again).unwrap();

    // The committed fixture is this program (the Go side replays it).
    let (program_file, witness_file) = (
        fixture("twin_k10.program.json"),
        fixture("twin_k10.witness.json"),
    );
    if std::env::var("TMS_GROTH16_FIXTURE").as_deref() == Ok("write") {
        fs::create_dir_all(program_file.parent().unwrap()).unwrap();
        fs::write(&program_file, serde_json::to_string(&program).unwrap()).unwrap();
        fs::write(&witness_file, serde_json::to_string(&witness).unwrap()).unwrap();
    }
    let committed: Program =
        serde_json::from_slice(&fs::read(&program_file).expect("the committed program fixture"))
            .unwrap();
    assert_eq!(committed, program, "the fixture is another key's program");
    let committed_witness: ProgramWitness =
        serde_json::from_slice(&fs::read(&witness_file).unwrap()).unwrap();
    program.replay(&committed_witness).unwrap();

    // One change at a time, each refused by the replay.
    let refused = |what: &str, change: &dyn Fn(&mut ProgramWitness)| {
        let mut changed = witness.clone();
        change(&mut changed);
        changed.scalars.clear();
        changed.points.clear();
        let error = program
            .replay(&changed)
            .expect_err(&format!("{what}: accepted"));
        println!("refused: {what}: {error}");
    };
    refused("a proof scalar", &|w| {
        w.proof_scalars[3] = bumped(&w.proof_scalars[3])
    });
    refused("the last proof scalar", &|w| {
        let last = w.proof_scalars.len() - 1;
        w.proof_scalars[last] = bumped(&w.proof_scalars[last])
    });
    refused("a proof point (another point)", &|w| {
        w.proof_points.swap(0, 1)
    });
    refused("a proof point (off the curve)", &|w| {
        w.proof_points[2][1] = bumped(&w.proof_points[2][1])
    });
    refused("the message word", &|w| {
        w.instances[ACCUMULATOR_LIMBS + 1] = bumped(&w.instances[ACCUMULATOR_LIMBS + 1])
    });
    refused("the threshold", &|w| {
        w.instances[ACCUMULATOR_LIMBS + 2] = bumped(&w.instances[ACCUMULATOR_LIMBS + 2])
    });
    refused("an accumulator limb", &|w| {
        w.instances[0] = bumped(&w.instances[0])
    });

    // The recorder itself refuses a proof that does not verify (a changed byte) and another
    // statement, as the native verifier does.
    let mut bad = twin.proof.clone();
    bad[40] ^= 1;
    assert!(record(
        &twin.params,
        &twin.vk,
        &twin.inputs,
        true,
        &bad,
        &statement(),
        ""
    )
    .is_err());
    let mut other = twin.inputs.clone();
    other[ACCUMULATOR_LIMBS + 2] += Fr::from(1);
    assert!(matches!(
        record(
            &twin.params,
            &twin.vk,
            &other,
            true,
            &twin.proof,
            &statement(),
            ""
        ),
        Err(ProgramError::Pairing | ProgramError::Refused(_))
    ));
}

/// A Schnorr ATMS certificate (4 of 6, flat committee) proved in the Poseidon transcript and its
/// verifier recorded directly, without a halo2 final wrapper: the Groth16 circuit can verify the
/// certificate proof itself (every column of it an MSM term in the program). Replayed natively;
/// with `TMS_GROTH16_OUT=DIR` the program, the witness and the statement are written there for
/// `go run . program-prove` (evm/groth16/README.md).
#[test]
fn schnorr_atms_certificate_program() {
    use schnorr_atms::{CommitmentMode, Verification};
    const THRESHOLD: u64 = 4;
    let message = b"tms groth16 test: epoch 7 committee handover".to_vec();
    let witness = schnorr_atms::example_witness(
        (6, 4),
        CommitmentMode::Flat,
        Verification::PerSignature,
        message_to_field(&message),
        7,
        THRESHOLD as usize,
    )
    .unwrap();
    let params = kzg_params(witness.shape.k);
    let keys = schnorr_atms::keygen(&params, witness.shape).unwrap();
    let proof = schnorr_atms::prove_with_transcript(&params, &keys, &witness, Transcript::Poseidon)
        .unwrap();
    let public = witness.instance.to_public_inputs();
    let all: Vec<usize> = (0..public.len()).collect();
    let (program, recorded) = record(
        &params,
        keys.vk(),
        &public,
        false,
        &proof,
        &all,
        "Schnorr ATMS 4 of 6 (flat), the certificate proof itself",
    )
    .unwrap();
    program.replay(&recorded).unwrap();
    let of_key = program_of_key(
        &params,
        keys.vk(),
        public.len(),
        false,
        &all,
        "Schnorr ATMS 4 of 6 (flat), the certificate proof itself",
    )
    .unwrap();
    assert_eq!(of_key, program);
    let msm_terms: usize = program
        .ops
        .iter()
        .map(|op| match op {
            Op::Msm { terms, .. } => terms.len(),
            _ => 0,
        })
        .sum();
    println!(
        "record: groth16-program schnorr-atms-4-of-6 k={} ops={} msm_terms={msm_terms} proof_scalars={} proof_points={}",
        witness.shape.k,
        program.ops.len(),
        program.num_proof_scalars,
        program.num_proof_points
    );
    let mut changed = recorded.clone();
    changed.scalars.clear();
    changed.instances[2] = bumped(&changed.instances[2]);
    assert!(program.replay(&changed).is_err(), "another threshold");
    if let Some(dir) = std::env::var_os("TMS_GROTH16_OUT") {
        let dir = PathBuf::from(dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("program.json"),
            serde_json::to_string(&program.clone().with_statement_kind(StatementKind::Atms))
                .unwrap(),
        )
        .unwrap();
        fs::write(
            dir.join("witness.json"),
            serde_json::to_string(&recorded).unwrap(),
        )
        .unwrap();
        let statement = serde_json::json!({
            "committee": format!("0x{}", hex::encode(word_fr(&witness.instance.commitment))),
            "message": format!("0x{}", message.iter().map(|b| format!("{b:02x}")).collect::<String>()),
            "threshold": THRESHOLD,
        });
        fs::write(
            dir.join("statement.json"),
            serde_json::to_string_pretty(&statement).unwrap() + "\n",
        )
        .unwrap();
    }
}

/// Writes `program` (its statement hashed), `witness` and `statement` into
/// `$TMS_GROTH16_OUT/name` when that variable is set: the input of `go run . program-prove`.
fn write_for_groth16(
    name: &str,
    kind: StatementKind,
    program: &Program,
    witness: &ProgramWitness,
    statement: serde_json::Value,
) {
    let Some(out) = std::env::var_os("TMS_GROTH16_OUT") else {
        return;
    };
    let dir = PathBuf::from(out).join(name);
    fs::create_dir_all(&dir).unwrap();
    let mut hashed = program.clone().with_statement_kind(kind);
    hashed.statement_hash = Some("keccak256".into());
    fs::write(
        dir.join("program.json"),
        serde_json::to_string(&hashed).unwrap(),
    )
    .unwrap();
    fs::write(
        dir.join("witness.json"),
        serde_json::to_string(witness).unwrap(),
    )
    .unwrap();
    fs::write(
        dir.join("statement.json"),
        serde_json::to_string_pretty(&statement).unwrap() + "\n",
    )
    .unwrap();
}

/// The final wrapper's twin with a Schnorr ATMS statement, a SNARK-Mithril statement
/// `[registration, m]` and a chain statement `[genesis, last registration, m, epochs]` (what a
/// chain wrapper exposes), recorded and
/// replayed; with `TMS_GROTH16_OUT` their programs with the statement hashed are written for
/// `program-prove` (the fixtures `evm/tests/fixtures/groth16-*-twin-hashed`).
#[test]
fn twin_programs_with_hashed_statements() {
    let atms_message = b"tms groth16 test: the final wrapper's twin".to_vec();
    let chain_message = b"tms groth16 test: a chain's epoch 9".to_vec();
    let mithril_message = b"tms groth16 test: a Mithril certificate".to_vec();
    let hex = |bytes: &[u8]| {
        format!(
            "0x{}",
            bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
        )
    };
    for (name, kind, statement, described) in [
        (
            "atms-twin-hashed",
            StatementKind::Atms,
            vec![
                Fr::from(0xc0ffee),
                message_to_field(&atms_message),
                Fr::from(3),
            ],
            serde_json::json!({
                "committee": format!("0x{}", hex::encode(word_fr(&Fr::from(0xc0ffee)))),
                "message": hex(&atms_message),
                "threshold": 3,
            }),
        ),
        (
            "mithril-twin-hashed",
            StatementKind::Mithril,
            vec![Fr::from(0x5eed), message_to_field(&mithril_message)],
            serde_json::json!({
                "registration": format!("0x{}", hex::encode(word_fr(&Fr::from(0x5eed)))),
                "message": hex(&mithril_message),
            }),
        ),
        (
            "chain-twin-hashed",
            StatementKind::Chain,
            vec![
                Fr::from(0x9e4e5),
                Fr::from(0x1a57),
                message_to_field(&chain_message),
                Fr::from(9),
            ],
            serde_json::json!({
                "genesis": format!("0x{}", hex::encode(word_fr(&Fr::from(0x9e4e5)))),
                "last_registration": format!("0x{}", hex::encode(word_fr(&Fr::from(0x1a57)))),
                "message": hex(&chain_message),
                "epochs": 9,
            }),
        ),
    ] {
        let twin = twin_of(&statement);
        let public: Vec<usize> = (ACCUMULATOR_LIMBS..ACCUMULATOR_LIMBS + statement.len()).collect();
        let (program, witness) = record(
            &twin.params,
            &twin.vk,
            &twin.inputs,
            true,
            &twin.proof,
            &public,
            name,
        )
        .unwrap();
        program.replay(&witness).unwrap();
        write_for_groth16(name, kind, &program, &witness, described);
    }
}
