package main

// The program-* commands: count, check and prove a verifier program
// (PROGRAM.md) with the replay circuit (verifier.go).

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/pedersen"
	"github.com/consensys/gnark/backend"
	"github.com/consensys/gnark/backend/groth16"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"github.com/consensys/gnark/backend/solidity"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/test"
	"golang.org/x/crypto/sha3"
)

type programFlags struct {
	fs                       *flag.FlagSet
	program, witness, out    *string
	commit, engine, seed     *string
	incomplete, scalarBits   *bool
	noCommit, writeSynthetic *bool
	sharedG2, insecureKey    *bool
	keepVK, pkIn, vkIn       *string
	circuit                  *string
}

func newProgramFlags(name string) *programFlags {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	return &programFlags{
		fs:          fs,
		program:     fs.String("program", "", "program JSON (PROGRAM.md)"),
		witness:     fs.String("witness", "", "witness JSON (PROGRAM.md)"),
		out:         fs.String("out", "", "output directory"),
		commit:      fs.String("commit", "bsb22", "bsb22 (default), plain-range or none: see README.md, \"Without the BSB22 commitment\""),
		noCommit:    fs.Bool("no-commit", false, "the same as -commit none"),
		incomplete:  fs.Bool("incomplete", false, "incomplete MSM formulas (NOT SOUND against a prover choosing the points; measurement only)"),
		scalarBits:  fs.Bool("scalar-bits", false, "native-to-emulated scalars by 254-bit decomposition instead of 64-bit limbs"),
		engine:      fs.String("engine", "test", "program-check: test (gnark's test engine), r1cs (compile, then the R1CS solver) or native (the native replay alone)"),
		seed:        fs.String("seed", "", "program-prove: seed of the INSECURE setup's toxic waste (empty: random)"),
		sharedG2:    fs.Bool("shared-g2", true, "program-prove: re-make the commitment keys with the Pedersen G2 point G = -gamma, for the batched Groth16Verifier.sol (-shared-g2=false: gnark's keys as they are, Verifier.sol only)"),
		keepVK:      fs.String("keep-vk", "", "program-prove: also write the verifying key (gnark's binary encoding) to this file, and its setup description to FILE.setup (for program-export)"),
		pkIn:        fs.String("pk", "", "program-prove: prove with this proving key (ceremony-extract's) instead of an INSECURE setup; needs -vk"),
		vkIn:        fs.String("vk", "", "program-prove: the verifying key of -pk; its FILE.setup names the setup"),
		circuit:     fs.String("circuit", "", "program-prove: the compiled circuit kept in this file: with -pk read back (checked against this program, these options and this build) when it is there; else (and always when a setup is made) compiled and written there (kept_circuit.go)"),
		insecureKey: fs.Bool("insecure-test-key", false, "program-prove: export verifier contracts although the key is INSECURE (every program-prove key is): for tests only"),
	}
}

func (f *programFlags) parse(args []string) (VerifierOptions, error) {
	f.fs.Parse(args)
	mode, err := ParseCommitMode(*f.commit)
	if err != nil {
		return VerifierOptions{}, err
	}
	if *f.noCommit {
		mode = CommitNone
	}
	return VerifierOptions{Commit: mode, Incomplete: *f.incomplete, ScalarBits: *f.scalarBits}, nil
}

func (f *programFlags) load(needWitness bool) (*Program, *Witness, error) {
	if *f.program == "" {
		return nil, nil, errors.New("-program is required")
	}
	p, err := LoadProgram(*f.program)
	if err != nil {
		return nil, nil, err
	}
	if !needWitness {
		return p, nil, nil
	}
	if *f.witness == "" {
		return nil, nil, errors.New("-witness is required")
	}
	w, err := LoadWitness(*f.witness, p)
	return p, w, err
}

func programSummary(p *Program) string {
	counts := map[OpKind]int{}
	msmTerms := 0
	for _, op := range p.Ops {
		counts[op.Kind]++
		msmTerms += len(op.MSMS)
	}
	var parts []string
	for k := OpConst; k <= OpPairingCheck; k++ {
		if counts[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", k, counts[k]))
		}
	}
	return fmt.Sprintf("ops=%d scalars=%d points=%d msm_terms=%d instances=%d public=%d proof_scalars=%d proof_points=%d [%s]",
		len(p.Ops), p.NumScalars, p.NumPoints, msmTerms, p.NumInstances, len(p.PublicInstances),
		p.NumProofScalars, p.NumProofPoints, strings.Join(parts, " "))
}

