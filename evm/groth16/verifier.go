package main

// The replay circuit: a gnark circuit over BN254's Fr that runs a verifier
// program (PROGRAM.md) on witness variables. Scalars are native variables,
// points emulated BN254 G1 points (sw_emulated), the pairing is sw_bn254's
// with the program's two G2 points as constants whose lines are precomputed.

import (
	"fmt"
	"hash/fnv"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/algebra/algopts"
	"github.com/consensys/gnark/std/algebra/emulated/sw_bn254"
	"github.com/consensys/gnark/std/algebra/emulated/sw_emulated"
	"github.com/consensys/gnark/std/math/bits"
	"github.com/consensys/gnark/std/math/emulated"
)

// VerifierOptions are the circuit's choices (none changes what it accepts
// from an honest prover).
type VerifierOptions struct {
	// How the emulated gadgets get their randomness (nocommit.go). Default:
	// gnark's BSB22 commitment (CommitNone is about 30 times larger).
	Commit CommitMode
	// Incomplete uses sw_emulated's incomplete MSM formulas
	// (algopts.WithIncompleteArithmetic) instead of its complete default. NOT
	// SOUND for a prover choosing the proof's points (see README.md): for
	// measurement only.
	Incomplete bool
	// ScalarBits converts a native scalar to emulated Fr by a 254-bit
	// decomposition (api.ToBinary) instead of four hinted, range-checked
	// 64-bit limbs (the default, cheaper, and sound: see scalarToEmulated).
	ScalarBits bool
}

func (o VerifierOptions) String() string {
	return fmt.Sprintf("commit=%s complete_msm=%v scalar_conversion=%s", o.Commit, !o.Incomplete,
		map[bool]string{false: "limbs", true: "bits"}[o.ScalarBits])
}

type G1 = sw_emulated.AffinePoint[emulated.BN254Fp]

type VerifierCircuit struct {
	Program *Program        `gnark:"-"`
	Opts    VerifierOptions `gnark:"-"`

	// the instances listed in public_instances, in that order (empty when the
	// program hashes its statement)
	Statement []frontend.Variable `gnark:",public"`
	// with a hashed statement: keccak256 of the statement's words mod r, the
	// one public input, and the statement's words, private
	StatementHash  []frontend.Variable `gnark:",public"`
	StatementWords []frontend.Variable
	// every other instance, in index order
	Instances    []frontend.Variable
	ProofScalars []frontend.Variable
	ProofPoints  []G1
}

// NewVerifierCircuit returns the circuit definition (for compilation).
func NewVerifierCircuit(p *Program, o VerifierOptions) *VerifierCircuit {
	words, hash := 0, 0
	if p.StatementHash != "" {
		words, hash = len(p.PublicInstances), 1
	}
	return &VerifierCircuit{
		Program:        p,
		Opts:           o,
		Statement:      make([]frontend.Variable, len(p.PublicInstances)-words),
		StatementHash:  make([]frontend.Variable, hash),
		StatementWords: make([]frontend.Variable, words),
		Instances:      make([]frontend.Variable, p.NumInstances-len(p.PublicInstances)),
		ProofScalars:   make([]frontend.Variable, p.NumProofScalars),
		ProofPoints:    make([]G1, p.NumProofPoints),
	}
}

// NewVerifierAssignment returns the full assignment of a witness.
func NewVerifierAssignment(p *Program, o VerifierOptions, w *Witness) *VerifierCircuit {
	c := NewVerifierCircuit(p, o)
	for i, v := range w.Instances {
		if p.instPublic[i] {
			c.statement()[p.instPos[i]] = v
		} else {
			c.Instances[p.instPos[i]] = v
		}
	}
	for i, v := range w.ProofScalars {
		c.ProofScalars[i] = v
	}
	for i, q := range w.ProofPoints {
		c.ProofPoints[i] = sw_bn254.NewG1Affine(q)
	}
	if p.StatementHash != "" {
		h := p.Statement(w)
		c.StatementHash[0] = h[0]
	}
	return c
}

