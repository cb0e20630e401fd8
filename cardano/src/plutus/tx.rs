//! Conway transactions built with the pallas crates and evaluated as a node's phase two does:
//! `uplc`'s `eval_phase_two_with_protocol` builds each script's real `ScriptContext` from the
//! transaction and its resolved inputs and runs the script under mainnet's Plutus V3 cost model
//! ([`super::cost_model_v3`]) within mainnet's per-transaction limits, after `uplc`'s phase-one
//! checks on scripts and redeemers. Not checked here (phase one of the ledger): fees, balance,
//! witnesses, the script-integrity hash.

use ::uplc::{
    machine::cost_model::ExBudget,
    tx::{self as utx, error::Error as TxError, ResolvedInput, SlotConfig},
    PlutusData,
};
use pallas_codec::utils::{Bytes, CborWrap, NonEmptyKeyValuePairs, NonEmptySet, Nullable, Set};
use pallas_crypto::hash::{Hash, Hasher};
use pallas_primitives::{
    conway::{
        CostModels, DatumOption, ExUnits, MintedTx, PlutusScript, PostAlonzoTransactionOutput,
        PseudoScript, PseudoTransactionOutput, Redeemers, RedeemersKey, RedeemersValue,
        TransactionBody, Value, WitnessSet,
    },
    Fragment, PositiveCoin,
};

pub use pallas_primitives::conway::{RedeemerTag, TransactionInput, TransactionOutput, Tx};

/// Mainnet's per-transaction CPU steps.
pub const MAX_TX_CPU: i64 = 10_000_000_000;
/// Mainnet's per-transaction memory units.
pub const MAX_TX_MEM: i64 = 16_500_000;
/// Mainnet's maximum transaction size in bytes.
pub const MAX_TX_BYTES: usize = 16_384;

/// A resolved UTxO: its reference and its output.
pub type Utxo = (TransactionInput, TransactionOutput);

/// A Plutus V3 script's hash: blake2b-224 of the language tag 3 and the script bytes.
pub fn script_hash(script: &[u8]) -> [u8; 28] {
    *Hasher::<224>::hash_tagged(script, 3)
}

/// A mainnet enterprise address paying to a script (header 0x71).
pub fn script_address(hash: &[u8; 28]) -> Vec<u8> {
    [&[0x71][..], hash].concat()
}

/// A mainnet enterprise address paying to a key hash (header 0x61).
pub fn key_address(hash: &[u8; 28]) -> Vec<u8> {
    [&[0x61][..], hash].concat()
}

/// A mainnet reward account of a script (header 0xf1): a withdraw-zero observer's.
pub fn script_reward_account(hash: &[u8; 28]) -> Vec<u8> {
    [&[0xf1][..], hash].concat()
}

/// A transaction reference.
pub fn input(tx: [u8; 32], index: u64) -> TransactionInput {
    TransactionInput {
        transaction_id: Hash::new(tx),
        index,
    }
}

/// An output: `lovelace` plus `asset` (policy, name, quantity), an inline `datum`, a reference
/// `script` (Plutus V3 bytes).
pub fn output(
    address: Vec<u8>,
    lovelace: u64,
    asset: Option<(&[u8; 28], &[u8], u64)>,
    datum: Option<PlutusData>,
    script: Option<&[u8]>,
) -> TransactionOutput {
    let value = match asset.and_then(|(p, n, q)| Some((p, n, PositiveCoin::try_from(q).ok()?))) {
        None => Value::Coin(lovelace),
        Some((policy, name, q)) => Value::Multiasset(
            lovelace,
            NonEmptyKeyValuePairs::Def(vec![(
                Hash::new(*policy),
                NonEmptyKeyValuePairs::Def(vec![(Bytes::from(name.to_vec()), q)]),
            )]),
        ),
    };
    PseudoTransactionOutput::PostAlonzo(PostAlonzoTransactionOutput {
        address: address.into(),
        value,
        datum_option: datum.map(|d| DatumOption::Data(CborWrap(d))),
        script_ref: script.map(|s| {
            CborWrap(PseudoScript::PlutusV3Script(PlutusScript::<3>(
                s.to_vec().into(),
            )))
        }),
    })
}

/// What a transaction holds, before it is put in the ledger's order.
#[derive(Clone, Debug, Default)]
pub struct TxParts {
    /// Spent UTxOs (sorted by reference when built: the ledger's order, redeemer indices count
    /// in it).
    pub inputs: Vec<Utxo>,
    /// Reference inputs (scripts are read from them).
    pub reference_inputs: Vec<Utxo>,
    /// Outputs, in order.
    pub outputs: Vec<TransactionOutput>,
    /// Withdrawals: reward account and amount.
    pub withdrawals: Vec<(Vec<u8>, u64)>,
    /// Redeemers: purpose, index, data (each given mainnet's whole per-transaction budget).
    pub redeemers: Vec<(RedeemerTag, u32, PlutusData)>,
    /// The collateral input (also resolved).
    pub collateral: Option<Utxo>,
    /// The fee.
    pub fee: u64,
}

/// The ledger's order of inputs: by transaction id, then index.
pub fn sorted(inputs: &[Utxo]) -> Vec<Utxo> {
    let mut v = inputs.to_vec();
    v.sort_by_key(|u| (u.0.transaction_id, u.0.index));
    v
}

/// Where `input` is in the ledger's order of `inputs`.
pub fn index_of(inputs: &[Utxo], input: &TransactionInput) -> Option<u32> {
    sorted(inputs)
        .iter()
        .position(|(i, _)| i == input)
        .and_then(|p| u32::try_from(p).ok())
}

