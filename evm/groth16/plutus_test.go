package main

import (
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark/backend/groth16"
	groth16bls12381 "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/frontend"
)

// TestPlutusVerifierTwin: the toy circuit's seeded BLS12-381 proof is
// accepted by gnark (with the Plutus hash-to-field) and by the twin of the
// Plutus verifier; the twin refuses a changed input, A, C or Com replaced by
// another valid point, and a proof whose PoK is wrong while its Groth16
// equation holds (Pok + G: gnark refuses it too); the key is refused before
// re-keying (G random, not γ); the seeded setup is reproducible.
func TestPlutusVerifierTwin(t *testing.T) {
	ccs, pk, vk, err := plutusToySetup("plutus twin test", false)
	if err != nil {
		t.Fatal(err)
	}
	key, err := newPlutusKey(vk, "INSECURE seeded: plutus twin test")
	if err != nil {
		t.Fatal(err)
	}
	w, m, th := big.NewInt(5), big.NewInt(123456789), big.NewInt(3)
	proof, err := plutusToyProve(ccs, pk, vk, false, w, m, th)
	if err != nil {
		t.Fatal(err)
	}
	b, err := plutusProofBytes(proof)
	if err != nil {
		t.Fatal(err)
	}
	public := []*big.Int{big.NewInt(25), m, th}
	if err := plutusVerify(key, b, public); err != nil {
		t.Fatalf("honest proof refused: %v", err)
	}
	if err := plutusVerify(key, b, []*big.Int{big.NewInt(25), big.NewInt(123456790), th}); err == nil {
		t.Fatal("another message accepted")
	}
	_, _, g1, _ := bls12381.Generators()
	replace := func(off int) []byte {
		var p bls12381.G1Affine
		if _, err := p.SetBytes(b[off : off+48]); err != nil {
			t.Fatal(err)
		}
		p.Add(&p, &g1)
		c := append([]byte{}, b...)
		e := p.Bytes()
		copy(c[off:], e[:])
		return c
	}
	for name, off := range map[string]int{"A": 0, "C": 144, "Com": 192} {
		if err := plutusVerify(key, replace(off), public); err == nil {
			t.Fatalf("%s replaced by another valid point accepted", name)
		}
	}
	// Pok + G: the Groth16 equation does not read Pok, so only the folded
	// PoK refuses it.
	bad := replace(240)
	if err := plutusVerify(key, bad, public); err == nil {
		t.Fatal("a wrong proof of knowledge accepted")
	}
	gp := proof.(*groth16bls12381.Proof)
	gp.CommitmentPok.Add(&gp.CommitmentPok, &g1)
	pub, err := newToyPublic(t, public)
	if err != nil {
		t.Fatal(err)
	}
	if err := groth16.Verify(gp, vk, pub, plutusVerifyOptions()...); err == nil {
		t.Fatal("gnark accepts the wrong proof of knowledge")
	}
	// The key as gnark made it (G random) is refused.
	_, _, vk2, err := func() (any, any, groth16.VerifyingKey, error) {
		var vk groth16.VerifyingKey
		err := withSetupRandomness("plutus twin test", func() error {
			var err error
			_, vk, err = groth16.Setup(ccs)
			return err
		})
		return nil, nil, vk, err
	}()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newPlutusKey(vk2, "x"); err == nil {
		t.Fatal("a key whose commitment G is not γ accepted")
	}
	_, _, vk3, err := plutusToySetup("plutus twin test", false)
	if err != nil {
		t.Fatal(err)
	}
	key3, _ := newPlutusKey(vk3, "INSECURE seeded: plutus twin test")
	if key3.Delta != key.Delta || key3.CommitmentSigma != key.CommitmentSigma {
		t.Fatal("the seeded setup is not reproducible")
	}
}

func newToyPublic(t *testing.T, public []*big.Int) (witness.Witness, error) {
	t.Helper()
	return frontend.NewWitness(&plutusToyCircuit{Commitment: public[0], Message: public[1], Threshold: public[2]},
		ecc.BLS12_381.ScalarField(), frontend.PublicOnly())
}

// TestPlutusFixture: tms-cardano's committed fixtures
// (cardano/tests/fixtures/groth16-toy{,-hashed}.json) are what plutus-fixture
// makes: each proof passes the Plutus verifier's twin for its statement, and
// the key is the seeded setup's (for the hashed circuit only with
// TMS_PLUTUS_FIXTURE_SETUP=1: its setup takes minutes).
func TestPlutusFixture(t *testing.T) {
	for _, hashed := range []bool{false, true} {
		name := map[bool]string{false: "groth16-toy.json", true: "groth16-toy-hashed.json"}[hashed]
		t.Run(name, func(t *testing.T) { checkPlutusFixture(t, "../../cardano/tests/fixtures/"+name, hashed) })
	}
}

