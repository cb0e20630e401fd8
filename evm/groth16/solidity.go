package main

// Groth16Verifier.sol: our batched Solidity verifier (batched.go explains
// the check and its soundness), generated from a shared-G2 verifying key by
// text/template. Its verifyProof has exactly the parameters of gnark v0.14's
// exported Verifier.verifyProof (so the same selector and calldata).

import (
	"fmt"
	"io"
	"math/big"
	"strings"
	"text/template"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark/backend/groth16"
)

type solG1 struct{ X, Y string }
type solG2 struct{ X1, X0, Y1, Y0 string }

func fpWord(e *fp.Element) string { return e.BigInt(new(big.Int)).String() }

func newSolG1(p *bn254.G1Affine) solG1 { return solG1{fpWord(&p.X), fpWord(&p.Y)} }

// newSolG2 gives a G2 point's words in the pairing precompile's order:
// x.a1, x.a0, y.a1, y.a0 (EIP-197).
func newSolG2(q *bn254.G2Affine) solG2 {
	return solG2{fpWord(&q.X.A1), fpWord(&q.X.A0), fpWord(&q.Y.A1), fpWord(&q.Y.A0)}
}

type solHashed struct{ Mem, Input string }

type solidityData struct {
	N, NMul                                int
	Signature, Selector                    string
	Alpha, K0, KH                          solG1
	Pub                                    []solG1
	BetaNeg, DeltaNeg, GammaNeg, GSigmaNeg solG2
	Hashed                                 []solHashed
	HashLen, RhoLen, InputLen              string
	InvalidPointSelector                   string
	Setup                                  string
	Kind                                   string
	PokNeg                                 bool
}

// The statement kinds of tms_evm's CertificateVerifier.sol (StatementKind::name):
// a verifier's STATEMENT_KIND says which contract may stand in front of it.
var statementKinds = []string{"unbound", "atms", "mithril", "mithril-batch", "chain"}

func knownStatementKind(kind string) bool {
	for _, k := range statementKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// Setup descriptions written into a contract's SETUP constant. A key whose
// description starts with "INSECURE" has a toxic waste someone knows:
// exporters and tms_evm's Contracts::for_groth16 refuse it unless told it is
// for a test.
const insecureSetupPrefix = "INSECURE"

// setupDescription says where a key made by program-prove comes from.
func setupDescription(seed string) string {
	if seed == "" {
		return insecureSetupPrefix + " single-process (random toxic waste known to one process)"
	}
	return insecureSetupPrefix + " seeded: " + seed
}

func isInsecureSetup(setup string) bool { return strings.HasPrefix(setup, insecureSetupPrefix) }

// checkSetupString: the description goes into a Solidity string literal
// verbatim, so printable ASCII without quotes or backslashes.
func checkSetupString(setup string) error {
	if setup == "" {
		return fmt.Errorf("empty setup description")
	}
	for _, c := range setup {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return fmt.Errorf("setup description %q: printable ASCII without quotes or backslashes only", setup)
		}
	}
	return nil
}

func hexWord(n int) string { return fmt.Sprintf("0x%x", n) }

// verifyProofSignature is the signature of verifyProof for n inputs and
// one commitment (gnark's and ours).
func verifyProofSignature(n int) string {
	return fmt.Sprintf("verifyProof(uint256[8],uint256[2],uint256[2],uint256[%d])", n)
}

func selector(signature string) string {
	return fmt.Sprintf("0x%x", keccak256([]byte(signature))[:4])
}

