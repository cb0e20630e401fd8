//! The validators a bridge deploys: both read the script context, so a certificate moves funds
//! or state only in the transaction it was made for (the example [`super::validator`] reads
//! nothing of it: any certificate for its committee spends everything at its address).
//!
//! - **State thread** ([`state_thread`]): a UTxO at the script's address holds a thread token
//!   and an inline datum [`ThreadState`] `(statement, epoch, payload)`. Spending it needs a
//!   certificate, under the *current* statement, whose message is [`state_thread_message`] of
//!   the *next* state, and an output at the same address carrying the token and that next state
//!   as its inline datum, with the epoch one higher. The script recomputes the message from the
//!   output's datum, so the certificate signs the handover itself.
//! - **Observer** ([`observer`]): a withdraw-zero (or minting) script whose statement is fixed
//!   when it is made; the message is [`observer_message`]: the transaction's first input (spent
//!   once, so a certificate is good for one transaction) and the hash of its outputs (what the
//!   transaction does). Other scripts delegate to it by requiring its withdrawal.
//!
//! Every check on the transaction comes before the verifier, so a refused transaction is
//! refused cheaply; the verifier is [`super::verifier_term`] as in the example validator.

use std::rc::Rc;

use ::uplc::{
    ast::{Constant, Data, Name, Program, Term, Unique},
    builtins::DefaultFunction as F,
    tx::to_plutus_data::ToPlutusData,
    PlutusData,
};
use ff::PrimeField;
use num_bigint::BigInt;
use pallas_primitives::conway::{TransactionInput, TransactionOutput};

use super::{
    uplc::{modulus, MsmMode},
    verifier_call_with, Entry, Error, Halo2Verifier, ScriptVerifier,
};
use crate::backend::{Fr, VerifierParams, Vk};

/// The first bytes of every state-thread message (domain separation from other messages the
/// committee signs). Not a prefix of [`OBSERVER_TAG`], nor it of this.
pub const STATE_THREAD_TAG: &[u8] = b"tms-cardano/state-thread/v1";

/// The first bytes of every observer message.
pub const OBSERVER_TAG: &[u8] = b"tms-cardano/observer/v1";

/// A state thread's token: the one asset that identifies the thread's UTxO.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadToken {
    /// Its minting policy (a one-shot or time-locked policy, so exactly one exists).
    pub policy: [u8; 28],
    /// Its asset name (at most 32 bytes).
    pub name: Vec<u8>,
}

/// A state thread's datum: `Constr 0 [I statement_0, .., I statement_(n-1), I epoch, B payload]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadState {
    /// The trusted statement entries (Schnorr ATMS: committee commitment, threshold;
    /// SNARK-Mithril: registration digest).
    pub statement: Vec<Fr>,
    /// The epoch: each handover adds one.
    pub epoch: u64,
    /// Application bytes the certificate also signs (Mithril: e.g. a snapshot digest; may be
    /// empty). Keep its length fixed: the thread's ADA must cover the datum for ever.
    pub payload: Vec<u8>,
}

fn fr_be(v: &Fr) -> [u8; 32] {
    let mut b = v.to_repr();
    b.reverse();
    b
}

fn fr_int(v: &Fr) -> BigInt {
    BigInt::from_bytes_le(num_bigint::Sign::Plus, &v.to_repr())
}

impl ThreadState {
    /// The inline datum.
    pub fn to_data(&self) -> PlutusData {
        let mut fields: Vec<PlutusData> = self
            .statement
            .iter()
            .map(|s| Data::integer(fr_int(s)))
            .collect();
        fields.push(Data::integer(self.epoch.into()));
        fields.push(Data::bytestring(self.payload.clone()));
        Data::constr(0, fields)
    }

    /// The state one handover later: `statement`, the epoch plus one, `payload`.
    pub fn next(&self, statement: Vec<Fr>, payload: Vec<u8>) -> ThreadState {
        ThreadState {
            statement,
            epoch: self.epoch + 1,
            payload,
        }
    }
}