impl TxParts {
    /// The transaction, and every UTxO it resolves (inputs, reference inputs, collateral).
    pub fn build(&self) -> (Tx, Vec<Utxo>) {
        let inputs = sorted(&self.inputs);
        let refs = sorted(&self.reference_inputs);
        let body = TransactionBody {
            inputs: Set::from(inputs.iter().map(|u| u.0.clone()).collect::<Vec<_>>()),
            outputs: self.outputs.clone(),
            fee: self.fee,
            ttl: None,
            certificates: None,
            withdrawals: (!self.withdrawals.is_empty()).then(|| {
                NonEmptyKeyValuePairs::Def(
                    self.withdrawals
                        .iter()
                        .map(|(a, c)| (Bytes::from(a.clone()), *c))
                        .collect(),
                )
            }),
            auxiliary_data_hash: None,
            validity_interval_start: None,
            mint: None,
            script_data_hash: None,
            collateral: self
                .collateral
                .as_ref()
                .and_then(|c| NonEmptySet::from_vec(vec![c.0.clone()])),
            required_signers: None,
            network_id: None,
            collateral_return: None,
            total_collateral: None,
            reference_inputs: NonEmptySet::from_vec(refs.iter().map(|u| u.0.clone()).collect()),
            voting_procedures: None,
            proposal_procedures: None,
            treasury_value: None,
            donation: None,
        };
        let redeemers = (!self.redeemers.is_empty()).then(|| {
            Redeemers::Map(NonEmptyKeyValuePairs::Def(
                self.redeemers
                    .iter()
                    .map(|(tag, index, data)| {
                        (
                            RedeemersKey {
                                tag: *tag,
                                index: *index,
                            },
                            RedeemersValue {
                                data: data.clone(),
                                ex_units: ExUnits {
                                    mem: MAX_TX_MEM as u64,
                                    steps: MAX_TX_CPU as u64,
                                },
                            },
                        )
                    })
                    .collect(),
            ))
        });
        let witnesses = WitnessSet {
            vkeywitness: None,
            native_script: None,
            bootstrap_witness: None,
            plutus_v1_script: None,
            plutus_data: None,
            redeemer: redeemers,
            plutus_v2_script: None,
            plutus_v3_script: None,
        };
        let tx = Tx {
            transaction_body: body,
            transaction_witness_set: witnesses,
            success: true,
            auxiliary_data: Nullable::Null,
        };
        let mut resolved = inputs;
        resolved.extend(refs);
        resolved.extend(self.collateral.iter().cloned());
        (tx, resolved)
    }
}

/// One transaction's phase-two outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxOutcome {
    /// Whether every script succeeded within mainnet's limits.
    pub accepted: bool,
    /// CPU steps spent (all scripts; on a refusal, up to the failure).
    pub cpu: i64,
    /// Memory units spent.
    pub mem: i64,
    /// The transaction's size in bytes.
    pub tx_bytes: usize,
    /// Why it was refused, when it was.
    pub error: Option<String>,
}

/// The id of a transaction: blake2b-256 of its body.
pub fn tx_id(tx: &Tx) -> [u8; 32] {
    let body = tx.transaction_body.encode_fragment().unwrap_or_default();
    *Hasher::<256>::hash(&body)
}

/// Evaluates every script of `tx` as a node's phase two does, at protocol version `pv`, with
/// mainnet's cost model and per-transaction limits and slot configuration. A transaction over
/// mainnet's size limit is refused (its scripts still measured).
pub fn evaluate(tx: &Tx, resolved: &[Utxo], pv: u16) -> TxOutcome {
    let refused = |error: String, cpu, mem, tx_bytes| TxOutcome {
        accepted: false,
        cpu,
        mem,
        tx_bytes,
        error: Some(error),
    };
    let bytes = match tx.encode_fragment() {
        Ok(b) => b,
        Err(e) => return refused(format!("encoding: {e}"), 0, 0, 0),
    };
    let minted: MintedTx = match pallas_codec::minicbor::decode(&bytes) {
        Ok(t) => t,
        Err(e) => return refused(format!("decoding: {e}"), 0, 0, bytes.len()),
    };
    let utxos: Vec<ResolvedInput> = resolved
        .iter()
        .map(|(input, output)| ResolvedInput {
            input: input.clone(),
            output: output.clone(),
        })
        .collect();
    let cost_models = CostModels {
        plutus_v1: None,
        plutus_v2: None,
        plutus_v3: Some(super::cost_model_v3(pv)),
    };
    let budget = ExBudget {
        cpu: MAX_TX_CPU,
        mem: MAX_TX_MEM,
    };
    let result = utx::eval_phase_two_with_protocol(
        &minted,
        &utxos,
        Some(&cost_models),
        Some(&budget),
        &SlotConfig::default(),
        pv,
        true,
        |_| (),
    );
    match result {
        Ok(runs) => {
            let (cpu, mem) = runs.iter().fold((0, 0), |(c, m), (r, _)| {
                (c + r.ex_units.steps as i64, m + r.ex_units.mem as i64)
            });
            if bytes.len() > MAX_TX_BYTES {
                return refused("over the size limit".into(), cpu, mem, bytes.len());
            }
            TxOutcome {
                accepted: true,
                cpu,
                mem,
                tx_bytes: bytes.len(),
                error: None,
            }
        }
        Err(TxError::RedeemerError { err, .. }) => match *err {
            TxError::Machine(e, cost, _) => refused(e.to_string(), cost.cpu, cost.mem, bytes.len()),
            other => refused(other.to_string(), 0, 0, bytes.len()),
        },
        Err(e) => refused(e.to_string(), 0, 0, bytes.len()),
    }
}