// statement is where the statement's words are: public, or private beside
// their public hash.
func (c *VerifierCircuit) statement() []frontend.Variable {
	if c.Program.StatementHash != "" {
		return c.StatementWords
	}
	return c.Statement
}

// Statement returns the public inputs of a witness, in the circuit's order:
// the public instances, or the one keccak256 hash of their words mod r.
func (p *Program) Statement(w *Witness) []fr.Element {
	out := make([]fr.Element, len(p.PublicInstances))
	for k, i := range p.PublicInstances {
		out[k] = w.Instances[i]
	}
	if p.StatementHash != "" {
		return []fr.Element{statementKeccak(out)}
	}
	return out
}

// limbs64HintID is limbs64Hint's ID under the name the built program gives
// it, "main.limbs64Hint". gnark derives a hint's ID from its function's name
// and writes it into the compiled constraint system, and `go test` compiles
// this package under its import path ("tms/evm/groth16.limbs64Hint"): with
// the derived ID a test would compile another circuit (another digest) than
// the program whose ceremony it checks.
var limbs64HintID = func() solver.HintID {
	h := fnv.New32a()
	h.Write([]byte("main.limbs64Hint"))
	return solver.HintID(h.Sum32())
}()

func init() {
	solver.RegisterNamedHint(limbs64Hint, limbs64HintID)
}

// newLimbs64 splits v into four 64-bit limbs by limbs64Hint, under its fixed ID.
func newLimbs64(api frontend.API, v frontend.Variable) ([]frontend.Variable, error) {
	c, ok := api.Compiler().(interface {
		NewHintForId(solver.HintID, int, ...frontend.Variable) ([]frontend.Variable, error)
	})
	if !ok {
		return nil, fmt.Errorf("compiler %T cannot call a hint by its ID", api.Compiler())
	}
	return c.NewHintForId(limbs64HintID, 4, v)
}

// limbs64Hint splits a native value into four 64-bit little-endian limbs.
func limbs64Hint(_ *big.Int, in, out []*big.Int) error {
	if len(in) != 1 || len(out) != 4 {
		return fmt.Errorf("limbs64Hint: %d inputs, %d outputs", len(in), len(out))
	}
	v := new(big.Int).Set(in[0])
	mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1))
	for i := range out {
		out[i].And(v, mask)
		v.Rsh(v, 64)
	}
	return nil
}

type replay struct {
	api   frontend.API
	c     *VerifierCircuit
	curve *sw_emulated.Curve[emulated.BN254Fp, emulated.BN254Fr]
	fp    *emulated.Field[emulated.BN254Fp]
	fr    *emulated.Field[emulated.BN254Fr]
	s     []frontend.Variable
	p     []*G1
	// the native encoding (x mod r, y mod r) of a point register, once known
	enc map[int][2]frontend.Variable
	// the emulated form of a scalar register, once converted
	emu map[int]*emulated.Element[emulated.BN254Fr]
}

func (c *VerifierCircuit) Define(api frontend.API) error {
	prog := c.Program
	if prog == nil {
		return fmt.Errorf("VerifierCircuit without a program")
	}
	api = WrapAPI(api, c.Opts.Commit)
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
	r := &replay{api: api, c: c, curve: curve, fp: fpf, fr: frf,
		s: make([]frontend.Variable, 0, prog.NumScalars), p: make([]*G1, 0, prog.NumPoints),
		enc: map[int][2]frontend.Variable{}, emu: map[int]*emulated.Element[emulated.BN254Fr]{}}
	for n := range prog.Ops {
		if err := r.op(&prog.Ops[n]); err != nil {
			return fmt.Errorf("op %d (%s): %w", n, prog.Ops[n].Kind, err)
		}
	}
	if prog.StatementHash != "" {
		h, err := statementKeccakCircuit(api, c.StatementWords)
		if err != nil {
			return err
		}
		api.AssertIsEqual(h, c.StatementHash[0])
	}
	return nil
}

