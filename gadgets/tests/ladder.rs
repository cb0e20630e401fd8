//! The custom-gate ladder: agreement with native Grumpkin, every column constrained, the
//! exceptional case refused, and its cost (12 cells per bit).

use halo2_base::halo2_proofs::{
    circuit::{Layouter, SimpleFloorPlanner},
    dev::MockProver,
    halo2curves::{
        ff::Field,
        group::{Curve, Group},
        CurveAffine,
    },
    plonk::{Circuit, Column, ConstraintSystem, Error, Instance},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    ecc::{offset_point, Grumpkin, GrumpkinAffine},
    ladder::{ladder_value, LadderConfig, RowValues, COLUMNS},
    Fr,
};

#[derive(Clone, Debug)]
struct LadderCircuit {
    rows: Vec<RowValues>,
}

#[derive(Clone, Debug)]
struct Config {
    ladder: LadderConfig,
    instance: Column<Instance>,
}

impl Circuit<Fr> for LadderCircuit {
    type Config = Config;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = ();

    fn without_witnesses(&self) -> Self {
        self.clone()
    }

    fn configure(meta: &mut ConstraintSystem<Fr>) -> Config {
        let constants = meta.fixed_column();
        meta.enable_constant(constants);
        let instance = meta.instance_column();
        meta.enable_equality(instance);
        Config {
            ladder: LadderConfig::configure(meta),
            instance,
        }
    }

    fn synthesize(&self, config: Config, mut layouter: impl Layouter<Fr>) -> Result<(), Error> {
        let cells = layouter.assign_region(
            || "ladder",
            |mut region| {
                let c = config
                    .ladder
                    .assign(&mut region, 0, offset_point(), &self.rows)?;
                Ok([
                    c.result[0].cell(),
                    c.result[1].cell(),
                    c.base[0].cell(),
                    c.base[1].cell(),
                ])
            },
        )?;
        for (row, cell) in cells.into_iter().enumerate() {
            layouter.constrain_instance(cell, config.instance, row);
        }
        Ok(())
    }
}

fn coords(p: &GrumpkinAffine) -> [Fr; 2] {
    let c = p.coordinates().unwrap();
    [*c.x(), *c.y()]
}

fn run(
    p: GrumpkinAffine,
    rows: Vec<RowValues>,
    result: GrumpkinAffine,
) -> Result<(), Vec<halo2_base::halo2_proofs::dev::VerifyFailure>> {
    run_raw(p, rows, coords(&result))
}

fn run_raw(
    p: GrumpkinAffine,
    rows: Vec<RowValues>,
    result: [Fr; 2],
) -> Result<(), Vec<halo2_base::halo2_proofs::dev::VerifyFailure>> {
    let mut public = result.to_vec();
    public.extend(coords(&p));
    MockProver::run(9, &LadderCircuit { rows }, vec![public])
        .unwrap()
        .verify()
}

fn setting() -> (GrumpkinAffine, Vec<bool>) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x1add);
    let p = Grumpkin::random(&mut rng).to_affine();
    let bits: Vec<bool> = (0..254).map(|_| rng.gen()).collect();
    (p, bits)
}

#[test]
fn ladder_agrees_with_native_and_costs_12_cells_per_bit() {
    let (p, bits) = setting();
    let expected = ladder_value(p, offset_point(), &bits);
    let rows = LadderConfig::witness(p, offset_point(), &bits);
    let last = rows.last().unwrap();
    assert_eq!([last[1], last[2]], coords(&expected));
    run(p, rows, expected).unwrap();
    println!(
        "record: custom-gate ladder: {COLUMNS} advice cells per bit, {} for 254 bits",
        COLUMNS * 255
    );
}

#[test]
fn wrong_public_result_is_rejected() {
    let (p, bits) = setting();
    let rows = LadderConfig::witness(p, offset_point(), &bits);
    let wrong = (ladder_value(p, offset_point(), &bits) + p).to_affine();
    assert!(run(p, rows, wrong).is_err());
}

#[test]
fn every_column_is_constrained() {
    let (p, bits) = setting();
    let expected = ladder_value(p, offset_point(), &bits);
    for col in 0..COLUMNS {
        let mut rows = LadderConfig::witness(p, offset_point(), &bits);
        rows[100][col] += Fr::ONE;
        assert!(
            run(p, rows, expected).is_err(),
            "changing column {col} of row 100 went unnoticed"
        );
    }
}

#[test]
fn doubling_onto_the_base_point_is_refused() {
    // P = 2^(i+1) O: with the first i bits zero, row i doubles the accumulator 2^i O onto P,
    // where the incomplete addition has no slope: no proof exists.
    let i = 40;
    let p = (Grumpkin::from(offset_point())
        * tms_gadgets::ecc::GrumpkinScalar::from(1u64 << (i + 1)))
    .to_affine();
    let mut bits = vec![false; 254];
    bits[i] = true;
    let rows = LadderConfig::witness(p, offset_point(), &bits);
    assert_eq!(rows[i][7], Fr::ZERO, "no inverse of 0 exists");
    // A cheating prover claims whatever its witness computes (here not even a curve point).
    let last = rows.last().unwrap();
    let claimed = [last[1], last[2]];
    assert!(run_raw(p, rows, claimed).is_err());
}
