package main

// The replay circuit with BLS12-381 as the outer curve (issue 47, Cardano):
// the same recorded program (PROGRAM.md) as VerifierCircuit, compiled over
// BLS12-381's Fr, so BN254's Fr (the program's scalars) is emulated as well
// as its Fq (the points) and the pairing. Each op keeps VerifierCircuit's
// checks; what changes is only how a scalar is held:
//
//   - scalar registers are emulated BN254 Fr elements; `lincomb` is one
//     reduction of a sum of constant products (MulNoReduce, free in R1CS, then
//     Reduce), `mul` an emulated Mul, `inv` an emulated Inverse (unsatisfiable
//     at 0), `assert_eq` an emulated AssertIsEqual;
//   - the public statement is native BLS12-381 Fr variables holding BN254 Fr
//     values: each is split into four range-checked 64-bit limbs whose native
//     sum is the variable, and asserted canonical (< BN254's r), so one
//     statement has one encoding; the other instances and the proof's scalars
//     are emulated witnesses;
//   - a point's encoding (x mod r, y mod r) is its canonical Fq limbs read as
//     an emulated Fr element (congruent mod r: the value x itself);
//   - `point_from_limbs` decomposes each limb canonically and asserts its bits
//     above the limb's width zero.
//
// With a hashed statement (statement_hash keccak256), the words are private
// and the one public input is keccak256 of their 32-byte big-endian words
// read mod BLS12-381's r (plutusStatementKeccak: what the Plutus verifier of a
// key with statement_hash computes); each word is still asserted canonical
// (< BN254's r) where the program reads it.

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/algebra/emulated/sw_bn254"
	"github.com/consensys/gnark/std/algebra/emulated/sw_emulated"
	"github.com/consensys/gnark/std/math/emulated"
)

// frBN254 is an emulated BN254 Fr element.
type frBN254 = emulated.Element[emulated.BN254Fr]

// BLSVerifierCircuit replays a program over BLS12-381's Fr.
type BLSVerifierCircuit struct {
	Program *Program `gnark:"-"`
	// the instances listed in public_instances, in that order: BN254 Fr
	// values, each asserted < BN254's r (empty when the statement is hashed)
	Statement []frontend.Variable `gnark:",public"`
	// with a hashed statement: keccak256 of the words mod BLS12-381's r, the
	// one public input, and the words, private
	StatementHash  []frontend.Variable `gnark:",public"`
	StatementWords []frontend.Variable
	Instances      []frBN254
	ProofScalars   []frBN254
	ProofPoints    []G1
}

// NewBLSVerifierCircuit returns the circuit definition (for compilation).
func NewBLSVerifierCircuit(p *Program) (*BLSVerifierCircuit, error) {
	words, hash := 0, 0
	if p.StatementHash != "" {
		words, hash = len(p.PublicInstances), 1
	}
	return &BLSVerifierCircuit{
		Program:        p,
		Statement:      make([]frontend.Variable, len(p.PublicInstances)-words),
		StatementHash:  make([]frontend.Variable, hash),
		StatementWords: make([]frontend.Variable, words),
		Instances:      make([]frBN254, p.NumInstances-len(p.PublicInstances)),
		ProofScalars:   make([]frBN254, p.NumProofScalars),
		ProofPoints:    make([]G1, p.NumProofPoints),
	}, nil
}

// statement is where the statement's words are: public, or private beside
// their public hash.
func (c *BLSVerifierCircuit) statement() []frontend.Variable {
	if c.Program.StatementHash != "" {
		return c.StatementWords
	}
	return c.Statement
}

// blsStatementWords are the program's statement words of a witness (the
// public instances, in order), as integers.
func blsStatementWords(p *Program, w *Witness) []*big.Int {
	out := make([]*big.Int, len(p.PublicInstances))
	for k, i := range p.PublicInstances {
		out[k] = w.Instances[i].BigInt(new(big.Int))
	}
	return out
}

