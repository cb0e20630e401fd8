package main

// The shared-G2 commitment keys and the batched verifier's native twin.
//
// gnark's (v0.14, v0.16) Groth16 proof with one BSB22 commitment carries the
// commitment Com and a proof of knowledge Pok of its opening; gnark's
// verifier checks two pairing equations:
//
//	Groth16:  e(A, B) e(C, -δ) e(α, -β) e(L, -γ) == 1,
//	          L = K0 + Σ input_i K_(i+1) + h K_(N+1) + Com, h = keccak256(Com, committed inputs) mod r
//	PoK:      e(Com, GSigmaNeg) e(Pok, G) == 1   (Pedersen key: G random in G2, GSigmaNeg = -σ G)
//
// With the Pedersen key's G set to -γ (shareCommitmentG2) both equations
// have a pair with -γ, and the verifier checks them together with one
// 5-pair pairing (Groth16Verifier.sol, VerifyBatched):
//
//	e(A, B) e(C, -δ) e(α, -β) e(L + ρ Pok, -γ) e(ρ Com, GSigmaNeg) == 1
//	  = [Groth16 product] · [PoK product]^ρ,
//	ρ = keccak256(proof, commitments, commitmentPok, input) mod r, refused when 0.
//
// Soundness of the batching: the two products X (Groth16) and Y (PoK) lie
// in the order-r subgroup of GT (r prime; the pairing precompile checks B
// and the G2 constants are in G2, and G1 has cofactor 1). If Y != 1 it
// generates that subgroup, so X·Y^ρ == 1 for exactly one ρ mod r, namely
// ρ* = -log_Y(X), which is fixed by the calldata (X and Y depend only on A,
// B, C, Com, Pok and the inputs, L and h being functions of them). ρ is
// keccak256 of that same calldata, so, keccak256 modelled as a random
// oracle, each calldata a prover tries hits its own ρ* with probability at
// most ⌈2^256/r⌉/2^256 < 6/2^256 (about 2^-253): a proof whose PoK equation
// fails is accepted with probability negligible in the number of hashes
// tried. If Y == 1 the check is exactly X == 1. An honest proof has X = Y =
// 1 and passes for every ρ. ρ = 0 would drop the PoK factor; it is refused
// (it also happens with probability about 2^-253).
//
// Sharing G2 (why -γ does not weaken the setup; a sketch in the algebraic
// group model, not a proof): the PoK equation with G = -γ reads
// e(Pok - σ Com, γ) = 1, i.e. Pok = σ Com, the same relation as with gnark's
// random G. The only new elements of the setup are multiples of σ: [σ P_j]_1
// (the Pedersen basis P_j raised to σ, as in gnark) and [σγ]_2 = GSigmaNeg (in
// place of gnark's [τ]_2 and [στ]_2 for a random τ). Treating σ as an
// independent indeterminate, Pok = σ Com forces Com into the span of the
// basis P_j (as in gnark), and the σ-free part of the Groth16 equation must
// hold on its own: it is the equation of gnark's commitment-carrying Groth16
// over exactly gnark's σ-free setup elements (sharing -γ adds no σ-free
// element, whereas gnark's random G adds [τ]_2), so its knowledge argument
// is unchanged.
//
// gnark's mpcsetup ceremony (ceremony.go) gives G = +γ instead, with σ
// contributed like δ. Then e(ρ Pok, γ) = e(-ρ Pok, -γ), and the verifier
// checks
//
//	e(A, B) e(C, -δ) e(α, -β) e(L - ρ Pok, -γ) e(ρ Com, GSigmaNeg) == 1,
//
// the same product X·Y^ρ (Y = e(Com, GSigmaNeg) e(Pok, γ), gnark's own PoK
// equation for that key), so the batching argument above holds word for
// word; the keys are used as the ceremony made them (no re-keying, so the
// ceremony's transcript is what vouches for them). batchedKey.PokNeg selects
// the sign; the contract multiplies Pok by R - ρ.

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/pedersen"
	"github.com/consensys/gnark/backend/groth16"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"golang.org/x/crypto/sha3"
)

