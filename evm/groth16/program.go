package main

// The verifier program of PROGRAM.md: parsing and validation of the program
// and witness JSON files, and the native twin (Replay), which runs the same
// ops over gnark-crypto's types and compares every register with the
// witness's debugging values.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
)

type OpKind int

const (
	OpConst OpKind = iota
	OpInstance
	OpReadScalar
	OpLincomb
	OpMul
	OpInv
	OpAssertEq
	OpPointConst
	OpReadPoint
	OpPointFromLimbs
	OpEncodePoint
	OpMSM
	OpPointAssertEq
	OpPairingCheck
)

var opNames = [...]string{"const", "instance", "read_scalar", "lincomb", "mul", "inv", "assert_eq",
	"point_const", "read_point", "point_from_limbs", "encode_point", "msm", "point_assert_eq", "pairing_check"}

func (k OpKind) String() string { return opNames[k] }

// Op is one parsed op. Which fields are set depends on Kind (PROGRAM.md's
// table); register numbers are indices into the scalar (S*) or point (P*)
// register files.
type Op struct {
	Kind OpKind
	Out  int // the register produced (scalar or point); encode_point: sx
	Out2 int // read_point: sy (sx is Enc[0]); encode_point: sy
	A, B int // mul, inv (A), assert_eq, point_assert_eq, encode_point (A: the point)
	I    int // instance, read_scalar, read_point

	V      *big.Int   // const (reduced mod r)
	C      *big.Int   // lincomb's constant
	Coeffs []*big.Int // lincomb
	Regs   []int      // lincomb's scalar registers
	X, Y   *big.Int   // point_const
	Enc    [2]int     // read_point: sx, sy
	Limbs  [6]int     // point_from_limbs: x0 x1 x2 y0 y1 y2
	MSMS   []int      // msm: scalar registers
	MSMP   []int      // msm: point registers
	Lhs    int        // pairing_check
	Rhs    int
}

// Program is a parsed and validated program.
type Program struct {
	Version         int
	Description     string
	NumInstances    int
	PublicInstances []int
	// "keccak256": the circuit's one public input is keccak256 of the public
	// instances' 32-byte big-endian words, mod r (PROGRAM.md); "": the public
	// instances themselves.
	StatementHash string
	// What the public instances are: the name of the contract statement kind
	// (statementKinds), written into the exported verifier's STATEMENT_KIND;
	// "" when the recorder did not say (no verifier is exported then).
	StatementKind   string
	NumProofScalars int
	NumProofPoints  int
	G2One, G2Tau    bn254.G2Affine
	Ops             []Op

	NumScalars, NumPoints int
	// instance index -> position in Statement (public) or Instances (private)
	instPublic []bool
	instPos    []int
}

// The limb widths of snark-verifier's LimbsEncoding<3, 88> (q < 2^254).
var accLimbBits = [3]int{88, 88, 254 - 2*88}

type rawProgram struct {
	Version         int    `json:"version"`
	Description     string `json:"description"`
	NumInstances    int    `json:"num_instances"`
	PublicInstances []int  `json:"public_instances"`
	NumProofScalars int    `json:"num_proof_scalars"`
	NumProofPoints  int    `json:"num_proof_points"`
	StatementHash   string `json:"statement_hash"`
	StatementKind   string `json:"statement_kind"`
	G2              struct {
		One []json.Number `json:"one"`
		Tau []json.Number `json:"tau"`
	} `json:"g2"`
	Ops []rawOp `json:"ops"`
}

type rawOp struct {
	Op    string          `json:"op"`
	Out   json.RawMessage `json:"out"`
	V     json.Number     `json:"v"`
	I     *int            `json:"i"`
	Terms json.RawMessage `json:"terms"`
	C     json.Number     `json:"c"`
	A     *int            `json:"a"`
	B     *int            `json:"b"`
	X     json.Number     `json:"x"`
	Y     json.Number     `json:"y"`
	Enc   []int           `json:"enc"`
	Limbs []int           `json:"limbs"`
	P     *int            `json:"p"`
	Lhs   *int            `json:"lhs"`
	Rhs   *int            `json:"rhs"`
}

