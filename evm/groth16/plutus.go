package main

// Groth16 over BLS12-381 for Cardano (issue 47): the keys and proofs that
// tms-cardano's generated Plutus verifier (cardano/src/plutus/groth16.rs)
// reads, and a small test circuit that makes its CI fixtures.
//
// What the Plutus verifier checks, for a key with exactly one BSB22
// commitment whose Pedersen G2 point G is +γ (gnark's mpcsetup ceremony
// gives that; a seeded test setup is re-keyed to it by rekeyCommitmentGamma):
//
//	h = blake2b-256(compress(Com) || committed public inputs, 32 bytes BE) read BE mod r
//	L = K0 + Σ x_i K_i + h K_(N+1) + Com
//	ρ = blake2b-256(proof bytes || public inputs, 32 bytes BE each) read BE mod r, refused when 0
//	e(A, B) e(ρ Com, GSigmaNeg) == e(α, β) e(L - ρ Pok, γ) e(C, δ)
//
// which is gnark's Groth16 equation times its PoK equation raised to ρ: the
// batching argument of batched.go, word for word, over BLS12-381 (every
// point is uncompressed, so subgroup-checked, by the Plutus builtins).
//
// h is gnark's commitment hash with our hash-to-field function
// (plutusCommitmentHash): gnark writes the commitment uncompressed, which
// Plutus cannot serialise, so the hash compresses it first.

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	frbls "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	pedersenbls "github.com/consensys/gnark-crypto/ecc/bls12-381/fr/pedersen"
	"github.com/consensys/gnark/backend"
	"github.com/consensys/gnark/backend/groth16"
	groth16bls12381 "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/multicommit"
	"golang.org/x/crypto/blake2b"
)

// plutusCommitmentHash is the BSB22 commitment's hash-to-field for the
// Plutus verifier: blake2b-256 of the commitment compressed (48 bytes, the
// ZCash encoding the Plutus builtins use) followed by what gnark writes
// after it (the committed public inputs, 32 bytes big-endian each). gnark
// writes the commitment uncompressed (96 bytes); the digest is read
// big-endian mod r by gnark (fr.SetBytes) and by the script.
type plutusCommitmentHash struct{ buf []byte }

func newPlutusCommitmentHash() hash.Hash { return &plutusCommitmentHash{} }

func (h *plutusCommitmentHash) Write(p []byte) (int, error) {
	h.buf = append(h.buf, p...)
	return len(p), nil
}

func (h *plutusCommitmentHash) Sum(b []byte) []byte {
	d := blake2b.Sum256(compressedCommitmentPrehash(h.buf))
	return append(b, d[:]...)
}

// compressedCommitmentPrehash replaces gnark's uncompressed commitment (the
// first 96 bytes) by its compressed encoding. A prefix that is not a point
// (gnark never writes one) is hashed as it is.
func compressedCommitmentPrehash(buf []byte) []byte {
	if len(buf) < bls12381.SizeOfG1AffineUncompressed {
		return buf
	}
	var p bls12381.G1Affine
	if _, err := p.SetBytes(buf[:bls12381.SizeOfG1AffineUncompressed]); err != nil {
		return buf
	}
	c := p.Bytes()
	return append(c[:], buf[bls12381.SizeOfG1AffineUncompressed:]...)
}

func (h *plutusCommitmentHash) Reset()         { h.buf = nil }
func (h *plutusCommitmentHash) Size() int      { return 32 }
func (h *plutusCommitmentHash) BlockSize() int { return 128 }

// plutusToyCircuit is a TEST circuit with the Schnorr ATMS's statement shape
// (commitment, message, threshold), for the Plutus verifier's CI fixtures:
// W² = Commitment, Message·W = MW (so the message is bound), Threshold != 0,
// and one BSB22 commitment to W and MW used in a constraint (as gnark's
// emulated arithmetic uses its commitment). It certifies nothing.
type plutusToyCircuit struct {
	Commitment frontend.Variable `gnark:",public"`
	Message    frontend.Variable `gnark:",public"`
	Threshold  frontend.Variable `gnark:",public"`
	W, MW      frontend.Variable
}

func (c *plutusToyCircuit) Define(api frontend.API) error {
	return plutusToyRelation(api, c.Commitment, c.Message, c.Threshold, c.W, c.MW)
}

