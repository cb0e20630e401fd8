//! Poseidon on its custom round gates (`tms_gadgets::hash::PoseidonGateChip`): agreement with
//! the native permutation and with the generic-gate chip, the classic vector, the cost and the
//! degree, one-change negatives naming the failing gate, and a real proof through the hybrid
//! circuit.

use halo2_base::{
    gates::circuit::BaseCircuitParams,
    halo2_proofs::{
        dev::VerifyFailure,
        halo2curves::ff::{Field, PrimeField},
        plonk::ConstraintSystem,
    },
    AssignedValue, QuantumCell,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    bank::OptionalGates,
    hash::{
        poseidon::{self, WIDTH},
        poseidon_gate::{PERMUTATION_CELLS, PERMUTATION_ROWS},
        HashInstructions, NativeHash, Poseidon, PoseidonChip, PoseidonGateChip,
    },
    hybrid::{HybridCircuit, HybridParams},
    testing::{CircuitHarness, MockRun},
    Fr,
};

const K: u32 = 10;

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0x9053)
}

/// The names of the gates whose constraints failed.
fn failing_gates<R>(run: &MockRun<R>) -> Vec<String> {
    match &run.result {
        Ok(()) => vec![],
        Err(failures) => failures
            .iter()
            .filter_map(|f| match f {
                VerifyFailure::ConstraintNotSatisfied { constraint, .. } => {
                    Some(constraint.to_string())
                }
                _ => None,
            })
            .collect(),
    }
}

fn assert_gate_fails<R>(run: &MockRun<R>, gate: &str) {
    let got = failing_gates(run);
    assert!(
        got.iter().any(|c| c.contains(gate)),
        "expected a failure of gate '{gate}', got {got:?} ({:?})",
        run.rejections()
    );
}

#[test]
fn permutation_node_and_leaves_agree_with_native_and_generic_chip() {
    let mut rng = rng();
    let inputs: Vec<Fr> = (0..5).map(|_| Fr::random(&mut rng)).collect();
    let state: [Fr; WIDTH] = std::array::from_fn(|i| inputs[i]);
    let mut expected_perm = state;
    poseidon::permute(&mut expected_perm);
    let mut expected = vec![Poseidon.hash_node(inputs[0], inputs[1])];
    for len in 1..=5 {
        expected.push(Poseidon.hash_leaf(&inputs[..len]).unwrap());
    }
    // Both chips in one circuit: their outputs are compared in-circuit too.
    let run = CircuitHarness::new(12).mock_custom(|ctx, _range, region| {
        let chip = PoseidonGateChip::new(region.clone());
        let generic = PoseidonChip::new();
        let cells: Vec<AssignedValue<Fr>> = inputs.iter().map(|x| ctx.load_witness(*x)).collect();
        let perm = chip.permute(
            ctx,
            std::array::from_fn(|i| QuantumCell::Existing(cells[i])),
        );
        let generic_perm = generic.permute(ctx, std::array::from_fn(|i| cells[i]));
        for (a, b) in perm.iter().zip(&generic_perm) {
            ctx.constrain_equal(a, b);
        }
        let mut outs = vec![chip.hash_node(ctx, cells[0], cells[1])];
        let mut generic_outs = vec![generic.hash_node(ctx, cells[0], cells[1])];
        for len in 1..=5 {
            outs.push(chip.hash_leaf(ctx, &cells[..len]));
            generic_outs.push(generic.hash_leaf(ctx, &cells[..len]));
        }
        for (a, b) in outs.iter().zip(&generic_outs) {
            ctx.constrain_equal(a, b);
        }
        let values = |v: &[AssignedValue<Fr>]| v.iter().map(|x| *x.value()).collect::<Vec<_>>();
        (
            (
                values(&perm),
                values(&generic_perm),
                values(&outs),
                values(&generic_outs),
            ),
            outs,
        )
    });
    run.assert_satisfied();
    let (perm, generic_perm, outs, generic_outs) = &run.output;
    assert_eq!(*perm, expected_perm.to_vec());
    assert_eq!(*generic_perm, expected_perm.to_vec());
    assert_eq!(*outs, expected);
    assert_eq!(*generic_outs, expected);
}

