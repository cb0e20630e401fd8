package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/backend"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/solidity"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/math/emulated"
	"github.com/consensys/gnark/test"
)

func syntheticProgram(t *testing.T) *Program {
	t.Helper()
	p, err := ParseProgram(SyntheticProgram())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func copyWitness(w *Witness) *Witness {
	c := *w
	c.Instances = append([]fr.Element(nil), w.Instances...)
	c.ProofScalars = append([]fr.Element(nil), w.ProofScalars...)
	c.ProofPoints = append([]bn254.G1Affine(nil), w.ProofPoints...)
	return &c
}

func solveProgram(t *testing.T, name string, p *Program, o VerifierOptions, a *VerifierCircuit) error {
	t.Helper()
	start := time.Now()
	err := test.IsSolved(NewVerifierCircuit(p, o), a, ecc.BN254.ScalarField())
	msg := "solved"
	if err != nil {
		msg = "not solved: " + strings.SplitN(err.Error(), "\n", 2)[0]
	}
	t.Logf("%s: %s (%.1f s)", name, msg, time.Since(start).Seconds())
	return err
}

func TestProgramParseErrors(t *testing.T) {
	good := string(SyntheticProgram())
	for name, bad := range map[string]string{
		"unknown op":     strings.Replace(good, `"op": "mul"`, `"op": "mull"`, 1),
		"version":        strings.Replace(good, `"version": 1`, `"version": 2`, 1),
		"unknown field":  strings.Replace(good, `"version": 1`, `"version": 1, "extra": 0`, 1),
		"register order": strings.Replace(good, "\"out\": 1\n", "\"out\": 2\n", 1),
		"statement kind": strings.Replace(good, `"version": 1`, `"version": 1, "statement_kind": "batch"`, 1),
	} {
		if bad == good {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		if _, err := ParseProgram([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

func TestSyntheticReplay(t *testing.T) {
	p := syntheticProgram(t)
	w := SyntheticWitness(p)
	// the witness survives a JSON round trip
	w2, err := ParseWitness(WitnessJSON(w), p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Replay(w2)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("synthetic: %d ops, %s", len(p.Ops), r)
	if !r.Accepted() || r.FirstMismatch >= 0 {
		t.Fatalf("honest witness: %s", r)
	}
	// a wrong debugging value is reported at its op
	w2.Scalars[5].SetUint64(1)
	if r, _ := p.Replay(w2); r.FirstMismatch < 0 || r.Mismatches == 0 || !r.Accepted() {
		t.Fatalf("a wrong debugging register: %s", r)
	} else {
		t.Logf("wrong s5: %s", r)
	}
	for name, f := range syntheticCorruptions() {
		wb := copyWitness(w)
		wb.Scalars, wb.Points = nil, nil
		f(p, wb)
		r, err := p.Replay(wb)
		if err != nil {
			t.Fatal(err)
		}
		if r.Accepted() {
			t.Errorf("%s: accepted by the native replay", name)
		}
		t.Logf("%s: %s", name, r)
	}
}

// One change each, all to be refused.
func syntheticCorruptions() map[string]func(*Program, *Witness) {
	var one fr.Element
	one.SetOne()
	return map[string]func(*Program, *Witness){
		"proof scalar changed": func(_ *Program, w *Witness) { w.ProofScalars[0].Add(&w.ProofScalars[0], &one) },
		"proof point off the curve": func(_ *Program, w *Witness) {
			var o fp.Element
			o.SetOne()
			w.ProofPoints[1].Y.Add(&w.ProofPoints[1].Y, &o)
		},
		"proof point another valid point": func(_ *Program, w *Witness) {
			w.ProofPoints[1].Add(&w.ProofPoints[1], &w.ProofPoints[1])
		},
		"instance limb changed":    func(_ *Program, w *Witness) { w.Instances[0].Add(&w.Instances[0], &one) },
		"public statement changed": func(_ *Program, w *Witness) { w.Instances[13].Add(&w.Instances[13], &one) },
		"accumulator not tau-related": func(_ *Program, w *Witness) {
			// another valid accumulator (on the curve) that fails the pairing
			q := mulG1(derive("other acc", 0))
			copy(w.Instances[0:3], limbs88Fr(q.X.BigInt(new(big.Int))))
			copy(w.Instances[3:6], limbs88Fr(q.Y.BigInt(new(big.Int))))
		},
	}
}

// The replay circuit on the synthetic program: honest accepted, each change refused.
func TestSyntheticCircuit(t *testing.T) {
	p := syntheticProgram(t)
	w := SyntheticWitness(p)
	o := VerifierOptions{}
	if err := solveProgram(t, "honest", p, o, NewVerifierAssignment(p, o, w)); err != nil {
		t.Fatalf("honest witness rejected: %v", err)
	}
	for name, f := range syntheticCorruptions() {
		wb := copyWitness(w)
		f(p, wb)
		if err := solveProgram(t, name, p, o, NewVerifierAssignment(p, o, wb)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// a non-canonical coordinate (x + q, the same point mod q) is refused
	a := NewVerifierAssignment(p, o, w)
	x := w.ProofPoints[1].X.BigInt(new(big.Int))
	x.Add(x, fp.Modulus())
	// emulated.ValueOf would reduce mod q: set the four 64-bit limbs directly
	limbs := make([]frontend.Variable, 4)
	for i := range limbs {
		limbs[i] = new(big.Int).And(new(big.Int).Rsh(x, uint(64*i)), new(big.Int).SetUint64(^uint64(0)))
	}
	a.ProofPoints[1].X = emulated.Element[emulated.BN254Fp]{Limbs: limbs}
	if err := solveProgram(t, "non-canonical x", p, o, a); err == nil {
		t.Errorf("non-canonical coordinate accepted")
	}
}

// The fixture recorded by tms-evm, if present.
func TestFixtureTwinK10(t *testing.T) {
	const pf, wf = "testdata/twin_k10.program.json", "testdata/twin_k10.witness.json"
	if _, err := os.Stat(pf); err != nil {
		t.Skip("fixture absent: ", pf)
	}
	if _, err := os.Stat(wf); err != nil {
		t.Skip("fixture absent: ", wf)
	}
	p, err := LoadProgram(pf)
	if err != nil {
		t.Fatal(err)
	}
	w, err := LoadWitness(wf, p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Replay(w)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fixture: %d ops, %d scalars, %d points: %s", len(p.Ops), p.NumScalars, p.NumPoints, r)
	if !r.Accepted() || r.FirstMismatch >= 0 {
		t.Fatalf("native replay of the fixture: %s", r)
	}
	var one fr.Element
	one.SetOne()
	change := func(f func(*Witness)) *Witness {
		c := copyWitness(w)
		c.Scalars, c.Points = nil, nil
		f(c)
		return c
	}
	bad := change(func(c *Witness) { c.ProofScalars[0].Add(&c.ProofScalars[0], &one) })
	natives := map[string]*Witness{
		"proof scalar changed": bad,
		"last proof scalar changed": change(func(c *Witness) {
			c.ProofScalars[len(c.ProofScalars)-1].Add(&c.ProofScalars[len(c.ProofScalars)-1], &one)
		}),
		"proof point another valid point": change(func(c *Witness) { c.ProofPoints[0].Add(&c.ProofPoints[0], &c.ProofPoints[0]) }),
		"statement word changed": change(func(c *Witness) {
			i := p.PublicInstances[0]
			c.Instances[i].Add(&c.Instances[i], &one)
		}),
		"accumulator limb changed": change(func(c *Witness) { c.Instances[0].Add(&c.Instances[0], &one) }),
	}
	for name, c := range natives {
		r, err := p.Replay(c)
		if err != nil {
			t.Fatal(err)
		}
		if r.Accepted() {
			t.Errorf("native replay accepted: %s", name)
		}
		t.Logf("native, %s: %s", name, r)
	}
	// in circuit with gnark's test engine: about 5 s and 0.8 GiB each here
	o := VerifierOptions{}
	if err := solveProgram(t, "fixture honest", p, o, NewVerifierAssignment(p, o, w)); err != nil {
		t.Fatalf("fixture rejected in circuit: %v", err)
	}
	if err := solveProgram(t, "fixture proof scalar changed", p, o, NewVerifierAssignment(p, o, bad)); err == nil {
		t.Fatalf("fixture with a changed proof scalar accepted in circuit")
	}
}

// A tiny circuit with a BSB22 commitment and 4 public inputs, for the prove
// path: Y = (X0 + c) (X1 + c) (X2 + c) (X3 + c) for the commitment c to the X.
type tinyCommitCircuit struct {
	X [4]frontend.Variable `gnark:",public"`
	Y frontend.Variable
}

func (c *tinyCommitCircuit) Define(api frontend.API) error {
	cm, err := api.Compiler().(frontend.Committer).Commit(c.X[:]...)
	if err != nil {
		return err
	}
	var acc frontend.Variable = 1
	for _, x := range c.X {
		acc = api.Mul(acc, api.Add(x, cm))
	}
	api.AssertIsDifferent(acc, c.Y)
	return nil
}

func TestSeededSetupAndSolidityCall(t *testing.T) {
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &tinyCommitCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	vkBytes := func(seed string) []byte {
		_, vk, err := setupGroth16(ccs, seed, true)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := vk.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	a, b, c := vkBytes("one"), vkBytes("one"), vkBytes("two")
	if !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Fatalf("seeded setup: same seed equal %v, other seed equal %v", bytes.Equal(a, b), bytes.Equal(a, c))
	}

	pk, vk, err := setupGroth16(ccs, "one", true)
	if err != nil {
		t.Fatal(err)
	}
	w, err := frontend.NewWitness(&tinyCommitCircuit{X: [4]frontend.Variable{1, 2, 3, 4}, Y: 0}, ecc.BN254.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	proof, err := groth16.Prove(ccs, pk, w, solidity.WithProverTargetSolidityVerifier(backend.GROTH16))
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := w.Public()
	if err := groth16.Verify(proof, vk, pub, solidity.WithVerifierTargetSolidityVerifier(backend.GROTH16)); err != nil {
		t.Fatal(err)
	}
	pubFr := []fr.Element(pub.Vector().(fr.Vector))
	call, err := newSolidityCall(proof, pubFr)
	if err != nil {
		t.Fatal(err)
	}
	if call.Signature != "verifyProof(uint256[8],uint256[2],uint256[2],uint256[4])" {
		t.Errorf("signature %s", call.Signature)
	}
	// the words against gnark's own Solidity serialization: A|B|C (8 words),
	// the commitments, the proof of knowledge (v0.16 no longer writes the
	// 4-byte commitment count v0.14 put after C)
	want := proof.(interface{ MarshalSolidity() []byte }).MarshalSolidity()
	if len(want) != 8*32+2*32+2*32 {
		t.Fatalf("MarshalSolidity: %d bytes", len(want))
	}
	data, err := hex.DecodeString(strings.TrimPrefix(call.Calldata, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 4+32*(8+2+2+4) {
		t.Fatalf("calldata: %d bytes", len(data))
	}
	if !bytes.Equal(data[4:4+len(want)], want) {
		t.Fatalf("calldata words differ from MarshalSolidity")
	}
	for i := range pubFr {
		x := pubFr[i].Bytes()
		if !bytes.Equal(data[4+len(want)+32*i:4+len(want)+32*(i+1)], x[:]) {
			t.Fatalf("public input %d differs", i)
		}
	}
	var sol bytes.Buffer
	if err := vk.ExportSolidity(&sol); err != nil {
		t.Fatal(err)
	}
	// gnark v0.16's template takes the proof as bytes (MarshalSolidity's):
	// another ABI than ours
	if !strings.Contains(sol.String(), "function verifyProof(\n        bytes calldata proof,\n        uint256[4] calldata input") {
		t.Errorf("Verifier.sol's verifyProof does not have the expected parameters")
	}
	if !strings.Contains(sol.String(), "keccak256(") {
		t.Errorf("Verifier.sol does not hash the commitment with keccak256")
	}
	t.Logf("%s selector %s, %d bytes of calldata", call.Signature, call.Selector, len(data))
}

// A program whose statement is not what the Groth16 proof states is refused:
// public instances out of order (a contract builds the words in the
// instances' order), or a private instance that is not a limb of a point (the
// prover's free choice, bound by nothing).
func TestProgramStatementIsPublic(t *testing.T) {
	var raw map[string]any
	if err := json.Unmarshal(SyntheticProgram(), &raw); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		public []int
		want   string
	}{
		"honest":           {[]int{12, 13}, ""},
		"a limb public":    {[]int{0, 12, 13}, ""},
		"out of order":     {[]int{13, 12}, "increasing order"},
		"a word private":   {[]int{12}, "instance 13 is neither a public input nor a limb"},
		"no public inputs": {[]int{}, "instance 12 is neither a public input nor a limb"},
	} {
		raw["public_instances"] = c.public
		data, err := json.Marshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ParseProgram(data)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: want an error with %q, got %v", name, c.want, err)
		}
	}
}