func compileProgram(p *Program, o VerifierOptions) (constraint.ConstraintSystem, float64, error) {
	t := time.Now()
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, NewVerifierCircuit(p, o))
	return ccs, time.Since(t).Seconds(), err
}

func programCount(args []string) error {
	f := newProgramFlags("program-count")
	o, err := f.parse(args)
	if err != nil {
		return err
	}
	p, _, err := f.load(false)
	if err != nil {
		return err
	}
	fmt.Printf("program-count program=%s %s\n", *f.program, programSummary(p))
	c0 := cpuSeconds()
	ccs, secs, err := compileProgram(p, o)
	if err != nil {
		return err
	}
	fmt.Printf("program-count %s constraints=%d commitments=%d committed_wires=%d public=%d wires=%d compile_s=%.1f compile_cpu_s=%.1f peak_rss_mib=%.0f\n",
		o, ccs.GetNbConstraints(), len(ccs.GetCommitments().CommitmentIndexes()), committedWires(ccs), ccs.GetNbPublicVariables()-1,
		ccs.GetNbInternalVariables()+ccs.GetNbSecretVariables()+ccs.GetNbPublicVariables(), secs, cpuSeconds()-c0, peakRSSMiB())
	return nil
}

func programCheck(args []string) error {
	f := newProgramFlags("program-check")
	o, err := f.parse(args)
	if err != nil {
		return err
	}
	p, w, err := f.load(true)
	if err != nil {
		return err
	}
	fmt.Printf("program-check program=%s %s\n", *f.program, programSummary(p))
	c0 := cpuSeconds()
	r, err := p.Replay(w)
	if err != nil {
		return err
	}
	fmt.Printf("program-check native %s cpu_s=%.2f\n", r, cpuSeconds()-c0)
	if *f.engine == "native" {
		// the native replay alone (tms wrap --program-only)
		if !r.Accepted() {
			return errors.New("program-check: witness refused by the native replay")
		}
		return nil
	}

	c0, t0 := cpuSeconds(), time.Now()
	var serr error
	switch *f.engine {
	case "test":
		serr = test.IsSolved(NewVerifierCircuit(p, o), NewVerifierAssignment(p, o, w), ecc.BN254.ScalarField())
	case "r1cs":
		ccs, secs, err := compileProgram(p, o)
		if err != nil {
			return err
		}
		fmt.Printf("program-check compiled constraints=%d compile_s=%.1f\n", ccs.GetNbConstraints(), secs)
		wit, err := frontend.NewWitness(NewVerifierAssignment(p, o, w), ecc.BN254.ScalarField())
		if err != nil {
			return err
		}
		serr = isSolvedR1CS(ccs, wit)
	default:
		return fmt.Errorf("-engine %q: want test, r1cs or native", *f.engine)
	}
	res := "solved"
	if serr != nil {
		res = "NOT SOLVED: " + strings.SplitN(serr.Error(), "\n", 2)[0]
	}
	fmt.Printf("program-check circuit engine=%s %s: %s cpu_s=%.1f wall_s=%.1f peak_rss_mib=%.0f\n",
		*f.engine, o, res, cpuSeconds()-c0, time.Since(t0).Seconds(), peakRSSMiB())
	if serr != nil || !r.Accepted() {
		return errors.New("program-check: witness refused")
	}
	return nil
}