// shareCommitmentG2 replaces the proving and verifying keys' commitment
// keys by new ones over the same bases whose G2 point G is -γ (the
// negation of the Groth16 key's γ): pedersen.Setup on each proving key's
// Basis with pedersen.WithG2Point(-γ), one call per commitment as gnark's
// setup does (so each commitment has its own σ). σ is read from
// crypto/rand.Reader (the seeded stream during a seeded setup). Nothing
// else in gnark's keys derives from the commitment keys (the verifying
// key's precomputed e(α, β), -δ and -γ do not). It returns the original
// keys, for checks that they no longer verify.
func shareCommitmentG2(pk groth16.ProvingKey, vk groth16.VerifyingKey) ([]pedersen.ProvingKey, []pedersen.VerifyingKey, error) {
	pkb, ok := pk.(*groth16bn254.ProvingKey)
	if !ok {
		return nil, nil, fmt.Errorf("proving key of type %T, want BN254", pk)
	}
	vkb, ok := vk.(*groth16bn254.VerifyingKey)
	if !ok {
		return nil, nil, fmt.Errorf("verifying key of type %T, want BN254", vk)
	}
	if len(pkb.CommitmentKeys) != len(vkb.CommitmentKeys) {
		return nil, nil, fmt.Errorf("%d proving and %d verifying commitment keys", len(pkb.CommitmentKeys), len(vkb.CommitmentKeys))
	}
	var g bn254.G2Affine
	g.Neg(&vkb.G2.Gamma)
	origPK, origVK := pkb.CommitmentKeys, vkb.CommitmentKeys
	newPK := make([]pedersen.ProvingKey, len(origPK))
	newVK := make([]pedersen.VerifyingKey, len(origVK))
	for i := range origPK {
		p, v, err := pedersen.Setup([][]bn254.G1Affine{origPK[i].Basis}, pedersen.WithG2Point(g))
		if err != nil {
			return nil, nil, err
		}
		newPK[i], newVK[i] = p[0], v
	}
	pkb.CommitmentKeys, vkb.CommitmentKeys = newPK, newVK
	return origPK, origVK, nil
}

// The batched verifier's failures, one for each custom error of
// Groth16Verifier.sol.
var (
	errPublicInputNotInField = errors.New("PublicInputNotInField: a public input is not below r")
	errInvalidPoint          = errors.New("InvalidPoint: the commitment or its proof of knowledge is not a canonical point of G1 (ecAdd/ecMul fail)")
	errZeroBatchingScalar    = errors.New("ZeroBatchingScalar: the batching scalar is 0")
	errProofInvalid          = errors.New("ProofInvalid: the pairing precompile fails or the 5-pair product is not 1")
)

// proofWords are the uint256 arguments of verifyProof (gnark's and ours):
// proof = A.x, A.y, B.x.a1, B.x.a0, B.y.a1, B.y.a0, C.x, C.y (EIP-197
// order), commitments = Com.x, Com.y, commitmentPok = Pok.x, Pok.y, input =
// the public inputs.
type proofWords struct {
	Proof         [8]*big.Int
	Commitments   [2]*big.Int
	CommitmentPok [2]*big.Int
	Input         []*big.Int
}

// words parses a solidityCall's decimal words (one commitment).
func (c *solidityCall) words() (*proofWords, error) {
	if len(c.Proof) != 8 || len(c.Commitments) != 2 || len(c.CommitmentPok) != 2 {
		return nil, fmt.Errorf("proof of %d words, %d commitment words, %d proof-of-knowledge words: want 8, 2, 2",
			len(c.Proof), len(c.Commitments), len(c.CommitmentPok))
	}
	parse := func(s string) (*big.Int, error) {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok || v.Sign() < 0 || v.BitLen() > 256 {
			return nil, fmt.Errorf("%q is not a uint256", s)
		}
		return v, nil
	}
	w := &proofWords{}
	var err error
	for i, s := range c.Proof {
		if w.Proof[i], err = parse(s); err != nil {
			return nil, err
		}
	}
	for i := range 2 {
		if w.Commitments[i], err = parse(c.Commitments[i]); err != nil {
			return nil, err
		}
		if w.CommitmentPok[i], err = parse(c.CommitmentPok[i]); err != nil {
			return nil, err
		}
	}
	for _, s := range c.Input {
		v, err := parse(s)
		if err != nil {
			return nil, err
		}
		w.Input = append(w.Input, v)
	}
	return w, nil
}

