package main

// One circuit type whose parts are switched on by a Shape, so that every
// component, the "all parts" circuit and the small test circuits are the same
// code. The parts share no variables: each takes its own witness, which is what
// makes the component counts add up (and lets the sum be checked against the
// compiled "all parts" circuit). This is a MEASUREMENT of the dominant costs of
// an in-circuit verifier of our outer halo2 proof, NOT a verifier: nothing ties
// the transcript's challenges to the MSM's scalars, the MSM's result to the
// pairing's inputs, or the absorbed limbs to the points.

import (
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/algebra/algopts"
	"github.com/consensys/gnark/std/algebra/emulated/sw_bn254"
	"github.com/consensys/gnark/std/algebra/emulated/sw_emulated"
	"github.com/consensys/gnark/std/math/bits"
	"github.com/consensys/gnark/std/math/emulated"
)

type PairingMode int

const (
	NoPairing PairingMode = iota
	// G2 points as witnesses: lines and the G2 subgroup check computed in circuit.
	PairingVariableG2
	// G2 points as circuit constants ([tau]_2 and -[1]_2 of the key): the lines
	// are computed by emulated arithmetic on constants.
	PairingConstantG2
	// G2 points as circuit constants with their lines precomputed out of circuit
	// (sw_bn254.NewG2AffineFixed used as a constant).
	PairingFixedLines
)

func (m PairingMode) String() string {
	return [...]string{"none", "variable-g2", "constant-g2", "constant-g2-precomputed-lines"}[m]
}

// Shape selects which parts a Circuit contains and how big each is.
type Shape struct {
	Name    string
	Pairing PairingMode // (a) a 2-pair check e(A,[tau]_2) * e(B,-[1]_2) == 1
	// (b) an MSM of MSMTerms terms with full-width scalars; its first
	// MSMConstPoints points are circuit constants (verifying-key commitments).
	MSMTerms       int
	MSMConstPoints int
	// MSMComplete: gnark's complete formulas (v0.16's default, what the
	// replay circuit uses); otherwise algopts.WithIncompleteArithmetic(), the
	// formulas the parts were first measured with (v0.14's default).
	MSMComplete bool
	// (c) points given as 3 x 88-bit limbs per coordinate: limbs range-checked,
	// recomposed into emulated Fq, checked canonical (< q) and on the curve.
	LimbPoints int
	// (d) the Poseidon transcript of the outer proof (see transcriptSchedule).
	Transcript bool
	// (e) a rough native-Fr stand-in for the gate/permutation/lookup identity:
	// IdentityMuls multiplications.
	IdentityMuls int
	// (f) native Fr -> emulated Fr conversions (bit decomposition), which the
	// MSM's scalars (computed natively from challenges) would need.
	ScalarConversions int
	// How the emulated gadgets get their randomness (nocommit.go): gnark's
	// BSB22 commitment (the default), or none.
	Commit CommitMode
}

// The outer proof's transcript, in order: each step absorbs Absorb elements
// then squeezes Squeeze challenges. Step 0 absorbs the key's digest (1), the
// 12 accumulator limbs, the 4 statement words (the public inputs) and the
// advice commitment (6 limbs); then 2 lookup permuted commitments; the
// permutation and lookup products; 3 quotient pieces; 23 evaluations; SHPLONK's
// two opening commitments. 10 points, 23 evaluations, 12 limbs, 4 words, 1
// digest; 9 challenges: theta, beta, gamma, y, x, SHPLONK's x1, x2, x3 and the
// challenge folding the instance accumulator into the proof's.
type tstep struct{ Absorb, Squeeze int }

var transcriptSchedule = []tstep{
	{1 + 12 + 4 + 6, 1}, // theta
	{2 * 6, 2},          // beta, gamma
	{2 * 6, 1},          // y
	{3 * 6, 1},          // x
	{23, 2},             // x1, x2
	{6, 1},              // x3
	{6, 1},              // accumulator folding challenge
}

const (
	statementWords  = 4
	statementOffset = 1 + 12 // the words come after the digest and the limbs
)

func transcriptSizes() (absorbed, squeezed int) {
	for _, s := range transcriptSchedule {
		absorbed += s.Absorb
		squeezed += s.Squeeze
	}
	return
}