// ExportBatchedSolidity writes Groth16Verifier.sol (contract
// Groth16Verifier) for a shared-G2 verifying key with one commitment; setup
// (setupDescription) becomes its SETUP constant.
func ExportBatchedSolidity(w io.Writer, vk groth16.VerifyingKey, setup, kind string) error {
	if err := checkSetupString(setup); err != nil {
		return err
	}
	if !knownStatementKind(kind) {
		return fmt.Errorf("statement kind %q: not one of %v (the program's statement_kind)", kind, statementKinds)
	}
	k, err := newBatchedKey(vk)
	if err != nil {
		return err
	}
	n := k.NumInputs()
	d := solidityData{
		N: n, NMul: n + 3, Signature: verifyProofSignature(n),
		Alpha: newSolG1(&k.Alpha), K0: newSolG1(&k.K[0]), KH: newSolG1(&k.K[n+1]),
		BetaNeg: newSolG2(&k.BetaNeg), DeltaNeg: newSolG2(&k.DeltaNeg), GammaNeg: newSolG2(&k.GammaNeg), GSigmaNeg: newSolG2(&k.GSigmaNeg),
		HashLen: hexWord(0x40 + 0x20*len(k.Committed)), RhoLen: hexWord(0x180 + 0x20*n), InputLen: hexWord(0x20 * n),
		Setup: setup, Kind: kind, PokNeg: k.PokNeg,
	}
	d.Selector = selector(d.Signature)
	d.InvalidPointSelector = selector("InvalidPoint()")
	for i := 1; i <= n; i++ {
		d.Pub = append(d.Pub, newSolG1(&k.K[i]))
	}
	for j, idx := range k.Committed {
		d.Hashed = append(d.Hashed, solHashed{Mem: hexWord(0x40 + 0x20*j), Input: hexWord(0x20 * (idx - 1))})
	}
	t, err := template.New("Groth16Verifier.sol").Funcs(template.FuncMap{
		"off": func(i int) string { return hexWord(0x20 * i) },
	}).Parse(batchedTemplate)
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := t.Execute(&b, d); err != nil {
		return err
	}
	_, err = io.WriteString(w, b.String())
	return err
}