// clone is a deep copy (for changing one word).
func (w *proofWords) clone() *proofWords {
	c := &proofWords{}
	for i := range w.Proof {
		c.Proof[i] = new(big.Int).Set(w.Proof[i])
	}
	for i := range 2 {
		c.Commitments[i] = new(big.Int).Set(w.Commitments[i])
		c.CommitmentPok[i] = new(big.Int).Set(w.CommitmentPok[i])
	}
	for _, v := range w.Input {
		c.Input = append(c.Input, new(big.Int).Set(v))
	}
	return c
}

// packed is abi.encodePacked(proof, commitments, commitmentPok, input): the
// words, 32 bytes big-endian each, in that order (all static uint256 arrays).
func (w *proofWords) packed() []byte {
	var out []byte
	add := func(v *big.Int) {
		var b [32]byte
		v.FillBytes(b[:])
		out = append(out, b[:]...)
	}
	for _, v := range w.Proof {
		add(v)
	}
	for _, v := range w.Commitments {
		add(v)
	}
	for _, v := range w.CommitmentPok {
		add(v)
	}
	for _, v := range w.Input {
		add(v)
	}
	return out
}

func keccak256(data []byte) []byte {
	h := sha3.NewLegacyKeccak256()
	h.Write(data)
	return h.Sum(nil)
}

// batchingScalar is ρ = uint256(keccak256(abi.encodePacked(proof,
// commitments, commitmentPok, input))) mod r.
func batchingScalar(w *proofWords) *big.Int {
	rho := new(big.Int).SetBytes(keccak256(w.packed()))
	return rho.Mod(rho, fr.Modulus())
}

// batchedKey is what Groth16Verifier.sol holds: the Groth16 key with -β, -δ,
// -γ, the Pedersen key's GSigmaNeg (its G being -γ), the public-input points
// K[0] (constant), K[1..N] (inputs), K[N+1] (the commitment's hash), and the
// public inputs hashed with the commitment (1-based indices into input).
type batchedKey struct {
	Alpha                                  bn254.G1Affine
	BetaNeg, DeltaNeg, GammaNeg, GSigmaNeg bn254.G2Affine
	K                                      []bn254.G1Affine
	Committed                              []int
	// PokNeg: the Pedersen key's G is +γ (gnark's mpcsetup ceremony), not
	// -γ (shareCommitmentG2). Then e(ρ Pok, G) = e(-ρ Pok, -γ), so -ρ Pok
	// joins L in the pair with -γ: the same product X · Y^ρ, no re-keying.
	PokNeg bool
}

// newBatchedKey checks that vk has exactly one commitment whose Pedersen G
// is -γ (a shared-G2 setup) and that the public inputs its hash reads are
// statement inputs, and extracts the batched verifier's constants.
func newBatchedKey(vk groth16.VerifyingKey) (*batchedKey, error) {
	v, ok := vk.(*groth16bn254.VerifyingKey)
	if !ok {
		return nil, fmt.Errorf("verifying key of type %T, want BN254", vk)
	}
	if len(v.CommitmentKeys) != 1 || len(v.PublicAndCommitmentCommitted) != 1 {
		return nil, fmt.Errorf("the batched verifier needs exactly one BSB22 commitment; the key has %d (%d hashed lists)",
			len(v.CommitmentKeys), len(v.PublicAndCommitmentCommitted))
	}
	k := &batchedKey{Alpha: v.G1.Alpha, K: append([]bn254.G1Affine(nil), v.G1.K...)}
	k.BetaNeg.Neg(&v.G2.Beta)
	k.DeltaNeg.Neg(&v.G2.Delta)
	k.GammaNeg.Neg(&v.G2.Gamma)
	switch g := &v.CommitmentKeys[0].G; {
	case g.Equal(&k.GammaNeg): // shareCommitmentG2
	case g.Equal(&v.G2.Gamma): // gnark's mpcsetup
		k.PokNeg = true
	default:
		return nil, errors.New("the Pedersen key's G is neither -γ (program-prove -shared-g2) nor γ (a ceremony): gnark's random G needs a pair of its own")
	}
	k.GSigmaNeg = v.CommitmentKeys[0].GSigmaNeg
	if len(k.K) < 2 {
		return nil, fmt.Errorf("%d public-input points, want at least 2", len(k.K))
	}
	n := len(k.K) - 2 // statement inputs
	for _, idx := range v.PublicAndCommitmentCommitted[0] {
		if idx < 1 || idx > n {
			return nil, fmt.Errorf("the commitment hashes public wire %d, not a statement input (1..%d)", idx, n)
		}
		k.Committed = append(k.Committed, idx)
	}
	return k, nil
}