type Circuit struct {
	shape Shape

	// (a)
	PairP []sw_bn254.G1Affine // A, B
	PairQ []sw_bn254.G2Affine // only with PairingVariableG2
	// (b)
	MSMPoints  []sw_bn254.G1Affine // the non-constant points
	MSMScalars []sw_bn254.Scalar
	MSMResult  []sw_bn254.G1Affine
	// (c) 6 limbs per point: x0 x1 x2 y0 y1 y2, little-endian 88-bit limbs
	Limbs []frontend.Variable
	// (d)
	Statement  []frontend.Variable `gnark:",public"`
	Absorbed   []frontend.Variable
	Challenges []frontend.Variable
	// (e)
	IdIn  []frontend.Variable
	IdOut []frontend.Variable
	// (f)
	ConvNative   []frontend.Variable
	ConvEmulated []sw_bn254.Scalar
}

// Placeholder returns the circuit definition for compilation.
func (s Shape) Placeholder() *Circuit {
	c := &Circuit{shape: s}
	if s.Pairing != NoPairing {
		c.PairP = make([]sw_bn254.G1Affine, 2)
		if s.Pairing == PairingVariableG2 {
			c.PairQ = make([]sw_bn254.G2Affine, 2)
		}
	}
	if s.MSMTerms > 0 {
		c.MSMPoints = make([]sw_bn254.G1Affine, s.MSMTerms-s.MSMConstPoints)
		c.MSMScalars = make([]sw_bn254.Scalar, s.MSMTerms)
		c.MSMResult = make([]sw_bn254.G1Affine, 1)
	}
	c.Limbs = make([]frontend.Variable, 6*s.LimbPoints)
	if s.Transcript {
		a, q := transcriptSizes()
		c.Statement = make([]frontend.Variable, statementWords)
		c.Absorbed = make([]frontend.Variable, a-statementWords)
		c.Challenges = make([]frontend.Variable, q)
	}
	if s.IdentityMuls > 0 {
		c.IdIn = make([]frontend.Variable, s.IdentityMuls+1)
		c.IdOut = make([]frontend.Variable, 1)
	}
	c.ConvNative = make([]frontend.Variable, s.ScalarConversions)
	c.ConvEmulated = make([]sw_bn254.Scalar, s.ScalarConversions)
	return c
}

// Stand-in verifying-key values: tau (so [tau]_2 is fixed) and the constant
// MSM points (key commitments), derived deterministically.
func standInTau() fr.Element { return derive("stand-in tau", 0) }

func g2Constants() (tauG2, negG2 bn254.G2Affine) {
	_, _, _, g2 := bn254.Generators()
	tau := standInTau()
	tauG2.ScalarMultiplication(&g2, tau.BigInt(new(big.Int)))
	negG2.Neg(&g2)
	return
}

func g1Multiple(label string, i int) bn254.G1Affine {
	_, _, g1, _ := bn254.Generators()
	k := derive(label, i)
	var p bn254.G1Affine
	p.ScalarMultiplication(&g1, k.BigInt(new(big.Int)))
	return p
}

func constMSMPoint(i int) bn254.G1Affine { return g1Multiple("constant msm point", i) }

const limbBits = 88