/// The bytes a committee signs to hand the thread over to `next`:
/// `STATE_THREAD_TAG || policy (28) || len(name) (1) || name || statement_i (32 each,
/// big-endian) || epoch (8, big-endian) || payload`. The certificate's message field is
/// [`message_field`] of these bytes (for `tms sign --message 0x<hex>`).
pub fn state_thread_message(token: &ThreadToken, next: &ThreadState) -> Result<Vec<u8>, Error> {
    let mut m = thread_prefix(token)?;
    for s in &next.statement {
        m.extend_from_slice(&fr_be(s));
    }
    m.extend_from_slice(&next.epoch.to_be_bytes());
    m.extend_from_slice(&next.payload);
    Ok(m)
}

fn thread_prefix(token: &ThreadToken) -> Result<Vec<u8>, Error> {
    let len = u8::try_from(token.name.len())
        .ok()
        .filter(|l| *l <= 32)
        .ok_or(Error::AssetName)?;
    let mut m = STATE_THREAD_TAG.to_vec();
    m.extend_from_slice(&token.policy);
    m.push(len);
    m.extend_from_slice(&token.name);
    Ok(m)
}

/// The bytes a committee signs to authorise one transaction through the observer:
/// `OBSERVER_TAG || txid (32) || index (8, big-endian) || blake2b-256(serialiseData(outputs))`,
/// where `(txid, index)` is the transaction's least input (the ledger's order: the script sees
/// it first) and `outputs` the transaction's outputs as the script context holds them (the
/// encoding `uplc` gives, Plutus' `serialiseData`). The fee and change are fixed before signing
/// (the proof and hints have fixed lengths, so the size is known). `None` without inputs.
pub fn observer_message(
    inputs: &[TransactionInput],
    outputs: &[TransactionOutput],
) -> Option<Vec<u8>> {
    let first = inputs.iter().min_by_key(|i| (i.transaction_id, i.index))?;
    let list = Data::list(outputs.iter().map(|o| o.to_plutus_data()).collect());
    let outputs_hash = blake2b_256(&::uplc::plutus_data_to_bytes(&list));
    let mut m = OBSERVER_TAG.to_vec();
    m.extend_from_slice(first.transaction_id.as_ref());
    m.extend_from_slice(&first.index.to_be_bytes());
    m.extend_from_slice(&outputs_hash);
    Some(m)
}

pub(super) fn blake2b_256(bytes: &[u8]) -> [u8; 32] {
    let h = blake2b_simd::Params::new().hash_length(32).hash(bytes);
    h.as_bytes().try_into().expect("32 bytes")
}

/// A message's field element: `blake2b-256(bytes)` read big-endian, mod r (the schemes' message
/// rule, what the scripts compute).
pub fn message_field(bytes: &[u8]) -> Fr {
    let v = BigInt::from_bytes_be(num_bigint::Sign::Plus, &blake2b_256(bytes)) % modulus();
    let mut le = v.to_bytes_le().1;
    le.resize(32, 0);
    let repr: [u8; 32] = le.try_into().expect("32 bytes");
    Option::from(Fr::from_repr(repr)).expect("reduced mod r")
}

/// Where an entry of the state thread's instance column comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Entry `i` of the current datum's statement.
    State(usize),
    /// The message's entries (one or two: the verifier's [`super::MessageRule`]) of
    /// [`state_thread_message`] of the output's datum.
    Message,
}

/// What the state thread's datum holds and how the certificate's statement is built from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadLayout {
    /// How many statement entries the datum holds.
    pub statement_len: usize,
    /// The instance column, in the circuit's order (Schnorr ATMS: `[State(0), Message,
    /// State(1)]`; SNARK-Mithril: `[State(0), Message]`).
    pub instance: Vec<Slot>,
    /// Statement entries that are thresholds: the script refuses 0, in the current and in the
    /// next datum.
    pub thresholds: Vec<usize>,
}

impl ThreadLayout {
    /// The datum `(commitment, threshold)` for the instance `[commitment, message, threshold]`
    /// (the Schnorr ATMS's, and the toy circuit's).
    pub fn commitment_message_threshold() -> Self {
        Self {
            statement_len: 2,
            instance: vec![Slot::State(0), Slot::Message, Slot::State(1)],
            thresholds: vec![1],
        }
    }

