package main

// Adversarial hints: a forger runs gnark's solver with hints of its own
// choosing (solver.OverrideHint). A sound gadget leaves no solution for a
// wrong public output whatever the hints return. Honest-solver tests cannot
// see this: they hand a wrong result to honest hints.

import (
	"math/big"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/algebra/emulated/sw_bn254"
	"github.com/consensys/gnark/std/algebra/emulated/sw_emulated"
	"github.com/consensys/gnark/std/math/bits"
	"github.com/consensys/gnark/std/math/emulated"
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

// gadgetHints: every hint of the gadgets the replay circuit uses (emulated
// MSM and unified addition, emulated field arithmetic, bit decompositions,
// our 64-bit limbs).
func gadgetHints() []solver.Hint {
	hs := append([]solver.Hint{limbs64Hint}, sw_emulated.GetHints()...)
	hs = append(hs, emulated.GetHints()...)
	return append(hs, bits.GetHints()...)
}

// hintsCalled solves wit honestly with every hint of hs wrapped by a counter
// and returns the hints that were called.
func hintsCalled(t *testing.T, ccs constraint.ConstraintSystem, wit witness.Witness, hs []solver.Hint) []solver.Hint {
	t.Helper()
	calls := make([]int, len(hs))
	var opts []solver.Option
	for i, h := range hs {
		i, h := i, h
		opts = append(opts, solver.OverrideHint(solver.GetHintID(h), func(mod *big.Int, in, out []*big.Int) error {
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
			if err := isSolvedR1CS(ccs, wit, solver.OverrideHint(solver.GetHintID(h), f.fn)); err == nil {
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

// msmForger: the forger of issue 45. Every scalar decomposition hint
// returns zeros (u = v = 0 satisfies u + s v = 0 for any s) and every
// hinted scalar multiple is q. The decomposition hint is halfGCDEisenstein
// in gnark v0.14.0, rationalReconstructExt in v0.16.1 (v0.16 also checks
// v != 0: the fix).
func msmForger(t *testing.T, q bn254.G1Affine) []solver.Option {
	t.Helper()
	hs := sw_emulated.GetHints()
	var opts []solver.Option
	for _, name := range []string{".halfGCDEisenstein", ".rationalReconstructExt", ".rationalReconstruct", ".halfGCD", ".decomposeScalarG1"} {
		if h := hintByName(hs, name); h != nil {
			opts = append(opts, solver.OverrideHint(solver.GetHintID(h), zeroHint))
		}
	}
	mul := hintByName(hs, ".scalarMulHint")
	if len(opts) == 0 || mul == nil {
		t.Fatal("sw_emulated's decomposition or scalar multiplication hint not found: the forger needs updating")
	}
	return append(opts, solver.OverrideHint(solver.GetHintID(mul), pointHint(q)))
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
