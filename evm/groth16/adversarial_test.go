package main

// Adversarial hints: a forger runs gnark's solver with hints of its own
// choosing (solver.OverrideHint). A sound gadget leaves no solution for a
// wrong public output whatever the hints return. Honest-solver tests cannot
// see this: they hand a wrong result to honest hints.

import (
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	frbls "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/algebra/emulated/fields_bn254"
	"github.com/consensys/gnark/std/algebra/emulated/sw_bn254"
	"github.com/consensys/gnark/std/algebra/emulated/sw_emulated"
	sha3hash "github.com/consensys/gnark/std/hash/sha3"
	"github.com/consensys/gnark/std/math/bits"
	"github.com/consensys/gnark/std/math/emulated"
	"github.com/consensys/gnark/std/math/uints"
	"github.com/consensys/gnark/std/rangecheck"
	"github.com/consensys/gnark/test"
)

// msm2Circuit: a 2-term complete MSM whose result is public.
type msm2Circuit struct {
	P   [2]G1
	S   [2]emulated.Element[emulated.BN254Fr]
	Res G1 `gnark:",public"`
}

func (c *msm2Circuit) Define(api frontend.API) error {
	curve, err := sw_emulated.New[emulated.BN254Fp, emulated.BN254Fr](api, sw_emulated.GetBN254Params())
	if err != nil {
		return err
	}
	res, err := curve.MultiScalarMul([]*G1{&c.P[0], &c.P[1]},
		[]*emulated.Element[emulated.BN254Fr]{&c.S[0], &c.S[1]}) // complete: gnark v0.16's default
	if err != nil {
		return err
	}
	curve.AssertIsEqual(res, &c.Res)
	return nil
}

func g1Mul(k int64) bn254.G1Affine {
	_, _, g, _ := bn254.Generators()
	var q bn254.G1Affine
	q.ScalarMultiplication(&g, big.NewInt(k))
	return q
}

// emulatedHint wraps fn as an emulated-field hint (the calling convention of
// sw_emulated's and emulated's hints).
func emulatedHint(fn func(hc emulated.HintContext) error) solver.Hint {
	return func(mod *big.Int, in, out []*big.Int) error {
		return emulated.UnwrapHintContext(mod, in, out, fn)
	}
}

// zeroHint sets every output to 0 (native and emulated): the forger's
// decomposition (u = v = 0 satisfies any linear relation u + s v = 0).
func zeroHint(_ *big.Int, _ []*big.Int, out []*big.Int) error {
	for _, o := range out {
		o.SetUint64(0)
	}
	return nil
}

// pointHint returns q for every point a hint computes: the forger's
// "scalar multiplication".
func pointHint(q bn254.G1Affine) solver.Hint {
	return emulatedHint(func(hc emulated.HintContext) error {
		_, outs := hc.InputsOutputs(hc.EmulatedModuli()[0])
		q.X.BigInt(outs[0])
		q.Y.BigInt(outs[1])
		return nil
	})
}

// bumpHint returns h's honest outputs with the first one plus 1: a wrong
// inverse, a wrong limb, a wrong bit, whatever h computes.
func bumpHint(h solver.Hint) solver.Hint {
	return func(mod *big.Int, in, out []*big.Int) error {
		if err := h(mod, in, out); err != nil {
			return err
		}
		if len(out) > 0 {
			out[0].Add(out[0], big.NewInt(1))
		}
		return nil
	}
}

// hintID is h's ID in the R1CS solver: limbs64HintID for limbs64Hint (called
// under that fixed ID), gnark's derived ID for every other hint.
func hintID(h solver.Hint) solver.HintID {
	if reflect.ValueOf(h).Pointer() == reflect.ValueOf(limbs64Hint).Pointer() {
		return limbs64HintID
	}
	return solver.GetHintID(h)
}