    /// The datum `(digest)` for the instance `[digest, message]` (SNARK-Mithril's).
    pub fn digest_message() -> Self {
        Self {
            statement_len: 1,
            instance: vec![Slot::State(0), Slot::Message],
            thresholds: vec![],
        }
    }
}

/// The instance column the state thread builds: the current statement and the next state's
/// message (what a certificate's hints are computed for).
pub fn thread_instance(
    layout: &ThreadLayout,
    token: &ThreadToken,
    current: &ThreadState,
    next: &ThreadState,
) -> Result<Vec<Fr>, Error> {
    thread_instance_with(
        layout,
        token,
        current,
        next,
        super::MessageRule::Blake2bBls12381,
    )
}

/// [`thread_instance`] with the message made by `rule` (a Groth16 wrapper's verifier: the
/// wrapped certificate's rule).
pub fn thread_instance_with(
    layout: &ThreadLayout,
    token: &ThreadToken,
    current: &ThreadState,
    next: &ThreadState,
    rule: super::MessageRule,
) -> Result<Vec<Fr>, Error> {
    let m = rule.fields(&state_thread_message(token, next)?);
    let mut instance = vec![];
    for s in &layout.instance {
        match s {
            Slot::State(i) => instance.push(*current.statement.get(*i).ok_or(Error::Message)?),
            Slot::Message => instance.extend_from_slice(&m),
        }
    }
    Ok(instance)
}

/// The state thread's redeemer: `Constr 0 [B proof, B hints, I input_index, I output_index]`,
/// the indices of the thread's input (the ledger's order) and of its continuing output.
pub fn thread_redeemer(proof: &[u8], hints: &[u8], input: u64, output: u64) -> PlutusData {
    Data::constr(
        0,
        vec![
            Data::bytestring(proof.to_vec()),
            Data::bytestring(hints.to_vec()),
            Data::integer(input.into()),
            Data::integer(output.into()),
        ],
    )
}

/// The observer's redeemer: `Constr 0 [B proof, B hints]`.
pub fn observer_redeemer(proof: &[u8], hints: &[u8]) -> PlutusData {
    Data::constr(
        0,
        vec![
            Data::bytestring(proof.to_vec()),
            Data::bytestring(hints.to_vec()),
        ],
    )
}

/// The thread's value without its ADA: the token alone.
fn token_only(token: &ThreadToken) -> PlutusData {
    Data::map(vec![(
        Data::bytestring(token.policy.to_vec()),
        Data::map(vec![(
            Data::bytestring(token.name.clone()),
            Data::integer(1.into()),
        )]),
    )])
}

/// A `let` chain in front of the verifier: each binding strict, so each check runs.
pub(super) struct Lets {
    binds: Vec<(Rc<Name>, Term<Name>)>,
    next: isize,
}

/// How many forces a builtin takes (its type arguments).
fn forces(f: F) -> usize {
    match f {
        F::FstPair | F::SndPair | F::ChooseList => 2,
        F::IfThenElse
        | F::ChooseUnit
        | F::Trace
        | F::MkCons
        | F::HeadList
        | F::TailList
        | F::NullList => 1,
        _ => 0,
    }
}

pub(super) fn call(f: F, args: Vec<Term<Name>>) -> Term<Name> {
    let mut t = Term::Builtin(f);
    for _ in 0..forces(f) {
        t = t.force();
    }
    args.into_iter().fold(t, |t, a| t.apply(a))
}

fn int(v: u64) -> Term<Name> {
    Term::integer(v.into())
}

fn head(l: Term<Name>) -> Term<Name> {
    call(F::HeadList, vec![l])
}

fn tail(l: Term<Name>) -> Term<Name> {
    call(F::TailList, vec![l])
}

fn nth(l: &Term<Name>, i: usize) -> Term<Name> {
    head((0..i).fold(l.clone(), |l, _| tail(l)))
}

/// A constructor's fields.
fn fields(d: Term<Name>) -> Term<Name> {
    call(F::SndPair, vec![call(F::UnConstrData, vec![d])])
}

fn data(d: PlutusData) -> Term<Name> {
    Term::Constant(Constant::Data(d).into())
}

fn append(a: Term<Name>, b: Term<Name>) -> Term<Name> {
    call(F::AppendByteString, vec![a, b])
}

