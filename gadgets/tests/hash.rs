//! Native vs in-circuit agreement, independent vectors and negative tests for the hashes.

use ark_ff::{BigInteger, PrimeField as ArkPrimeField};
use halo2_base::{
    halo2_proofs::halo2curves::ff::{Field, PrimeField},
    AssignedValue,
};
use light_poseidon::{Poseidon as LightPoseidon, PoseidonHasher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use tms_gadgets::{
    hash::{
        poseidon,
        rescue::{rescue_prime_hash, RescueField, WindowPlan},
        HashInstructions, NativeHash, Poseidon, PoseidonChip, RescueChip, RescuePrime,
    },
    testing::{override_cell, CircuitHarness, Rejection},
    Fr,
};

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0x7a5)
}

fn random_fr(rng: &mut impl Rng) -> Fr {
    Fr::from_u128(rng.gen()) * Fr::from_u128(rng.gen()) + Fr::from_u128(rng.gen())
}

fn to_ark(x: Fr) -> ark_bn254::Fr {
    ark_bn254::Fr::from_le_bytes_mod_order(x.to_repr().as_ref())
}

fn from_ark(x: ark_bn254::Fr) -> Fr {
    let bytes: [u8; 32] = x.into_bigint().to_bytes_le().try_into().unwrap();
    Fr::from_repr(bytes).unwrap()
}

fn dec(s: &str) -> Fr {
    Fr::from_biguint(&s.parse().unwrap())
}

#[test]
fn poseidon_node_is_circomlib_poseidon_vector() {
    let expected =
        dec("7853200120776062878684798364095072458815029376092732009249414926327459813530");
    assert_eq!(Poseidon.hash_node(Fr::from(1), Fr::from(2)), expected);
    let mut light = LightPoseidon::<ark_bn254::Fr>::new_circom(2).unwrap();
    let got = light
        .hash(&[ark_bn254::Fr::from(1u64), ark_bn254::Fr::from(2u64)])
        .unwrap();
    assert_eq!(from_ark(got), expected);
}

#[test]
fn poseidon_agrees_with_light_poseidon_on_random_inputs() {
    let mut rng = rng();
    let mut light = LightPoseidon::<ark_bn254::Fr>::new_circom(2).unwrap();
    for _ in 0..50 {
        let (a, b) = (random_fr(&mut rng), random_fr(&mut rng));
        let reference = from_ark(light.hash(&[to_ark(a), to_ark(b)]).unwrap());
        assert_eq!(Poseidon.hash_node(a, b), reference);
    }
}

#[test]
fn poseidon_leaf_and_node_are_domain_separated() {
    let (a, b) = (Fr::from(11), Fr::from(12));
    assert_ne!(
        Poseidon.hash_leaf(&[a, b]).unwrap(),
        Poseidon.hash_node(a, b)
    );
    assert_ne!(
        Poseidon.hash_leaf(&[a]).unwrap(),
        Poseidon.hash_leaf(&[a, Fr::zero()]).unwrap()
    );
    assert!(Poseidon.hash_leaf(&[]).is_err());
    assert!(RescuePrime.hash_leaf(&[]).is_err());
    assert_ne!(
        RescuePrime.hash_leaf(&[a, b]).unwrap(),
        RescuePrime.hash_node(a, b)
    );
}

/// Lays out `chip`'s node and leaf hashes on random inputs and checks them against the native
/// twin; returns the advice cells of one node hash.
fn circuit_agrees_with_native<H: HashInstructions + Default>() -> usize
where
    H::Native: NativeHash,
{
    let native = H::Native::default();
    let mut rng = rng();
    let inputs: Vec<Fr> = (0..7).map(|_| random_fr(&mut rng)).collect();
    let harness = CircuitHarness::new(14);
    let (_, node_only) = harness.measure(|ctx, _| {
        let v = ctx.assign_witnesses([inputs[0], inputs[1]]);
        H::default().hash_node(ctx, v[0], v[1])
    });
    let run = harness.mock(|ctx, _| {
        let chip = H::default();
        let v = ctx.assign_witnesses(inputs.iter().copied());
        let mut outs: Vec<AssignedValue<Fr>> = vec![chip.hash_node(ctx, v[0], v[1])];
        for len in 1..=7 {
            outs.push(chip.hash_leaf(ctx, &v[..len]));
        }
        ((), outs)
    });
    run.assert_satisfied();
    let mut expected = vec![native.hash_node(inputs[0], inputs[1])];
    for len in 1..=7 {
        expected.push(native.hash_leaf(&inputs[..len]).unwrap());
    }
    assert_eq!(run.public_values, expected);
    node_only.advice_cells
}