func checkPlutusFixture(t *testing.T, path string, hashed bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip("fixture absent: ", err)
	}
	var fx plutusFixture
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	if hashed && os.Getenv("TMS_PLUTUS_FIXTURE_SETUP") == "" {
		// The hashed circuit's setup (keccak in circuit, about 240 k
		// constraints) takes minutes: its proofs are checked against the
		// fixture's own key, the key against the setup only on request.
		for i, p := range fx.Proofs {
			checkPlutusFixtureProof(t, fx.Key, i, p)
		}
		return
	}
	_, _, vk, err := plutusToySetup("tms plutus groth16 toy", hashed)
	if err != nil {
		t.Fatal(err)
	}
	key, err := newPlutusKey(vk, "INSECURE seeded: tms plutus groth16 toy")
	if err != nil {
		t.Fatal(err)
	}
	if hashed {
		key.StatementHash, key.StatementWords = StatementKeccak256, 3
	}
	if !reflect.DeepEqual(key, fx.Key) {
		t.Fatal("the fixture's key is not the seeded setup's: remake it with plutus-fixture")
	}
	if len(fx.Proofs) == 0 {
		t.Fatal("the fixture has no proofs")
	}
	for i, p := range fx.Proofs {
		checkPlutusFixtureProof(t, key, i, p)
	}
}

func checkPlutusFixtureProof(t *testing.T, key *plutusKey, i int, p plutusFixtureProof) {
	b, err := hex.DecodeString(p.Proof)
	if err != nil {
		t.Fatal(err)
	}
	var public []*big.Int
	for _, s := range p.Public {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatalf("proof %d: input %q", i, s)
		}
		public = append(public, v)
	}
	if err := plutusVerify(key, b, public); err != nil {
		t.Fatalf("proof %d refused: %v", i, err)
	}
}

// TestKeptProvingKey: a seeded setup's proving key written by writeProvingKey
// (program-prove-bls -keep-pk, ceremony-extract -pk: gnark's memory dump) reads
// back with readProvingKey (-pk: nothing converted or checked) and proves what
// the twin of the Plutus verifier accepts under the setup's key, and so does
// one in gnark's raw serialisation (writeRawFile, the format -keep-pk wrote
// before); a file cut short, or with a byte after the key, is refused when read. Why skipping the checks is safe: with one point of the key
// moved off the curve (or to another point), what the key proves is refused by
// the setup's key, whichever step notices first.
func TestKeptProvingKey(t *testing.T) {
	ccs, pk, vk, err := plutusToySetup("kept pk test", false)
	if err != nil {
		t.Fatal(err)
	}
	key, err := newPlutusKey(vk, "INSECURE seeded: kept pk test")
	if err != nil {
		t.Fatal(err)
	}
	w, m, th := big.NewInt(5), big.NewInt(42), big.NewInt(3)
	path := filepath.Join(t.TempDir(), "kept.pk")
	for _, write := range []func() error{
		func() error { return writeRawFile(path, pk) },
		func() error { return writeProvingKey(path, pk) }, // last: the file altered below
	} {
		if err := write(); err != nil {
			t.Fatal(err)
		}
		kept := groth16.NewProvingKey(ecc.BLS12_381)
		if err := readProvingKey(path, kept); err != nil {
			t.Fatal(err)
		}
		proof, err := plutusToyProve(ccs, kept, vk, false, w, m, th)
		if err != nil {
			t.Fatal(err)
		}
		b, err := plutusProofBytes(proof)
		if err != nil {
			t.Fatal(err)
		}
		if err := plutusVerify(key, b, []*big.Int{big.NewInt(25), m, th}); err != nil {
			t.Fatalf("a proof under the kept key refused: %v", err)
		}
	}
	if dump, err := isDump(path); err != nil || !dump {
		t.Fatalf("writeProvingKey did not write a dump (%v)", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := readProvingKey(path, groth16.NewProvingKey(ecc.BLS12_381)); err == nil {
		t.Fatal("a kept key cut short read back")
	}
	if err := os.WriteFile(path, append(data, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := readProvingKey(path, groth16.NewProvingKey(ecc.BLS12_381)); err == nil {
		t.Fatal("a kept key with a trailing byte read back")
	}
	// One byte of a point changed, at a quarter, half and three quarters of the
	// file (the G1 and G2 point tables): read back unchecked, and what it proves
	// refused by the setup's key (gnark's verifier inside plutusToyProve, then
	// the Plutus twin).
	readBack := 0
	for _, at := range []int{len(data) / 4, len(data) / 2, 3 * len(data) / 4} {
		altered := append([]byte(nil), data...)
		altered[at] ^= 0x10
		if err := os.WriteFile(path, altered, 0o644); err != nil {
			t.Fatal(err)
		}
		bad := groth16.NewProvingKey(ecc.BLS12_381)
		if err := readProvingKey(path, bad); err != nil {
			continue // refused when read
		}
		readBack++
		t.Logf("altered at %d of %d: read back", at, len(data))
		proof, err := plutusToyProve(ccs, bad, vk, false, w, m, th)
		if err != nil {
			t.Logf("refused: %v", err)
			continue // refused by the setup's verifying key
		}
		b, err := plutusProofBytes(proof)
		if err != nil {
			continue // a point that does not encode
		}
		if plutusVerify(key, b, []*big.Int{big.NewInt(25), m, th}) == nil {
			t.Fatalf("a proof under a key altered at byte %d of %d accepted", at, len(data))
		}
	}
	if readBack == 0 {
		t.Fatal("no altered key was read back: the unchecked read was not exercised")
	}
}