impl Lets {
    fn new() -> Self {
        // Negative uniques: the verifier's names are positive, the wrappers' from -1 down.
        Self::from(-1000)
    }

    /// A chain whose names' uniques run down from `start` (kept apart from other chains').
    pub(super) fn from(start: isize) -> Self {
        Self {
            binds: vec![],
            next: start,
        }
    }

    pub(super) fn name(&mut self, text: &str) -> Rc<Name> {
        self.next -= 1;
        Rc::new(Name {
            text: text.into(),
            unique: Unique::new(self.next),
        })
    }

    pub(super) fn bind(&mut self, text: &str, t: Term<Name>) -> Term<Name> {
        let n = self.name(text);
        self.binds.push((n.clone(), t));
        Term::Var(n)
    }

    /// `error` unless `cond`.
    pub(super) fn check(&mut self, cond: Term<Name>) {
        let t = call(
            F::IfThenElse,
            vec![cond, Term::unit().delay(), Term::Error.delay()],
        )
        .force();
        self.bind("check", t);
    }

    /// `\xs k -> the list without its first k entries` (fails past the end, so a negative or
    /// large index fails), as a self-applied function `drop drop xs k`.
    fn dropper(&mut self) -> Term<Name> {
        let (me, xs, k) = (self.name("self"), self.name("xs"), self.name("k"));
        let again = Term::Var(me.clone())
            .apply(Term::Var(me.clone()))
            .apply(tail(Term::Var(xs.clone())))
            .apply(call(F::SubtractInteger, vec![Term::Var(k.clone()), int(1)]));
        let body = call(
            F::IfThenElse,
            vec![
                call(F::EqualsInteger, vec![Term::Var(k.clone()), int(0)]),
                Term::Var(xs.clone()).delay(),
                again.delay(),
            ],
        )
        .force();
        let f = Term::Lambda {
            parameter_name: me,
            body: Term::Lambda {
                parameter_name: xs,
                body: Term::Lambda {
                    parameter_name: k,
                    body: body.into(),
                }
                .into(),
            }
            .into(),
        };
        self.bind("drop", f)
    }

    pub(super) fn wrap(self, body: Term<Name>) -> Term<Name> {
        self.binds.into_iter().rev().fold(body, |t, (n, v)| {
            Term::Lambda {
                parameter_name: n,
                body: t.into(),
            }
            .apply(v)
        })
    }
}

/// The context's parts every form reads: (transaction info fields, redeemer fields, script
/// info).
fn context_parts(lets: &mut Lets, ctx: &Rc<Name>) -> (Term<Name>, Term<Name>, Term<Name>) {
    let cf = lets.bind("ctx_fields", fields(Term::Var(ctx.clone())));
    let tx = lets.bind("tx", fields(head(cf.clone())));
    let red = lets.bind("redeemer", fields(nth(&cf, 1)));
    (tx, red, nth(&cf, 2))
}

fn program(ctx: Rc<Name>, body: Term<Name>) -> Program<Name> {
    Program {
        version: (1, 1, 0),
        term: Term::Lambda {
            parameter_name: ctx,
            body: body.into(),
        },
    }
}

/// The state-thread validator (a Plutus V3 spending script) of `vk`, for the thread `token`
/// with datums laid out as `layout`. Checks, in order: the script spends an input whose datum
/// is inline (the current state); the redeemer's input index names that input; the redeemer's
/// output index names an output at the same address whose value holds, besides ADA (no less
/// than the input's), only the token, as the input's does; that output's inline datum is
/// `Constr 0` with exactly the statement entries, epoch and payload, its epoch the current plus
/// one and its thresholds (as the current ones) not 0; the certificate verifies for the current
/// statement and [`state_thread_message`] of the output's datum; the hints have their length.
pub fn state_thread(
    vp: &VerifierParams,
    vk: &Vk,
    layout: &ThreadLayout,
    token: &ThreadToken,
    mode: MsmMode,
) -> Result<Program<Name>, Error> {
    state_thread_with(&Halo2Verifier::new(vp, vk, mode), layout, token)
}