// plutusToyHashedCircuit is plutusToyCircuit with a hashed statement: its one
// public input is keccak256 of (commitment, message, threshold), 32 bytes
// big-endian each, mod r (statementKeccakCircuit of hashed.go, over
// BLS12-381's Fr), the words private. A TEST circuit as well.
type plutusToyHashedCircuit struct {
	StatementHash                  frontend.Variable `gnark:",public"`
	Commitment, Message, Threshold frontend.Variable
	W, MW                          frontend.Variable
}

func (c *plutusToyHashedCircuit) Define(api frontend.API) error {
	h, err := statementKeccakCircuit(api, []frontend.Variable{c.Commitment, c.Message, c.Threshold})
	if err != nil {
		return err
	}
	api.AssertIsEqual(h, c.StatementHash)
	return plutusToyRelation(api, c.Commitment, c.Message, c.Threshold, c.W, c.MW)
}

// plutusStatementKeccak is statementKeccak over BLS12-381's Fr: keccak256 of
// the words, 32 bytes big-endian each, read big-endian mod r.
func plutusStatementKeccak(words []*big.Int) *big.Int {
	var data []byte
	for _, w := range words {
		data = append(data, word32(w)...)
	}
	h := new(big.Int).SetBytes(keccak256(data))
	return h.Mod(h, frbls.Modulus())
}

func plutusToyRelation(api frontend.API, commitment, message, threshold, w, mw frontend.Variable) error {
	c := struct{ Commitment, Message, Threshold, W, MW frontend.Variable }{commitment, message, threshold, w, mw}
	api.AssertIsEqual(api.Mul(c.W, c.W), c.Commitment)
	api.AssertIsEqual(api.Mul(c.Message, c.W), c.MW)
	api.AssertIsDifferent(c.Threshold, 0)
	// One BSB22 commitment to W and MW, shared (std/multicommit) with any
	// other committing gadget (the hashed circuit's keccak). (W + ch)² = W² +
	// 2 ch W + ch²: true for every ch, so the commitment enters a constraint
	// without changing the relation.
	multicommit.WithCommitment(api, func(api frontend.API, ch frontend.Variable) error {
		s := api.Add(c.W, ch)
		api.AssertIsEqual(api.Mul(s, s), api.Add(c.Commitment, api.Mul(2, ch, c.W), api.Mul(ch, ch)))
		return nil
	}, c.W, c.MW)
	return nil
}

// rekeyCommitmentGamma replaces a BLS12-381 key pair's commitment keys by
// new ones over the same bases whose G2 point G is +γ (what gnark's
// mpcsetup gives), σ read from crypto/rand.Reader (the seeded stream during a
// seeded setup): then the PoK's pair with G joins the Groth16 pair with γ.
func rekeyCommitmentGamma(pk groth16.ProvingKey, vk groth16.VerifyingKey) error {
	pkb, ok := pk.(*groth16bls12381.ProvingKey)
	if !ok {
		return fmt.Errorf("proving key of type %T, want BLS12-381", pk)
	}
	vkb, ok := vk.(*groth16bls12381.VerifyingKey)
	if !ok {
		return fmt.Errorf("verifying key of type %T, want BLS12-381", vk)
	}
	if len(pkb.CommitmentKeys) != len(vkb.CommitmentKeys) {
		return fmt.Errorf("%d proving and %d verifying commitment keys", len(pkb.CommitmentKeys), len(vkb.CommitmentKeys))
	}
	for i := range pkb.CommitmentKeys {
		p, v, err := pedersenbls.Setup([][]bls12381.G1Affine{pkb.CommitmentKeys[i].Basis}, pedersenbls.WithG2Point(vkb.G2.Gamma))
		if err != nil {
			return err
		}
		pkb.CommitmentKeys[i], vkb.CommitmentKeys[i] = p[0], v
	}
	return nil
}

