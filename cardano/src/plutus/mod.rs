//! Plutus verifiers generated from a verifying key, and their budgets measured offline.
//!
//! [`program::run`] is midnight-proofs' verifier for one key, written once; [`native`] runs it on
//! values (checked against midnight-proofs, and the maker of the redeemer's inverse hints),
//! [`uplc`] emits it as UPLC. [`validator`] wraps it in a Plutus V3 validator like
//! `CertificateVerifier.sol`: the trusted statement entries are script parameters, the message
//! bytes, proof and hints come in the redeemer, and the message enters the statement by the
//! verifier's [`MessageRule`] (this backend's circuits: `blake2b-256(bytes)` read big-endian mod r;
//! mithril-stm's relation: the two halves of that digest). [`evaluate`] runs a program with the
//! `uplc` crate's CEK machine under mainnet's Plutus V3 cost model, pinned in
//! `plutus/cost_model_v3_mainnet.json` ([`cost_model_v3`]). [`bridge`] holds the validators a
//! bridge deploys (a state thread and an observer, both reading the script context), [`tx`] builds
//! Conway transactions and evaluates them as a node's phase two does, and [`scenario`] the honest
//! and attacking transactions the tests evaluate.
//!
//! Why UPLC from Rust rather than Aiken: no network or Aiken stdlib at build time, and the
//! program is a flat chain of builtin calls, so nothing a compiler adds (no list traversals,
//! no closures) is paid for.

pub mod bridge;
pub mod groth16;
pub mod native;
pub mod program;
pub mod scenario;
pub mod tx;
pub mod uplc;

use ::uplc::{
    ast::{Constant, Data, DeBruijn, Name, NamedDeBruijn, Program, Term},
    builtins::DefaultFunction as F,
    machine::cost_model::ExBudget,
    Language, PlutusData,
};
use group::Curve;
use num_bigint::BigInt;

use self::{
    native::NativeMachine,
    program::{run, Shape},
    uplc::{modulus, MsmMode, UplcMachine},
};
use crate::backend::{Fr, VerifierParams, Vk};

/// `uplc` 1.1.24's default Plutus V3 cost model (350 parameters), pinned. It is not mainnet's:
/// budgets use [`cost_model_v3`]; this file supplies only the parameters of the builtins that
/// protocol version 11 adds (a projection until mainnet publishes them).
pub const UPLC_DEFAULT_COST_MODEL_V3: &str = include_str!("../../plutus/cost_model_v3.json");

/// Mainnet's Plutus V3 cost model at protocol version 10 (297 parameters), pinned. It differs
/// from `uplc`'s default in seven: `divideInteger`, `modInteger`, `quotientInteger` and
/// `remainderInteger` c11 (549, not 960) and `equalsByteString` (24548/29498/38, not
/// 30623/28755/75).
pub const MAINNET_COST_MODEL_V3: &str = include_str!("../../plutus/cost_model_v3_mainnet.json");

fn parse_cost_model(text: &str) -> Vec<i64> {
    text.trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|v| v.trim().parse().expect("a pinned cost model entry"))
        .collect()
}

/// The Plutus V3 cost model every budget here assumes at protocol version `pv`: mainnet's
/// (PV 10); from PV 11 on a **projection**: mainnet's PV 10 parameters for the builtins it has,
/// `uplc` 1.1.24's defaults for the builtins PV 11 adds (the G1/G2 MSM of CIP-0133 and the rest).
pub fn cost_model_v3(pv: u16) -> Vec<i64> {
    let mut costs = parse_cost_model(MAINNET_COST_MODEL_V3);
    if pv >= 11 {
        let default = parse_cost_model(UPLC_DEFAULT_COST_MODEL_V3);
        costs.extend_from_slice(&default[costs.len()..]);
    }
    costs
}

/// The pinned default cost model's parameters (`uplc` 1.1.24's V3 default).
pub fn uplc_default_cost_model_v3() -> Vec<i64> {
    parse_cost_model(UPLC_DEFAULT_COST_MODEL_V3)
}