#[test]
fn poseidon_circuit_agrees_with_native() {
    let cells = circuit_agrees_with_native::<PoseidonChip>();
    println!("Poseidon node hash: {cells} advice cells");
    assert!(cells < 2_300, "one permutation per node: {cells}");
}

#[test]
fn rescue_circuit_agrees_with_native() {
    let cells = circuit_agrees_with_native::<RescueChip>();
    println!("Rescue-Prime node hash: {cells} advice cells");
}

/// Overwrites cells inside one permutation, one at a time, and checks each tampering is caught:
/// no cell of the layout is free.
fn every_sampled_cell_is_constrained<H: HashInstructions + Default>(samples: usize) {
    let harness = CircuitHarness::new(12);
    let mut rng = rng();
    let (a, b) = (random_fr(&mut rng), random_fr(&mut rng));
    let (_, stats) = harness.measure(|ctx, _| {
        let v = ctx.assign_witnesses([a, b]);
        H::default().hash_node(ctx, v[0], v[1])
    });
    for _ in 0..samples {
        let offset = rng.gen_range(2..stats.advice_cells);
        let run = harness.mock(|ctx, _| {
            let v = ctx.assign_witnesses([a, b]);
            let out = H::default().hash_node(ctx, v[0], v[1]);
            let mut victim = out;
            victim.cell.as_mut().unwrap().offset = offset;
            let old = ctx.advice[offset].evaluate();
            override_cell(ctx, &victim, old + Fr::one());
            ((), vec![out])
        });
        assert!(
            run.result.is_err(),
            "tampering cell {offset} went unnoticed"
        );
    }
}

#[test]
fn poseidon_tampered_cells_are_rejected() {
    every_sampled_cell_is_constrained::<PoseidonChip>(12);
}

#[test]
fn rescue_tampered_cells_are_rejected() {
    every_sampled_cell_is_constrained::<RescueChip>(12);
}

#[test]
fn rescue_tampered_digest_is_rejected_by_the_gate() {
    let run = CircuitHarness::new(12).mock(|ctx, _| {
        let v = ctx.assign_witnesses([Fr::from(1), Fr::from(2)]);
        let out = RescueChip::new().hash_node(ctx, v[0], v[1]);
        override_cell(ctx, &out, *out.value() + Fr::one());
        ((), vec![])
    });
    run.assert_rejected_by(Rejection::Gate);
}

#[test]
fn rescue_wrong_inverse_sbox_witness_is_rejected() {
    // A cheating prover witnesses one inverse S-box output wrongly (consistently in every cell
    // that holds it): only the y^5 = x check can catch it.
    let alpha_inv = Fr::rescue_params().alpha_inv.to_u64_digits();
    let run = CircuitHarness::new(12).mock(|ctx, _| {
        let s = ctx.assign_witnesses([1u64, 2, 3, 4].map(Fr::from));
        let mut calls = 0;
        let out = RescueChip::new().permute_with_inverse_witness(ctx, s.try_into().unwrap(), |x| {
            calls += 1;
            let root = x.pow_vartime(&alpha_inv);
            if calls == 17 {
                root + Fr::one()
            } else {
                root
            }
        });
        ((), out.to_vec())
    });
    run.assert_rejected_by(Rejection::AdviceCopy);
}

#[test]
fn wrong_public_digest_is_rejected() {
    let run = CircuitHarness::new(12).mock_with_public(
        |ctx, _| {
            let v = ctx.assign_witnesses([Fr::from(1), Fr::from(2)]);
            ((), vec![PoseidonChip::new().hash_node(ctx, v[0], v[1])])
        },
        |mut values| {
            values[0] += Fr::one();
            values
        },
    );
    run.assert_rejected_by(Rejection::PublicInput(0));
}

fn vectors() -> Value {
    let text = include_str!("../../tests/vectors/rescue_prime.json");
    serde_json::from_str(text).unwrap()
}

