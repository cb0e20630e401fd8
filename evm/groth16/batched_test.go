package main

import (
	"bytes"
	"errors"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/pedersen"
	"github.com/consensys/gnark/backend"
	"github.com/consensys/gnark/backend/groth16"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"github.com/consensys/gnark/backend/solidity"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/math/emulated"
)

// A tiny circuit with one emulated multiplication (BN254's base field, so
// one BSB22 commitment to private limbs, none to a public input) and one
// public input: A B == C in Fq, X != 0.
type tinyEmulatedCircuit struct {
	X       frontend.Variable `gnark:",public"`
	A, B, C emulated.Element[emulated.BN254Fp]
}

func (c *tinyEmulatedCircuit) Define(api frontend.API) error {
	f, err := emulated.NewField[emulated.BN254Fp](api)
	if err != nil {
		return err
	}
	f.AssertIsEqual(f.Mul(&c.A, &c.B), &c.C)
	api.AssertIsDifferent(c.X, 0)
	return nil
}

func tinyEmulatedAssignment() *tinyEmulatedCircuit {
	a, b := big.NewInt(123456789), new(big.Int).Sub(fp.Modulus(), big.NewInt(987654321))
	c := new(big.Int).Mul(a, b)
	c.Mod(c, fp.Modulus())
	return &tinyEmulatedCircuit{X: 7, A: emulated.ValueOf[emulated.BN254Fp](a),
		B: emulated.ValueOf[emulated.BN254Fp](b), C: emulated.ValueOf[emulated.BN254Fp](c)}
}

// sharedSetup is one shared-G2 setup and proof of a circuit, with the
// original commitment keys kept.
type sharedSetup struct {
	ccs            constraint.ConstraintSystem
	pk             *groth16bn254.ProvingKey
	vk             *groth16bn254.VerifyingKey
	origPK         []pedersen.ProvingKey
	origVK         []pedersen.VerifyingKey
	wit            witness.Witness
	pub            witness.Witness
	proof          *groth16bn254.Proof
	call           *solidityCall
	words          *proofWords
	key            *batchedKey
	nbCommitted    int
	nbCommitPublic int
}