func decodeStrict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// parseDec parses a decimal field element (a JSON string or number).
func parseDec(n json.Number, what string) (*big.Int, error) {
	if n == "" {
		return nil, fmt.Errorf("%s: missing", what)
	}
	v, ok := new(big.Int).SetString(string(n), 10)
	if !ok {
		return nil, fmt.Errorf("%s: %q is not a decimal integer", what, n)
	}
	return v, nil
}

// a constant of the program: any integer, taken mod r
func parseConst(n json.Number, what string) (*big.Int, error) {
	v, err := parseDec(n, what)
	if err != nil {
		return nil, err
	}
	return v.Mod(v, fr.Modulus()), nil
}

// a value that must be canonical (< m)
func parseCanonical(n json.Number, m *big.Int, what string) (*big.Int, error) {
	v, err := parseDec(n, what)
	if err != nil {
		return nil, err
	}
	if v.Sign() < 0 || v.Cmp(m) >= 0 {
		return nil, fmt.Errorf("%s: %s is not in [0, %s)", what, v, m)
	}
	return v, nil
}

func parseG2(c []json.Number, what string) (bn254.G2Affine, error) {
	var p bn254.G2Affine
	if len(c) != 4 {
		return p, fmt.Errorf("g2.%s: %d coordinates, want 4 (x.a0, x.a1, y.a0, y.a1)", what, len(c))
	}
	var e [4]fp.Element
	for i := range e {
		v, err := parseCanonical(c[i], fp.Modulus(), fmt.Sprintf("g2.%s[%d]", what, i))
		if err != nil {
			return p, err
		}
		e[i].SetBigInt(v)
	}
	p.X.A0, p.X.A1, p.Y.A0, p.Y.A1 = e[0], e[1], e[2], e[3]
	if p.IsInfinity() || !p.IsOnCurve() || !p.IsInSubGroup() {
		return p, fmt.Errorf("g2.%s: not a point of G2 (other than the identity)", what)
	}
	return p, nil
}