// plutusKey is the verifying key as tms-cardano reads it: points compressed
// (ZCash encoding, hex), K[0] the constant, K[1..N] the public inputs,
// K[N+1] the commitment's hash.
type plutusKey struct {
	Curve           string   `json:"curve"`
	Setup           string   `json:"setup"`
	Alpha           string   `json:"alpha_g1"`
	Beta            string   `json:"beta_g2"`
	Gamma           string   `json:"gamma_g2"`
	Delta           string   `json:"delta_g2"`
	K               []string `json:"k_g1"`
	CommitmentG     string   `json:"commitment_g_g2"`
	CommitmentSigma string   `json:"commitment_g_sigma_neg_g2"`
	// 0-based indices into the public inputs hashed with the commitment.
	PublicCommitted []int `json:"public_committed"`
	// With a hashed statement: "keccak256" and the number of words hashed
	// into the one public input (plutusStatementKeccak).
	StatementHash  string `json:"statement_hash,omitempty"`
	StatementWords int    `json:"statement_words,omitempty"`
	// A ceremony's key: phase 2's δ chain (plutus_ceremony.go), what
	// tells it from a seeded key beyond the setup text.
	Ceremony *plutusCeremony `json:"ceremony,omitempty"`
}

// newPlutusKey checks that vk has one commitment with G = +γ and lays it out.
func newPlutusKey(vk groth16.VerifyingKey, setup string) (*plutusKey, error) {
	v, ok := vk.(*groth16bls12381.VerifyingKey)
	if !ok {
		return nil, fmt.Errorf("verifying key of type %T, want BLS12-381", vk)
	}
	if len(v.CommitmentKeys) != 1 || len(v.PublicAndCommitmentCommitted) != 1 {
		return nil, fmt.Errorf("the Plutus verifier needs exactly one BSB22 commitment; the key has %d", len(v.CommitmentKeys))
	}
	if !v.CommitmentKeys[0].G.Equal(&v.G2.Gamma) {
		return nil, errors.New("the commitment key's G is not γ: re-key it (rekeyCommitmentGamma) or use a ceremony's key")
	}
	g1 := func(p bls12381.G1Affine) string { b := p.Bytes(); return hex.EncodeToString(b[:]) }
	g2 := func(p bls12381.G2Affine) string { b := p.Bytes(); return hex.EncodeToString(b[:]) }
	k := &plutusKey{Curve: "bls12-381", Setup: setup, Alpha: g1(v.G1.Alpha), Beta: g2(v.G2.Beta),
		Gamma: g2(v.G2.Gamma), Delta: g2(v.G2.Delta), CommitmentG: g2(v.CommitmentKeys[0].G),
		CommitmentSigma: g2(v.CommitmentKeys[0].GSigmaNeg), PublicCommitted: []int{}}
	for _, p := range v.G1.K {
		k.K = append(k.K, g1(p))
	}
	for _, i := range v.PublicAndCommitmentCommitted[0] {
		k.PublicCommitted = append(k.PublicCommitted, i-1)
	}
	return k, nil
}

// plutusProofBytes is the proof as the script's redeemer carries it:
// A (48) || B (96) || C (48) || Com (48) || Pok (48), compressed.
func plutusProofBytes(proof groth16.Proof) ([]byte, error) {
	p, ok := proof.(*groth16bls12381.Proof)
	if !ok {
		return nil, fmt.Errorf("proof of type %T, want BLS12-381", proof)
	}
	if len(p.Commitments) != 1 {
		return nil, fmt.Errorf("proof with %d commitments, want 1", len(p.Commitments))
	}
	a, b, c := p.Ar.Bytes(), p.Bs.Bytes(), p.Krs.Bytes()
	com, pok := p.Commitments[0].Bytes(), p.CommitmentPok.Bytes()
	out := append(a[:], b[:]...)
	out = append(out, c[:]...)
	out = append(out, com[:]...)
	return append(out, pok[:]...), nil
}

// plutusProveOptions and plutusVerifyOptions use plutusCommitmentHash.
func plutusProveOptions() []backend.ProverOption {
	return []backend.ProverOption{backend.WithProverHashToFieldFunction(newPlutusCommitmentHash())}
}

func plutusVerifyOptions() []backend.VerifierOption {
	return []backend.VerifierOption{backend.WithVerifierHashToFieldFunction(newPlutusCommitmentHash())}
}

// plutusFixtureProof is one statement's proof.
type plutusFixtureProof struct {
	Public []string `json:"public"` // decimal
	Proof  string   `json:"proof"`  // hex, plutusProofBytes
}

// plutusFixture is what plutus-fixture writes.
type plutusFixture struct {
	Note   string               `json:"note"`
	Key    *plutusKey           `json:"key"`
	Proofs []plutusFixtureProof `json:"proofs"`
}