// NumInputs is the number of statement inputs (input's length).
func (k *batchedKey) NumInputs() int { return len(k.K) - 2 }

// commitmentHash is h = uint256(keccak256(abi.encodePacked(Com.x, Com.y,
// the committed inputs))) mod r: gnark's template's hash and its prover's
// with solidity.WithProverTargetSolidityVerifier (keccak256 of the
// commitment's 64-byte uncompressed encoding and the committed public
// inputs, read as a big-endian integer mod r).
func (k *batchedKey) commitmentHash(w *proofWords) *big.Int {
	data := w.packedCommitments()
	for _, idx := range k.Committed {
		var b [32]byte
		w.Input[idx-1].FillBytes(b[:])
		data = append(data, b[:]...)
	}
	h := new(big.Int).SetBytes(keccak256(data))
	return h.Mod(h, fr.Modulus())
}

func (w *proofWords) packedCommitments() []byte {
	var b [64]byte
	w.Commitments[0].FillBytes(b[:32])
	w.Commitments[1].FillBytes(b[32:])
	return b[:]
}

// g1 decodes a G1 point as the ecAdd / ecMul / pairing precompiles do:
// both words < p, (0, 0) the identity, otherwise on the curve (G1 has
// cofactor 1).
func g1(x, y *big.Int) (bn254.G1Affine, bool) {
	var p bn254.G1Affine
	if x.Cmp(fp.Modulus()) >= 0 || y.Cmp(fp.Modulus()) >= 0 {
		return p, false
	}
	p.X.SetBigInt(x)
	p.Y.SetBigInt(y)
	return p, p.IsOnCurve()
}

// g2 decodes a G2 point as the pairing precompile does (EIP-197: words
// x.a1, x.a0, y.a1, y.a0, each < p; all zero the identity; otherwise on the
// twist and in the order-r subgroup).
func g2(x1, x0, y1, y0 *big.Int) (bn254.G2Affine, bool) {
	var q bn254.G2Affine
	for _, v := range []*big.Int{x1, x0, y1, y0} {
		if v.Cmp(fp.Modulus()) >= 0 {
			return q, false
		}
	}
	q.X.A1.SetBigInt(x1)
	q.X.A0.SetBigInt(x0)
	q.Y.A1.SetBigInt(y1)
	q.Y.A0.SetBigInt(y0)
	if q.IsInfinity() {
		return q, true
	}
	return q, q.IsOnCurve() && q.IsInSubGroup()
}

func mul(p *bn254.G1Affine, s *big.Int) bn254.G1Affine {
	var r bn254.G1Affine
	r.ScalarMultiplication(p, s)
	return r
}

// batchedParts are the points of the 5-pair check.
type batchedParts struct {
	A, C, Com, Pok, L bn254.G1Affine
	B                 bn254.G2Affine
	H, Rho            *big.Int
}