// coordValue is the native value sum limb_i 2^(64 i) of an emulated Fq
// element whose limbs are canonical (each < 2^64, the value < q): x mod r.
func (r *replay) coordValue(e *emulated.Element[emulated.BN254Fp]) frontend.Variable {
	if len(e.Limbs) != 4 {
		panic(fmt.Sprintf("emulated Fq element with %d limbs", len(e.Limbs)))
	}
	terms := make([]frontend.Variable, 0, 4)
	for i, l := range e.Limbs {
		terms = append(terms, r.api.Mul(l, new(big.Int).Lsh(big.NewInt(1), uint(64*i))))
	}
	return r.api.Add(terms[0], terms[1], terms[2:]...)
}

// assertOnCurveStrict: y^2 = x^3 + 3, which (0, 0) does not satisfy (gnark's
// AssertIsOnCurve also accepts (0, 0), its encoding of the identity).
func (r *replay) assertOnCurveStrict(q *G1) {
	f := r.fp
	x3 := f.Mul(f.Mul(&q.X, &q.X), &q.X)
	f.AssertIsEqual(f.Mul(&q.Y, &q.Y), f.Add(x3, f.NewElement(3)))
}

// scalarToEmulated converts a native scalar register to emulated Fr.
// Default: four 64-bit limbs from a hint, each range-checked, whose native
// sum sum l_i 2^(64 i) is asserted equal to the register. The integer
// L = sum l_i 2^(64 i) < 2^256 is then congruent to the register's value mod
// r, so as an element of emulated Fr (integers mod r) it IS the register's
// value, canonical or not (L may be v + k r, k <= 5); the MSM works mod r.
func (r *replay) scalarToEmulated(s int) (*emulated.Element[emulated.BN254Fr], error) {
	if e, ok := r.emu[s]; ok {
		return e, nil
	}
	v := r.s[s]
	var e *emulated.Element[emulated.BN254Fr]
	if k, isConst := r.api.Compiler().ConstantValue(v); isConst {
		c := emulated.ValueOf[emulated.BN254Fr](k)
		e = &c
	} else if r.c.Opts.ScalarBits {
		e = r.fr.FromBits(bits.ToBinary(r.api, v)...)
	} else {
		l, err := newLimbs64(r.api, v)
		if err != nil {
			return nil, err
		}
		e = r.fr.NewElement(l) // range-checks each limb to 64 bits
		r.api.AssertIsEqual(r.api.Add(l[0],
			r.api.Mul(l[1], new(big.Int).Lsh(big.NewInt(1), 64)),
			r.api.Mul(l[2], new(big.Int).Lsh(big.NewInt(1), 128)),
			r.api.Mul(l[3], new(big.Int).Lsh(big.NewInt(1), 192))), v)
	}
	r.emu[s] = e
	return e, nil
}

