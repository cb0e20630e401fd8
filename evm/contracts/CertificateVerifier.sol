// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.19;

// A template: `tms export-verifier` (tms_evm::certificate::wrapper_source) writes the
// constants in double braces below from the verifying key it exports Halo2Verifier.sol for. The
// file it writes is tied to that one verifier; this template does not compile.

/// @title BoundVerifier
/// @notice The verifier this file was exported with, and the one calldata layout it takes: for a
/// generated Halo2 verifier the accumulator limbs (an outer proof's), the statement, the proof;
/// for gnark's Groth16 verifier of a final wrapper (`GROTH16_SELECTOR` set) its `verifyProof`
/// with the proof's eight words and the statement.
/// @dev Nothing about the verifier is a deployment choice. Its code hash, its number of public
/// inputs, how many of them are accumulator limbs and the exact length of its proofs are
/// constants written by the exporter from the verifying key; the constructor refuses an address
/// without code (a staticcall to it would succeed and accept every proof), any other code, and a
/// statement layout that does not fill the verifier's public inputs exactly.
///
/// Proof bytes are malleable: the verifier reduces every 32-byte scalar word (accumulator limbs
/// and evaluations) mod r, so `word + r` passes where `word` does. Replay protection must key on
/// the statement (`consumed[keccak256(statement)]`, as `_consume` does), never on the proof bytes.
abstract contract BoundVerifier {
    /// The BN254 scalar field order r.
    uint256 internal constant R =
        0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001;

    /// keccak-256 of the generated verifier's deployed code (Halo2Verifier.bin's runtime).
    bytes32 public constant VERIFIER_CODEHASH = {{VERIFIER_CODEHASH}};
    /// The verifier's public inputs: the accumulator limbs, then the statement.
    uint256 public constant NUM_INSTANCES = {{NUM_INSTANCES}};
    /// Leading public inputs that are a KZG accumulator (12 for an outer proof, else 0); the
    /// caller carries them as 32-byte words in front of the proof.
    uint256 public constant ACCUMULATOR_WORDS = {{ACCUMULATOR_WORDS}};
    /// The length of every proof the verifier reads, in bytes (the accumulator words excluded).
    uint256 public constant PROOF_LENGTH = {{PROOF_LENGTH}};
    /// Zero for a generated Halo2 verifier (raw calldata: accumulator words, statement, proof).
    /// Otherwise the verifier is gnark's Groth16 `Verifier` and this is the selector of its
    /// `verifyProof(uint256[8] proof, uint256[NUM_INSTANCES] input)`, called with the proof's
    /// eight words, then the statement (tms_evm::groth16).
    bytes4 public constant GROTH16_SELECTOR = {{GROTH16_SELECTOR}};
    /// For a Groth16 verifier: its one public input is `keccak256(statement) mod r` (the
    /// statement's words hashed in the Groth16 circuit) instead of the statement's words.
    bool public constant GROTH16_STATEMENT_HASHED = {{GROTH16_STATEMENT_HASHED}};
    /// What the verifier's key proves, written by the exporter from the key file's header (a
    /// Groth16 verifier's from its own STATEMENT_KIND): the one contract below that may stand in
    /// front of it (`KIND_*`; 0: none). Word counts alone coincide: a MithrilBatchVerifier of
    /// two certificates and a ChainVerifier both take four words.
    uint256 public constant STATEMENT_KIND = {{STATEMENT_KIND}};
    uint256 internal constant KIND_ATMS = 1;
    uint256 internal constant KIND_MITHRIL = 2;
    uint256 internal constant KIND_MITHRIL_BATCH = 3;
    uint256 internal constant KIND_CHAIN = 4;

    /// The generated Halo2 verifier (its verifying key is in its code).
    address public immutable verifier;
    /// Statements accepted once by `_consume`, by `keccak256(statement)`.
    mapping(bytes32 => bool) public consumed;

    /// There is no code at the verifier address.
    error NoVerifierCode();
    /// The code at the verifier address is not the verifier this file was exported with.
    error WrongVerifier();
    /// This contract's statement, after the accumulator words, is not the verifier's inputs.
    error LayoutMismatch(uint256 statementWords, uint256 numInstances);
    /// This contract's statement kind is not the verifier's key's.
    error WrongStatementKind(uint256 contractKind, uint256 verifierKind);
    /// `proof` (accumulator words included) is not exactly the verifier's length.
    error WrongProofLength(uint256 given, uint256 expected);
    /// A value that must be a canonical field element (below r) is not.
    error NotAFieldElement();
    /// The proof does not verify for the statement.
    error ProofRejected();
    /// The statement was consumed already (whatever the proof bytes).
    error AlreadyConsumed(bytes32 statement);

    /// A statement was accepted for the first time.
    event Consumed(bytes32 indexed statement);

    constructor(address verifier_, uint256 statementWords, uint256 kind) {
        if (verifier_.code.length == 0) revert NoVerifierCode();
        if (verifier_.codehash != VERIFIER_CODEHASH) revert WrongVerifier();
        if (ACCUMULATOR_WORDS + statementWords != NUM_INSTANCES) {
            revert LayoutMismatch(statementWords, NUM_INSTANCES);
        }
        if (kind != STATEMENT_KIND) revert WrongStatementKind(kind, STATEMENT_KIND);
        verifier = verifier_;
    }

    /// @notice The field element a message is signed as: keccak-256 of its bytes, read
    /// big-endian, reduced mod r (tms_gadgets::message).
    function messageField(bytes calldata message) public pure returns (uint256) {
        return uint256(keccak256(message)) % R;
    }

    /// Reverts unless `proof` (the accumulator words, then the proof) verifies for `statement`
    /// (canonical words, built by the caller from what it trusts).
    function _verify(bytes memory statement, bytes calldata proof) internal view {
        uint256 split = ACCUMULATOR_WORDS * 32;
        // The verifier reads fixed offsets: it would ignore trailing bytes and read missing
        // ones as zeros.
        if (proof.length != split + PROOF_LENGTH) {
            revert WrongProofLength(proof.length, split + PROOF_LENGTH);
        }
        bytes memory call_ = GROTH16_SELECTOR == bytes4(0)
            ? abi.encodePacked(proof[:split], statement, proof[split:])
            : GROTH16_STATEMENT_HASHED
                ? abi.encodePacked(GROTH16_SELECTOR, proof, uint256(keccak256(statement)) % R)
                : abi.encodePacked(GROTH16_SELECTOR, proof, statement);
        (bool ok,) = verifier.staticcall(call_);
        if (!ok) revert ProofRejected();
    }

    /// [`_verify`], once per statement: the replay key is the statement, since the proof bytes
    /// of one statement have many encodings that verify.
    function _consume(bytes memory statement, bytes calldata proof) internal returns (bytes32 key) {
        _verify(statement, proof);
        key = keccak256(statement);
        if (consumed[key]) revert AlreadyConsumed(key);
        consumed[key] = true;
        emit Consumed(key);
    }
}