// parts runs the checks of Groth16Verifier.sol up to the pairing, in its
// order, and returns the points it pairs.
func (k *batchedKey) parts(w *proofWords) (*batchedParts, error) {
	if len(w.Input) != k.NumInputs() {
		return nil, fmt.Errorf("%d inputs, the key has %d", len(w.Input), k.NumInputs())
	}
	for _, v := range w.Input {
		if v.Cmp(fr.Modulus()) >= 0 {
			return nil, errPublicInputNotInField
		}
	}
	bp := &batchedParts{H: k.commitmentHash(w), Rho: batchingScalar(w)}
	if bp.Rho.Sign() == 0 {
		return nil, errZeroBatchingScalar
	}
	var ok bool
	if bp.Com, ok = g1(w.Commitments[0], w.Commitments[1]); !ok {
		return nil, errInvalidPoint
	}
	if bp.Pok, ok = g1(w.CommitmentPok[0], w.CommitmentPok[1]); !ok {
		return nil, errInvalidPoint
	}
	// L = K0 + Com + Σ input_i K_(i+1) + h K_(N+1)
	var l bn254.G1Jac
	l.FromAffine(&k.K[0])
	l.AddMixed(&bp.Com)
	for i, v := range w.Input {
		t := mul(&k.K[i+1], v)
		l.AddMixed(&t)
	}
	t := mul(&k.K[len(k.K)-1], bp.H)
	l.AddMixed(&t)
	bp.L.FromJacobian(&l)
	if bp.A, ok = g1(w.Proof[0], w.Proof[1]); !ok {
		return nil, errProofInvalid
	}
	if bp.B, ok = g2(w.Proof[2], w.Proof[3], w.Proof[4], w.Proof[5]); !ok {
		return nil, errProofInvalid
	}
	if bp.C, ok = g1(w.Proof[6], w.Proof[7]); !ok {
		return nil, errProofInvalid
	}
	return bp, nil
}

// VerifyBatched is the native twin of Groth16Verifier.sol's verifyProof:
// the same checks in the same order, the same errors, and the one 5-pair
// pairing check e(A, B) e(C, -δ) e(α, -β) e(L ± ρ Pok, -γ) e(ρ Com, GSigmaNeg) == 1
// (+ for G = -γ, - for G = γ: pokScalar).
func (k *batchedKey) VerifyBatched(w *proofWords) error {
	bp, err := k.parts(w)
	if err != nil {
		return err
	}
	var lp bn254.G1Affine
	rp := mul(&bp.Pok, k.pokScalar(bp.Rho))
	lp.Add(&bp.L, &rp)
	rc := mul(&bp.Com, bp.Rho)
	ok, err := bn254.PairingCheck(
		[]bn254.G1Affine{bp.A, bp.C, k.Alpha, lp, rc},
		[]bn254.G2Affine{bp.B, k.DeltaNeg, k.BetaNeg, k.GammaNeg, k.GSigmaNeg})
	if err != nil || !ok {
		return errProofInvalid
	}
	return nil
}

// pokScalar is what Pok is multiplied by before it joins L: ρ when G = -γ,
// r - ρ (that is -ρ; ρ != 0) when G = γ.
func (k *batchedKey) pokScalar(rho *big.Int) *big.Int {
	if k.PokNeg {
		return new(big.Int).Sub(fr.Modulus(), rho)
	}
	return rho
}

// g is the Pedersen key's G: -γ, or γ (PokNeg).
func (k *batchedKey) g() bn254.G2Affine {
	if k.PokNeg {
		var g bn254.G2Affine
		return *g.Neg(&k.GammaNeg)
	}
	return k.GammaNeg
}

// equations reports the two equations apart (diagnostics and tests): the
// Groth16 equation e(A, B) e(C, -δ) e(α, -β) e(L, -γ) == 1 and the PoK
// equation e(Com, GSigmaNeg) e(Pok, G) == 1.
func (k *batchedKey) equations(w *proofWords) (groth16Holds, pokHolds bool, err error) {
	bp, err := k.parts(w)
	if err != nil {
		return false, false, err
	}
	if groth16Holds, err = bn254.PairingCheck(
		[]bn254.G1Affine{bp.A, bp.C, k.Alpha, bp.L},
		[]bn254.G2Affine{bp.B, k.DeltaNeg, k.BetaNeg, k.GammaNeg}); err != nil {
		return
	}
	pokHolds, err = bn254.PairingCheck([]bn254.G1Affine{bp.Com, bp.Pok}, []bn254.G2Affine{k.GSigmaNeg, k.g()})
	return
}