func newSharedSetup(t *testing.T, circuit, assignment frontend.Circuit, seed string) *sharedSetup {
	t.Helper()
	s := &sharedSetup{}
	var err error
	if s.ccs, err = frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, circuit); err != nil {
		t.Fatal(err)
	}
	var pk groth16.ProvingKey
	var vk groth16.VerifyingKey
	if err := withSetupRandomness(seed, func() (err error) {
		if pk, vk, err = groth16.Setup(s.ccs); err != nil {
			return err
		}
		s.origPK, s.origVK, err = shareCommitmentG2(pk, vk)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	s.pk, s.vk = pk.(*groth16bn254.ProvingKey), vk.(*groth16bn254.VerifyingKey)
	if s.wit, err = frontend.NewWitness(assignment, ecc.BN254.ScalarField()); err != nil {
		t.Fatal(err)
	}
	if s.pub, err = s.wit.Public(); err != nil {
		t.Fatal(err)
	}
	s.proof = s.prove(t, s.pk)
	if s.call, err = newSolidityCall(s.proof, s.pub.Vector().(fr.Vector)); err != nil {
		t.Fatal(err)
	}
	if s.words, err = s.call.words(); err != nil {
		t.Fatal(err)
	}
	if s.key, err = newBatchedKey(s.vk); err != nil {
		t.Fatal(err)
	}
	cm := s.ccs.GetCommitments().(constraint.Groth16Commitments)
	s.nbCommitted, s.nbCommitPublic = len(cm[0].PrivateCommitted), len(cm[0].PublicAndCommitmentCommitted)
	return s
}

func (s *sharedSetup) prove(t *testing.T, pk *groth16bn254.ProvingKey) *groth16bn254.Proof {
	t.Helper()
	proof, err := groth16.Prove(s.ccs, pk, s.wit, solidity.WithProverTargetSolidityVerifier(backend.GROTH16))
	if err != nil {
		t.Fatal(err)
	}
	return proof.(*groth16bn254.Proof)
}

func (s *sharedSetup) verify(proof *groth16bn254.Proof, vk *groth16bn254.VerifyingKey) error {
	return groth16.Verify(proof, vk, s.pub, solidity.WithVerifierTargetSolidityVerifier(backend.GROTH16))
}

// withCommitmentKeys is a shallow copy of a key with other commitment keys.
func (s *sharedSetup) pkWith(keys []pedersen.ProvingKey) *groth16bn254.ProvingKey {
	c := *s.pk
	c.CommitmentKeys = keys
	return &c
}

func (s *sharedSetup) vkWith(keys []pedersen.VerifyingKey) *groth16bn254.VerifyingKey {
	c := *s.vk
	c.CommitmentKeys = keys
	return &c
}

func TestSharedG2Setup(t *testing.T) {
	s := newSharedSetup(t, &tinyEmulatedCircuit{}, tinyEmulatedAssignment(), "shared")
	t.Logf("tiny emulated circuit: %d constraints, %d committed private wires, %d committed public, %d public inputs",
		s.ccs.GetNbConstraints(), s.nbCommitted, s.nbCommitPublic, s.key.NumInputs())
	var gammaNeg bn254.G2Affine
	gammaNeg.Neg(&s.vk.G2.Gamma)
	if !s.vk.CommitmentKeys[0].G.Equal(&gammaNeg) {
		t.Fatalf("the shared key's Pedersen G is not -gamma")
	}
	if s.origVK[0].G.Equal(&gammaNeg) || s.origVK[0].GSigmaNeg.Equal(&s.vk.CommitmentKeys[0].GSigmaNeg) {
		t.Fatalf("the original and shared Pedersen keys coincide")
	}
	if &s.pk.CommitmentKeys[0].Basis[0] != &s.origPK[0].Basis[0] {
		t.Fatalf("the shared proving key does not commit over gnark's basis")
	}

	// reproducible with the seed; another seed gives another key
	vkBytes := func(seed string, shared bool) []byte {
		_, vk, err := setupGroth16(s.ccs, seed, shared)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := vk.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	var mine bytes.Buffer
	if _, err := s.vk.WriteTo(&mine); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(vkBytes("shared", true), mine.Bytes()) || bytes.Equal(vkBytes("other", true), mine.Bytes()) {
		t.Fatalf("the seeded shared-G2 setup is not reproducible, or two seeds agree")
	}
	stock := vkBytes("shared", false)
	if bytes.Equal(stock, mine.Bytes()) {
		t.Fatalf("-shared-g2=false gives the shared key")
	}
	_, stockVK, _ := setupGroth16(s.ccs, "shared", false)
	if _, err := newBatchedKey(stockVK); err == nil {
		t.Fatalf("the batched verifier takes a key without the shared G2 point")
	}

	// gnark's own verifier: the shared proof accepted, refused under the
	// original commitment keys; a proof made with the original keys mixed in
	// accepted by the original keys (so it is a proof) and refused by the
	// shared ones
	if err := s.verify(s.proof, s.vk); err != nil {
		t.Fatalf("gnark's verifier refuses the shared-G2 proof: %v", err)
	}
	if err := s.verify(s.proof, s.vkWith(s.origVK)); err == nil {
		t.Fatalf("the shared-G2 proof verifies under the original commitment keys")
	}
	orig := s.prove(t, s.pkWith(s.origPK))
	if err := s.verify(orig, s.vkWith(s.origVK)); err != nil {
		t.Fatalf("the original keys refuse their own proof: %v", err)
	}
	if err := s.verify(orig, s.vk); err == nil {
		t.Fatalf("a proof made with the original commitment keys verifies under the shared ones")
	}
	// the same through the batched twin
	oc, err := newSolidityCall(orig, s.pub.Vector().(fr.Vector))
	if err != nil {
		t.Fatal(err)
	}
	ow, err := oc.words()
	if err != nil {
		t.Fatal(err)
	}
	g16, pok, err := s.key.equations(ow)
	if err != nil || !g16 || pok {
		t.Fatalf("original-keys proof: Groth16 equation %v, PoK equation %v (want true, false), %v", g16, pok, err)
	}
	if err := s.key.VerifyBatched(ow); !errors.Is(err, errProofInvalid) {
		t.Fatalf("the batched twin does not refuse a proof made with the original commitment keys: %v", err)
	}
}

// g1Word and friends change one point of the words to another valid point.
func addGenerator(w *proofWords, x, y **big.Int) {
	_, _, g, _ := bn254.Generators()
	var p bn254.G1Affine
	p.X.SetBigInt(*x)
	p.Y.SetBigInt(*y)
	p.Add(&p, &g)
	*x, *y = p.X.BigInt(new(big.Int)), p.Y.BigInt(new(big.Int))
}

func TestBatchedVerifier(t *testing.T) {
	for _, c := range []struct {
		name                string
		circuit, assignment frontend.Circuit
	}{
		{"emulated-mul", &tinyEmulatedCircuit{}, tinyEmulatedAssignment()},
		{"commit-to-public", &tinyCommitCircuit{}, &tinyCommitCircuit{X: [4]frontend.Variable{1, 2, 3, 4}, Y: 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSharedSetup(t, c.circuit, c.assignment, "batched "+c.name)
			t.Logf("%d constraints, %d committed private wires, %d committed public inputs (hashed with Com: %v), %d public inputs",
				s.ccs.GetNbConstraints(), s.nbCommitted, s.nbCommitPublic, s.key.Committed, s.key.NumInputs())
			if err := s.verify(s.proof, s.vk); err != nil {
				t.Fatalf("gnark's verifier refuses the proof: %v", err)
			}
			if err := s.key.VerifyBatched(s.words); err != nil {
				t.Fatalf("honest proof refused: %v", err)
			}
			g16, pok, err := s.key.equations(s.words)
			if err != nil || !g16 || !pok {
				t.Fatalf("honest proof: Groth16 equation %v, PoK equation %v, %v", g16, pok, err)
			}
			// h is gnark's: the commitment's wire value as the prover computed it
			// (keccak256 of Com and the committed public inputs, mod r)
			wantH := s.hashWire(t)
			if got := s.key.commitmentHash(s.words); got.Cmp(wantH) != 0 {
				t.Fatalf("h = %s, the prover's commitment wire = %s", got, wantH)
			}

			refused := func(what string, want error, change func(w *proofWords)) {
				t.Helper()
				w := s.words.clone()
				change(w)
				err := s.key.VerifyBatched(w)
				if err == nil {
					t.Fatalf("%s: accepted", what)
				}
				if want != nil && !errors.Is(err, want) {
					t.Fatalf("%s: refused with %v, want %v", what, err, want)
				}
			}
			refused("A changed", errProofInvalid, func(w *proofWords) { addGenerator(w, &w.Proof[0], &w.Proof[1]) })
			refused("C changed", errProofInvalid, func(w *proofWords) { addGenerator(w, &w.Proof[6], &w.Proof[7]) })
			refused("B changed", errProofInvalid, func(w *proofWords) {
				q, _ := g2(w.Proof[2], w.Proof[3], w.Proof[4], w.Proof[5])
				_, _, _, g := bn254.Generators()
				q.Add(&q, &g)
				sq := newSolG2(&q)
				for i, v := range []string{sq.X1, sq.X0, sq.Y1, sq.Y0} {
					w.Proof[2+i], _ = new(big.Int).SetString(v, 10)
				}
			})
			refused("Com changed", errProofInvalid, func(w *proofWords) { addGenerator(w, &w.Commitments[0], &w.Commitments[1]) })
			refused("Pok changed", errProofInvalid, func(w *proofWords) { addGenerator(w, &w.CommitmentPok[0], &w.CommitmentPok[1]) })
			refused("input 0 changed", errProofInvalid, func(w *proofWords) { w.Input[0].Add(w.Input[0], big.NewInt(1)) })
			refused("input 0 + r (the same scalar, not canonical)", errPublicInputNotInField, func(w *proofWords) { w.Input[0].Add(w.Input[0], fr.Modulus()) })
			refused("Com.x + p", errInvalidPoint, func(w *proofWords) { w.Commitments[0].Add(w.Commitments[0], fp.Modulus()) })
			refused("Com off the curve", errInvalidPoint, func(w *proofWords) { w.Commitments[1].Add(w.Commitments[1], big.NewInt(1)) })
			refused("Pok off the curve", errInvalidPoint, func(w *proofWords) { w.CommitmentPok[1].Add(w.CommitmentPok[1], big.NewInt(1)) })
			refused("A off the curve", errProofInvalid, func(w *proofWords) { w.Proof[1].Add(w.Proof[1], big.NewInt(1)) })

			// The point of batching: a proof whose Groth16 equation holds but
			// whose PoK is wrong. The PoK is not in the Groth16 equation, so any
			// other Pok (here Pok + G) keeps it; gnark's verifier refuses it with
			// its separate PoK pairing, the batched one within its single check.
			w := s.words.clone()
			addGenerator(w, &w.CommitmentPok[0], &w.CommitmentPok[1])
			g16, pok, err = s.key.equations(w)
			if err != nil || !g16 || pok {
				t.Fatalf("wrong Pok: Groth16 equation %v, PoK equation %v (want true, false), %v", g16, pok, err)
			}
			if err := s.key.VerifyBatched(w); !errors.Is(err, errProofInvalid) {
				t.Fatalf("wrong Pok with the Groth16 equation holding: %v", err)
			}
			bad := *s.proof
			bad.CommitmentPok.X.SetBigInt(w.CommitmentPok[0])
			bad.CommitmentPok.Y.SetBigInt(w.CommitmentPok[1])
			if err := s.verify(&bad, s.vk); err == nil {
				t.Fatalf("gnark's verifier accepts a wrong Pok")
			}
			// and one whose Com is 0 with Pok 0 (the PoK equation then holds
			// trivially) fails the Groth16 equation
			w = s.words.clone()
			w.Commitments[0], w.Commitments[1] = new(big.Int), new(big.Int)
			w.CommitmentPok[0], w.CommitmentPok[1] = new(big.Int), new(big.Int)
			if g16, pok, err = s.key.equations(w); err != nil || g16 || !pok {
				t.Fatalf("zero Com and Pok: Groth16 equation %v, PoK equation %v (want false, true), %v", g16, pok, err)
			}
			if err := s.key.VerifyBatched(w); !errors.Is(err, errProofInvalid) {
				t.Fatalf("zero Com and Pok: %v", err)
			}
		})
	}
}

// hashWire is the value the prover gave the commitment wire (gnark's
// hash-to-field of the commitment), recomputed with gnark's verifier's
// formula (verify.go: keccak256 of Com's 64-byte encoding and the committed
// public inputs, SetBytes mod r).
func (s *sharedSetup) hashWire(t *testing.T) *big.Int {
	t.Helper()
	pub := s.pub.Vector().(fr.Vector)
	data := s.proof.Commitments[0].Marshal()
	for _, idx := range s.vk.PublicAndCommitmentCommitted[0] {
		b := pub[idx-1].Bytes()
		data = append(data, b[:]...)
	}
	var e fr.Element
	e.SetBytes(keccak256(data))
	return e.BigInt(new(big.Int))
}

func TestGroth16VerifierSolidity(t *testing.T) {
	for _, c := range []struct {
		name                string
		circuit, assignment frontend.Circuit
	}{
		{"emulated-mul", &tinyEmulatedCircuit{}, tinyEmulatedAssignment()},
		{"commit-to-public", &tinyCommitCircuit{}, &tinyCommitCircuit{X: [4]frontend.Variable{1, 2, 3, 4}, Y: 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSharedSetup(t, c.circuit, c.assignment, "solidity "+c.name)
			var ours, stock bytes.Buffer
			if err := ExportBatchedSolidity(&ours, s.vk, setupDescription("test"), "atms"); err != nil {
				t.Fatal(err)
			}
			if err := s.vk.ExportSolidity(&stock); err != nil {
				t.Fatal(err)
			}
			n := s.key.NumInputs()
			want := "    function verifyProof(\n        uint256[8] calldata proof,\n        uint256[2] calldata commitments,\n        uint256[2] calldata commitmentPok,\n        uint256[" +
				big.NewInt(int64(n)).String() + "] calldata input\n    )"
			if !strings.Contains(ours.String(), want+" external view {") {
				t.Fatalf("Groth16Verifier.sol: verifyProof's parameters differ from\n%s", want)
			}
			// gnark v0.16's own template takes the proof as bytes: not our ABI
			stockWant := "function verifyProof(\n        bytes calldata proof,\n        uint256[" +
				big.NewInt(int64(n)).String() + "] calldata input\n    ) public view {"
			if !strings.Contains(stock.String(), stockWant) {
				t.Fatalf("gnark's Verifier.sol: verifyProof's parameters differ from\n%s", stockWant)
			}
			if got := verifyProofSignature(n); got != s.call.Signature || selector(got) != s.call.Selector {
				t.Fatalf("signature %s selector %s, the call's %s %s", got, selector(got), s.call.Signature, s.call.Selector)
			}
			if !strings.Contains(ours.String(), `string public constant SETUP = "INSECURE seeded: test";`) {
				t.Fatalf("Groth16Verifier.sol does not name its setup")
			}
			if ExportBatchedSolidity(io.Discard, s.vk, `a "quoted" setup`, "atms") == nil {
				t.Fatalf("a setup description with quotes accepted")
			}
			if !strings.Contains(ours.String(), `string public constant STATEMENT_KIND = "atms";`) {
				t.Fatalf("Groth16Verifier.sol does not say what its key proves")
			}
			// a verifier that does not say what its key proves could stand behind
			// any contract of the same word count: never exported
			for _, kind := range []string{"", "batch", `atms"; uint x = 1; "`} {
				if ExportBatchedSolidity(io.Discard, s.vk, setupDescription("test"), kind) == nil {
					t.Fatalf("statement kind %q accepted", kind)
				}
			}
			if !strings.Contains(ours.String(), "contract Groth16Verifier {") || strings.Count(ours.String(), "staticcall(gas(), PRECOMPILE_PAIRING") != 1 {
				t.Fatalf("Groth16Verifier.sol: not one contract Groth16Verifier with one pairing call")
			}
			// program-export's path: the key through gnark's encoding gives the same contract
			var enc bytes.Buffer
			if _, err := s.vk.WriteTo(&enc); err != nil {
				t.Fatal(err)
			}
			back := groth16.NewVerifyingKey(ecc.BN254)
			if _, err := back.ReadFrom(&enc); err != nil {
				t.Fatal(err)
			}
			var again bytes.Buffer
			if err := ExportBatchedSolidity(&again, back, setupDescription("test"), "atms"); err != nil {
				t.Fatal(err)
			}
			if again.String() != ours.String() {
				t.Fatalf("Groth16Verifier.sol from the re-read key differs")
			}
			// program-export refuses the INSECURE key (its FILE.setup says so)
			// without -insecure-test-key
			vkPath := filepath.Join(t.TempDir(), "vk")
			if err := writeVK(vkPath, s.vk); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(vkPath+".setup", []byte(setupDescription("test")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			err := programExport([]string{"-vk", vkPath, "-program", "testdata/twin_k10.program.json", "-out", t.TempDir()})
			if err == nil || !strings.Contains(err.Error(), "INSECURE") {
				t.Fatalf("program-export of an INSECURE key without -insecure-test-key: %v", err)
			}
		})
	}
}