/// The protocol version a figure assumes: 10 is mainnet today (Conway); 11 brings the G1 MSM
/// builtin (CIP-0133).
pub fn protocol_version(mode: MsmMode) -> u16 {
    match mode {
        MsmMode::Fold => 10,
        MsmMode::Builtin => 11,
    }
}

/// The inverse hints a redeemer carries for `proof`: what the verifier program asks for, 32
/// bytes each, little-endian. For a proof the program refuses they are whatever it computed
/// (the program then fails on its own checks).
pub fn hints(vp: &VerifierParams, vk: &Vk, proof: &[u8], instances: &[&[Fr]]) -> (bool, Vec<u8>) {
    let mut m = NativeMachine::new(proof, instances, vp.s_g2().to_affine());
    run(
        &mut m,
        vk,
        &Shape {
            instance_lens: instances.iter().map(|c| c.len()).collect(),
        },
    );
    let bytes = m.hints.iter().flat_map(ff::PrimeField::to_repr).collect();
    (m.ok, bytes)
}

/// The verifier of `vk` as a UPLC function `\proof \hints \pi_0_0 .. -> ()`.
pub fn verifier_term(vp: &VerifierParams, vk: &Vk, shape: &Shape, mode: MsmMode) -> Term<Name> {
    let mut m = UplcMachine::new(&shape.instance_lens, mode, vp.s_g2().to_affine());
    run(&mut m, vk, shape);
    m.end_of_hints();
    m.finish(Term::unit())
}

/// A certificate verifier a validator embeds: the halo2 verifier of a key ([`Halo2Verifier`]) or
/// the Groth16 verifier of a wrapper's key ([`groth16::Groth16Verifier`]). The bridge validators
/// and the scenarios are written once over it.
pub trait ScriptVerifier {
    /// `\proof \hints \pi_0 .. \pi_(n-1) -> ()` for `n` public inputs: `()` or `error`.
    fn term(&self, n: usize) -> Term<Name>;
    /// The hints a redeemer carries with `proof` for `instance` (none for Groth16).
    fn hints(&self, proof: &[u8], instance: &[Fr]) -> Vec<u8>;
    /// [`ScriptVerifier::term`] for a statement whose entries `fixed[i]` are known when the
    /// script is made (`None`: known only when it runs). The term still takes every entry as an
    /// argument; a verifier may check a fixed one by equality and do its work in advance.
    fn term_with_fixed(&self, fixed: &[Option<Fr>]) -> Term<Name> {
        self.term(fixed.len())
    }
    /// The protocol version its budgets assume.
    fn protocol_version(&self) -> u16;
    /// The names of its forms in printed lines: the bare verifier, the state thread, the
    /// observer.
    fn forms(&self) -> [&'static str; 3];
    /// `proof` with one word changed to another well-formed value the verifier must refuse
    /// (a point replaced by another point of the group), where the verifier knows its layout.
    fn tampered(&self, _proof: &[u8]) -> Option<Vec<u8>> {
        None
    }
    /// What a script binds once from the bytes the signers sign (a UPLC byte string): by default
    /// the Cardano backend's rule, `blake2b-256(bytes)` mod BLS12-381's r; a Groth16 wrapper of a
    /// BN254 certificate takes the BN254 schemes' rule ([`MessageRule::Keccak256Bn254`]). The
    /// statement's message entries are [`MessageRule::entry_terms`] of it.
    fn message_term(&self, bytes: Term<Name>) -> Term<Name> {
        self.message_rule().term(bytes)
    }
    /// The rule [`ScriptVerifier::message_term`] applies (its native twin:
    /// [`MessageRule::fields`]).
    fn message_rule(&self) -> MessageRule {
        MessageRule::Blake2bBls12381
    }
}

/// How a certificate's message entries are made from the signed bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageRule {
    /// One entry: `blake2b-256(bytes)` read big-endian, mod BLS12-381's r (the Cardano backend's
    /// circuits).
    Blake2bBls12381,
    /// One entry: `keccak-256(bytes)` read big-endian, mod BN254's r
    /// (`tms_gadgets::message_to_field`: the BN254 circuits, so a Groth16 wrapper of one of their
    /// proofs).
    Keccak256Bn254,
    /// Two entries, mithril-stm's message: the 32 bytes signed are `blake2b-256(bytes)`, and the
    /// statement holds their low and high 16 bytes, each read little-endian (below 2^128, so
    /// canonical). The circuit hashes them into mithril-stm's message element,
    /// `Poseidon(SMSG_DST, low, high)`, which a script could not compute (no Poseidon builtin).
    Blake2bHalves,
}