// plutusToySetup compiles the toy circuit and makes its INSECURE seeded keys
// (re-keyed to G = γ).
func plutusToySetup(seed string, hashed bool) (constraint.ConstraintSystem, groth16.ProvingKey, groth16.VerifyingKey, error) {
	var circuit frontend.Circuit = &plutusToyCircuit{}
	if hashed {
		circuit = &plutusToyHashedCircuit{}
	}
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, circuit)
	if err != nil {
		return nil, nil, nil, err
	}
	var pk groth16.ProvingKey
	var vk groth16.VerifyingKey
	err = withSetupRandomness(seed, func() error {
		if pk, vk, err = groth16.Setup(ccs); err != nil {
			return err
		}
		return rekeyCommitmentGamma(pk, vk)
	})
	return ccs, pk, vk, err
}

// plutusToyProve proves the toy statement (w², message, threshold) and
// verifies it with gnark's verifier before returning it.
func plutusToyProve(ccs constraint.ConstraintSystem, pk groth16.ProvingKey, vk groth16.VerifyingKey, hashed bool, w, message, threshold *big.Int) (groth16.Proof, error) {
	r := frbls.Modulus()
	commitment := new(big.Int).Mul(w, w)
	commitment.Mod(commitment, r)
	mw := new(big.Int).Mul(message, w)
	mw.Mod(mw, r)
	var assignment frontend.Circuit = &plutusToyCircuit{Commitment: commitment, Message: message, Threshold: threshold, W: w, MW: mw}
	if hashed {
		assignment = &plutusToyHashedCircuit{StatementHash: plutusStatementKeccak([]*big.Int{commitment, message, threshold}),
			Commitment: commitment, Message: message, Threshold: threshold, W: w, MW: mw}
	}
	full, err := frontend.NewWitness(assignment, ecc.BLS12_381.ScalarField())
	if err != nil {
		return nil, err
	}
	proof, err := groth16.Prove(ccs, pk, full, plutusProveOptions()...)
	if err != nil {
		return nil, err
	}
	public, err := full.Public()
	if err != nil {
		return nil, err
	}
	if err := groth16.Verify(proof, vk, public, plutusVerifyOptions()...); err != nil {
		return nil, fmt.Errorf("gnark refuses its own proof: %w", err)
	}
	return proof, nil
}

