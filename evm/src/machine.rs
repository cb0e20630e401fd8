//! An in-memory EVM (revm, mainnet rules of its default hard fork): deploy contracts and call
//! them, with the gas each transaction used. Gas is the transaction's: 21,000 intrinsic, the
//! calldata and the execution.

use revm::{
    context::{
        result::{ExecutionResult, Output},
        TxEnv,
    },
    database::InMemoryDB,
    primitives::{Address, TxKind},
    Context, ExecuteCommitEvm, MainBuilder, MainContext, MainnetEvm,
};

use crate::EvmError;

/// The gas limit of every transaction: a mainnet block's (30 M).
pub const GAS_LIMIT: u64 = 30_000_000;

/// A deployed contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deployed {
    /// Its address.
    pub address: Address,
    /// The gas the deployment transaction used.
    pub gas: u64,
}

/// What a call returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// Whether it returned (false: it reverted or halted).
    pub success: bool,
    /// The gas the transaction used.
    pub gas: u64,
    /// Its return data, or its revert data.
    pub output: Vec<u8>,
}

/// One EVM with its state, and the nonce of its one caller.
pub struct Machine {
    evm: MainnetEvm<revm::handler::MainnetContext<InMemoryDB>>,
    nonce: u64,
}

impl Machine {
    /// A fresh chain. With `enforce_code_size_limit` false, contracts over EIP-170's limit
    /// deploy too (to measure them); mainnet would refuse them.
    pub fn new(enforce_code_size_limit: bool) -> Self {
        let mut context = Context::mainnet().with_db(InMemoryDB::default());
        if !enforce_code_size_limit {
            context.cfg.limit_contract_code_size = Some(usize::MAX);
        }
        Self {
            evm: context.build_mainnet(),
            nonce: 0,
        }
    }

    fn transact(&mut self, kind: TxKind, data: Vec<u8>) -> Result<ExecutionResult, EvmError> {
        let tx = TxEnv {
            gas_limit: GAS_LIMIT,
            kind,
            data: data.into(),
            nonce: self.nonce,
            ..Default::default()
        };
        let result = self
            .evm
            .transact_commit(tx)
            .map_err(|e| EvmError::Machine(format!("{e:?}")))?;
        self.nonce += 1;
        Ok(result)
    }

    /// Deploys `creation_code` (with any constructor arguments appended).
    pub fn deploy(&mut self, creation_code: Vec<u8>) -> Result<Deployed, EvmError> {
        match self.transact(TxKind::Create, creation_code)? {
            ExecutionResult::Success {
                output: Output::Create(_, Some(address)),
                gas_used,
                ..
            } => Ok(Deployed {
                address,
                gas: gas_used,
            }),
            ExecutionResult::Revert { gas_used, output } => Err(EvmError::Deployment(format!(
                "reverted after {gas_used} gas with {output:#x}"
            ))),
            ExecutionResult::Halt { reason, gas_used } => Err(EvmError::Deployment(format!(
                "halted after {gas_used} gas: {reason:?}"
            ))),
            ExecutionResult::Success { .. } => {
                Err(EvmError::Deployment("created no contract".into()))
            }
        }
    }

    /// Deploys `creation_code` as [`Self::deploy`] does, but a revert is an answer, not an
    /// error: `Err` holds its revert data (empty if it halted), to match a custom error by
    /// [`crate::certificate::is_error`].
    pub fn try_deploy(
        &mut self,
        creation_code: Vec<u8>,
    ) -> Result<Result<Deployed, Vec<u8>>, EvmError> {
        Ok(match self.transact(TxKind::Create, creation_code)? {
            ExecutionResult::Success {
                output: Output::Create(_, Some(address)),
                gas_used,
                ..
            } => Ok(Deployed {
                address,
                gas: gas_used,
            }),
            ExecutionResult::Revert { output, .. } => Err(output.to_vec()),
            ExecutionResult::Halt { .. } => Err(vec![]),
            ExecutionResult::Success { .. } => {
                return Err(EvmError::Deployment("created no contract".into()))
            }
        })
    }

    /// Calls `address` with `calldata`.
    pub fn call(&mut self, address: Address, calldata: Vec<u8>) -> Result<Call, EvmError> {
        Ok(match self.transact(TxKind::Call(address), calldata)? {
            ExecutionResult::Success {
                gas_used, output, ..
            } => Call {
                success: true,
                gas: gas_used,
                output: output.into_data().to_vec(),
            },
            ExecutionResult::Revert { gas_used, output } => Call {
                success: false,
                gas: gas_used,
                output: output.to_vec(),
            },
            ExecutionResult::Halt { gas_used, .. } => Call {
                success: false,
                gas: gas_used,
                output: vec![],
            },
        })
    }
}