const batchedTemplate = `// SPDX-License-Identifier: MIT
// Generated by tms evm/groth16 (solidity.go) from a gnark v0.16 Groth16 verifying key whose
// BSB22 Pedersen key shares gamma's G2 point: -gamma (program-prove -shared-g2) or gamma (gnark's
// mpcsetup ceremony). DO NOT EDIT.
// Where the key comes from: SETUP below ("INSECURE ..." for a seeded or single-process setup);
// what it proves: STATEMENT_KIND.

pragma solidity ^0.8.19;

/// @title Groth16 verifier with gnark's BSB22 commitment check batched into the one pairing call
/// @notice verifyProof has exactly the parameters of gnark v0.14's exported Verifier.verifyProof,
/// so the same selector and the same calldata: {{.Selector}}, {{.Signature}}.
/// It reverts on an invalid proof (custom errors) and returns nothing.
/// @dev gnark's verifier checks two pairing equations with two precompile calls:
///   Groth16: e(A, B) e(C, -delta) e(alpha, -beta) e(L, -gamma) == 1,
///            L = K0 + sum input_i K_(i+1) + h K_h + Com, h = keccak256(Com, committed inputs) mod R;
///   PoK:     e(Com, GSigmaNeg) e(Pok, G) == 1 (the Pedersen proof of knowledge of Com's opening).
{{- if .PokNeg}}
/// The setup behind this contract (gnark's mpcsetup ceremony) sets the Pedersen key's G to gamma, so
/// e(rho Pok, G) = e(-rho Pok, -gamma): both equations have a pair with -gamma, and this contract
/// checks them with ONE call of 5 pairs:
///   e(A, B) e(C, -delta) e(alpha, -beta) e(L - rho Pok, -gamma) e(rho Com, GSigmaNeg) == 1,
{{- else}}
/// The setup behind this contract sets the Pedersen key's G to -gamma, so that both equations have
/// a pair with -gamma, and this contract checks them with ONE call of 5 pairs:
///   e(A, B) e(C, -delta) e(alpha, -beta) e(L + rho Pok, -gamma) e(rho Com, GSigmaNeg) == 1,
{{- end}}
/// which by bilinearity is X * Y^rho == 1 for X the Groth16 product and Y the PoK product, with
///   rho = uint256(keccak256(abi.encodePacked(proof, commitments, commitmentPok, input))) % R != 0.
/// Soundness: X and Y lie in GT's subgroup of prime order R (the precompile checks that B is in
/// G2; G1 has cofactor 1; the G2 constants are in G2). If Y != 1, Y generates that subgroup, so
/// exactly one rho mod R satisfies X * Y^rho == 1; that rho is fixed by the calldata (X and Y
/// depend only on the proof, the commitment, its PoK and the inputs), and rho is a hash of that
/// same calldata, chosen after the prover committed to everything: with keccak256 as a random
/// oracle each attempt hits it with probability below 6 / 2^256 (about 2^-253). If Y == 1 the
/// check is X == 1, gnark's Groth16 equation. rho == 0 (which would drop Y) is refused. An honest
/// proof has X == Y == 1 and passes for every rho.
/// Cost (EIP-1108 prices): one pairing of 5 pairs, 45,000 + 5 * 34,000 = 215,000 gas, instead of
/// gnark's 2 + 4 pairs in two calls (294,000); {{.NMul}} ecMul ({{.N}} inputs, h, rho Com and rho Pok)
/// at 6,000 each and {{.NMul}} ecAdd at 150.
contract Groth16Verifier {
    /// Where the verifying key comes from. "INSECURE ..." (a seeded or single-process setup,
    /// whose toxic waste someone knows): for tests only.
    string public constant SETUP = "{{.Setup}}";
    /// What the key's program proves (its statement_kind): tms_evm's CertificateVerifier.sol
    /// writes it into STATEMENT_KIND, and only that kind's contract stands in front of this one.
    string public constant STATEMENT_KIND = "{{.Kind}}";

    /// A public input is not below R (ecMul would reduce it silently).
    error PublicInputNotInField();
    /// The commitment or its proof of knowledge is not a canonical point of G1: ecMul or ecAdd failed.
    error InvalidPoint();
    /// The batching scalar rho is 0 (probability about 2^-253; refused, as it would drop the PoK).
    error ZeroBatchingScalar();
    /// The pairing precompile failed (A, B or C not a valid point) or the 5-pair product is not 1.
    error ProofInvalid();

    // Precompiles (EIP-196, EIP-197).
    uint256 constant PRECOMPILE_ADD = 0x06;
    uint256 constant PRECOMPILE_MUL = 0x07;
    uint256 constant PRECOMPILE_PAIRING = 0x08;

    // bytes4(keccak256("InvalidPoint()")), InvalidPoint.selector, for a revert from assembly.
    uint256 constant INVALID_POINT_SELECTOR = {{.InvalidPointSelector}};

    // BN254's scalar field order.
    uint256 constant R = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001;

    // G2 points are stored in the precompile's order: x.a1, x.a0, y.a1, y.a0 (imaginary part first).

    // Groth16 alpha in G1.
    uint256 constant ALPHA_X = {{.Alpha.X}};
    uint256 constant ALPHA_Y = {{.Alpha.Y}};

    // -beta, -delta, -gamma in G2 (negated here so that no proof point is negated on chain).
    uint256 constant BETA_NEG_X_1 = {{.BetaNeg.X1}};
    uint256 constant BETA_NEG_X_0 = {{.BetaNeg.X0}};
    uint256 constant BETA_NEG_Y_1 = {{.BetaNeg.Y1}};
    uint256 constant BETA_NEG_Y_0 = {{.BetaNeg.Y0}};
    uint256 constant DELTA_NEG_X_1 = {{.DeltaNeg.X1}};
    uint256 constant DELTA_NEG_X_0 = {{.DeltaNeg.X0}};
    uint256 constant DELTA_NEG_Y_1 = {{.DeltaNeg.Y1}};
    uint256 constant DELTA_NEG_Y_0 = {{.DeltaNeg.Y0}};
    uint256 constant GAMMA_NEG_X_1 = {{.GammaNeg.X1}};
    uint256 constant GAMMA_NEG_X_0 = {{.GammaNeg.X0}};
    uint256 constant GAMMA_NEG_Y_1 = {{.GammaNeg.Y1}};
    uint256 constant GAMMA_NEG_Y_0 = {{.GammaNeg.Y0}};

    // The Pedersen key's GSigmaNeg = -sigma G = sigma gamma (its G is -gamma, above).
    uint256 constant PEDERSEN_GSIGMANEG_X_1 = {{.GSigmaNeg.X1}};
    uint256 constant PEDERSEN_GSIGMANEG_X_0 = {{.GSigmaNeg.X0}};
    uint256 constant PEDERSEN_GSIGMANEG_Y_1 = {{.GSigmaNeg.Y1}};
    uint256 constant PEDERSEN_GSIGMANEG_Y_0 = {{.GSigmaNeg.Y0}};

    // Public-input points: K0 (the constant 1), one per input, and K_h for the commitment's hash h.
    uint256 constant CONSTANT_X = {{.K0.X}};
    uint256 constant CONSTANT_Y = {{.K0.Y}};
{{- range $i, $p := .Pub}}
    uint256 constant PUB_{{$i}}_X = {{$p.X}};
    uint256 constant PUB_{{$i}}_Y = {{$p.Y}};
{{- end}}
    uint256 constant COMMITMENT_HASH_X = {{.KH.X}};
    uint256 constant COMMITMENT_HASH_Y = {{.KH.Y}};

    /// Verify a Groth16 proof with one BSB22 commitment (gnark v0.14, keccak256 as the
    /// commitment's hash-to-field: the prover's solidity.WithProverTargetSolidityVerifier).
    /// @notice Reverts on an invalid proof; returns nothing.
    /// @param proof A, B, C in EIP-197 order: A.x, A.y, B.x.a1, B.x.a0, B.y.a1, B.y.a0, C.x, C.y.
    /// @param commitments the BSB22 Pedersen commitment Com (x, y).
    /// @param commitmentPok its proof of knowledge Pok (x, y).
    /// @param input the public inputs, each below R.
    function verifyProof(
        uint256[8] calldata proof,
        uint256[2] calldata commitments,
        uint256[2] calldata commitmentPok,
        uint256[{{.N}}] calldata input
    ) external view {
        // Assembly below: the arguments are read straight from calldata and the precompiles'
        // inputs are written into scratch memory above the free memory pointer (which is never
        // advanced: nothing here outlives the call), avoiding Solidity's memory copies of the
        // calldata arrays. Every scratch area is written before it is read.

        // 1. Every public input is a canonical scalar: ecMul would take it mod the group order,
        //    and another word for the same scalar would make another calldata for one statement.
        bool inField = true;
        assembly ("memory-safe") {
{{- range $i, $p := .Pub}}
            inField := and(inField, lt(calldataload(add(input, {{off $i}})), R))
{{- end}}
        }
        if (!inField) revert PublicInputNotInField();

        // 2. h, the commitment's hash to a scalar, exactly as gnark's template and prover:
        //    uint256(keccak256(abi.encodePacked(Com.x, Com.y, the inputs Com commits to))) % R.
        //    ({{len .Hashed}} committed inputs for this key.)
        uint256 h;
        assembly ("memory-safe") {
            let f := mload(0x40)
            calldatacopy(f, commitments, 0x40)
{{- range .Hashed}}
            mstore(add(f, {{.Mem}}), calldataload(add(input, {{.Input}})))
{{- end}}
            h := mod(keccak256(f, {{.HashLen}}), R)
        }

        // 3. rho = uint256(keccak256(abi.encodePacked(proof, commitments, commitmentPok, input))) % R:
        //    a hash of every word the prover sent (static arrays: encodePacked is their 32-byte
        //    words in order, copied here from calldata).
        uint256 rho;
        assembly ("memory-safe") {
            let f := mload(0x40)
            calldatacopy(f, proof, 0x100)
            calldatacopy(add(f, 0x100), commitments, 0x40)
            calldatacopy(add(f, 0x140), commitmentPok, 0x40)
            calldatacopy(add(f, 0x180), input, {{.InputLen}})
            rho := mod(keccak256(f, {{.RhoLen}}), R)
        }
        if (rho == 0) revert ZeroBatchingScalar();

        // 4. The pairing input (5 pairs of 0xc0 bytes at p) and the check.
        //    Pair 0: (A, B); 1: (C, -delta); 2: (alpha, -beta); 3: (L {{if .PokNeg}}-{{else}}+{{end}} rho Pok, -gamma);
        //    4: (rho Com, GSigmaNeg). L {{if .PokNeg}}-{{else}}+{{end}} rho Pok is accumulated at s (after the pairs): each
        //    ecMul writes its product just after the running sum, so that one ecAdd of the 0x80
        //    bytes at s adds it (as gnark's template does).
        bool pointsOk;
        bool pairingOk;
        assembly ("memory-safe") {
            let p := mload(0x40)
            let s := add(p, 0x3c0)

            // Pair 4's G1 point: rho Com. ecMul also checks that Com is a canonical curve point.
            calldatacopy(s, commitments, 0x40)
            mstore(add(s, 0x40), rho)
            pointsOk := staticcall(gas(), PRECOMPILE_MUL, s, 0x60, add(p, 0x300), 0x40)
            // The running sum starts as {{if .PokNeg}}-rho Pok = (R - rho) Pok (G = gamma){{else}}rho Pok{{end}} (and ecMul checks Pok).
            calldatacopy(s, commitmentPok, 0x40)
            mstore(add(s, 0x40), {{if .PokNeg}}sub(R, rho){{else}}rho{{end}})
            pointsOk := and(pointsOk, staticcall(gas(), PRECOMPILE_MUL, s, 0x60, s, 0x40))
            // Refuse an invalid Com or Pok now: a failing precompile consumes all the gas it was
            // given (63/64 of what is left), so the error must be raised before another call.
            if iszero(pointsOk) {
                mstore(0, shl(224, INVALID_POINT_SELECTOR))
                revert(0, 4)
            }

            // + Com
            calldatacopy(add(s, 0x40), commitments, 0x40)
            pointsOk := staticcall(gas(), PRECOMPILE_ADD, s, 0x80, s, 0x40)
            // + K0
            mstore(add(s, 0x40), CONSTANT_X)
            mstore(add(s, 0x60), CONSTANT_Y)
            pointsOk := and(pointsOk, staticcall(gas(), PRECOMPILE_ADD, s, 0x80, s, 0x40))
{{- range $i, $p := .Pub}}
            // + input[{{$i}}] K_{{$i}}
            mstore(add(s, 0x40), PUB_{{$i}}_X)
            mstore(add(s, 0x60), PUB_{{$i}}_Y)
            mstore(add(s, 0x80), calldataload(add(input, {{off $i}})))
            pointsOk := and(pointsOk, staticcall(gas(), PRECOMPILE_MUL, add(s, 0x40), 0x60, add(s, 0x40), 0x40))
            pointsOk := and(pointsOk, staticcall(gas(), PRECOMPILE_ADD, s, 0x80, s, 0x40))
{{- end}}
            // + h K_h: the sum is now L {{if .PokNeg}}-{{else}}+{{end}} rho Pok, written straight into pair 3's G1 slot.
            mstore(add(s, 0x40), COMMITMENT_HASH_X)
            mstore(add(s, 0x60), COMMITMENT_HASH_Y)
            mstore(add(s, 0x80), h)
            pointsOk := and(pointsOk, staticcall(gas(), PRECOMPILE_MUL, add(s, 0x40), 0x60, add(s, 0x40), 0x40))
            pointsOk := and(pointsOk, staticcall(gas(), PRECOMPILE_ADD, s, 0x80, add(p, 0x240), 0x40))
            // (These calls add valid points: they fail only when out of gas.)

            // Pair 0 (A, B) and pair 1's G1 point C: the proof's 8 words, already in EIP-197 order.
            calldatacopy(p, proof, 0x100)
            // Pair 1's -delta.
            mstore(add(p, 0x100), DELTA_NEG_X_1)
            mstore(add(p, 0x120), DELTA_NEG_X_0)
            mstore(add(p, 0x140), DELTA_NEG_Y_1)
            mstore(add(p, 0x160), DELTA_NEG_Y_0)
            // Pair 2: (alpha, -beta).
            mstore(add(p, 0x180), ALPHA_X)
            mstore(add(p, 0x1a0), ALPHA_Y)
            mstore(add(p, 0x1c0), BETA_NEG_X_1)
            mstore(add(p, 0x1e0), BETA_NEG_X_0)
            mstore(add(p, 0x200), BETA_NEG_Y_1)
            mstore(add(p, 0x220), BETA_NEG_Y_0)
            // Pair 3's -gamma (its G1 point L {{if .PokNeg}}-{{else}}+{{end}} rho Pok is at p + 0x240).
            mstore(add(p, 0x280), GAMMA_NEG_X_1)
            mstore(add(p, 0x2a0), GAMMA_NEG_X_0)
            mstore(add(p, 0x2c0), GAMMA_NEG_Y_1)
            mstore(add(p, 0x2e0), GAMMA_NEG_Y_0)
            // Pair 4's GSigmaNeg (its G1 point rho Com is at p + 0x300).
            mstore(add(p, 0x340), PEDERSEN_GSIGMANEG_X_1)
            mstore(add(p, 0x360), PEDERSEN_GSIGMANEG_X_0)
            mstore(add(p, 0x380), PEDERSEN_GSIGMANEG_Y_1)
            mstore(add(p, 0x3a0), PEDERSEN_GSIGMANEG_Y_0)

            // The one pairing call. The output word is cleared first, so that a call that
            // returns nothing (no precompile at 0x08) cannot leave an old 1 there.
            mstore(s, 0)
            pairingOk := staticcall(gas(), PRECOMPILE_PAIRING, p, 0x3c0, s, 0x20)
            pairingOk := and(pairingOk, eq(mload(s), 1))
        }
        if (!pointsOk) revert InvalidPoint();
        if (!pairingOk) revert ProofInvalid();
    }
}
`