/// BN254's scalar field order r.
pub const BN254_R: &str =
    "21888242871839275222246405745257275088548364400416034343698204186575808495617";

impl MessageRule {
    /// How many statement entries the message fills.
    pub fn entries(self) -> usize {
        match self {
            MessageRule::Blake2bBls12381 | MessageRule::Keccak256Bn254 => 1,
            MessageRule::Blake2bHalves => 2,
        }
    }

    /// What a script computes once from `bytes` (a UPLC byte string) and binds: the field
    /// element, or (two entries) the 32-byte digest.
    pub fn term(self, bytes: Term<Name>) -> Term<Name> {
        let (hash, r) = match self {
            MessageRule::Blake2bBls12381 => (F::Blake2b_256, modulus()),
            MessageRule::Keccak256Bn254 => {
                (F::Keccak_256, BN254_R.parse().expect("a decimal constant"))
            }
            MessageRule::Blake2bHalves => return bridge::call(F::Blake2b_256, vec![bytes]),
        };
        let h = bridge::call(hash, vec![bytes]);
        let m = bridge::call(F::ByteStringToInteger, vec![Term::bool(true), h]);
        bridge::call(F::ModInteger, vec![m, Term::integer(r)])
    }

    /// The statement entries from `bound`, a variable bound to [`MessageRule::term`]'s value, in
    /// the circuit's order.
    pub fn entry_terms(self, bound: Term<Name>) -> Vec<Term<Name>> {
        match self {
            MessageRule::Blake2bBls12381 | MessageRule::Keccak256Bn254 => vec![bound],
            MessageRule::Blake2bHalves => [0, 16]
                .into_iter()
                .map(|at| {
                    let half = bridge::call(
                        F::SliceByteString,
                        vec![
                            Term::integer(at.into()),
                            Term::integer(16.into()),
                            bound.clone(),
                        ],
                    );
                    // `false`: little-endian, as mithril-stm reads each half.
                    bridge::call(F::ByteStringToInteger, vec![Term::bool(false), half])
                })
                .collect(),
        }
    }

    /// The rule on `bytes`, natively: the entries [`MessageRule::entry_terms`] computes.
    pub fn fields(self, bytes: &[u8]) -> Vec<Fr> {
        let fr = |le: &[u8]| {
            let mut repr = [0u8; 32];
            repr[..le.len()].copy_from_slice(le);
            Option::from(<Fr as ff::PrimeField>::from_repr(repr))
                .expect("reduced below BN254's r or 2^128, so below BLS12-381's r")
        };
        match self {
            MessageRule::Blake2bBls12381 => vec![bridge::message_field(bytes)],
            MessageRule::Keccak256Bn254 => {
                use sha3::Digest;
                let r: BigInt = BN254_R.parse().expect("a decimal constant");
                let v =
                    BigInt::from_bytes_be(num_bigint::Sign::Plus, &sha3::Keccak256::digest(bytes))
                        % r;
                vec![fr(&v.to_bytes_le().1)]
            }
            MessageRule::Blake2bHalves => bridge::blake2b_256(bytes).chunks(16).map(fr).collect(),
        }
    }
}