// plutusFixtureCommand writes the toy circuit's key and one proof per message
// (decimal, one a line in -messages) for the statement (w², message,
// threshold): the CI fixture of tms-cardano's Groth16 validators. INSECURE:
// the setup's toxic waste derives from -seed.
func plutusFixtureCommand(args []string) error {
	fs := flag.NewFlagSet("plutus-fixture", flag.ContinueOnError)
	messages := fs.String("messages", "", "file of messages (decimal field elements, one a line)")
	out := fs.String("out", "", "output JSON file")
	seed := fs.String("seed", "tms plutus groth16 toy", "INSECURE setup seed")
	w := fs.Int64("w", 5, "the witness: commitment = w²")
	hashed := fs.Bool("hashed", false, "the hashed-statement circuit (one public input: keccak256 of the three words)")
	threshold := fs.Int64("threshold", 3, "the threshold")
	ceremony := fs.Bool("ceremony", false, "keys from a small BLS12-381 ceremony run here (2 + 2 contributions, beacons fixed) instead of the seeded setup: the key records its ceremony (a TEST fixture still: every contribution was made by this process)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *messages == "" || *out == "" {
		return errors.New("-messages and -out are required")
	}
	f, err := os.Open(*messages)
	if err != nil {
		return err
	}
	defer f.Close()
	var ms []*big.Int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		m, ok := new(big.Int).SetString(line, 10)
		if !ok || m.Sign() < 0 || m.Cmp(frbls.Modulus()) >= 0 {
			return fmt.Errorf("message %q is not a BLS12-381 scalar", line)
		}
		ms = append(ms, m)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	var ccs constraint.ConstraintSystem
	var pk groth16.ProvingKey
	var vk groth16.VerifyingKey
	var key *plutusKey
	if *ceremony {
		ccs, pk, vk, key, err = plutusToyCeremony(*hashed)
	} else if ccs, pk, vk, err = plutusToySetup(*seed, *hashed); err == nil {
		key, err = newPlutusKey(vk, "INSECURE seeded: "+*seed)
	}
	if err != nil {
		return err
	}
	if *hashed {
		key.StatementHash, key.StatementWords = StatementKeccak256, 3
	}
	note := "TEST fixture: the toy circuit plutusToyCircuit (evm/groth16/plutus.go), INSECURE seeded setup; " +
		"written by `go run . plutus-fixture`"
	if *ceremony {
		note = "TEST fixture: the toy circuit plutusToyCircuit (evm/groth16/plutus.go), keys of a ceremony whose " +
			"contributions this one process made (so not secure either); written by `go run . plutus-fixture -ceremony`"
	}
	fx := plutusFixture{
		Note:   note,
		Key:    key,
		Proofs: []plutusFixtureProof{},
	}
	wb, tb := big.NewInt(*w), big.NewInt(*threshold)
	for _, m := range ms {
		proof, err := plutusToyProve(ccs, pk, vk, *hashed, wb, m, tb)
		if err != nil {
			return err
		}
		b, err := plutusProofBytes(proof)
		if err != nil {
			return err
		}
		c := new(big.Int).Mul(wb, wb)
		if err := plutusVerify(key, b, []*big.Int{c, m, tb}); err != nil {
			return fmt.Errorf("the Plutus verifier's twin refuses the proof: %w", err)
		}
		fx.Proofs = append(fx.Proofs, plutusFixtureProof{
			Public: []string{c.String(), m.String(), tb.String()},
			Proof:  hex.EncodeToString(b),
		})
	}
	data, err := json.MarshalIndent(fx, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	fmt.Printf("plutus-fixture: %d constraints, %d proofs, key %s\n", ccs.GetNbConstraints(), len(fx.Proofs), key.Setup)
	return os.WriteFile(*out, append(data, '\n'), 0o644)
}

// plutusProofLen is the length of plutusProofBytes.
const plutusProofLen = 4*bls12381.SizeOfG1AffineCompressed + bls12381.SizeOfG2AffineCompressed

func plutusG1(s string) (bls12381.G1Affine, error) {
	var p bls12381.G1Affine
	b, err := hex.DecodeString(s)
	if err == nil {
		_, err = p.SetBytes(b)
	}
	return p, err
}

func plutusG2(s string) (bls12381.G2Affine, error) {
	var p bls12381.G2Affine
	b, err := hex.DecodeString(s)
	if err == nil {
		_, err = p.SetBytes(b)
	}
	return p, err
}

func word32(v *big.Int) []byte {
	var b [32]byte
	v.FillBytes(b[:])
	return b[:]
}

// plutusVerify is the native twin of the Plutus verifier: the same bytes
// (compressed points, subgroup-checked when read), the same two blake2b-256
// challenges and the one pairing product of this file's header.
func plutusVerify(key *plutusKey, proof []byte, public []*big.Int) error {
	if len(proof) != plutusProofLen {
		return fmt.Errorf("a proof of %d bytes, want %d", len(proof), plutusProofLen)
	}
	r := frbls.Modulus()
	if key.StatementHash != "" {
		if key.StatementHash != StatementKeccak256 || len(public) != key.StatementWords {
			return fmt.Errorf("%d statement words for a key hashing %d with %q", len(public), key.StatementWords, key.StatementHash)
		}
		for _, x := range public {
			if x.Sign() < 0 || x.Cmp(r) >= 0 {
				return errors.New("a statement word is not below r")
			}
		}
		public = []*big.Int{plutusStatementKeccak(public)}
	}
	if len(key.K) != len(public)+2 {
		return fmt.Errorf("%d public inputs for a key of %d", len(public), len(key.K)-2)
	}
	var a, c, com, pok bls12381.G1Affine
	var b bls12381.G2Affine
	for i, p := range []*bls12381.G1Affine{&a, &c, &com, &pok} {
		off := []int{0, 144, 192, 240}[i]
		if _, err := p.SetBytes(proof[off : off+48]); err != nil {
			return fmt.Errorf("proof point %d: %w", i, err)
		}
	}
	if _, err := b.SetBytes(proof[48:144]); err != nil {
		return fmt.Errorf("proof point B: %w", err)
	}
	var inputs []byte
	for _, x := range public {
		if x.Sign() < 0 || x.Cmp(r) >= 0 {
			return errors.New("a public input is not below r")
		}
		inputs = append(inputs, word32(x)...)
	}
	comBytes := com.Bytes()
	pre := comBytes[:]
	for _, i := range key.PublicCommitted {
		pre = append(pre, word32(public[i])...)
	}
	hd := blake2b.Sum256(pre)
	h := new(big.Int).Mod(new(big.Int).SetBytes(hd[:]), r)
	rd := blake2b.Sum256(append(append([]byte{}, proof...), inputs...))
	rho := new(big.Int).Mod(new(big.Int).SetBytes(rd[:]), r)
	if rho.Sign() == 0 {
		return errors.New("the batching scalar is 0")
	}
	ks := make([]bls12381.G1Affine, len(key.K))
	for i, s := range key.K {
		var err error
		if ks[i], err = plutusG1(s); err != nil {
			return fmt.Errorf("key point K%d: %w", i, err)
		}
	}
	alpha, err := plutusG1(key.Alpha)
	if err != nil {
		return err
	}
	g2s := make([]bls12381.G2Affine, 4)
	for i, s := range []string{key.Beta, key.Gamma, key.Delta, key.CommitmentSigma} {
		if g2s[i], err = plutusG2(s); err != nil {
			return fmt.Errorf("key G2 point %d: %w", i, err)
		}
	}
	var l, t bls12381.G1Jac
	l.FromAffine(&ks[0])
	scalars := append(append([]*big.Int{}, public...), h)
	for i, s := range scalars {
		var tk bls12381.G1Affine
		tk.ScalarMultiplication(&ks[i+1], s)
		t.FromAffine(&tk)
		l.AddAssign(&t)
	}
	t.FromAffine(&com)
	l.AddAssign(&t)
	var rhoPok, rhoCom bls12381.G1Affine
	rhoPok.ScalarMultiplication(&pok, rho)
	rhoCom.ScalarMultiplication(&com, rho)
	t.FromAffine(&rhoPok)
	l.SubAssign(&t)
	var lAff, negL, negAlpha, negC bls12381.G1Affine
	lAff.FromJacobian(&l)
	negL.Neg(&lAff)
	negAlpha.Neg(&alpha)
	negC.Neg(&c)
	ok, err := bls12381.PairingCheck(
		[]bls12381.G1Affine{a, rhoCom, negAlpha, negL, negC},
		[]bls12381.G2Affine{b, g2s[3], g2s[0], g2s[1], g2s[2]})
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("the pairing product is not 1")
	}
	return nil
}