/// @title AtmsCertificateVerifier
/// @notice Accepts a Schnorr ATMS certificate (`tms prove --transcript evm`, or a join or an outer
/// proof of one) for the committee and threshold this contract trusts: statement
/// `[commitment, m, t]`.
contract AtmsCertificateVerifier is BoundVerifier {
    /// The trusted committee commitment (flat digest or Merkle root), below r.
    uint256 public immutable committee;
    /// The threshold every certificate must prove.
    uint256 public immutable threshold;

    /// A threshold of 0 is met by a certificate of no signature: it would certify anything.
    error ZeroThreshold();

    constructor(address verifier_, uint256 committee_, uint256 threshold_) BoundVerifier(verifier_, 3, KIND_ATMS) {
        if (committee_ >= R || threshold_ >= R) revert NotAFieldElement();
        if (threshold_ == 0) revert ZeroThreshold();
        committee = committee_;
        threshold = threshold_;
    }

    /// The public inputs after the accumulator: built here, never taken from the caller.
    function statement(bytes calldata message) public view returns (bytes memory) {
        return abi.encodePacked(committee, messageField(message), threshold);
    }

    /// @notice True if at least `threshold` members of `committee` signed `message`; reverts
    /// otherwise.
    function verifyCertificate(bytes calldata message, bytes calldata proof) external view returns (bool) {
        _verify(statement(message), proof);
        return true;
    }

    /// @notice [`verifyCertificate`], accepted once per message (replay protection on the
    /// statement); returns the statement's key.
    function consumeCertificate(bytes calldata message, bytes calldata proof) external returns (bytes32) {
        return _consume(statement(message), proof);
    }
}

/// @title MithrilCertificateVerifier
/// @notice Accepts a SNARK-Mithril certificate for the registration this contract trusts:
/// statement `[registration digest, m]` (the quorum is inside the registration digest).
contract MithrilCertificateVerifier is BoundVerifier {
    /// The trusted registration digest, below r.
    uint256 public immutable registration;

    constructor(address verifier_, uint256 registration_) BoundVerifier(verifier_, 2, KIND_MITHRIL) {
        if (registration_ >= R) revert NotAFieldElement();
        registration = registration_;
    }

    /// The public inputs after the accumulator.
    function statement(bytes calldata message) public view returns (bytes memory) {
        return abi.encodePacked(registration, messageField(message));
    }

    /// @notice True if the registration's quorum signed `message`; reverts otherwise.
    function verifyCertificate(bytes calldata message, bytes calldata proof) external view returns (bool) {
        _verify(statement(message), proof);
        return true;
    }

    /// @notice [`verifyCertificate`], accepted once per message.
    function consumeCertificate(bytes calldata message, bytes calldata proof) external returns (bytes32) {
        return _consume(statement(message), proof);
    }
}