/// The halo2 verifier of `vk` (midnight-proofs' KZG verifier, emitted by [`verifier_term`]).
pub struct Halo2Verifier<'a> {
    /// Verifier parameters.
    pub vp: &'a VerifierParams,
    /// The certificate circuit's key.
    pub vk: &'a Vk,
    /// How the final MSM is done (and so the protocol version).
    pub mode: MsmMode,
    /// How the circuit's message entries are made from the signed bytes.
    pub message: MessageRule,
}

impl<'a> Halo2Verifier<'a> {
    /// The verifier of a circuit of this backend with one message entry
    /// ([`MessageRule::Blake2bBls12381`]).
    pub fn new(vp: &'a VerifierParams, vk: &'a Vk, mode: MsmMode) -> Self {
        Self {
            vp,
            vk,
            mode,
            message: MessageRule::Blake2bBls12381,
        }
    }
}

impl ScriptVerifier for Halo2Verifier<'_> {
    fn term(&self, n: usize) -> Term<Name> {
        verifier_term(
            self.vp,
            self.vk,
            &Shape {
                instance_lens: vec![n],
            },
            self.mode,
        )
    }
    fn hints(&self, proof: &[u8], instance: &[Fr]) -> Vec<u8> {
        hints(self.vp, self.vk, proof, &[instance]).1
    }
    fn protocol_version(&self) -> u16 {
        protocol_version(self.mode)
    }
    fn forms(&self) -> [&'static str; 3] {
        ["bare-verifier", "state-thread", "observer"]
    }
    fn message_rule(&self) -> MessageRule {
        self.message
    }
}

/// Where a public input of the validator's statement comes from.
#[derive(Clone, Debug)]
pub enum Entry {
    /// A script parameter (trusted: fixed when the script is made).
    Param(Fr),
    /// A threshold, a script parameter: 0 is refused (a threshold-0 certificate needs no
    /// signature, so the script would accept anyone's).
    Threshold(u64),
    /// The message's entries, made from the signed bytes by the verifier's [`MessageRule`] (one
    /// entry, `blake2b-256(bytes)` read big-endian mod r, for this backend's circuits; two for
    /// mithril-stm's): the example validator's bytes are the redeemer's, the bridge validators'
    /// are built from the transaction.
    Message,
}

/// Why a validator is not generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A threshold of 0 (any certificate, even one with no signature, would satisfy it).
    #[error("a threshold of 0 accepts a certificate without signatures: refused")]
    ZeroThreshold,
    /// A statement without exactly one message entry.
    #[error("the statement must hold the message exactly once")]
    Message,
    /// A thread token's asset name longer than the ledger's 32 bytes.
    #[error("asset names are at most 32 bytes")]
    AssetName,
}

/// The integer a field element is in a script.
pub(crate) fn fr_term(v: &Fr) -> Term<Name> {
    Term::integer(BigInt::from_bytes_le(
        num_bigint::Sign::Plus,
        &ff::PrimeField::to_repr(v),
    ))
}

/// The verifier `v` applied to `[proof, hints]` and `statement`'s entries, the message entry
/// expanding to `v`'s [`MessageRule::entry_terms`] of `message` (a variable bound to
/// [`ScriptVerifier::message_term`]): refused for a threshold of 0 or a statement without one
/// message.
pub(crate) fn verifier_call_with(
    v: &dyn ScriptVerifier,
    statement: &[Entry],
    [proof, hints]: [Term<Name>; 2],
    message: Term<Name>,
) -> Result<Term<Name>, Error> {
    check_statement(statement)?;
    let rule = v.message_rule();
    let call = v
        .term_with_fixed(&fixed_entries(statement, rule))
        .apply(proof)
        .apply(hints);
    Ok(statement
        .iter()
        .flat_map(|e| match e {
            Entry::Param(v) => vec![fr_term(v)],
            Entry::Threshold(t) => vec![Term::integer((*t).into())],
            Entry::Message => rule.entry_terms(message.clone()),
        })
        .fold(call, Term::apply))
}