// isSolvedR1CS runs gnark's R1CS solver on a full witness. The BSB22
// commitment is computed by the Groth16 prover (a placeholder hint in the
// R1CS); for a satisfiability check any value derived from the committed
// values will do: SHA-256 of them, mod r. opts may override hints (the
// adversarial tests).
func isSolvedR1CS(ccs constraint.ConstraintSystem, wit witness.Witness, opts ...solver.Option) error {
	commit := solver.OverrideHint(solver.GetHintID(cs.Bsb22CommitmentComputePlaceholder),
		func(_ *big.Int, in, out []*big.Int) error {
			h := sha256.New()
			for _, v := range in {
				var b [32]byte
				v.FillBytes(b[:])
				h.Write(b[:])
			}
			out[0].SetBytes(h.Sum(nil))
			out[0].Mod(out[0], fr.Modulus())
			return nil
		})
	return ccs.IsSolved(wit, append([]solver.Option{commit}, opts...)...)
}

// seededReader is a deterministic byte stream (SHA-256 in counter mode) from
// a seed: the toxic waste of an INSECURE, reproducible setup.
type seededReader struct {
	seed [32]byte
	ctr  uint64
	buf  []byte
}

func (s *seededReader) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		if len(s.buf) == 0 {
			var c [8]byte
			binary.BigEndian.PutUint64(c[:], s.ctr)
			s.ctr++
			h := sha256.Sum256(append(s.seed[:], c[:]...))
			s.buf = h[:]
		}
		k := copy(b[n:], s.buf)
		s.buf = s.buf[k:]
		n += k
	}
	return n, nil
}

var randMu sync.Mutex

// withSetupRandomness runs fn; with a seed, crypto/rand.Reader (which
// gnark-crypto's fr.Element.SetRandom, curve.RandomOnG2 and pedersen.Setup
// read) is replaced by a seeded stream for the duration of fn. gnark v0.14
// has no option for the setup's randomness; this is the only way to make it
// reproducible.
func withSetupRandomness(seed string, fn func() error) error {
	if seed == "" {
		return fn()
	}
	randMu.Lock()
	defer randMu.Unlock()
	saved := rand.Reader
	rand.Reader = &seededReader{seed: sha256.Sum256([]byte("tms groth16 INSECURE setup seed: " + seed))}
	defer func() { rand.Reader = saved }()
	return fn()
}

// setupGroth16 runs groth16.Setup and, with sharedG2, shareCommitmentG2
// (batched.go), with the seeded randomness of withSetupRandomness: the
// commitment keys' new σ comes from the same stream, after gnark's setup.
func setupGroth16(ccs constraint.ConstraintSystem, seed string, sharedG2 bool) (pk groth16.ProvingKey, vk groth16.VerifyingKey, err error) {
	err = withSetupRandomness(seed, func() error {
		if pk, vk, err = groth16.Setup(ccs); err != nil {
			return err
		}
		if sharedG2 {
			_, _, err = shareCommitmentG2(pk, vk)
		}
		return err
	})
	return
}

func word(x *big.Int) string { return x.String() }

// solidityCall holds the arguments of the generated verifier's verifyProof.
type solidityCall struct {
	Signature     string   `json:"signature"`
	Selector      string   `json:"selector"`
	Proof         []string `json:"proof"`
	Commitments   []string `json:"commitments,omitempty"`
	CommitmentPok []string `json:"commitment_pok,omitempty"`
	Input         []string `json:"input"`
	PublicInputs  []string `json:"public_inputs"`
	Calldata      string   `json:"-"`
}