// NewBLSVerifierAssignment returns the full assignment of a witness.
func NewBLSVerifierAssignment(p *Program, w *Witness) (*BLSVerifierCircuit, error) {
	c, err := NewBLSVerifierCircuit(p)
	if err != nil {
		return nil, err
	}
	for i, v := range w.Instances {
		var b big.Int
		v.BigInt(&b)
		if p.instPublic[i] {
			c.statement()[p.instPos[i]] = &b
		} else {
			c.Instances[p.instPos[i]] = emulated.ValueOf[emulated.BN254Fr](&b)
		}
	}
	for i, v := range w.ProofScalars {
		var b big.Int
		v.BigInt(&b)
		c.ProofScalars[i] = emulated.ValueOf[emulated.BN254Fr](&b)
	}
	for i, q := range w.ProofPoints {
		c.ProofPoints[i] = sw_bn254.NewG1Affine(q)
	}
	if p.StatementHash != "" {
		c.StatementHash[0] = plutusStatementKeccak(blsStatementWords(p, w))
	}
	return c, nil
}

type blsReplay struct {
	api   frontend.API
	c     *BLSVerifierCircuit
	curve *sw_emulated.Curve[emulated.BN254Fp, emulated.BN254Fr]
	fp    *emulated.Field[emulated.BN254Fp]
	fr    *emulated.Field[emulated.BN254Fr]
	s     []*frBN254
	p     []*G1
	enc   map[int][2]*frBN254
	stmt  map[int]*frBN254
}

func (c *BLSVerifierCircuit) Define(api frontend.API) error {
	prog := c.Program
	if prog == nil {
		return errors.New("BLSVerifierCircuit without a program")
	}
	curve, err := sw_emulated.New[emulated.BN254Fp, emulated.BN254Fr](api, sw_emulated.GetBN254Params())
	if err != nil {
		return err
	}
	fpf, err := emulated.NewField[emulated.BN254Fp](api)
	if err != nil {
		return err
	}
	frf, err := emulated.NewField[emulated.BN254Fr](api)
	if err != nil {
		return err
	}
	r := &blsReplay{api: api, c: c, curve: curve, fp: fpf, fr: frf,
		s: make([]*frBN254, 0, prog.NumScalars), p: make([]*G1, 0, prog.NumPoints),
		enc: map[int][2]*frBN254{}, stmt: map[int]*frBN254{}}
	for n := range prog.Ops {
		if err := r.op(&prog.Ops[n]); err != nil {
			return fmt.Errorf("op %d (%s): %w", n, prog.Ops[n].Kind, err)
		}
	}
	if prog.StatementHash != "" {
		// Every word canonical (< BN254's r) whether or not an op read it, so a
		// statement has one byte encoding under the hash.
		for k := range c.StatementWords {
			if _, err := r.statementWord(k); err != nil {
				return err
			}
		}
		h, err := statementKeccakCircuit(api, c.StatementWords)
		if err != nil {
			return err
		}
		api.AssertIsEqual(h, c.StatementHash[0])
	}
	return nil
}

// statementWord is public input k as an emulated BN254 Fr element: four
// range-checked 64-bit limbs whose native sum is the input, canonical.
func (r *blsReplay) statementWord(k int) (*frBN254, error) {
	if e, ok := r.stmt[k]; ok {
		return e, nil
	}
	v := r.c.statement()[k]
	l, err := newLimbs64(r.api, v)
	if err != nil {
		return nil, err
	}
	e := r.fr.NewElement(l) // range-checks each limb to 64 bits
	r.api.AssertIsEqual(r.api.Add(l[0],
		r.api.Mul(l[1], new(big.Int).Lsh(big.NewInt(1), 64)),
		r.api.Mul(l[2], new(big.Int).Lsh(big.NewInt(1), 128)),
		r.api.Mul(l[3], new(big.Int).Lsh(big.NewInt(1), 192))), v)
	// The limbs' integer L < 2^256 equals v or v + r_BLS (>= r_BLS > r_BN254):
	// canonical (< r_BN254) leaves only L = v < r_BN254.
	r.fr.AssertIsInRange(e)
	r.stmt[k] = e
	return e, nil
}

// asFr reads canonical Fq limbs as an emulated Fr element (x mod r).
func (r *blsReplay) asFr(e *emulated.Element[emulated.BN254Fp]) *frBN254 {
	return r.fr.NewElement(e.Limbs)
}