/// The public inputs of `statement` known when the script is made (parameters, thresholds), in
/// order; `None` for each of the message's entries under `rule`.
pub fn fixed_entries(statement: &[Entry], rule: MessageRule) -> Vec<Option<Fr>> {
    statement
        .iter()
        .flat_map(|e| match e {
            Entry::Param(v) => vec![Some(*v)],
            Entry::Threshold(t) => vec![Some(Fr::from(*t))],
            Entry::Message => vec![None; rule.entries()],
        })
        .collect()
}

/// The instance column of `statement` for the message entries `message` (the rule's
/// [`MessageRule::fields`]).
pub fn statement_instance(statement: &[Entry], message: &[Fr]) -> Vec<Fr> {
    statement
        .iter()
        .flat_map(|e| match e {
            Entry::Param(v) => vec![*v],
            Entry::Threshold(t) => vec![Fr::from(*t)],
            Entry::Message => message.to_vec(),
        })
        .collect()
}

/// Checks a statement: no threshold of 0, one message.
pub(crate) fn check_statement(statement: &[Entry]) -> Result<(), Error> {
    if statement.iter().any(|e| matches!(e, Entry::Threshold(0))) {
        return Err(Error::ZeroThreshold);
    }
    if statement
        .iter()
        .filter(|e| matches!(e, Entry::Message))
        .count()
        != 1
    {
        return Err(Error::Message);
    }
    Ok(())
}

pub(crate) fn app(f: F, args: Vec<Term<Name>>) -> Term<Name> {
    let mut t = Term::Builtin(f);
    let forces = match f {
        F::HeadList | F::TailList => 1,
        F::SndPair | F::FstPair => 2,
        _ => 0,
    };
    for _ in 0..forces {
        t = t.force();
    }
    args.into_iter().fold(t, |t, a| t.apply(a))
}

/// A Plutus V3 validator for `vk` over one instance column built from `statement`. It takes the
/// script context; its redeemer is `Constr 0 [B message, B proof, B hints]`. It reads nothing
/// else of the transaction, so a certificate satisfies it in any transaction: an example, not a
/// bridge ([`bridge`] has those). A threshold of 0 is refused.
pub fn validator(
    vp: &VerifierParams,
    vk: &Vk,
    statement: &[Entry],
    mode: MsmMode,
) -> Result<Program<Name>, Error> {
    validator_with(&Halo2Verifier::new(vp, vk, mode), statement)
}

/// [`validator`] for any [`ScriptVerifier`] (its message rule making the message entries).
pub fn validator_with(v: &dyn ScriptVerifier, statement: &[Entry]) -> Result<Program<Name>, Error> {
    let name = |t: &str, u: isize| {
        std::rc::Rc::new(Name {
            text: t.into(),
            unique: ::uplc::ast::Unique::new(-u),
        })
    };
    let (ctx, fields) = (name("ctx", 1), name("fields", 2));
    let field = |i: usize| {
        let mut l = Term::Var(fields.clone());
        for _ in 0..i {
            l = app(F::TailList, vec![l]);
        }
        app(F::UnBData, vec![app(F::HeadList, vec![l])])
    };
    let message = v.message_term(field(0));
    let call = if v.message_rule().entries() == 1 {
        verifier_call_with(v, statement, [field(1), field(2)], message)?
    } else {
        // Computed once, read by each entry.
        let bound = name("message", 3);
        let call =
            verifier_call_with(v, statement, [field(1), field(2)], Term::Var(bound.clone()))?;
        Term::Lambda {
            parameter_name: bound,
            body: call.into(),
        }
        .apply(message)
    };
    // The redeemer is the context's second field.
    let redeemer = app(
        F::HeadList,
        vec![app(
            F::TailList,
            vec![app(
                F::SndPair,
                vec![app(F::UnConstrData, vec![Term::Var(ctx.clone())])],
            )],
        )],
    );
    let red_fields = app(F::SndPair, vec![app(F::UnConstrData, vec![redeemer])]);
    let body = Term::Lambda {
        parameter_name: fields,
        body: call.into(),
    }
    .apply(red_fields);
    Ok(Program {
        version: (1, 1, 0),
        term: Term::Lambda {
            parameter_name: ctx,
            body: body.into(),
        },
    })
}