// newSolidityCall lays out a proof as the uint256 words of the generated
// contract's verifyProof (gnark v0.14's backend/groth16/bn254/solidity.go):
// proof = A.x, A.y, B.x.a1, B.x.a0, B.y.a1, B.y.a0, C.x, C.y (EIP-197 order);
// with commitments, commitments = the commitments' x, y and commitmentPok =
// the proof of knowledge's x, y; input = the public inputs (not the
// commitment's hash, which the contract computes). The calldata is the
// 4-byte selector and the words, all static: no offsets.
func newSolidityCall(proof groth16.Proof, public []fr.Element) (*solidityCall, error) {
	pr, ok := proof.(*groth16bn254.Proof)
	if !ok {
		return nil, fmt.Errorf("proof of type %T, want BN254", proof)
	}
	c := &solidityCall{}
	b := func(e interface{ BigInt(*big.Int) *big.Int }) *big.Int { return e.BigInt(new(big.Int)) }
	c.Proof = []string{word(b(&pr.Ar.X)), word(b(&pr.Ar.Y)),
		word(b(&pr.Bs.X.A1)), word(b(&pr.Bs.X.A0)), word(b(&pr.Bs.Y.A1)), word(b(&pr.Bs.Y.A0)),
		word(b(&pr.Krs.X)), word(b(&pr.Krs.Y))}
	args := []string{"uint256[8]"}
	if n := len(pr.Commitments); n > 0 {
		for i := range pr.Commitments {
			c.Commitments = append(c.Commitments, word(b(&pr.Commitments[i].X)), word(b(&pr.Commitments[i].Y)))
		}
		c.CommitmentPok = []string{word(b(&pr.CommitmentPok.X)), word(b(&pr.CommitmentPok.Y))}
		args = append(args, fmt.Sprintf("uint256[%d]", 2*n), "uint256[2]")
	}
	for i := range public {
		c.Input = append(c.Input, word(b(&public[i])))
	}
	c.PublicInputs = c.Input
	args = append(args, fmt.Sprintf("uint256[%d]", len(public)))
	c.Signature = "verifyProof(" + strings.Join(args, ",") + ")"
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(c.Signature))
	sel := h.Sum(nil)[:4]
	c.Selector = "0x" + hex.EncodeToString(sel)
	var data bytes.Buffer
	data.Write(sel)
	for _, group := range [][]string{c.Proof, c.Commitments, c.CommitmentPok, c.Input} {
		for _, s := range group {
			v, _ := new(big.Int).SetString(s, 10)
			var w [32]byte
			v.FillBytes(w[:])
			data.Write(w[:])
		}
	}
	c.Calldata = "0x" + hex.EncodeToString(data.Bytes())
	return c, nil
}