/// @title MithrilBatchVerifier
/// @notice Accepts an aggregation of N SNARK-Mithril certificates (`tms aggregate`, i.e.
/// `tms_aggregation`'s `ExposeAll` over N certificate proofs; or that proof through the final
/// wrapper with `ExposeStatements`), each for the registration this contract trusts: statement
/// `[registration, m_1, registration, m_2, ..., registration, m_N]`, N fixed by the verifier it
/// is exported with.
contract MithrilBatchVerifier is BoundVerifier {
    /// The trusted registration digest, below r.
    uint256 public immutable registration;
    /// N: the certificates of every proof the verifier takes.
    uint256 public immutable certificates;

    /// `messages` has another length than the verifier's N.
    error WrongCount(uint256 given, uint256 expected);

    /// The statement words the contract fills: `2N`, where the verifier's statement has `2N`
    /// words. A verifier with an odd statement, or none (every call would be an empty batch),
    /// gets a count that does not fill it, so `BoundVerifier` reverts with `LayoutMismatch`.
    function _batchWords() private pure returns (uint256) {
        uint256 words = NUM_INSTANCES - ACCUMULATOR_WORDS;
        return words == 0 ? 1 : 2 * (words / 2);
    }

    constructor(address verifier_, uint256 registration_) BoundVerifier(verifier_, _batchWords(), KIND_MITHRIL_BATCH) {
        if (registration_ >= R) revert NotAFieldElement();
        registration = registration_;
        certificates = (NUM_INSTANCES - ACCUMULATOR_WORDS) / 2;
    }

    /// The public inputs after the accumulator: `[registration, messageField(messages[i])]` for
    /// each message, in order.
    function statement(bytes[] calldata messages) public view returns (bytes memory words) {
        if (messages.length != certificates) revert WrongCount(messages.length, certificates);
        words = new bytes(64 * messages.length);
        for (uint256 i = 0; i < messages.length; i++) {
            uint256 m = messageField(messages[i]);
            uint256 reg = registration;
            assembly {
                let at := add(add(words, 32), mul(i, 64))
                mstore(at, reg)
                mstore(add(at, 32), m)
            }
        }
    }

    /// @notice True if the registration's quorum signed every one of `messages`; reverts
    /// otherwise.
    function verifyCertificates(bytes[] calldata messages, bytes calldata proof) external view returns (bool) {
        _verify(statement(messages), proof);
        return true;
    }

    /// @notice [`verifyCertificates`], accepted once per statement (the messages in order).
    function consumeCertificates(bytes[] calldata messages, bytes calldata proof) external returns (bytes32) {
        return _consume(statement(messages), proof);
    }
}

/// @title ChainVerifier
/// @notice Accepts the root proof of a Mithril certificate chain (`tms chain`, an outer proof)
/// from the genesis registration this contract trusts: statement `[genesis, last registration,
/// m, epochs]`, where `m = keccak256(message) mod r` is the last application message.
contract ChainVerifier is BoundVerifier {
    /// The digest of the registration that signs epoch 0, below r.
    uint256 public immutable genesis;

    constructor(address verifier_, uint256 genesis_) BoundVerifier(verifier_, 4, KIND_CHAIN) {
        if (genesis_ >= R) revert NotAFieldElement();
        genesis = genesis_;
    }

    /// The public inputs after the accumulator. `lastRegistration` and `epochs` come from the
    /// caller, so they must be canonical: the verifier reduces inputs mod r, and `x + r` would
    /// pass as `x`.
    function statement(uint256 lastRegistration, bytes calldata message, uint256 epochs)
        public
        view
        returns (bytes memory)
    {
        if (lastRegistration >= R || epochs >= R) revert NotAFieldElement();
        return abi.encodePacked(genesis, lastRegistration, messageField(message), epochs);
    }

    /// @notice True if `epochs` consecutive certificates lead from `genesis` to
    /// `lastRegistration`, the last one on `message`; reverts otherwise.
    function verifyChain(uint256 lastRegistration, bytes calldata message, uint256 epochs, bytes calldata proof)
        external
        view
        returns (bool)
    {
        _verify(statement(lastRegistration, message, epochs), proof);
        return true;
    }

    /// @notice [`verifyChain`], accepted once per statement.
    function consumeChain(uint256 lastRegistration, bytes calldata message, uint256 epochs, bytes calldata proof)
        external
        returns (bytes32)
    {
        return _consume(statement(lastRegistration, message, epochs), proof);
    }
}
