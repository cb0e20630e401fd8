// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.19;

/// @title CertificateVerifier
/// @notice Accepts a threshold-multisignature certificate (a Schnorr ATMS, BLS ATMS or
/// SNARK-Mithril proof from `tms prove --transcript evm`) for a committee this contract trusts.
/// @dev The statement is built here, never taken from the caller: the trusted committee (or
/// registration) digest and threshold are fixed at deployment, and the message input is
/// `m = keccak256(message) mod r`, the mapping every circuit signs (tms_gadgets::message). The
/// proof goes to the generated Halo2 verifier with the calldata it expects: the public inputs
/// as 32-byte big-endian words in instance order, then the proof bytes. That verifier returns
/// nothing and reverts on any failure.
contract CertificateVerifier {
    /// The BN254 scalar field order r.
    uint256 internal constant R =
        0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001;

    /// The generated Halo2 verifier of the circuit (its verifying key is in its code).
    address public immutable verifier;
    /// The trusted committee commitment (Schnorr ATMS), committee digest (BLS ATMS) or
    /// registration digest (SNARK-Mithril), below r.
    uint256 public immutable committeeDigest;
    /// The threshold every certificate must prove, when the statement has one (ATMS).
    uint256 public immutable threshold;
    /// Whether the statement has a threshold input; SNARK-Mithril's quorum k is inside its
    /// registration digest instead.
    bool public immutable bindsThreshold;
    /// How many leading 32-byte words of `proof` are public inputs before the statement (the
    /// accumulator limbs of an outer proof; 0 for a certificate proof).
    uint256 public immutable accumulatorWords;

    /// The proof does not verify for (digest, message, threshold).
    error CertificateRejected();
    /// A constructor argument is not a field element.
    error NotAFieldElement();

    constructor(
        address verifier_,
        uint256 committeeDigest_,
        uint256 threshold_,
        bool bindsThreshold_,
        uint256 accumulatorWords_
    ) {
        if (committeeDigest_ >= R || threshold_ >= R) revert NotAFieldElement();
        verifier = verifier_;
        committeeDigest = committeeDigest_;
        threshold = threshold_;
        bindsThreshold = bindsThreshold_;
        accumulatorWords = accumulatorWords_;
    }

    /// @notice The field element a message is signed as: keccak-256 of its bytes, read
    /// big-endian, reduced mod r.
    function messageField(bytes calldata message) public pure returns (uint256) {
        return uint256(keccak256(message)) % R;
    }

    /// @notice Returns true if `proof` shows that the trusted committee certified `message`
    /// (at least `threshold` signers for ATMS; the registration's quorum for Mithril), and
    /// reverts with CertificateRejected otherwise.
    function verifyCertificate(bytes calldata message, bytes calldata proof) external view returns (bool) {
        uint256 split = accumulatorWords * 32;
        if (proof.length < split) revert CertificateRejected();
        bytes memory statement = bindsThreshold
            ? abi.encodePacked(committeeDigest, messageField(message), threshold)
            : abi.encodePacked(committeeDigest, messageField(message));
        bytes memory input = abi.encodePacked(proof[:split], statement, proof[split:]);
        (bool ok,) = verifier.staticcall(input);
        if (!ok) revert CertificateRejected();
        return true;
    }
}