#[test]
fn permutation_agrees_with_native_on_random_states() {
    let mut rng = rng();
    let states: Vec<[Fr; WIDTH]> = (0..4)
        .map(|_| std::array::from_fn(|_| Fr::random(&mut rng)))
        .collect();
    let run = CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let chip = PoseidonGateChip::new(region.clone());
        let mut outs = vec![];
        for s in &states {
            let cells = s.map(|x| QuantumCell::Existing(ctx.load_witness(x)));
            outs.extend(chip.permute(ctx, cells));
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
fn node_is_circomlib_poseidon_vector() {
    let expected = Fr::from_str_vartime(
        "7853200120776062878684798364095072458815029376092732009249414926327459813530",
    )
    .unwrap();
    let run = CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let a = ctx.load_witness(Fr::from(1));
        let b = ctx.load_witness(Fr::from(2));
        (
            (),
            vec![PoseidonGateChip::new(region.clone()).hash_node(ctx, a, b)],
        )
    });
    run.assert_satisfied();
    assert_eq!(run.public_values, vec![expected]);
}

#[test]
fn cost_per_permutation_and_per_node() {
    let (cells, stats) = CircuitHarness::new(K).measure_custom(|ctx, _range, region| {
        let x = ctx.load_witness(Fr::from(3u64));
        PoseidonGateChip::new(region.clone()).hash_node(ctx, x, x);
        (region.num_cells(), region.num_rows())
    });
    assert_eq!(cells, (PERMUTATION_CELLS, PERMUTATION_ROWS));
    assert_eq!(PERMUTATION_CELLS, 183);
    assert_eq!(PERMUTATION_ROWS, 14);
    println!(
        "poseidon gate: {} custom cells, {} rows per permutation; node circuit {stats}",
        cells.0, cells.1
    );
}

#[test]
fn hybrid_circuit_degree_stays_five() {
    let mut cs = ConstraintSystem::<Fr>::default();
    let params = HybridParams {
        base: BaseCircuitParams {
            k: K as usize,
            num_advice_per_phase: vec![1],
            num_fixed: 1,
            num_lookup_advice_per_phase: vec![1],
            lookup_bits: Some(8),
            num_instance_columns: 1,
        },
        custom_gates: true,
        // Every optional gate: the degree holds with all of them.
        optional_gates: OptionalGates {
            straus: true,
            msm_pair: true,
            poseidon: true,
            dleq: true,
            table: true,
            glv: true,
        },
    };
    <HybridCircuit as halo2_base::halo2_proofs::plonk::Circuit<Fr>>::configure_with_params(
        &mut cs, params,
    );
    let poseidon: Vec<_> = cs
        .gates()
        .iter()
        .filter(|g| g.name().starts_with("poseidon"))
        .collect();
    assert_eq!(poseidon.len(), 2);
    for gate in poseidon {
        let degree = gate.polynomials().iter().map(|p| p.degree()).max().unwrap();
        assert!(degree <= 5, "{}: degree {degree}", gate.name());
    }
    assert_eq!(cs.degree(), 5);
}

/// One permutation of a fixed state, then `(row, column)` of it overwritten by `+ 1`.
fn tampered(row: usize, column: usize) -> MockRun<()> {
    CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let cells = [1u64, 2, 3].map(|x| QuantumCell::Existing(ctx.load_witness(Fr::from(x))));
        let first = region.num_rows();
        let out = PoseidonGateChip::new(region.clone()).permute(ctx, cells);
        let r = first + row;
        region.override_value(r, column, region.value(r, column) + Fr::ONE);
        ((), out.to_vec())
    })
}

#[test]
fn tampered_intermediate_states_are_rejected_by_the_gates() {
    // The state entering the partial rounds (row 2): the full gate of row 1 computes it, the
    // partial gate of row 2 reads it.
    let run = tampered(2, 1);
    assert_gate_fails(&run, "poseidon two full rounds");
    assert_gate_fails(&run, "poseidon partial rounds");
    // An S-box input inside a partial row, and the state between two partial rows.
    assert_gate_fails(&tampered(5, 8), "poseidon partial rounds");
    assert_gate_fails(&tampered(6, 0), "poseidon partial rounds");
    // The state entering the last partial row, and the one leaving it.
    assert_gate_fails(
        &tampered(10, 2),
        "('seven rounds') in gate 3 ('poseidon partial rounds')",
    );
    assert_gate_fails(
        &tampered(10, 2),
        "('last partial row') in gate 3 ('poseidon partial rounds')",
    );
    assert_gate_fails(
        &tampered(11, 0),
        "('last partial row') in gate 3 ('poseidon partial rounds')",
    );
    // A square and a mid-row state of a full row.
    assert_gate_fails(&tampered(0, 4), "poseidon two full rounds");
    assert_gate_fails(&tampered(12, 7), "poseidon two full rounds");
}