// gadgetHints: every hint of the gadgets the replay circuit uses (emulated
// MSM and unified addition, emulated field arithmetic, the pairing, bit
// decompositions and range checks, our 64-bit limbs, the hashed statement's
// bytes and Keccak).
func gadgetHints() []solver.Hint {
	var hs []solver.Hint
	for _, l := range [][]solver.Hint{{limbs64Hint}, sw_emulated.GetHints(), emulated.GetHints(), bits.GetHints(),
		sw_bn254.GetHints(), fields_bn254.GetHints(), rangecheck.GetHints(), uints.GetHints(), sha3hash.GetHints()} {
		hs = append(hs, l...)
	}
	return hs
}

// hintsCalled solves wit honestly with every hint of hs wrapped by a counter
// and returns the hints that were called.
func hintsCalled(t *testing.T, ccs constraint.ConstraintSystem, wit witness.Witness, hs []solver.Hint) []solver.Hint {
	t.Helper()
	calls := make([]int, len(hs))
	var opts []solver.Option
	for i, h := range hs {
		i, h := i, h
		opts = append(opts, solver.OverrideHint(hintID(h), func(mod *big.Int, in, out []*big.Int) error {
			calls[i]++
			return h(mod, in, out)
		}))
	}
	_ = isSolvedR1CS(ccs, wit, opts...)
	var used []solver.Hint
	for i, h := range hs {
		if calls[i] > 0 {
			used = append(used, h)
		}
	}
	return used
}

// refuseEachHintForged: wit claims a wrong output; each hint of hs, in
// turn, returning all zeros, or its honest outputs with the first bumped,
// must leave it unsolved.
func refuseEachHintForged(t *testing.T, what string, ccs constraint.ConstraintSystem, wit witness.Witness, hs []solver.Hint) {
	t.Helper()
	for _, h := range hs {
		for _, f := range []struct {
			name string
			fn   solver.Hint
		}{{"zero", zeroHint}, {"bump", bumpHint(h)}} {
			if err := isSolvedR1CS(ccs, wit, solver.OverrideHint(hintID(h), f.fn)); err == nil {
				t.Errorf("%s: FORGED with %s returning %s", what, solver.GetHintName(h), f.name)
			}
		}
	}
}

// hintByName finds a hint of hs by its registered name's suffix (gnark names
// hints by their Go path); nil if none.
func hintByName(hs []solver.Hint, suffix string) solver.Hint {
	for _, h := range hs {
		if strings.HasSuffix(solver.GetHintName(h), suffix) {
			return h
		}
	}
	return nil
}

// msmForgerHints: the forger of issue 45. Every scalar decomposition hint
// returns zeros (u = v = 0 satisfies u + s v = 0 for any s) and every
// hinted scalar multiple is q. The decomposition hint is halfGCDEisenstein
// in gnark v0.14.0, rationalReconstructExt in v0.16.1 (v0.16 also checks
// v != 0: the fix).
func msmForgerHints(t *testing.T, q bn254.G1Affine) map[solver.HintID]solver.Hint {
	t.Helper()
	hs := sw_emulated.GetHints()
	forged := map[solver.HintID]solver.Hint{}
	for _, name := range []string{".halfGCDEisenstein", ".rationalReconstructExt", ".rationalReconstruct", ".halfGCD", ".decomposeScalarG1"} {
		if h := hintByName(hs, name); h != nil {
			forged[hintID(h)] = zeroHint
		}
	}
	mul := hintByName(hs, ".scalarMulHint")
	if len(forged) == 0 || mul == nil {
		t.Fatal("sw_emulated's decomposition or scalar multiplication hint not found: the forger needs updating")
	}
	forged[hintID(mul)] = pointHint(q)
	return forged
}

// msmForger: msmForgerHints as solver options.
func msmForger(t *testing.T, q bn254.G1Affine) []solver.Option {
	var opts []solver.Option
	for id, fn := range msmForgerHints(t, q) {
		opts = append(opts, solver.OverrideHint(id, fn))
	}
	return opts
}

func compileR1CS(t *testing.T, c frontend.Circuit) constraint.ConstraintSystem {
	t.Helper()
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, c)
	if err != nil {
		t.Fatal(err)
	}
	return ccs
}

