//! The package's chain verifier on a stand-in: a real proof (EVM transcript, SHPLONK) of
//! `tms_aggregation::stand_in`'s circuit, halo2-base's builder laid out as an aggregation circuit
//! is (so the aggregation circuit's key reader reads its key), whose public inputs are a KZG
//! accumulator that holds and a chain statement, under a key file labelled as a chain tree's
//! root. It is not a chain proof (the circuit checks no certificate): it exercises everything of
//! [`PinnedChainVerifier`] but the aggregation circuit's own constraints (the pins, the key
//! file's header, the epoch count, the statement built from what the client holds, the proof
//! file's words, the transcript, the accumulator's pairing check) in seconds, at k = 10. The
//! chain fixture made by the tool (`wasm/fixtures/make-chain.sh`) is the end-to-end test.

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::kzg::commitment::ParamsKZG,
    SerdeFormat,
};
use mithril_snark::chain::ChainStatement;
use tms_aggregation::{
    chain::{segment_inputs, ROOT_STATEMENT, STEP_STATEMENT, WRAPPED_STATEMENT},
    proof_file,
    snark::VK_FORMAT,
    stand_in::{stand_in, trivial_accumulator},
    ACCUMULATOR_LIMBS,
};
use tms_gadgets::{
    message::{field_bytes, message_to_field},
    proving::{keys::fingerprint, params::kzg_params, MultiOpen, Transcript},
    Fr,
};
use tms_wasm::{
    chain::{PinnedChainVerifier, TrustedChain},
    params::verifier_params_file,
};

const K: u32 = 10;
const MESSAGE: &[u8] = b"tms light client: stand-in chain";

fn hex(bytes: &[u8]) -> String {
    let digits: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("0x{digits}")
}

/// The layout of the eight-epoch chain root measured in the guide's "Light clients" page (2
/// advice, 1 lookup, 1 fixed column), at k = 10 (snark-verifier-sdk's `AggregationConfigParams`,
/// named through its serde form: tms-wasm does not depend on the sdk). A verifier's work depends
/// on the columns, hardly on k, so its time stands for a real root's.
fn layout() -> serde_json::Value {
    serde_json::json!({
        "degree": K,
        "num_advice": 2,
        "num_lookup_advice": 1,
        "num_fixed": 1,
        "lookup_bits": K - 1,
    })
}

/// A key file as `tms chain prove` writes a root's (the header, with the tree it closes, then the
/// key); for `tms chain wrap`'s statement, as it writes a wrapper's (no tree: any length).
fn key_file(statement: &str, vk: &VerifyingKey<G1Affine>) -> Vec<u8> {
    let mut header = serde_json::json!({
        "format": VK_FORMAT,
        "statement": statement,
        "config": layout(),
        "num_instances": ACCUMULATOR_LIMBS + 4,
        "chain": { "per_leaf": 1, "per_node": 1, "levels": 0, "k": K },
    });
    if statement == WRAPPED_STATEMENT {
        header.as_object_mut().unwrap().remove("chain");
    }
    let json = serde_json::to_vec(&header).unwrap();
    let mut bytes = (json.len() as u32).to_le_bytes().to_vec();
    bytes.extend(json);
    bytes.extend(vk.to_bytes(SerdeFormat::RawBytes));
    bytes
}

struct StandInChain {
    params: ParamsKZG<Bn256>,
    vk: VerifyingKey<G1Affine>,
    proof: Vec<u8>,
    trusted: TrustedChain,
}

fn stand_in_chain() -> StandInChain {
    let params = kzg_params(K);
    let statement = ChainStatement {
        genesis: Fr::from(1001),
        last_registration: Fr::from(2002),
        last_application: message_to_field(MESSAGE),
        epochs: 1,
    };
    let mut inputs = trivial_accumulator(&params);
    inputs.extend(segment_inputs(&statement));
    let layout = serde_json::from_value(layout()).unwrap();
    let made = stand_in(
        &params,
        layout,
        &inputs,
        Transcript::Evm,
        MultiOpen::Shplonk,
    )
    .unwrap();
    let proof = proof_file(&inputs[..ACCUMULATOR_LIMBS], &made.proof);
    StandInChain {
        trusted: TrustedChain {
            genesis: hex(&field_bytes(&statement.genesis)),
            last_registration: hex(&field_bytes(&statement.last_registration)),
            message: MESSAGE.to_vec(),
            epochs: 1,
        },
        params,
        vk: made.vk,
        proof,
    }
}