func LoadProgram(path string) (*Program, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := ParseProgram(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

func ParseProgram(data []byte) (*Program, error) {
	var rp rawProgram
	if err := decodeStrict(data, &rp); err != nil {
		return nil, fmt.Errorf("program: %w", err)
	}
	if rp.Version != 1 {
		return nil, fmt.Errorf("program: version %d, want 1", rp.Version)
	}
	p := &Program{Version: rp.Version, Description: rp.Description, NumInstances: rp.NumInstances,
		PublicInstances: rp.PublicInstances, NumProofScalars: rp.NumProofScalars, NumProofPoints: rp.NumProofPoints,
		StatementHash: rp.StatementHash, StatementKind: rp.StatementKind}
	if p.StatementKind != "" && !knownStatementKind(p.StatementKind) {
		return nil, fmt.Errorf("program: statement_kind %q: not one of %v", p.StatementKind, statementKinds)
	}
	if p.StatementHash != "" && p.StatementHash != StatementKeccak256 {
		return nil, fmt.Errorf("program: statement_hash %q: only %q is known", p.StatementHash, StatementKeccak256)
	}
	if p.NumInstances < 0 || p.NumProofScalars < 0 || p.NumProofPoints < 0 {
		return nil, errors.New("program: negative count")
	}
	p.instPublic = make([]bool, p.NumInstances)
	p.instPos = make([]int, p.NumInstances)
	for k, i := range p.PublicInstances {
		if i < 0 || i >= p.NumInstances || p.instPublic[i] {
			return nil, fmt.Errorf("program: public_instances[%d] = %d: out of range or repeated", k, i)
		}
		if k > 0 && i < p.PublicInstances[k-1] {
			// the statement's words in the instances' order: the order a contract builds them
			return nil, fmt.Errorf("program: public_instances[%d] = %d: not in increasing order", k, i)
		}
		p.instPublic[i] = true
		p.instPos[i] = k
	}
	priv := 0
	for i := range p.instPos {
		if !p.instPublic[i] {
			p.instPos[i] = priv
			priv++
		}
	}
	var err error
	if p.G2One, err = parseG2(rp.G2.One, "one"); err != nil {
		return nil, err
	}
	if p.G2Tau, err = parseG2(rp.G2.Tau, "tau"); err != nil {
		return nil, err
	}

	nextS, nextP, readS, readP, pairings := 0, 0, 0, 0, 0
	p.Ops = make([]Op, len(rp.Ops))
	for n, r := range rp.Ops {
		op, err := parseOp(r)
		if err != nil {
			return nil, fmt.Errorf("op %d (%s): %w", n, r.Op, err)
		}
		// validation: reads of earlier registers, outputs in order
		sIn := func(regs ...int) error {
			for _, s := range regs {
				if s < 0 || s >= nextS {
					return fmt.Errorf("op %d (%s): reads s%d, not produced yet", n, r.Op, s)
				}
			}
			return nil
		}
		pIn := func(regs ...int) error {
			for _, q := range regs {
				if q < 0 || q >= nextP {
					return fmt.Errorf("op %d (%s): reads p%d, not produced yet", n, r.Op, q)
				}
			}
			return nil
		}
		sOut := func(regs ...int) error {
			for _, s := range regs {
				if s != nextS {
					return fmt.Errorf("op %d (%s): produces s%d, want s%d (registers are produced in order, each once)", n, r.Op, s, nextS)
				}
				nextS++
			}
			return nil
		}
		pOut := func(q int) error {
			if q != nextP {
				return fmt.Errorf("op %d (%s): produces p%d, want p%d", n, r.Op, q, nextP)
			}
			nextP++
			return nil
		}
		if pairings > 0 {
			return nil, fmt.Errorf("op %d (%s): after the pairing_check (a program ends with it)", n, r.Op)
		}
		switch op.Kind {
		case OpConst:
			err = sOut(op.Out)
		case OpInstance:
			if op.I < 0 || op.I >= p.NumInstances {
				err = fmt.Errorf("op %d: instance %d out of range", n, op.I)
			} else {
				err = sOut(op.Out)
			}
		case OpReadScalar:
			if op.I != readS {
				err = fmt.Errorf("op %d: read_scalar %d, want %d (each read once, in order)", n, op.I, readS)
			} else {
				readS++
				err = sOut(op.Out)
			}
		case OpLincomb:
			if err = sIn(op.Regs...); err == nil {
				err = sOut(op.Out)
			}
		case OpMul:
			if err = sIn(op.A, op.B); err == nil {
				err = sOut(op.Out)
			}
		case OpInv:
			if err = sIn(op.A); err == nil {
				err = sOut(op.Out)
			}
		case OpAssertEq:
			err = sIn(op.A, op.B)
		case OpPointConst:
			err = pOut(op.Out)
			if err == nil {
				var q bn254.G1Affine
				q.X.SetBigInt(op.X)
				q.Y.SetBigInt(op.Y)
				if q.IsInfinity() || !q.IsOnCurve() {
					err = fmt.Errorf("op %d: point_const (%s, %s) is not a point of G1 other than the identity", n, op.X, op.Y)
				}
			}
		case OpReadPoint:
			if op.I != readP {
				err = fmt.Errorf("op %d: read_point %d, want %d (each read once, in order)", n, op.I, readP)
			} else if op.Enc[0] != op.Enc[1]-1 {
				err = fmt.Errorf("op %d: enc [%d, %d]: want sx = sy - 1", n, op.Enc[0], op.Enc[1])
			} else {
				readP++
				if err = pOut(op.Out); err == nil {
					err = sOut(op.Enc[0], op.Enc[1])
				}
			}
		case OpPointFromLimbs:
			if err = sIn(op.Limbs[:]...); err == nil {
				err = pOut(op.Out)
			}
		case OpEncodePoint:
			if err = pIn(op.A); err == nil {
				err = sOut(op.Out, op.Out2)
			}
		case OpMSM:
			if err = sIn(op.MSMS...); err == nil {
				if err = pIn(op.MSMP...); err == nil {
					err = pOut(op.Out)
				}
			}
		case OpPointAssertEq:
			err = pIn(op.A, op.B)
		case OpPairingCheck:
			err = pIn(op.Lhs, op.Rhs)
			pairings++
		}
		if err != nil {
			return nil, err
		}
		p.Ops[n] = op
	}
	if pairings != 1 {
		return nil, fmt.Errorf("program: %d pairing_check ops, want exactly one, the last op", pairings)
	}
	if readS != p.NumProofScalars {
		return nil, fmt.Errorf("program: reads %d proof scalars, num_proof_scalars = %d", readS, p.NumProofScalars)
	}
	if readP != p.NumProofPoints {
		return nil, fmt.Errorf("program: reads %d proof points, num_proof_points = %d", readP, p.NumProofPoints)
	}
	if err := p.checkPrivateInstances(); err != nil {
		return nil, err
	}
	p.NumScalars, p.NumPoints = nextS, nextP
	return p, nil
}

// checkPrivateInstances refuses a program in which an instance that is not a
// public input is anything but a limb of a point (point_from_limbs: the
// accumulator of an outer proof, bound by the pairing check). Any other
// private instance would be the prover's free choice: a statement word the
// Groth16 proof does not state.
func (p *Program) checkPrivateInstances() error {
	limb := map[int]bool{}
	for _, op := range p.Ops {
		if op.Kind == OpPointFromLimbs {
			for _, r := range op.Limbs {
				limb[r] = true
			}
		}
	}
	asLimb := make([]bool, p.NumInstances)
	for _, op := range p.Ops {
		if op.Kind == OpInstance && limb[op.Out] {
			asLimb[op.I] = true
		}
	}
	for i, public := range p.instPublic {
		if !public && !asLimb[i] {
			return fmt.Errorf("program: instance %d is neither a public input nor a limb of a point (point_from_limbs): the prover could choose it", i)
		}
	}
	return nil
}

func need(v *int, what string) (int, error) {
	if v == nil {
		return 0, fmt.Errorf("missing %q", what)
	}
	return *v, nil
}

func parseOp(r rawOp) (Op, error) {
	var op Op
	kind := -1
	for k, name := range opNames {
		if name == r.Op {
			kind = k
		}
	}
	if kind < 0 {
		return op, fmt.Errorf("unknown op %q", r.Op)
	}
	op.Kind = OpKind(kind)
	outInt := func() error {
		if len(r.Out) == 0 {
			return errors.New(`missing "out"`)
		}
		return decodeStrict(r.Out, &op.Out)
	}
	var err error
	switch op.Kind {
	case OpConst:
		if err = outInt(); err == nil {
			op.V, err = parseConst(r.V, "v")
		}
	case OpInstance, OpReadScalar:
		if err = outInt(); err == nil {
			op.I, err = need(r.I, "i")
		}
	case OpLincomb:
		if err = outInt(); err != nil {
			return op, err
		}
		var terms [][2]json.Number
		if len(r.Terms) == 0 {
			return op, errors.New(`missing "terms"`)
		}
		if err = decodeStrict(r.Terms, &terms); err != nil {
			return op, fmt.Errorf("terms: %w", err)
		}
		for k, t := range terms {
			c, err := parseConst(t[0], fmt.Sprintf("terms[%d] coefficient", k))
			if err != nil {
				return op, err
			}
			s, err := t[1].Int64()
			if err != nil {
				return op, fmt.Errorf("terms[%d] register: %w", k, err)
			}
			op.Coeffs = append(op.Coeffs, c)
			op.Regs = append(op.Regs, int(s))
		}
		if r.C == "" {
			op.C = new(big.Int)
		} else {
			op.C, err = parseConst(r.C, "c")
		}
	case OpMul:
		if err = outInt(); err == nil {
			if op.A, err = need(r.A, "a"); err == nil {
				op.B, err = need(r.B, "b")
			}
		}
	case OpInv:
		if err = outInt(); err == nil {
			op.A, err = need(r.A, "a")
		}
	case OpAssertEq, OpPointAssertEq:
		if op.A, err = need(r.A, "a"); err == nil {
			op.B, err = need(r.B, "b")
		}
	case OpPointConst:
		if err = outInt(); err == nil {
			if op.X, err = parseCanonical(r.X, fp.Modulus(), "x"); err == nil {
				op.Y, err = parseCanonical(r.Y, fp.Modulus(), "y")
			}
		}
	case OpReadPoint:
		if err = outInt(); err != nil {
			return op, err
		}
		if op.I, err = need(r.I, "i"); err != nil {
			return op, err
		}
		if len(r.Enc) != 2 {
			return op, fmt.Errorf("enc: %d registers, want 2", len(r.Enc))
		}
		op.Enc = [2]int{r.Enc[0], r.Enc[1]}
	case OpPointFromLimbs:
		if err = outInt(); err != nil {
			return op, err
		}
		if len(r.Limbs) != 6 {
			return op, fmt.Errorf("limbs: %d registers, want 6", len(r.Limbs))
		}
		copy(op.Limbs[:], r.Limbs)
	case OpEncodePoint:
		var out []int
		if err = decodeStrict(r.Out, &out); err != nil || len(out) != 2 {
			return op, fmt.Errorf("out: want [sx, sy] (%v)", err)
		}
		op.Out, op.Out2 = out[0], out[1]
		if op.Out2 != op.Out+1 {
			return op, fmt.Errorf("out [%d, %d]: want sx = sy - 1", op.Out, op.Out2)
		}
		op.A, err = need(r.P, "p")
	case OpMSM:
		if err = outInt(); err != nil {
			return op, err
		}
		var terms [][2]int
		if len(r.Terms) == 0 {
			return op, errors.New(`missing "terms"`)
		}
		if err = decodeStrict(r.Terms, &terms); err != nil {
			return op, fmt.Errorf("terms: %w", err)
		}
		for _, t := range terms {
			op.MSMS = append(op.MSMS, t[0])
			op.MSMP = append(op.MSMP, t[1])
		}
	case OpPairingCheck:
		if op.Lhs, err = need(r.Lhs, "lhs"); err == nil {
			op.Rhs, err = need(r.Rhs, "rhs")
		}
	}
	return op, err
}

// Witness is one proof's values (PROGRAM.md's witness file), parsed.
type Witness struct {
	Instances    []fr.Element
	ProofScalars []fr.Element
	ProofPoints  []bn254.G1Affine // (0, 0) is the identity, as in gnark-crypto
	// debugging: the recorder's value of every register (may be empty)
	Scalars []fr.Element
	Points  []bn254.G1Affine
}

type rawWitness struct {
	Instances    []json.Number    `json:"instances"`
	ProofScalars []json.Number    `json:"proof_scalars"`
	ProofPoints  [][2]json.Number `json:"proof_points"`
	Scalars      []json.Number    `json:"scalars"`
	Points       [][2]json.Number `json:"points"`
}

func LoadWitness(path string, p *Program) (*Witness, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	w, err := ParseWitness(data, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

func ParseWitness(data []byte, p *Program) (*Witness, error) {
	var rw rawWitness
	if err := decodeStrict(data, &rw); err != nil {
		return nil, fmt.Errorf("witness: %w", err)
	}
	scalars := func(in []json.Number, what string) ([]fr.Element, error) {
		out := make([]fr.Element, len(in))
		for i, n := range in {
			v, err := parseCanonical(n, fr.Modulus(), fmt.Sprintf("%s[%d]", what, i))
			if err != nil {
				return nil, err
			}
			out[i].SetBigInt(v)
		}
		return out, nil
	}
	points := func(in [][2]json.Number, what string) ([]bn254.G1Affine, error) {
		out := make([]bn254.G1Affine, len(in))
		for i, c := range in {
			x, err := parseCanonical(c[0], fp.Modulus(), fmt.Sprintf("%s[%d].x", what, i))
			if err != nil {
				return nil, err
			}
			y, err := parseCanonical(c[1], fp.Modulus(), fmt.Sprintf("%s[%d].y", what, i))
			if err != nil {
				return nil, err
			}
			out[i].X.SetBigInt(x)
			out[i].Y.SetBigInt(y)
		}
		return out, nil
	}
	w := &Witness{}
	var err error
	if w.Instances, err = scalars(rw.Instances, "instances"); err != nil {
		return nil, err
	}
	if w.ProofScalars, err = scalars(rw.ProofScalars, "proof_scalars"); err != nil {
		return nil, err
	}
	if w.ProofPoints, err = points(rw.ProofPoints, "proof_points"); err != nil {
		return nil, err
	}
	if w.Scalars, err = scalars(rw.Scalars, "scalars"); err != nil {
		return nil, err
	}
	if w.Points, err = points(rw.Points, "points"); err != nil {
		return nil, err
	}
	if p != nil {
		if len(w.Instances) != p.NumInstances || len(w.ProofScalars) != p.NumProofScalars || len(w.ProofPoints) != p.NumProofPoints {
			return nil, fmt.Errorf("witness: %d instances, %d proof scalars, %d proof points; the program wants %d, %d, %d",
				len(w.Instances), len(w.ProofScalars), len(w.ProofPoints), p.NumInstances, p.NumProofScalars, p.NumProofPoints)
		}
		if (len(w.Scalars) != 0 && len(w.Scalars) != p.NumScalars) || (len(w.Points) != 0 && len(w.Points) != p.NumPoints) {
			return nil, fmt.Errorf("witness: %d scalar and %d point registers for debugging; the program has %d and %d",
				len(w.Scalars), len(w.Points), p.NumScalars, p.NumPoints)
		}
	}
	return w, nil
}

// ReplayResult is what the native twin found.
type ReplayResult struct {
	Scalars []fr.Element
	Points  []bn254.G1Affine
	// the first op whose output differs from the witness's debugging value
	// (-1: none, or no debugging values), and a description
	FirstMismatch    int
	MismatchDetail   string
	Mismatches       int
	FirstFailedCheck int // the first op whose check failed (-1: none)
	FailedDetail     string
	PairingHolds     bool
}

func (r *ReplayResult) Accepted() bool { return r.FirstFailedCheck < 0 && r.PairingHolds }

func (r *ReplayResult) String() string {
	s := fmt.Sprintf("scalars=%d points=%d mismatches=%d", len(r.Scalars), len(r.Points), r.Mismatches)
	if r.FirstMismatch >= 0 {
		s += fmt.Sprintf(" first_mismatch=op%d (%s)", r.FirstMismatch, r.MismatchDetail)
	}
	if r.FirstFailedCheck >= 0 {
		s += fmt.Sprintf(" first_failed_check=op%d (%s)", r.FirstFailedCheck, r.FailedDetail)
	}
	return s + fmt.Sprintf(" pairing_holds=%v accepted=%v", r.PairingHolds, r.Accepted())
}

func frOf(v *big.Int) fr.Element {
	var e fr.Element
	e.SetBigInt(v)
	return e
}

// encodeFp is snark-verifier's fe_to_fe of a canonical coordinate: x mod r.
func encodeFp(x *fp.Element) fr.Element {
	return frOf(x.BigInt(new(big.Int)))
}

func limbsValue(l []fr.Element, widths []int) (*big.Int, error) {
	v := new(big.Int)
	shift := 0
	for i, e := range l {
		b := e.BigInt(new(big.Int))
		if b.BitLen() > widths[i] {
			return nil, fmt.Errorf("limb %d has %d bits, more than %d", i, b.BitLen(), widths[i])
		}
		v.Or(v, new(big.Int).Lsh(b, uint(shift)))
		shift += widths[i]
	}
	return v, nil
}

// Replay runs the program natively on a witness (the native twin). Failing
// checks (assert_eq, a point off the curve, ...) are recorded and the replay
// goes on; only an impossible op (the inverse of zero) stops it.
func (p *Program) Replay(w *Witness) (*ReplayResult, error) {
	r := &ReplayResult{FirstMismatch: -1, FirstFailedCheck: -1,
		Scalars: make([]fr.Element, 0, p.NumScalars), Points: make([]bn254.G1Affine, 0, p.NumPoints)}
	fail := func(n int, format string, a ...any) {
		if r.FirstFailedCheck < 0 {
			r.FirstFailedCheck = n
			r.FailedDetail = fmt.Sprintf(format, a...)
		}
	}
	pushS := func(n int, v fr.Element) {
		k := len(r.Scalars)
		r.Scalars = append(r.Scalars, v)
		if len(w.Scalars) > k && !w.Scalars[k].Equal(&v) {
			r.Mismatches++
			if r.FirstMismatch < 0 {
				r.FirstMismatch = n
				r.MismatchDetail = fmt.Sprintf("%s: s%d = %s, witness says %s", p.Ops[n].Kind, k, v.String(), w.Scalars[k].String())
			}
		}
	}
	pushP := func(n int, v bn254.G1Affine) {
		k := len(r.Points)
		r.Points = append(r.Points, v)
		if len(w.Points) > k && !w.Points[k].Equal(&v) {
			r.Mismatches++
			if r.FirstMismatch < 0 {
				r.FirstMismatch = n
				r.MismatchDetail = fmt.Sprintf("%s: p%d = %s, witness says %s", p.Ops[n].Kind, k, v.String(), w.Points[k].String())
			}
		}
	}
	S := func(i int) *fr.Element { return &r.Scalars[i] }
	for n := range p.Ops {
		op := &p.Ops[n]
		switch op.Kind {
		case OpConst:
			pushS(n, frOf(op.V))
		case OpInstance:
			pushS(n, w.Instances[op.I])
		case OpReadScalar:
			pushS(n, w.ProofScalars[op.I])
		case OpLincomb:
			acc := frOf(op.C)
			for k := range op.Regs {
				c := frOf(op.Coeffs[k])
				c.Mul(&c, S(op.Regs[k]))
				acc.Add(&acc, &c)
			}
			pushS(n, acc)
		case OpMul:
			var v fr.Element
			v.Mul(S(op.A), S(op.B))
			pushS(n, v)
		case OpInv:
			if S(op.A).IsZero() {
				fail(n, "inv of s%d = 0", op.A)
				return r, nil
			}
			var v fr.Element
			v.Inverse(S(op.A))
			pushS(n, v)
		case OpAssertEq:
			if !S(op.A).Equal(S(op.B)) {
				fail(n, "assert_eq s%d = %s != s%d = %s", op.A, S(op.A).String(), op.B, S(op.B).String())
			}
		case OpPointConst:
			var q bn254.G1Affine
			q.X.SetBigInt(op.X)
			q.Y.SetBigInt(op.Y)
			pushP(n, q)
		case OpReadPoint:
			q := w.ProofPoints[op.I]
			// on the curve, the identity excluded: snark-verifier's transcript
			// cannot encode it (and (0, 0) is not on the curve)
			if q.IsInfinity() || !q.IsOnCurve() {
				fail(n, "read_point %d: (%s) is not on the curve", op.I, q.String())
			}
			pushP(n, q)
			pushS(n, encodeFp(&q.X))
			pushS(n, encodeFp(&q.Y))
		case OpPointFromLimbs:
			var c [2]*big.Int
			for j := 0; j < 2; j++ {
				l := []fr.Element{*S(op.Limbs[3*j]), *S(op.Limbs[3*j+1]), *S(op.Limbs[3*j+2])}
				v, err := limbsValue(l, accLimbBits[:])
				if err != nil {
					fail(n, "point_from_limbs: coordinate %d: %v", j, err)
					v = new(big.Int)
				} else if v.Cmp(fp.Modulus()) >= 0 {
					fail(n, "point_from_limbs: coordinate %d = %s is not < q", j, v)
				}
				c[j] = v
			}
			var q bn254.G1Affine
			q.X.SetBigInt(c[0])
			q.Y.SetBigInt(c[1])
			if !q.IsOnCurve() { // the identity (0, 0) allowed, as snark-verifier's from_xy allows it
				fail(n, "point_from_limbs: (%s) is not on the curve", q.String())
			}
			pushP(n, q)
		case OpEncodePoint:
			q := r.Points[op.A]
			if q.IsInfinity() {
				fail(n, "encode_point of p%d, the identity (snark-verifier's transcript refuses it)", op.A)
			}
			pushS(n, encodeFp(&q.X))
			pushS(n, encodeFp(&q.Y))
		case OpMSM:
			var acc bn254.G1Jac
			for k := range op.MSMS {
				var t bn254.G1Jac
				t.FromAffine(&r.Points[op.MSMP[k]])
				t.ScalarMultiplication(&t, S(op.MSMS[k]).BigInt(new(big.Int)))
				acc.AddAssign(&t)
			}
			var q bn254.G1Affine
			q.FromJacobian(&acc)
			pushP(n, q)
		case OpPointAssertEq:
			if !r.Points[op.A].Equal(&r.Points[op.B]) {
				fail(n, "point_assert_eq p%d != p%d", op.A, op.B)
			}
		case OpPairingCheck:
			var negTau bn254.G2Affine
			negTau.Neg(&p.G2Tau)
			ok, err := bn254.PairingCheck(
				[]bn254.G1Affine{r.Points[op.Lhs], r.Points[op.Rhs]},
				[]bn254.G2Affine{p.G2One, negTau})
			if err != nil {
				return r, err
			}
			r.PairingHolds = ok
			if !ok {
				fail(n, "pairing_check: e(p%d, [1]_2) e(p%d, -[tau]_2) != 1", op.Lhs, op.Rhs)
			}
		}
	}
	return r, nil
}