fn check_rescue_vectors<F: RescueField>(field: &Value) {
    let dec = |v: &Value| F::from_biguint(&v.as_str().unwrap().parse().unwrap());
    let params = F::rescue_params();
    assert_eq!(params.alpha, field["alpha"].as_u64().unwrap());
    assert_eq!(
        params.alpha_inv.to_string(),
        field["alphainv"].as_str().unwrap()
    );
    assert_eq!(params.rounds as u64, field["rounds"].as_u64().unwrap());
    assert_eq!(
        params.primitive_element,
        field["primitive_element"].as_u64().unwrap()
    );
    for (i, row) in field["mds"].as_array().unwrap().iter().enumerate() {
        for (j, x) in row.as_array().unwrap().iter().enumerate() {
            assert_eq!(params.mds[i][j], dec(x), "mds[{i}][{j}]");
        }
    }
    for (i, x) in field["round_constants_first8"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        assert_eq!(params.round_constants[i], dec(x), "round constant {i}");
    }
    assert_eq!(
        *params.round_constants.last().unwrap(),
        dec(&field["round_constants_last"])
    );
    for case in field["permutation"].as_array().unwrap() {
        let input: Vec<F> = case["input"].as_array().unwrap().iter().map(dec).collect();
        let mut state: [F; 4] = input.try_into().unwrap();
        params.permute(&mut state);
        let expected: Vec<F> = case["output"].as_array().unwrap().iter().map(dec).collect();
        assert_eq!(state.to_vec(), expected);
    }
    for case in field["hash"].as_array().unwrap() {
        let input: Vec<F> = case["input"].as_array().unwrap().iter().map(dec).collect();
        let expected: Vec<F> = case["output"].as_array().unwrap().iter().map(dec).collect();
        assert_eq!(rescue_prime_hash(&input).to_vec(), expected);
    }
}

#[test]
fn rescue_matches_independent_vectors_over_bn254() {
    check_rescue_vectors::<Fr>(&vectors()["fields"]["bn254_fr"]);
}

#[test]
fn rescue_matches_independent_vectors_over_bls12_381() {
    check_rescue_vectors::<ark_bls12_381::Fr>(&vectors()["fields"]["bls12_381_fr"]);
}

#[test]
fn rescue_circuit_permutation_matches_vectors() {
    let v = vectors();
    let case = &v["fields"]["bn254_fr"]["permutation"][1];
    let input: Vec<Fr> = case["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| dec(x.as_str().unwrap()))
        .collect();
    let expected: Vec<Fr> = case["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| dec(x.as_str().unwrap()))
        .collect();
    let run = CircuitHarness::new(12).mock(|ctx, _| {
        let s = ctx.assign_witnesses(input.iter().copied());
        let out = RescueChip::new().permute(ctx, s.try_into().unwrap());
        ((), out.to_vec())
    });
    run.assert_satisfied();
    assert_eq!(run.public_values, expected);
}

#[test]
fn poseidon_circuit_permutation_matches_native_on_random_states() {
    let mut rng = rng();
    let states: Vec<[Fr; 3]> = (0..3)
        .map(|_| std::array::from_fn(|_| random_fr(&mut rng)))
        .collect();
    let run = CircuitHarness::new(14).mock(|ctx, _| {
        let chip = PoseidonChip::new();
        let mut outs = vec![];
        for s in &states {
            let assigned = ctx.assign_witnesses(s.iter().copied());
            outs.extend(chip.permute(ctx, assigned.try_into().unwrap()));
        }
        ((), outs)
    });
    run.assert_satisfied();
    let expected: Vec<Fr> = states
        .iter()
        .flat_map(|s| {
            let mut s = *s;
            poseidon::permute(&mut s);
            s
        })
        .collect();
    assert_eq!(run.public_values, expected);
}

#[test]
fn windowed_powers_agree_with_square_and_multiply() {
    let mut rng = rng();
    let alpha_inv = Fr::rescue_params().alpha_inv.clone();
    let mut exponents = vec![
        num_bigint::BigUint::from(0u32),
        num_bigint::BigUint::from(1u32),
        num_bigint::BigUint::from(2u32),
        num_bigint::BigUint::from(31u32),
        num_bigint::BigUint::from(32u32),
        num_bigint::BigUint::from(u64::MAX),
        num_bigint::BigUint::from(1u32) << 253,
        alpha_inv.clone(),
    ];
    exponents.extend((0..8).map(|_| random_fr(&mut rng).to_biguint()));
    for e in &exponents {
        let plan = WindowPlan::new(e);
        for _ in 0..4 {
            let x = random_fr(&mut rng);
            assert_eq!(plan.pow(x), x.pow_vartime(e.to_u64_digits()), "x^{e}");
        }
    }
    for _ in 0..16 {
        let x = random_fr(&mut rng);
        let root = x.inverse_sbox();
        assert_eq!(root.pow_vartime([5u64]), x);
        assert_eq!(root, x.pow_vartime(alpha_inv.to_u64_digits()));
    }
}