/// [`state_thread`] for any [`ScriptVerifier`] (the halo2 verifier, the Groth16 one).
pub fn state_thread_with(
    v: &dyn ScriptVerifier,
    layout: &ThreadLayout,
    token: &ThreadToken,
) -> Result<Program<Name>, Error> {
    let n = layout.statement_len;
    if layout
        .instance
        .iter()
        .filter(|s| **s == Slot::Message)
        .count()
        != 1
        || layout
            .instance
            .iter()
            .any(|s| matches!(s, Slot::State(i) if *i >= n))
        || layout.thresholds.iter().any(|i| *i >= n)
    {
        return Err(Error::Message);
    }
    let prefix = thread_prefix(token)?;
    let rule = v.message_rule();
    let verifier = v.term(layout.instance.len() - 1 + rule.entries());
    let mut lets = Lets::new();
    let ctx = lets.name("ctx");
    let (tx, red, info) = context_parts(&mut lets, &ctx);
    // Spending (ScriptInfo 1) with a datum: `Constr 1 [out_ref, Just datum]`.
    let info = lets.bind("script_info", call(F::UnConstrData, vec![info]));
    lets.check(call(
        F::EqualsInteger,
        vec![call(F::FstPair, vec![info.clone()]), int(1)],
    ));
    let info = lets.bind("script_info_fields", call(F::SndPair, vec![info]));
    let own_ref = lets.bind("own_ref", head(info.clone()));
    let current = lets.bind("current", fields(head(fields(nth(&info, 1)))));
    let current_int = |i: usize| call(F::UnIData, vec![nth(&current, i)]);
    let statement: Vec<Term<Name>> = (0..n)
        .map(|i| lets.bind("statement", current_int(i)))
        .collect();
    let epoch = lets.bind("epoch", current_int(n));
    for &t in &layout.thresholds {
        lets.check(call(F::LessThanInteger, vec![int(0), statement[t].clone()]));
    }

    // The thread's input and continuing output, named by the redeemer's indices.
    let drop = lets.dropper();
    let nth_of = |list: Term<Name>, index: Term<Name>| {
        head(drop.clone().apply(drop.clone()).apply(list).apply(index))
    };
    let inputs = call(F::UnListData, vec![head(tx.clone())]);
    let outputs = call(F::UnListData, vec![nth(&tx, 2)]);
    let input = lets.bind(
        "input",
        fields(nth_of(inputs, call(F::UnIData, vec![nth(&red, 2)]))),
    );
    lets.check(call(F::EqualsData, vec![head(input.clone()), own_ref]));
    let spent = lets.bind("spent", fields(nth(&input, 1)));
    let out = lets.bind(
        "out",
        fields(nth_of(outputs, call(F::UnIData, vec![nth(&red, 3)]))),
    );
    // Same address (payment and staking parts).
    lets.check(call(
        F::EqualsData,
        vec![head(out.clone()), head(spent.clone())],
    ));
    // Values: the token alone besides ADA (ADA's entry is first), ADA not decreasing.
    let value_in = lets.bind("value_in", call(F::UnMapData, vec![nth(&spent, 1)]));
    let value_out = lets.bind("value_out", call(F::UnMapData, vec![nth(&out, 1)]));
    let token_data = data(token_only(token));
    for v in [&value_in, &value_out] {
        lets.check(call(
            F::EqualsData,
            vec![call(F::MapData, vec![tail(v.clone())]), token_data.clone()],
        ));
    }
    let lovelace = |v: &Term<Name>| {
        let ada = call(F::UnMapData, vec![call(F::SndPair, vec![head(v.clone())])]);
        call(F::UnIData, vec![call(F::SndPair, vec![head(ada)])])
    };
    lets.check(call(
        F::LessThanEqualsInteger,
        vec![lovelace(&value_in), lovelace(&value_out)],
    ));
    // The next state: an inline datum (OutputDatum 2), `Constr 0` with exactly n + 2 fields.
    let od = lets.bind("out_datum", call(F::UnConstrData, vec![nth(&out, 2)]));
    lets.check(call(
        F::EqualsInteger,
        vec![call(F::FstPair, vec![od.clone()]), int(2)],
    ));
    let nd = lets.bind(
        "next",
        call(
            F::UnConstrData,
            vec![head(call(F::SndPair, vec![od.clone()]))],
        ),
    );
    lets.check(call(
        F::EqualsInteger,
        vec![call(F::FstPair, vec![nd.clone()]), int(0)],
    ));
    let nf = lets.bind("next_fields", call(F::SndPair, vec![nd]));
    let rest = (0..n + 2).fold(nf.clone(), |l, _| tail(l));
    lets.check(call(F::NullList, vec![rest]));
    let next_int = |i: usize| call(F::UnIData, vec![nth(&nf, i)]);
    let next_statement: Vec<Term<Name>> = (0..n)
        .map(|i| lets.bind("next_statement", next_int(i)))
        .collect();
    let next_epoch = lets.bind("next_epoch", next_int(n));
    lets.check(call(
        F::EqualsInteger,
        vec![next_epoch.clone(), call(F::AddInteger, vec![epoch, int(1)])],
    ));
    for &t in &layout.thresholds {
        lets.check(call(
            F::LessThanInteger,
            vec![int(0), next_statement[t].clone()],
        ));
    }
    // The message, rebuilt from the next datum (`integerToByteString` fails on a negative or
    // oversized entry, so each encoding is the one signed).
    let mut bytes = Term::byte_string(prefix);
    for s in &next_statement {
        bytes = append(
            bytes,
            call(
                F::IntegerToByteString,
                vec![Term::bool(true), int(32), s.clone()],
            ),
        );
    }
    bytes = append(
        bytes,
        call(
            F::IntegerToByteString,
            vec![Term::bool(true), int(8), next_epoch],
        ),
    );
    bytes = append(bytes, call(F::UnBData, vec![nth(&nf, n + 1)]));
    let m = lets.bind("message", v.message_term(bytes));

    let mut call_v = verifier
        .apply(call(F::UnBData, vec![head(red.clone())]))
        .apply(call(F::UnBData, vec![nth(&red, 1)]));
    for s in &layout.instance {
        match s {
            Slot::State(i) => call_v = call_v.apply(statement[*i].clone()),
            Slot::Message => {
                call_v = rule
                    .entry_terms(m.clone())
                    .into_iter()
                    .fold(call_v, Term::apply);
            }
        }
    }
    Ok(program(ctx, lets.wrap(call_v)))
}