/// The redeemer `Constr 0 [B message, B proof, B hints]`.
pub fn redeemer(message: &[u8], proof: &[u8], hints: &[u8]) -> PlutusData {
    Data::constr(
        0,
        vec![
            Data::bytestring(message.to_vec()),
            Data::bytestring(proof.to_vec()),
            Data::bytestring(hints.to_vec()),
        ],
    )
}

/// The example validator `program` of `v` ([`validator_with`]) on a certificate: the redeemer
/// (`message`, `proof`, the hints for `instance`) in a placeholder context, evaluated at `v`'s
/// protocol version. The budget and the redeemer.
pub fn run_example(
    program: &Program<Name>,
    v: &dyn ScriptVerifier,
    message: &[u8],
    proof: &[u8],
    instance: &[Fr],
) -> (Budget, PlutusData) {
    let red = redeemer(message, proof, &v.hints(proof, instance));
    let budget = evaluate(
        program,
        vec![data_arg(context(red.clone()))],
        v.protocol_version(),
    );
    (budget, red)
}

/// A script context holding `redeemer` as its second field. The transaction info is a
/// placeholder: the validator reads only the redeemer, and `unConstrData` costs the same
/// whatever the fields hold.
pub fn context(redeemer: PlutusData) -> PlutusData {
    Data::constr(
        0,
        vec![Data::constr(0, vec![]), redeemer, Data::constr(1, vec![])],
    )
}

/// One evaluation's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Whether the script succeeded (returned `()`).
    pub accepted: bool,
    /// CPU steps spent.
    pub cpu: i64,
    /// Memory units spent.
    pub mem: i64,
}

/// The bytes of `program` as a script: flat, wrapped as CBOR bytes (what a transaction carries).
pub fn script_bytes(program: &Program<Name>) -> Vec<u8> {
    let p: Program<DeBruijn> = program.clone().try_into().expect("closed program");
    p.to_cbor().expect("flat encodes")
}

/// Evaluates `program` applied to `args` under mainnet's V3 cost model at protocol `pv` (PV 11: a
/// projection, [`cost_model_v3`]), with
/// a budget far above the limits (so the spend is measured even past them).
pub fn evaluate(program: &Program<Name>, args: Vec<Term<Name>>, pv: u16) -> Budget {
    let mut p = program.clone();
    for a in args {
        p = p.apply_term(&a);
    }
    let p: Program<NamedDeBruijn> = p.try_into().expect("closed program");
    let budget = ExBudget {
        cpu: 1_000_000_000_000,
        mem: 10_000_000_000,
    };
    let r = p.eval_as_with_protocol(&Language::PlutusV3, pv, &cost_model_v3(pv), Some(&budget));
    let cost = r.cost();
    Budget {
        accepted: !r.failed(false, &Language::PlutusV3),
        cpu: cost.cpu,
        mem: cost.mem,
    }
}

/// The CBOR bytes of `d`.
pub fn data_bytes(d: &PlutusData) -> usize {
    Data::to_hex(d.clone()).len() / 2
}

/// A data argument.
pub fn data_arg(d: PlutusData) -> Term<Name> {
    Term::Constant(Constant::Data(d).into())
}

/// Runs `f` on a thread with a large stack: the generated programs are deeply nested (one
/// level per `let`), and the `uplc` crate's conversions recurse on them.
pub fn with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, f)
            .expect("a thread")
            .join()
            .expect("no panic")
    })
}