#[test]
fn the_chain_verifier_decides_a_stand_in_chain_as_the_tool_would() {
    let c = stand_in_chain();
    let params_file = verifier_params_file(&c.params);
    let params_pin = fingerprint(&params_file);
    let vk_file = key_file(ROOT_STATEMENT, &c.vk);
    let vk_pin = fingerprint(&vk_file);
    let verifier = PinnedChainVerifier::new(&vk_file, &vk_pin, &params_file, &params_pin).unwrap();
    assert_eq!(
        verifier.describe(),
        "mithril chain tree root: 1 epochs (tree 1,1,0), 2^10 rows"
    );
    let verdict = verifier.verify(&c.trusted, &c.proof).unwrap();
    assert!(
        verdict.starts_with("verified: 1 SNARK-Mithril certificates") && verdict.contains(&vk_pin),
        "{verdict}"
    );

    let mut times: Vec<f64> = (0..10)
        .map(|_| {
            let start = std::time::Instant::now();
            assert!(verifier.verify(&c.trusted, &c.proof).is_ok());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "wasm-verify runtime=native scheme=chain-stand-in proof_bytes={} median_ms={:.1}",
        c.proof.len(),
        (times[4] + times[5]) / 2.0
    );

    let refused = |trusted: &TrustedChain, proof: &[u8]| {
        std::panic::catch_unwind(|| verifier.verify(trusted, proof))
            .expect("no panic")
            .unwrap_err()
    };
    let rejected = "the chain proof does not verify for the trusted statement";
    let flip_digit = |s: &str| {
        let mut s = s.to_string();
        let last = if s.ends_with('0') { "1" } else { "0" };
        s.replace_range(s.len() - 1.., last);
        s
    };
    let with = |change: &dyn Fn(&mut TrustedChain)| {
        let mut t = c.trusted.clone();
        change(&mut t);
        t
    };
    for (what, trusted) in [
        ("genesis", with(&|t| t.genesis = flip_digit(&t.genesis))),
        (
            "last",
            with(&|t| t.last_registration = flip_digit(&t.last_registration)),
        ),
        ("message", with(&|t| t.message.push(b'!'))),
    ] {
        assert!(refused(&trusted, &c.proof).starts_with(rejected), "{what}");
    }
    assert!(refused(&with(&|t| t.epochs = 2), &c.proof)
        .starts_with("the key closes chains of 1 epochs"));
    // A changed byte in an accumulator word, in the halo2 proof, at its end; a cut file.
    for at in [31, 12 * 32 + 5, c.proof.len() / 2 + 200, c.proof.len() - 1] {
        let mut proof = c.proof.clone();
        proof[at] ^= 1;
        let e = refused(&c.trusted, &proof);
        assert!(
            e.starts_with(rejected) || e.starts_with("chain proof:"),
            "{at}: {e}"
        );
    }
    assert!(refused(&c.trusted, &c.proof[..100])
        .starts_with("chain proof: this proof file starts with 12 words"));

    // The pins, and keys that are not a chain root's or a wrapped chain's.
    let e = PinnedChainVerifier::new(&vk_file, &flip_digit(&vk_pin), &params_file, &params_pin);
    assert!(e
        .err()
        .unwrap()
        .starts_with("chain verifying key: fingerprint"));
    let e = PinnedChainVerifier::new(&vk_file, &vk_pin, &params_file, &flip_digit(&params_pin));
    assert!(e
        .err()
        .unwrap()
        .starts_with("verifier parameters: fingerprint"));
    for (statement, says) in [
        (STEP_STATEMENT, "a chain step key"),
        ("aggregate-mithril-1", "not a Mithril chain"),
    ] {
        let file = key_file(statement, &c.vk);
        let e = PinnedChainVerifier::new(&file, &fingerprint(&file), &params_file, &params_pin);
        assert!(e.err().unwrap().contains(says), "{statement}");
    }
}

/// The stand-in under a key labelled as `tms chain wrap` writes an extended chain's wrapper key:
/// the same verifier path as a root's, with no epoch count in the key (any length), so another
/// count reaches the proof, which refuses it.
#[test]
fn the_chain_verifier_takes_a_wrapped_chain_key_of_any_length() {
    let c = stand_in_chain();
    let params_file = verifier_params_file(&c.params);
    let params_pin = fingerprint(&params_file);
    let vk_file = key_file(WRAPPED_STATEMENT, &c.vk);
    let vk_pin = fingerprint(&vk_file);
    let verifier = PinnedChainVerifier::new(&vk_file, &vk_pin, &params_file, &params_pin).unwrap();
    assert_eq!(
        verifier.describe(),
        "mithril chain extended one epoch at a time, wrapped: any length, 2^10 rows"
    );
    assert_eq!(verifier.key_epochs(), None);
    let verdict = verifier.verify(&c.trusted, &c.proof).unwrap();
    assert!(
        verdict.starts_with("verified: 1 SNARK-Mithril certificates") && verdict.contains(&vk_pin),
        "{verdict}"
    );
    let longer = TrustedChain {
        epochs: 2,
        ..c.trusted.clone()
    };
    let e = verifier.verify(&longer, &c.proof).unwrap_err();
    assert!(
        e.starts_with("the chain proof does not verify for the trusted statement"),
        "{e}"
    );
}