/// The observer validator of `vk` (a Plutus V3 script; as a withdraw-zero script its stake
/// credential is registered once and each use withdraws 0; as a minting policy each use mints):
/// the statement's parameters are fixed now (a threshold of 0 refused) and its message is
/// [`observer_message`] of the transaction the script runs in.
pub fn observer(
    vp: &VerifierParams,
    vk: &Vk,
    statement: &[Entry],
    mode: MsmMode,
) -> Result<Program<Name>, Error> {
    observer_with(&Halo2Verifier::new(vp, vk, mode), statement)
}

/// [`observer`] for any [`ScriptVerifier`] (the halo2 verifier, the Groth16 one).
pub fn observer_with(v: &dyn ScriptVerifier, statement: &[Entry]) -> Result<Program<Name>, Error> {
    let mut lets = Lets::new();
    let ctx = lets.name("ctx");
    let (tx, red, _) = context_parts(&mut lets, &ctx);
    // The least input's reference `Constr 0 [B txid, I index]` (TxInInfo's first field).
    let first = lets.bind(
        "first_input",
        fields(head(fields(head(call(
            F::UnListData,
            vec![head(tx.clone())],
        ))))),
    );
    let outputs_hash = call(
        F::Blake2b_256,
        vec![call(F::SerialiseData, vec![nth(&tx, 2)])],
    );
    let bytes = append(
        append(
            append(
                Term::byte_string(OBSERVER_TAG.to_vec()),
                call(F::UnBData, vec![head(first.clone())]),
            ),
            call(
                F::IntegerToByteString,
                vec![
                    Term::bool(true),
                    int(8),
                    call(F::UnIData, vec![nth(&first, 1)]),
                ],
            ),
        ),
        outputs_hash,
    );
    let m = lets.bind("message", v.message_term(bytes));
    let proof_and_hints = [
        call(F::UnBData, vec![head(red.clone())]),
        call(F::UnBData, vec![nth(&red, 1)]),
    ];
    let call_v = verifier_call_with(v, statement, proof_and_hints, m)?;
    Ok(program(ctx, lets.wrap(call_v)))
}