// plutusToyCeremony runs a small BLS12-381 ceremony (2 + 2 contributions,
// fixed beacons) on the toy circuit in a temporary directory and returns its
// keys, the Plutus key carrying the ceremony record (plutus_ceremony.go).
func plutusToyCeremony(hashed bool) (constraint.ConstraintSystem, groth16.ProvingKey, groth16.VerifyingKey, *plutusKey, error) {
	var circuit frontend.Circuit = &plutusToyCircuit{}
	if hashed {
		circuit = &plutusToyHashedCircuit{}
	}
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, circuit)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	dir, err := os.MkdirTemp("", "tms-plutus-ceremony")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	defer os.RemoveAll(dir)
	const beacon1, beacon2 = "toy beacon one", "toy beacon two"
	info, err := ceremonyInit(dir, ccs, "plutus toy")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for phase := 1; phase <= 2; phase++ {
		for i := 0; i < 2; i++ {
			if _, _, err := ceremonyContribute(dir); err != nil {
				return nil, nil, nil, nil, err
			}
		}
		if phase == 1 {
			if _, err := ceremonyVerifyPhase1(dir, ccs, []byte(beacon1)); err != nil {
				return nil, nil, nil, nil, err
			}
		}
	}
	pk, vk, err := ceremonyExtract(dir, ccs, []byte(beacon1), []byte(beacon2), "")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	key, err := newPlutusKey(vk, ceremonySetup(dir, beacon1, beacon2))
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if key.Ceremony, err = plutusCeremonyRecord(dir, info, beacon1, beacon2, vk); err != nil {
		return nil, nil, nil, nil, err
	}
	return ccs, pk, vk, key, nil
}