/// One permutation whose S-box of round `round` (textbook numbering; word 0 in a full round) is
/// witnessed by `cheat(x)` (input, square) instead of `(x, x^2)`, the rest of the rows computed
/// from it (output `u^2 x`), the cheated output public.
fn cheated_sbox(round: usize, cheat: impl Fn(Fr) -> (Fr, Fr)) -> MockRun<()> {
    CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let cells = [1u64, 2, 3].map(|x| QuantumCell::Existing(ctx.load_witness(Fr::from(x))));
        let mut first_word = true;
        let out =
            PoseidonGateChip::new(region.clone()).permute_with_sbox_witness(ctx, cells, |r, x| {
                if r == round && std::mem::take(&mut first_word) {
                    cheat(x)
                } else {
                    (x, x.square())
                }
            });
        ((), out.to_vec())
    })
}

/// Rounds to cheat in: a partial round with its input in a cell (the third of row 2), the first
/// of a partial row (input `s0 + a_1`, no cell), the single round of the last partial row, a full
/// round of each half.
const CHEATED: [(usize, &str); 5] = [
    (
        4 + 2,
        "('seven rounds') in gate 3 ('poseidon partial rounds')",
    ),
    (
        4 + 7,
        "('seven rounds') in gate 3 ('poseidon partial rounds')",
    ),
    (
        4 + 56,
        "('last partial row') in gate 3 ('poseidon partial rounds')",
    ),
    (1, "poseidon two full rounds"),
    (61, "poseidon two full rounds"),
];

#[test]
fn wrong_sbox_inputs_are_rejected_by_the_gates() {
    // The input witnessed + 1, its square and fifth power consistent with it.
    for (round, gate) in CHEATED {
        let run = cheated_sbox(round, |x| ((x + Fr::ONE), (x + Fr::ONE).square()));
        assert_gate_fails(&run, gate);
    }
    // The honest witness through the same hook is the permutation.
    cheated_sbox(0, |x| (x, x.square())).assert_satisfied();
}

#[test]
fn wrong_sbox_squares_are_rejected_by_the_gates() {
    // The square witnessed + 1, the output u^2 x computed from it.
    for (round, gate) in CHEATED {
        let run = cheated_sbox(round, |x| (x, x.square() + Fr::ONE));
        assert_gate_fails(&run, gate);
    }
}

#[test]
fn tampered_output_is_rejected_by_the_gate() {
    for column in 0..WIDTH {
        assert_gate_fails(
            &tampered(PERMUTATION_ROWS - 1, column),
            "poseidon two full rounds",
        );
    }
}

#[test]
fn every_cell_of_each_row_kind_is_constrained() {
    // A full row, a seven-round partial row, the last partial row and the output row: changing
    // any used cell is rejected.
    for (row, used) in [(1, 12), (4, 16), (10, 4), (PERMUTATION_ROWS - 1, WIDTH)] {
        for column in 0..used {
            assert!(
                tampered(row, column).result.is_err(),
                "row {row}, column {column}: tampering went unnoticed"
            );
        }
    }
    // The input row's state is bound to the caller's cells.
    let run = tampered(0, 0);
    assert!(run.result.is_err());
}

#[test]
fn hybrid_circuit_real_round_trip() {
    let trip = CircuitHarness::new(K).prove_and_verify_custom(|ctx, _range, region| {
        let a = ctx.load_witness(Fr::from(1));
        let b = ctx.load_witness(Fr::from(2));
        let chip = PoseidonGateChip::new(region.clone());
        let node = chip.hash_node(ctx, a, b);
        let leaf = chip.hash_leaf(ctx, &[a, b, node]);
        ((), vec![node, leaf])
    });
    assert!(trip.verified);
    assert_eq!(
        trip.public_values,
        vec![
            Poseidon.hash_node(Fr::from(1), Fr::from(2)),
            Poseidon
                .hash_leaf(&[
                    Fr::from(1),
                    Fr::from(2),
                    Poseidon.hash_node(Fr::from(1), Fr::from(2))
                ])
                .unwrap()
        ]
    );
    println!(
        "poseidon gate round trip: {} proof bytes, {}",
        trip.proof.len(),
        trip.stats
    );
}