func programProve(args []string) error {
	f := newProgramFlags("program-prove")
	o, err := f.parse(args)
	if err != nil {
		return err
	}
	if *f.out == "" {
		return errors.New("-out is required")
	}
	p, w, err := f.load(true)
	if err != nil {
		return err
	}
	var report strings.Builder
	say := func(format string, a ...any) {
		s := fmt.Sprintf(format, a...)
		fmt.Println(s)
		report.WriteString(s + "\n")
	}
	if p.StatementKind == "" && !o.Incomplete && (*f.insecureKey || *f.pkIn != "") {
		// refused now rather than after the setup: the verifier would carry no STATEMENT_KIND
		return errors.New("program-prove: the program has no statement_kind (record it with one): its verifier could stand behind any contract of the same word count")
	}
	say("program-prove program=%s witness=%s", *f.program, *f.witness)
	say("program-prove %s", programSummary(p))
	say("program-prove date=%s GOMAXPROCS=%d go=%s", time.Now().UTC().Format(time.RFC3339), runtime.GOMAXPROCS(0), runtime.Version())
	switch {
	case *f.pkIn != "":
		say("program-prove: keys from %s and %s", *f.pkIn, *f.vkIn)
	case *f.seed == "":
		say("program-prove: INSECURE setup: random toxic waste (crypto/rand), known to this process, then discarded; for testing only")
	default:
		say("program-prove: INSECURE setup: toxic waste derived from the seed %q (anyone with the seed can forge proofs); for testing only", *f.seed)
	}
	r, err := p.Replay(w)
	if err != nil {
		return err
	}
	say("program-prove native %s", r)
	if !r.Accepted() {
		return errors.New("program-prove: the native replay refuses the witness")
	}

	t0 := time.Now()
	ccs, how, err := compileOrReadKept(*f.circuit, *f.pkIn != "", "bn254 "+o.String(), *f.program,
		func() constraint.ConstraintSystem { return groth16.NewCS(ecc.BN254) },
		func() (constraint.ConstraintSystem, error) { ccs, _, err := compileProgram(p, o); return ccs, err })
	if err != nil {
		return err
	}
	say("program-prove %s constraints=%d commitments=%d public=%d compile_s=%.1f (circuit %s)", o, ccs.GetNbConstraints(),
		len(ccs.GetCommitments().CommitmentIndexes()), ccs.GetNbPublicVariables()-1, time.Since(t0).Seconds(), how)
	wit, err := frontend.NewWitness(NewVerifierAssignment(p, o, w), ecc.BN254.ScalarField())
	if err != nil {
		return err
	}
	pub, err := wit.Public()
	if err != nil {
		return err
	}
	step := func(name string, fn func() error) error {
		t, c := time.Now(), cpuSeconds()
		if err := fn(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		say("program-prove step=%s wall_s=%.1f cpu_s=%.1f peak_rss_mib=%.0f", name, time.Since(t).Seconds(), cpuSeconds()-c, peakRSSMiB())
		return nil
	}
	var pk groth16.ProvingKey
	var vk groth16.VerifyingKey
	var proof groth16.Proof
	var origVK []pedersen.VerifyingKey
	setup := setupDescription(*f.seed)
	if *f.pkIn != "" {
		if pk, vk, setup, err = readKeys(*f.pkIn, *f.vkIn); err != nil {
			return err
		}
	} else if err := withSetupRandomness(*f.seed, func() error {
		if err := step("setup", func() (err error) { pk, vk, err = groth16.Setup(ccs); return }); err != nil {
			return err
		}
		if !*f.sharedG2 {
			return nil
		}
		// the commitment keys re-made with G = -gamma, σ from the same
		// (seeded) randomness; the original proving keys are dropped
		return step("shared-g2", func() (err error) { _, origVK, err = shareCommitmentG2(pk, vk); return })
	}); err != nil {
		return err
	}
	if *f.keepVK != "" {
		if err := writeVK(*f.keepVK, vk); err != nil {
			return err
		}
		if err := os.WriteFile(*f.keepVK+".setup", []byte(setup+"\n"), 0o644); err != nil {
			return err
		}
		say("program-prove verifying key written to %s (its setup description to %s.setup)", *f.keepVK, *f.keepVK)
	}
	if err := step("prove", func() (err error) {
		proof, err = groth16.Prove(ccs, pk, wit, solidity.WithProverTargetSolidityVerifier(backend.GROTH16))
		return
	}); err != nil {
		return err
	}
	pk = nil
	if err := step("verify", func() error {
		return groth16.Verify(proof, vk, pub, solidity.WithVerifierTargetSolidityVerifier(backend.GROTH16))
	}); err != nil {
		return err
	}
	if origVK != nil {
		// the proof must not verify under the original commitment keys
		vkb := vk.(*groth16bn254.VerifyingKey)
		shared := vkb.CommitmentKeys
		vkb.CommitmentKeys = origVK
		err := groth16.Verify(proof, vk, pub, solidity.WithVerifierTargetSolidityVerifier(backend.GROTH16))
		vkb.CommitmentKeys = shared
		if err == nil {
			return errors.New("program-prove: the proof also verifies under the original commitment keys")
		}
		say("program-prove shared-g2: Pedersen G = -gamma; gnark's verifier accepts the proof; under the original commitment keys it refuses it (%v)", err)
	}
	call, err := newSolidityCall(proof, p.Statement(w))
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	switch {
	case o.Incomplete:
		// a circuit that does not bind its MSMs: never a verifier of it
		say("program-prove -incomplete: no verifier exported (the circuit is not sound)")
	case isInsecureSetup(setup) && !*f.insecureKey:
		say("program-prove: no verifier exported: the key is INSECURE (%s); -insecure-test-key exports it for tests", setup)
	default:
		if files, err = exportVerifiers("program-prove", vk, call, setup, p.StatementKind, say); err != nil {
			return err
		}
	}
	pj, err := json.MarshalIndent(call, "", "  ")
	if err != nil {
		return err
	}
	files["proof.json"] = append(pj, '\n')
	files["calldata.hex"] = []byte(call.Calldata + "\n")
	if err := writeFiles(*f.out, files); err != nil {
		return err
	}
	say("program-prove solidity: %s selector=%s calldata_bytes=%d (function verifyProof of contract Groth16Verifier in Groth16Verifier.sol, where written: gnark v0.14's parameters; view, revert on an invalid proof)",
		call.Signature, call.Selector, (len(call.Calldata)-2)/2)
	say("program-prove ok peak_rss_mib=%.0f", peakRSSMiB())
	return os.WriteFile(filepath.Join(*f.out, "report.txt"), []byte(report.String()), 0o644)
}

// exportVerifiers makes, for a shared-G2 key with one commitment,
// Groth16Verifier.sol (ours, SETUP = setup), after checking the call with
// the batched verifier's native twin (VerifyBatched) and its two equations
// apart; for any other key gnark's Verifier.sol (gnark v0.16's template:
// verifyProof(bytes proof, uint256[N] input), not the ABI of proof.json's
// signature, which is gnark v0.14's and ours). The caller has refused an
// INSECURE setup unless told it is a test.
func exportVerifiers(cmd string, vk groth16.VerifyingKey, call *solidityCall, setup, kind string, say func(string, ...any)) (map[string][]byte, error) {
	files := map[string][]byte{}
	k, err := newBatchedKey(vk)
	if err != nil {
		say("%s Groth16Verifier.sol not written (%v); gnark's Verifier.sol instead", cmd, err)
		var sol bytes.Buffer
		if err := vk.ExportSolidity(&sol); err != nil {
			return nil, err
		}
		files["Verifier.sol"] = sol.Bytes()
		return files, nil
	}
	w, err := call.words()
	if err != nil {
		return nil, err
	}
	g16, pok, err := k.equations(w)
	if err != nil {
		return nil, err
	}
	if err := k.VerifyBatched(w); err != nil {
		return nil, fmt.Errorf("the batched verifier's native twin refuses the proof (Groth16 equation %v, PoK equation %v): %w", g16, pok, err)
	}
	say("%s batched native twin: accepted (one 5-pair pairing check; Groth16 equation %v, PoK equation %v; h=%s rho=%s)",
		cmd, g16, pok, k.commitmentHash(w), batchingScalar(w))
	var ours bytes.Buffer
	if err := ExportBatchedSolidity(&ours, vk, setup, kind); err != nil {
		return nil, err
	}
	files["Groth16Verifier.sol"] = ours.Bytes()
	return files, nil
}

func writeFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readKeys reads a proving key and its verifying key (ceremony-extract's
// files) and the setup description beside the latter (FILE.setup).
func readKeys(pkPath, vkPath string) (groth16.ProvingKey, groth16.VerifyingKey, string, error) {
	if vkPath == "" {
		return nil, nil, "", errors.New("-pk needs -vk")
	}
	pk, vk := groth16.NewProvingKey(ecc.BN254), groth16.NewVerifyingKey(ecc.BN254)
	if err := readProvingKey(pkPath, pk); err != nil {
		return nil, nil, "", err
	}
	if err := readFrom(vkPath, vk); err != nil {
		return nil, nil, "", err
	}
	setup, err := os.ReadFile(vkPath + ".setup")
	if err != nil {
		return nil, nil, "", err
	}
	return pk, vk, strings.TrimSpace(string(setup)), nil
}

func writeVK(path string, vk groth16.VerifyingKey) error {
	var b bytes.Buffer
	if _, err := vk.WriteTo(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// programExport re-writes Groth16Verifier.sol from a verifying key saved by
// program-prove -keep-vk (or ceremony-extract), checking DIR/proof.json with
// the batched verifier's native twin; an INSECURE key only with
// -insecure-test-key.
func programExport(args []string) error {
	fs := flag.NewFlagSet("program-export", flag.ExitOnError)
	vkPath := fs.String("vk", "", "verifying key written by program-prove -keep-vk")
	programPath := fs.String("program", "", "the program the key was made for (its statement_kind becomes STATEMENT_KIND)")
	out := fs.String("out", "", "directory holding proof.json; Groth16Verifier.sol (or gnark's Verifier.sol) is written there")
	setup := fs.String("setup", "", "where the key comes from, the contract's SETUP constant (default: the -vk FILE.setup that program-prove -keep-vk wrote)")
	insecureKey := fs.Bool("insecure-test-key", false, "export although the key is INSECURE: for tests only")
	fs.Parse(args)
	if *vkPath == "" || *out == "" || *programPath == "" {
		return errors.New("-vk, -program and -out are required")
	}
	if *setup == "" {
		b, err := os.ReadFile(*vkPath + ".setup")
		if err != nil {
			return fmt.Errorf("-setup not given and %w", err)
		}
		*setup = strings.TrimSpace(string(b))
	}
	if isInsecureSetup(*setup) && !*insecureKey {
		return fmt.Errorf("program-export: the key is INSECURE (%s): -insecure-test-key exports it for tests", *setup)
	}
	p, err := LoadProgram(*programPath)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(*vkPath)
	if err != nil {
		return err
	}
	vk := groth16.NewVerifyingKey(ecc.BN254)
	if _, err := vk.ReadFrom(bytes.NewReader(data)); err != nil {
		return err
	}
	pj, err := os.ReadFile(filepath.Join(*out, "proof.json"))
	if err != nil {
		return err
	}
	var call solidityCall
	if err := json.Unmarshal(pj, &call); err != nil {
		return err
	}
	say := func(format string, a ...any) { fmt.Printf(format+"\n", a...) }
	files, err := exportVerifiers("program-export", vk, &call, *setup, p.StatementKind, say)
	if err != nil {
		return err
	}
	if err := writeFiles(*out, files); err != nil {
		return err
	}
	say("program-export wrote %d files to %s", len(files), *out)
	return nil
}

// programSynth writes the synthetic program and its honest witness
// (synthetic.go) into a directory.
func programSynth(args []string) error {
	f := newProgramFlags("program-synth")
	if _, err := f.parse(args); err != nil {
		return err
	}
	if *f.out == "" {
		return errors.New("-out is required")
	}
	pj := SyntheticProgram()
	p, err := ParseProgram(pj)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*f.out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*f.out, "synthetic.program.json"), append(pj, '\n'), 0o644); err != nil {
		return err
	}
	wj := WitnessJSON(SyntheticWitness(p))
	if err := os.WriteFile(filepath.Join(*f.out, "synthetic.witness.json"), append(wj, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Printf("program-synth wrote %s/synthetic.{program,witness}.json: %s\n", *f.out, programSummary(p))
	return nil
}

// programBench measures the prove of a program without a setup: gnark's
// DummySetup fills a proving key of the circuit's exact sizes (every base one
// point), so groth16.Prove does the real key's work (the same MSMs and FFTs)
// in minutes where a setup takes the better part of an hour. The proof does
// not verify (there is no verifying key): a measurement, never a fixture.
func programBench(args []string) error {
	f := newProgramFlags("program-bench")
	o, err := f.parse(args)
	if err != nil {
		return err
	}
	p, w, err := f.load(true)
	if err != nil {
		return err
	}
	say := func(format string, a ...any) { fmt.Printf(format+"\n", a...) }
	say("program-bench program=%s %s", *f.program, programSummary(p))
	say("program-bench date=%s GOMAXPROCS=%d go=%s", time.Now().UTC().Format(time.RFC3339), runtime.GOMAXPROCS(0), runtime.Version())
	ccs, secs, err := compileProgram(p, o)
	if err != nil {
		return err
	}
	say("program-bench %s constraints=%d commitments=%d public=%d compile_s=%.1f peak_rss_mib=%.0f", o, ccs.GetNbConstraints(),
		len(ccs.GetCommitments().CommitmentIndexes()), ccs.GetNbPublicVariables()-1, secs, peakRSSMiB())
	wit, err := frontend.NewWitness(NewVerifierAssignment(p, o, w), ecc.BN254.ScalarField())
	if err != nil {
		return err
	}
	var pk groth16.ProvingKey
	for _, s := range []struct {
		name string
		fn   func() error
	}{
		{"dummy-setup", func() (err error) { pk, err = groth16.DummySetup(ccs); return }},
		{"prove", func() error {
			_, err := groth16.Prove(ccs, pk, wit, solidity.WithProverTargetSolidityVerifier(backend.GROTH16))
			return err
		}},
	} {
		t, c := time.Now(), cpuSeconds()
		if err := s.fn(); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		say("program-bench step=%s wall_s=%.1f cpu_s=%.1f peak_rss_mib=%.0f", s.name, time.Since(t).Seconds(), cpuSeconds()-c, peakRSSMiB())
	}
	say("program-bench: DummySetup key (no proof that verifies): the prove's work is the real key's")
	return nil
}