func (r *replay) op(op *Op) error {
	api, prog := r.api, r.c.Program
	switch op.Kind {
	case OpConst:
		r.s = append(r.s, new(big.Int).Set(op.V))
	case OpInstance:
		if prog.instPublic[op.I] {
			r.s = append(r.s, r.c.statement()[prog.instPos[op.I]])
		} else {
			r.s = append(r.s, r.c.Instances[prog.instPos[op.I]])
		}
	case OpReadScalar:
		r.s = append(r.s, r.c.ProofScalars[op.I])
	case OpLincomb:
		var acc frontend.Variable = new(big.Int).Set(op.C)
		for k := range op.Regs {
			acc = api.Add(acc, api.Mul(op.Coeffs[k], r.s[op.Regs[k]]))
		}
		r.s = append(r.s, acc)
	case OpMul:
		r.s = append(r.s, api.Mul(r.s[op.A], r.s[op.B]))
	case OpInv:
		r.s = append(r.s, api.Inverse(r.s[op.A])) // unsatisfiable when s[a] = 0
	case OpAssertEq:
		api.AssertIsEqual(r.s[op.A], r.s[op.B])
	case OpPointConst:
		q := &G1{X: emulated.ValueOf[emulated.BN254Fp](op.X), Y: emulated.ValueOf[emulated.BN254Fp](op.Y)}
		n := len(r.p)
		r.p = append(r.p, q)
		var xm, ym big.Int
		r.enc[n] = [2]frontend.Variable{xm.Mod(op.X, fr.Modulus()), ym.Mod(op.Y, fr.Modulus())}
	case OpReadPoint:
		q := &r.c.ProofPoints[op.I]
		// canonical coordinates (this also range-checks every limb to 64
		// bits), on the curve, not (0, 0)
		r.fp.AssertIsInRange(&q.X)
		r.fp.AssertIsInRange(&q.Y)
		r.assertOnCurveStrict(q)
		n := len(r.p)
		r.p = append(r.p, q)
		e := [2]frontend.Variable{r.coordValue(&q.X), r.coordValue(&q.Y)}
		r.enc[n] = e
		r.s = append(r.s, e[0], e[1])
	case OpPointFromLimbs:
		var coord [2]*emulated.Element[emulated.BN254Fp]
		for j := 0; j < 2; j++ {
			var bs []frontend.Variable
			for k := 0; k < 3; k++ {
				bs = append(bs, bits.ToBinary(api, r.s[op.Limbs[3*j+k]], bits.WithNbDigits(accLimbBits[k]))...)
			}
			coord[j] = r.fp.FromBits(bs...)
			r.fp.AssertIsInRange(coord[j]) // canonical: < q
		}
		q := &G1{X: *coord[0], Y: *coord[1]}
		r.curve.AssertIsOnCurve(q) // (0, 0), the identity, allowed (snark-verifier's from_xy allows it)
		r.p = append(r.p, q)
	case OpEncodePoint:
		e, ok := r.enc[op.A]
		if !ok {
			q := r.p[op.A]
			x := r.fp.ReduceStrict(&q.X)
			y := r.fp.ReduceStrict(&q.Y)
			// not the identity (0, 0): snark-verifier's transcript refuses to
			// encode it. Every point here is on the curve or (0, 0), and no
			// point of BN254's G1 has y = 0 (odd order), so y != 0 suffices.
			api.AssertIsDifferent(api.Add(y.Limbs[0], y.Limbs[1], y.Limbs[2], y.Limbs[3]), 0)
			e = [2]frontend.Variable{r.coordValue(x), r.coordValue(y)}
			r.enc[op.A] = e
		}
		r.s = append(r.s, e[0], e[1])
	case OpMSM:
		pts := make([]*G1, len(op.MSMP))
		scs := make([]*emulated.Element[emulated.BN254Fr], len(op.MSMS))
		for k := range op.MSMP {
			pts[k] = r.p[op.MSMP[k]]
			e, err := r.scalarToEmulated(op.MSMS[k])
			if err != nil {
				return err
			}
			scs[k] = e
		}
		// gnark v0.16's MSM is complete by default (constant points through
		// its fixed-base comb, complete too); the MSM's points are the
		// prover's, so only -incomplete (measurement) opts out.
		var opts []algopts.AlgebraOption
		if r.c.Opts.Incomplete {
			opts = append(opts, algopts.WithIncompleteArithmetic())
		}
		res, err := r.curve.MultiScalarMul(pts, scs, opts...)
		if err != nil {
			return err
		}
		r.p = append(r.p, res)
	case OpPointAssertEq:
		r.curve.AssertIsEqual(r.p[op.A], r.p[op.B])
	case OpPairingCheck:
		pr, err := sw_bn254.NewPairing(api)
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
