package main

// Satisfying (or deliberately wrong) assignments for a Shape. All values are
// derived deterministically (derive()), points are multiples of the generator.

import (
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/algebra/emulated/sw_bn254"
)

// Corruption names one wrong value to put in an assignment (for tests that
// must fail).
type Corruption int

const (
	Honest          Corruption = iota
	WrongMSM                   // the claimed MSM result is off by the generator
	WrongPairing               // B is not tau * A
	WrongLimb                  // a limb point moved off the curve
	WrongChallenge             // a transcript challenge changed
	WrongIdentity              // the identity output changed
	WrongConversion            // an emulated scalar differs from its native value
)

func (s Shape) Assignment(bad Corruption) *Circuit {
	c := s.Placeholder()
	_, _, g1, _ := bn254.Generators()
	one := func() fr.Element { var o fr.Element; o.SetOne(); return o }()

	// (a) A = [a]G, B = [tau*a]G: e(A,[tau]_2) * e(B,-[1]_2) = 1
	if s.Pairing != NoPairing {
		a := derive("pairing a", 0)
		tau := standInTau()
		var ta fr.Element
		ta.Mul(&tau, &a)
		if bad == WrongPairing {
			ta.Add(&ta, &one)
		}
		var A, B bn254.G1Affine
		A.ScalarMultiplication(&g1, a.BigInt(new(big.Int)))
		B.ScalarMultiplication(&g1, ta.BigInt(new(big.Int)))
		c.PairP[0], c.PairP[1] = sw_bn254.NewG1Affine(A), sw_bn254.NewG1Affine(B)
		if s.Pairing == PairingVariableG2 {
			t, n := g2Constants()
			c.PairQ[0], c.PairQ[1] = sw_bn254.NewG2Affine(t), sw_bn254.NewG2Affine(n)
		}
	}

	// (b) MSM
	if s.MSMTerms > 0 {
		var acc bn254.G1Jac
		for i := 0; i < s.MSMTerms; i++ {
			var p bn254.G1Affine
			if i < s.MSMConstPoints {
				p = constMSMPoint(i)
			} else {
				p = g1Multiple("msm point", i)
				c.MSMPoints[i-s.MSMConstPoints] = sw_bn254.NewG1Affine(p)
			}
			k := derive("msm scalar", i)
			c.MSMScalars[i] = sw_bn254.NewScalar(k)
			var t bn254.G1Jac
			t.FromAffine(&p)
			t.ScalarMultiplication(&t, k.BigInt(new(big.Int)))
			acc.AddAssign(&t)
		}
		if bad == WrongMSM {
			var g bn254.G1Jac
			g.FromAffine(&g1)
			acc.AddAssign(&g)
		}
		var r bn254.G1Affine
		r.FromJacobian(&acc)
		c.MSMResult[0] = sw_bn254.NewG1Affine(r)
	}

	// (c) points as 88-bit limbs
	for i := 0; i < s.LimbPoints; i++ {
		p := g1Multiple("limb point", i)
		y := p.Y
		if bad == WrongLimb && i == 0 {
			var o fp.Element
			o.SetOne()
			y.Add(&y, &o)
		}
		for j, l := range limbs88(&p.X) {
			c.Limbs[6*i+j] = l
		}
		for j, l := range limbs88(&y) {
			c.Limbs[6*i+3+j] = l
		}
	}

	// (d) transcript: any inputs, the challenges the reference sponge gives
	if s.Transcript {
		a, _ := transcriptSizes()
		in := make([]fr.Element, a)
		for i := range in {
			in[i] = derive("transcript input", i)
		}
		for i := 0; i < statementOffset; i++ {
			c.Absorbed[i] = in[i]
		}
		for i := 0; i < statementWords; i++ {
			c.Statement[i] = in[statementOffset+i]
		}
		for i := statementOffset + statementWords; i < a; i++ {
			c.Absorbed[i-statementWords] = in[i]
		}
		ch := referenceChallenges(in)
		if bad == WrongChallenge {
			ch[len(ch)-1].Add(&ch[len(ch)-1], &one)
		}
		for i := range ch {
			c.Challenges[i] = ch[i]
		}
	}

	// (e) identity stand-in
	if s.IdentityMuls > 0 {
		x := make([]fr.Element, s.IdentityMuls+1)
		for i := range x {
			x[i] = derive("identity input", i)
			c.IdIn[i] = x[i]
		}
		acc := x[0]
		for i := 1; i <= s.IdentityMuls; i++ {
			acc.Mul(&acc, &x[i]).Add(&acc, &x[i-1])
		}
		if bad == WrongIdentity {
			acc.Add(&acc, &one)
		}
		c.IdOut[0] = acc
	}

	// (f) scalar conversions
	for i := 0; i < s.ScalarConversions; i++ {
		v := derive("conversion", i)
		c.ConvNative[i] = v
		if bad == WrongConversion && i == 0 {
			v.Add(&v, &one)
		}
		c.ConvEmulated[i] = sw_bn254.NewScalar(v)
	}
	return c
}

// limbs88 splits an Fq element into three little-endian 88-bit limbs, as
// snark-verifier's halo2 loader encodes a coordinate.
func limbs88(x *fp.Element) [3]frontend.Variable {
	v := x.BigInt(new(big.Int))
	mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), limbBits), big.NewInt(1))
	var out [3]frontend.Variable
	for i := range out {
		out[i] = new(big.Int).And(new(big.Int).Rsh(v, uint(limbBits*i)), mask)
	}
	return out
}

// referenceChallenges runs the transcript schedule out of circuit.
func referenceChallenges(in []fr.Element) []fr.Element {
	sp := newSponge[fr.Element](frArith{})
	var out []fr.Element
	k := 0
	for _, st := range transcriptSchedule {
		sp.absorb(in[k : k+st.Absorb]...)
		k += st.Absorb
		for j := 0; j < st.Squeeze; j++ {
			out = append(out, sp.squeeze())
		}
	}
	return out
}

// transcriptPermutations is the number of Poseidon permutations the schedule runs.
func transcriptPermutations() int {
	a, _ := transcriptSizes()
	in := make([]fr.Element, a)
	sp := newSponge[fr.Element](frArith{})
	k := 0
	for _, st := range transcriptSchedule {
		sp.absorb(in[k : k+st.Absorb]...)
		k += st.Absorb
		for j := 0; j < st.Squeeze; j++ {
			sp.squeeze()
		}
	}
	return sp.permutations
}