func fullWitness(t *testing.T, a frontend.Circuit) witness.Witness {
	t.Helper()
	w, err := frontend.NewWitness(a, ecc.BN254.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestMSMForgedHints: P = (G, [2]G), s = (7, 11): the true result is [29]G;
// the forger claims [5]G. The forger's hints: every scalar decomposition
// zero, every hinted scalar multiple [5/2]G (two of them add up to [5]G).
// Under gnark v0.14.0 this forgery solves (issue 45); it must not.
func TestMSMForgedHints(t *testing.T) {
	ccs := compileR1CS(t, &msm2Circuit{})
	t.Logf("2-term complete MSM: %d constraints", ccs.GetNbConstraints())
	assign := func(res bn254.G1Affine) witness.Witness {
		return fullWitness(t, &msm2Circuit{
			P:   [2]G1{sw_bn254.NewG1Affine(g1Mul(1)), sw_bn254.NewG1Affine(g1Mul(2))},
			S:   [2]emulated.Element[emulated.BN254Fr]{emulated.ValueOf[emulated.BN254Fr](7), emulated.ValueOf[emulated.BN254Fr](11)},
			Res: sw_bn254.NewG1Affine(res),
		})
	}
	if err := isSolvedR1CS(ccs, assign(g1Mul(29))); err != nil {
		t.Fatalf("honest MSM refused: %v", err)
	}
	if err := isSolvedR1CS(ccs, assign(g1Mul(5))); err == nil {
		t.Fatal("wrong MSM result accepted by honest hints")
	}

	var half fr.Element
	half.SetUint64(2)
	half.Inverse(&half)
	var halfFive fr.Element
	halfFive.SetUint64(5)
	halfFive.Mul(&halfFive, &half)
	_, _, g, _ := bn254.Generators()
	var forged bn254.G1Affine
	forged.ScalarMultiplication(&g, halfFive.BigInt(new(big.Int)))

	err := isSolvedR1CS(ccs, assign(g1Mul(5)), msmForger(t, forged)...)
	if err == nil {
		t.Fatal("FORGED: the 2-term complete MSM proves [5]G for 7 G + 11 [2]G with the forger's hints")
	}
	t.Logf("the forger's hints: refused (%s)", firstLine(err))
	used := hintsCalled(t, ccs, assign(g1Mul(29)), gadgetHints())
	t.Logf("gadget hints called: %s", hintNames(used))
	refuseEachHintForged(t, "2-term MSM claiming [5]G", ccs, assign(g1Mul(5)), used)
}

func firstLine(err error) string { return strings.SplitN(err.Error(), "\n", 2)[0] }

func hintNames(hs []solver.Hint) string {
	var n []string
	for _, h := range hs {
		n = append(n, solver.GetHintName(h)[strings.LastIndex(solver.GetHintName(h), "/")+1:])
	}
	return strings.Join(n, " ")
}

// addUnifiedCircuit: AddUnified(P, Q) with a public result.
type addUnifiedCircuit struct {
	P, Q G1
	Res  G1 `gnark:",public"`
}

func (c *addUnifiedCircuit) Define(api frontend.API) error {
	curve, err := sw_emulated.New[emulated.BN254Fp, emulated.BN254Fr](api, sw_emulated.GetBN254Params())
	if err != nil {
		return err
	}
	curve.AssertIsEqual(curve.AddUnified(&c.P, &c.Q), &c.Res)
	return nil
}

// TestAddUnifiedEndomorphism: P + (-Phi(P)), Phi(x, y) = (w x, y) with w a
// cube root of unity: the case where v0.14's Brier-Joye AddUnified gave
// (0, 0) (its denominator x1^2 + x1 x2 + x2^2 vanishes). The true sum
// solves; (0, 0) is refused, with honest hints and with each hint forged.
func TestAddUnifiedEndomorphism(t *testing.T) {
	p := g1Mul(7)
	// w = b^((q-1)/3) mod q for the first non-cube b: a primitive cube root
	// of unity in Fq
	e := new(big.Int).Div(new(big.Int).Sub(fp.Modulus(), big.NewInt(1)), big.NewInt(3))
	var w fp.Element
	for b := uint64(2); w.IsZero() || w.IsOne(); b++ {
		w.Exp(fp.NewElement(b), e)
	}
	var q bn254.G1Affine
	q.X.Mul(&p.X, &w)
	q.Y.Neg(&p.Y)
	if !q.IsOnCurve() {
		t.Fatal("-Phi(P) not on the curve")
	}
	var sum bn254.G1Affine
	sum.Add(&p, &q)
	ccs := compileR1CS(t, &addUnifiedCircuit{})
	assign := func(res bn254.G1Affine) witness.Witness {
		return fullWitness(t, &addUnifiedCircuit{P: sw_bn254.NewG1Affine(p), Q: sw_bn254.NewG1Affine(q), Res: sw_bn254.NewG1Affine(res)})
	}
	if err := isSolvedR1CS(ccs, assign(sum)); err != nil {
		t.Fatalf("P + (-Phi(P)) refused: %v", err)
	}
	zero := bn254.G1Affine{} // (0, 0)
	if err := isSolvedR1CS(ccs, assign(zero)); err == nil {
		t.Fatal("P + (-Phi(P)) = (0, 0) accepted")
	}
	used := hintsCalled(t, ccs, assign(sum), gadgetHints())
	t.Logf("%d constraints; gadget hints called: %s", ccs.GetNbConstraints(), hintNames(used))
	refuseEachHintForged(t, "AddUnified(P, -Phi(P)) claiming (0, 0)", ccs, assign(zero), used)
}

// replayForged solves the replay circuit of p with the test engine and the
// hints replaced as opts say.
func replayForged(p *Program, a *VerifierCircuit, opts ...test.TestEngineOption) error {
	return test.IsSolved(NewVerifierCircuit(p, VerifierOptions{}), a, ecc.BN254.ScalarField(), opts...)
}

// TestReplayForgedHints: the whole replay circuit of the synthetic program
// (3 MSMs of prover-chosen points, an accumulator from limbs, the pairing)
// with a forged accumulator (or a wrong statement word, which the program's
// native check refuses before any MSM): no forger's hints solve it. The
// forgers: issue 45's (every scalar decomposition zero, every hinted
// multiple G); the true accumulator's multiples swapped in for the forged
// one's (which solves under gnark v0.14.0: README.md, "Adversarial
// hints"); each hint the circuit calls returning zeros; our limb hint
// returning the value + r (non-canonical limbs).
func TestReplayForgedHints(t *testing.T) {
	p := syntheticProgram(t)
	w := SyntheticWitness(p)
	var one fr.Element
	one.SetOne()
	wrongStatement := copyWitness(w)
	wrongStatement.Instances[13].Add(&wrongStatement.Instances[13], &one)
	forgedAcc := copyWitness(w)
	// (A_l', A_r') on the curve, unrelated: e(A_l', 1) != e(A_r', tau)
	q, qr := mulG1(derive("forged accumulator", 0)), mulG1(derive("forged accumulator", 1))
	copy(forgedAcc.Instances[0:3], limbs88Fr(q.X.BigInt(new(big.Int))))
	copy(forgedAcc.Instances[3:6], limbs88Fr(q.Y.BigInt(new(big.Int))))
	copy(forgedAcc.Instances[6:9], limbs88Fr(qr.X.BigInt(new(big.Int))))
	copy(forgedAcc.Instances[9:12], limbs88Fr(qr.Y.BigInt(new(big.Int))))
	claims := map[string]*VerifierCircuit{
		"wrong statement":    NewVerifierAssignment(p, VerifierOptions{}, wrongStatement),
		"forged accumulator": NewVerifierAssignment(p, VerifierOptions{}, forgedAcc),
	}

	// the hints the honest solve calls. gnark's test engine keys its
	// replacements by the function's derived ID (solver.GetHintID), even for
	// a hint called by a fixed ID (limbs64Hint): the R1CS solver's overrides
	// take hintID.
	hs := gadgetHints()
	calls := make([]int, len(hs))
	var count []test.TestEngineOption
	for i, h := range hs {
		i, h := i, h
		count = append(count, test.WithReplacementHint(solver.GetHintID(h), func(mod *big.Int, in, out []*big.Int) error {
			calls[i]++
			return h(mod, in, out)
		}))
	}
	if err := replayForged(p, NewVerifierAssignment(p, VerifierOptions{}, w), count...); err != nil {
		t.Fatalf("honest witness refused: %v", err)
	}
	var used []solver.Hint
	for i, h := range hs {
		if calls[i] > 0 {
			used = append(used, h)
		}
	}
	t.Logf("gadget hints called: %s", hintNames(used))
	if hintByName(used, ".limbs64Hint") == nil || hintByName(used, ".scalarMulHint") == nil {
		t.Fatal("the replay no longer calls limbs64Hint and scalarMulHint: update the forgers")
	}

	_, _, g, _ := bn254.Generators()
	var issue45 []test.TestEngineOption
	for id, fn := range msmForgerHints(t, g) {
		issue45 = append(issue45, test.WithReplacementHint(id, fn))
	}
	// limbs of v + r: congruent, not canonical (4 limbs of 64 bits hold it)
	limbsPlusR := func(mod *big.Int, in, out []*big.Int) error {
		return limbs64Hint(mod, []*big.Int{new(big.Int).Add(in[0], fr.Modulus())}, out)
	}
	for name, a := range claims {
		if err := replayForged(p, a); err == nil {
			t.Errorf("%s: solved with honest hints", name)
		}
		if err := replayForged(p, a, issue45...); err == nil {
			t.Errorf("%s: FORGED with issue 45's hints", name)
		}
		if err := replayForged(p, a, test.WithReplacementHint(solver.GetHintID(limbs64Hint), limbsPlusR)); err == nil {
			t.Errorf("%s: FORGED with limbs of v + r", name)
		}
	}
	for _, h := range used {
		if err := replayForged(p, claims["forged accumulator"], test.WithReplacementHint(solver.GetHintID(h), zeroHint)); err == nil {
			t.Errorf("forged accumulator: FORGED with %s returning zeros", solver.GetHintName(h))
		}
	}

	// The forger that beats gnark v0.14.0 on this circuit: every hinted
	// multiple honest except [1]A_l' := A_l and [1]A_r' := A_r (the true
	// accumulator), so that lhs = A_l + r P2 = tau rhs and the pairing holds
	// for the forged accumulator whatever the challenge r; the scalar
	// decompositions zero (what v0.14.0 let through), or honest.
	trueL, trueR := accumulatorOf(w)
	swap := accumulatorSwapHint(map[bn254.G1Affine]bn254.G1Affine{q: trueL, qr: trueR})
	mulID := hintID(hintByName(sw_emulated.GetHints(), ".scalarMulHint"))
	withZero := []test.TestEngineOption{test.WithReplacementHint(mulID, swap)}
	for id, fn := range msmForgerHints(t, g) {
		if id != mulID {
			withZero = append(withZero, test.WithReplacementHint(id, fn))
		}
	}
	if err := replayForged(p, claims["forged accumulator"], withZero...); err == nil {
		t.Error("forged accumulator: FORGED with the true accumulator's multiples and zero decompositions")
	}
	if err := replayForged(p, claims["forged accumulator"], test.WithReplacementHint(mulID, swap)); err == nil {
		t.Error("forged accumulator: FORGED with the true accumulator's multiples and honest decompositions")
	}
}

// accumulatorOf decodes the synthetic witness's accumulator (A_l, A_r) from
// its 88-bit limbs.
func accumulatorOf(w *Witness) (bn254.G1Affine, bn254.G1Affine) {
	coord := func(l []fr.Element) *big.Int {
		v := new(big.Int)
		for i := len(l) - 1; i >= 0; i-- {
			v.Lsh(v, uint(accLimbBits[i]))
			v.Add(v, l[i].BigInt(new(big.Int)))
		}
		return v
	}
	var a, b bn254.G1Affine
	a.X.SetBigInt(coord(w.Instances[0:3]))
	a.Y.SetBigInt(coord(w.Instances[3:6]))
	b.X.SetBigInt(coord(w.Instances[6:9]))
	b.Y.SetBigInt(coord(w.Instances[9:12]))
	return a, b
}

// accumulatorSwapHint: sw_emulated's scalarMulHint, honest ([s]P) except
// for the points of swap, for which it returns swap[P].
func accumulatorSwapHint(swap map[bn254.G1Affine]bn254.G1Affine) solver.Hint {
	return emulatedHint(func(hc emulated.HintContext) error {
		m := hc.EmulatedModuli()
		base, outs := hc.InputsOutputs(m[0])
		sc, _ := hc.InputsOutputs(m[1])
		var pt bn254.G1Affine
		pt.X.SetBigInt(base[0])
		pt.Y.SetBigInt(base[1])
		res, ok := swap[pt]
		if !ok {
			res.ScalarMultiplication(&pt, sc[0])
		}
		res.X.BigInt(outs[0])
		res.Y.BigInt(outs[1])
		return nil
	})
}

// hashedStatementCircuit: the hashed statement alone (hashed.go).
type hashedStatementCircuit struct {
	Words [2]frontend.Variable
	Hash  frontend.Variable `gnark:",public"`
}

func (c *hashedStatementCircuit) Define(api frontend.API) error {
	h, err := statementKeccakCircuit(api, c.Words[:])
	if err != nil {
		return err
	}
	api.AssertIsEqual(h, c.Hash)
	return nil
}

// TestHashedStatementForgedHints: the public hash of words (1, 2) with the
// words (1, 3), or with word 0 decomposed as the 254 bits of 1 + r (the same
// field element, another byte string), is refused whatever the bit, byte
// and Keccak hints return (each zeroed or bumped in turn).
func TestHashedStatementForgedHints(t *testing.T) {
	ccs := compileR1CS(t, &hashedStatementCircuit{})
	h := statementKeccak([]fr.Element{fr.NewElement(1), fr.NewElement(2)})
	assign := func(w0, w1 uint64, hash fr.Element) witness.Witness {
		return fullWitness(t, &hashedStatementCircuit{Words: [2]frontend.Variable{w0, w1}, Hash: hash})
	}
	if err := isSolvedR1CS(ccs, assign(1, 2, h)); err != nil {
		t.Fatalf("honest hash refused: %v", err)
	}
	wrong := assign(1, 3, h)
	if isSolvedR1CS(ccs, wrong) == nil {
		t.Fatal("another word accepted")
	}
	used := hintsCalled(t, ccs, assign(1, 2, h), gadgetHints())
	t.Logf("%d constraints; gadget hints called: %s", ccs.GetNbConstraints(), hintNames(used))
	refuseEachHintForged(t, "hashed statement of another word", ccs, wrong, used)

	// keccak256 of the 32-byte word 1 + r (not canonical) and 2: a forger
	// decomposing word 0 = 1 as 1 + r would get this hash
	var buf [64]byte
	new(big.Int).Add(big.NewInt(1), fr.Modulus()).FillBytes(buf[:32])
	buf[63] = 2
	var hr fr.Element
	hr.SetBigInt(new(big.Int).SetBytes(keccak256(buf[:])))
	plusR := func(mod *big.Int, in, out []*big.Int) error {
		v := new(big.Int).Set(in[0])
		if v.Cmp(big.NewInt(1)) == 0 && len(out) == 254 {
			v.Add(v, fr.Modulus())
		}
		for i := range out {
			out[i].SetUint64(uint64(v.Bit(i)))
		}
		return nil
	}
	if err := isSolvedR1CS(ccs, assign(1, 2, hr), solver.OverrideHint(hintID(hintByName(bits.GetHints(), ".nBits")), plusR)); err == nil {
		t.Fatal("FORGED: word 1 decomposed as 1 + r hashes to the non-canonical bytes")
	}
}

// TestBLSReplayForgedHints: the replay over BLS12-381's Fr
// (verifier_bls.go: the Plutus wrapper's circuit, BN254's Fr emulated too)
// of the synthetic program, against the forgers TestReplayForgedHints runs on
// the BN254 replay, through gnark's R1CS solver: a forged accumulator is not
// solved with issue 45's hints, with the true accumulator's multiples swapped
// in, with our limb hint returning v + r (r: BLS12-381's, the native
// modulus), or with any hint the honest solve calls returning zeros or its
// honest outputs bumped.
func TestBLSReplayForgedHints(t *testing.T) {
	p := syntheticProgram(t)
	w := SyntheticWitness(p)
	ccs, _, err := compileBLSProgram(p)
	if err != nil {
		t.Fatal(err)
	}
	witnessOf := func(w *Witness) witness.Witness {
		t.Helper()
		a, err := NewBLSVerifierAssignment(p, w)
		if err != nil {
			t.Fatal(err)
		}
		wit, err := frontend.NewWitness(a, ecc.BLS12_381.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		return wit
	}
	honest := witnessOf(w)
	forgedAcc := copyWitness(w)
	q, qr := mulG1(derive("forged accumulator", 0)), mulG1(derive("forged accumulator", 1))
	copy(forgedAcc.Instances[0:3], limbs88Fr(q.X.BigInt(new(big.Int))))
	copy(forgedAcc.Instances[3:6], limbs88Fr(q.Y.BigInt(new(big.Int))))
	copy(forgedAcc.Instances[6:9], limbs88Fr(qr.X.BigInt(new(big.Int))))
	copy(forgedAcc.Instances[9:12], limbs88Fr(qr.Y.BigInt(new(big.Int))))
	forged := witnessOf(forgedAcc)
	if err := isSolvedR1CS(ccs, honest); err != nil {
		t.Fatalf("honest witness refused: %v", err)
	}
	if err := isSolvedR1CS(ccs, forged); err == nil {
		t.Fatal("forged accumulator solved with honest hints")
	}
	used := hintsCalled(t, ccs, honest, gadgetHints())
	t.Logf("%d constraints; gadget hints called: %s", ccs.GetNbConstraints(), hintNames(used))
	if hintByName(used, ".limbs64Hint") == nil || hintByName(used, ".scalarMulHint") == nil {
		t.Fatal("the BLS12-381 replay no longer calls limbs64Hint and scalarMulHint: update the forgers")
	}

	_, _, g, _ := bn254.Generators()
	var issue45 []solver.Option
	for id, fn := range msmForgerHints(t, g) {
		issue45 = append(issue45, solver.OverrideHint(id, fn))
	}
	if err := isSolvedR1CS(ccs, forged, issue45...); err == nil {
		t.Error("forged accumulator: FORGED with issue 45's hints")
	}
	trueL, trueR := accumulatorOf(w)
	swap := accumulatorSwapHint(map[bn254.G1Affine]bn254.G1Affine{q: trueL, qr: trueR})
	mulID := hintID(hintByName(sw_emulated.GetHints(), ".scalarMulHint"))
	if err := isSolvedR1CS(ccs, forged, solver.OverrideHint(mulID, swap)); err == nil {
		t.Error("forged accumulator: FORGED with the true accumulator's multiples")
	}
	limbsPlusR := func(mod *big.Int, in, out []*big.Int) error {
		return limbs64Hint(mod, []*big.Int{new(big.Int).Add(in[0], mod)}, out)
	}
	if err := isSolvedR1CS(ccs, forged, solver.OverrideHint(hintID(limbs64Hint), limbsPlusR)); err == nil {
		t.Error("forged accumulator: FORGED with limbs of v + r")
	}
	refuseEachHintForged(t, "BLS12-381 replay, forged accumulator", ccs, forged, used)
}

// TestBLSHashedStatementForgedHints: the hashed-statement replay over
// BLS12-381 (the Plutus wrapper's circuit with statement_hash keccak256) on
// the synthetic program, through gnark's R1CS solver. The forger keeps the
// true words, under which the replay is satisfied, and claims the hash of
// another statement (word 0 plus 1): refused whatever each hint the honest
// solve calls returns, zeroed or bumped in turn (Keccak among them: sha3's
// permutation is solved by uints' and / xor hints). And the smallest word
// decomposed as itself plus BLS12-381's r, which fits the 255 bits ToBinary
// takes, with the hash of those non-canonical bytes: refused (ToBinary checks
// its decomposition below r).
func TestBLSHashedStatementForgedHints(t *testing.T) {
	p := syntheticProgram(t)
	p.StatementHash = StatementKeccak256
	w := SyntheticWitness(p)
	ccs, _, err := compileBLSProgram(p)
	if err != nil {
		t.Fatal(err)
	}
	witnessOf := func(a *BLSVerifierCircuit) witness.Witness {
		t.Helper()
		wit, err := frontend.NewWitness(a, ecc.BLS12_381.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		return wit
	}
	honest, err := NewBLSVerifierAssignment(p, w)
	if err != nil {
		t.Fatal(err)
	}
	if err := isSolvedR1CS(ccs, witnessOf(honest)); err != nil {
		t.Fatalf("honest witness refused: %v", err)
	}
	words := blsStatementWords(p, w)
	other := blsStatementWords(p, w)
	other[0].Add(other[0], big.NewInt(1))
	claim, _ := NewBLSVerifierAssignment(p, w)
	claim.StatementHash[0] = plutusStatementKeccak(other)
	forged := witnessOf(claim)
	if isSolvedR1CS(ccs, forged) == nil {
		t.Fatal("the hash of another statement solved with honest hints")
	}
	used := hintsCalled(t, ccs, witnessOf(honest), gadgetHints())
	t.Logf("%d constraints; gadget hints called: %s", ccs.GetNbConstraints(), hintNames(used))
	// Keccak's own work is in uints' and / xor hints (sha3 has none).
	for _, name := range []string{".nBits", "uints.andHint", "uints.xorHint"} {
		if hintByName(used, name) == nil {
			t.Fatalf("the hashed replay no longer calls %s: update the forgers", name)
		}
	}
	refuseEachHintForged(t, "BLS12-381 hashed replay, the hash of another statement", ccs, forged, used)

	small := 0
	for k := range words {
		if words[k].Cmp(words[small]) < 0 {
			small = k
		}
	}
	raised := blsStatementWords(p, w)
	raised[small].Add(raised[small], frbls.Modulus())
	if raised[small].BitLen() > 255 {
		t.Fatalf("word %d plus r does not fit 255 bits: pick another word", small)
	}
	claim, _ = NewBLSVerifierAssignment(p, w)
	claim.StatementHash[0] = plutusStatementKeccak(raised)
	fired := 0
	plusR := func(mod *big.Int, in, out []*big.Int) error {
		v := new(big.Int).Set(in[0])
		if v.Cmp(words[small]) == 0 && len(out) == 255 {
			v.Set(raised[small])
			fired++
		}
		for i := range out {
			out[i].SetUint64(uint64(v.Bit(i)))
		}
		return nil
	}
	nBits := solver.OverrideHint(hintID(hintByName(bits.GetHints(), ".nBits")), plusR)
	if err := isSolvedR1CS(ccs, witnessOf(claim), nBits); err == nil {
		t.Fatalf("FORGED: word %d decomposed as itself plus r hashes to the non-canonical bytes", small)
	}
	if fired == 0 {
		t.Fatal("the forger's decomposition was never asked for: the test no longer reaches the hash")
	}
}