func (r *blsReplay) op(op *Op) error {
	prog, f := r.c.Program, r.fr
	switch op.Kind {
	case OpConst:
		r.s = append(r.s, f.NewElement(new(big.Int).Set(op.V)))
	case OpInstance:
		if prog.instPublic[op.I] {
			e, err := r.statementWord(prog.instPos[op.I])
			if err != nil {
				return err
			}
			r.s = append(r.s, e)
		} else {
			r.s = append(r.s, &r.c.Instances[prog.instPos[op.I]])
		}
	case OpReadScalar:
		r.s = append(r.s, &r.c.ProofScalars[op.I])
	case OpLincomb:
		terms := []*frBN254{f.NewElement(new(big.Int).Set(op.C))}
		for k := range op.Regs {
			terms = append(terms, f.MulNoReduce(f.NewElement(new(big.Int).Set(op.Coeffs[k])), r.s[op.Regs[k]]))
		}
		r.s = append(r.s, f.Reduce(f.Sum(terms...)))
	case OpMul:
		r.s = append(r.s, f.Mul(r.s[op.A], r.s[op.B]))
	case OpInv:
		r.s = append(r.s, f.Inverse(r.s[op.A]))
	case OpAssertEq:
		f.AssertIsEqual(r.s[op.A], r.s[op.B])
	case OpPointConst:
		q := &G1{X: emulated.ValueOf[emulated.BN254Fp](op.X), Y: emulated.ValueOf[emulated.BN254Fp](op.Y)}
		n := len(r.p)
		r.p = append(r.p, q)
		r.enc[n] = [2]*frBN254{f.NewElement(new(big.Int).Set(op.X)), f.NewElement(new(big.Int).Set(op.Y))}
	case OpReadPoint:
		q := &r.c.ProofPoints[op.I]
		r.fp.AssertIsInRange(&q.X)
		r.fp.AssertIsInRange(&q.Y)
		x3 := r.fp.Mul(r.fp.Mul(&q.X, &q.X), &q.X)
		r.fp.AssertIsEqual(r.fp.Mul(&q.Y, &q.Y), r.fp.Add(x3, r.fp.NewElement(3)))
		n := len(r.p)
		r.p = append(r.p, q)
		e := [2]*frBN254{r.asFr(&q.X), r.asFr(&q.Y)}
		r.enc[n] = e
		r.s = append(r.s, e[0], e[1])
	case OpPointFromLimbs:
		var coord [2]*emulated.Element[emulated.BN254Fp]
		for j := 0; j < 2; j++ {
			var bs []frontend.Variable
			for k := 0; k < 3; k++ {
				b := f.ToBitsCanonical(r.s[op.Limbs[3*j+k]])
				for _, hi := range b[accLimbBits[k]:] {
					r.api.AssertIsEqual(hi, 0)
				}
				bs = append(bs, b[:accLimbBits[k]]...)
			}
			coord[j] = r.fp.FromBits(bs...)
			r.fp.AssertIsInRange(coord[j])
		}
		q := &G1{X: *coord[0], Y: *coord[1]}
		r.curve.AssertIsOnCurve(q)
		r.p = append(r.p, q)
	case OpEncodePoint:
		e, ok := r.enc[op.A]
		if !ok {
			q := r.p[op.A]
			x := r.fp.ReduceStrict(&q.X)
			y := r.fp.ReduceStrict(&q.Y)
			r.api.AssertIsDifferent(r.api.Add(y.Limbs[0], y.Limbs[1], y.Limbs[2], y.Limbs[3]), 0)
			e = [2]*frBN254{r.asFr(x), r.asFr(y)}
			r.enc[op.A] = e
		}
		r.s = append(r.s, e[0], e[1])
	case OpMSM:
		pts := make([]*G1, len(op.MSMP))
		scs := make([]*frBN254, len(op.MSMS))
		for k := range op.MSMP {
			pts[k] = r.p[op.MSMP[k]]
			scs[k] = r.s[op.MSMS[k]]
		}
		res, err := r.curve.MultiScalarMul(pts, scs)
		if err != nil {
			return err
		}
		r.p = append(r.p, res)
	case OpPointAssertEq:
		r.curve.AssertIsEqual(r.p[op.A], r.p[op.B])
	case OpPairingCheck:
		pr, err := sw_bn254.NewPairing(r.api)
		if err != nil {
			return err
		}
		var negTau bn254.G2Affine
		negTau.Neg(&prog.G2Tau)
		one := sw_bn254.NewG2AffineFixed(prog.G2One)
		nt := sw_bn254.NewG2AffineFixed(negTau)
		return pr.PairingCheck([]*sw_bn254.G1Affine{r.p[op.Lhs], r.p[op.Rhs]}, []*sw_bn254.G2Affine{&one, &nt})
	}
	return nil
}