func (c *Circuit) Define(api frontend.API) error {
	s := c.shape
	api = WrapAPI(api, s.Commit)

	// (a) pairing check e(A, [tau]_2) * e(B, -[1]_2) == 1
	if s.Pairing != NoPairing {
		pr, err := sw_bn254.NewPairing(api)
		if err != nil {
			return err
		}
		var q [2]sw_bn254.G2Affine
		switch s.Pairing {
		case PairingVariableG2:
			q[0], q[1] = c.PairQ[0], c.PairQ[1]
		case PairingConstantG2:
			t, n := g2Constants()
			q[0], q[1] = sw_bn254.NewG2Affine(t), sw_bn254.NewG2Affine(n)
		case PairingFixedLines:
			t, n := g2Constants()
			q[0], q[1] = sw_bn254.NewG2AffineFixed(t), sw_bn254.NewG2AffineFixed(n)
		}
		if err := pr.PairingCheck(
			[]*sw_bn254.G1Affine{&c.PairP[0], &c.PairP[1]},
			[]*sw_bn254.G2Affine{&q[0], &q[1]}); err != nil {
			return err
		}
	}

	var curve *sw_emulated.Curve[emulated.BN254Fp, emulated.BN254Fr]
	getCurve := func() (*sw_emulated.Curve[emulated.BN254Fp, emulated.BN254Fr], error) {
		if curve == nil {
			cv, err := sw_emulated.New[emulated.BN254Fp, emulated.BN254Fr](api, sw_emulated.GetBN254Params())
			if err != nil {
				return nil, err
			}
			curve = cv
		}
		return curve, nil
	}

	// (b) MSM
	if s.MSMTerms > 0 {
		cv, err := getCurve()
		if err != nil {
			return err
		}
		pts := make([]*sw_bn254.G1Affine, s.MSMTerms)
		scs := make([]*sw_bn254.Scalar, s.MSMTerms)
		for i := 0; i < s.MSMTerms; i++ {
			if i < s.MSMConstPoints {
				p := sw_bn254.NewG1Affine(constMSMPoint(i))
				pts[i] = &p
			} else {
				pts[i] = &c.MSMPoints[i-s.MSMConstPoints]
			}
			scs[i] = &c.MSMScalars[i]
		}
		var opts []algopts.AlgebraOption
		if !s.MSMComplete {
			opts = append(opts, algopts.WithIncompleteArithmetic())
		}
		res, err := cv.MultiScalarMul(pts, scs, opts...)
		if err != nil {
			return err
		}
		cv.AssertIsEqual(res, &c.MSMResult[0])
	}

	// (c) points from 88-bit limbs
	if s.LimbPoints > 0 {
		cv, err := getCurve()
		if err != nil {
			return err
		}
		fp, err := emulated.NewField[emulated.BN254Fp](api)
		if err != nil {
			return err
		}
		coord := func(l []frontend.Variable) *emulated.Element[emulated.BN254Fp] {
			var bs []frontend.Variable
			bs = append(bs, bits.ToBinary(api, l[0], bits.WithNbDigits(limbBits))...)
			bs = append(bs, bits.ToBinary(api, l[1], bits.WithNbDigits(limbBits))...)
			// q < 2^254: the top limb has 254 - 176 = 78 bits
			bs = append(bs, bits.ToBinary(api, l[2], bits.WithNbDigits(254-2*limbBits))...)
			e := fp.FromBits(bs...)
			fp.AssertIsInRange(e) // canonical: < q
			return e
		}
		for i := 0; i < s.LimbPoints; i++ {
			l := c.Limbs[6*i : 6*i+6]
			p := sw_bn254.G1Affine{X: *coord(l[0:3]), Y: *coord(l[3:6])}
			cv.AssertIsOnCurve(&p)
		}
	}

	// (d) transcript
	if s.Transcript {
		sp := newSponge[frontend.Variable](circuitArith{api})
		in := transcriptInputsCircuit(c)
		k, q := 0, 0
		for _, st := range transcriptSchedule {
			sp.absorb(in[k : k+st.Absorb]...)
			k += st.Absorb
			for j := 0; j < st.Squeeze; j++ {
				api.AssertIsEqual(sp.squeeze(), c.Challenges[q])
				q++
			}
		}
	}

	// (e) identity stand-in: acc <- acc * x_i + x_{i-1}
	if s.IdentityMuls > 0 {
		acc := c.IdIn[0]
		for i := 1; i <= s.IdentityMuls; i++ {
			acc = api.Add(api.Mul(acc, c.IdIn[i]), c.IdIn[i-1])
		}
		api.AssertIsEqual(acc, c.IdOut[0])
	}

	// (f) native -> emulated scalar conversions
	if s.ScalarConversions > 0 {
		scalars, err := emulated.NewField[emulated.BN254Fr](api)
		if err != nil {
			return err
		}
		for i := 0; i < s.ScalarConversions; i++ {
			e := scalars.FromBits(bits.ToBinary(api, c.ConvNative[i])...)
			scalars.AssertIsEqual(e, &c.ConvEmulated[i])
		}
	}
	return nil
}

func transcriptInputsCircuit(c *Circuit) []frontend.Variable {
	in := make([]frontend.Variable, 0, len(c.Absorbed)+len(c.Statement))
	in = append(in, c.Absorbed[:statementOffset]...)
	in = append(in, c.Statement...)
	in = append(in, c.Absorbed[statementOffset:]...)
	return in
}

func (s Shape) String() string {
	return fmt.Sprintf("%s{pairing=%s msm=%d(const %d) limbpoints=%d transcript=%v idmuls=%d conv=%d commit=%s}",
		s.Name, s.Pairing, s.MSMTerms, s.MSMConstPoints, s.LimbPoints, s.Transcript, s.IdentityMuls, s.ScalarConversions, s.Commit)
}
