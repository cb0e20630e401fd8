package main

// program-count-bls: the replay circuit's size with BLS12-381 as the outer
// curve (verifier_bls.go), for Cardano's Groth16 wrapper (issue 47).

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
)

// compileBLSProgram compiles BLSVerifierCircuit over BLS12-381's Fr.
func compileBLSProgram(p *Program) (constraint.ConstraintSystem, float64, error) {
	c, err := NewBLSVerifierCircuit(p)
	if err != nil {
		return nil, 0, err
	}
	t := time.Now()
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, c)
	return ccs, time.Since(t).Seconds(), err
}

func programCountBLS(args []string) error {
	fs := flag.NewFlagSet("program-count-bls", flag.ContinueOnError)
	program := fs.String("program", "", "the program (PROGRAM.md)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *program == "" {
		return errors.New("-program is required")
	}
	p, err := LoadProgram(*program)
	if err != nil {
		return err
	}
	fmt.Printf("program-count-bls program=%s %s\n", *program, programSummary(p))
	c0 := cpuSeconds()
	ccs, secs, err := compileBLSProgram(p)
	if err != nil {
		return err
	}
	fmt.Printf("program-count-bls outer=bls12-381 constraints=%d commitments=%d committed_wires=%d public=%d wires=%d compile_s=%.1f compile_cpu_s=%.1f peak_rss_mib=%.0f\n",
		ccs.GetNbConstraints(), len(ccs.GetCommitments().CommitmentIndexes()), committedWires(ccs), ccs.GetNbPublicVariables()-1,
		ccs.GetNbInternalVariables()+ccs.GetNbSecretVariables()+ccs.GetNbPublicVariables(), secs, cpuSeconds()-c0, peakRSSMiB())
	return nil
}

// wrappedProof is what program-prove-bls writes beside the key
// (wrapped.json): the statement words (decimal, the program's public
// instances in order) and the proof as the Plutus verifier reads it.
type wrappedProof struct {
	Note   string   `json:"note"`
	Public []string `json:"public"`
	Proof  string   `json:"proof"`
}

// programProveBLS proves the replay circuit over BLS12-381 (the Groth16
// wrapper of a recorded halo2 verifier for the Plutus verifier): with an
// INSECURE seeded setup (-seed S, re-keyed to G = γ) or a ceremony's keys
// (-pk PK -plutus-key K, from ceremony-extract -pk -plutus-key). The proof
// is checked by the Plutus verifier's native twin before anything is
// written: OUT/plutus-key.json, OUT/wrapped.json, OUT/report.txt.
func programProveBLS(args []string) error {
	fs := flag.NewFlagSet("program-prove-bls", flag.ContinueOnError)
	program := fs.String("program", "", "the program (PROGRAM.md)")
	witnessPath := fs.String("witness", "", "its witness")
	out := fs.String("out", "", "output directory")
	seed := fs.String("seed", "", "INSECURE seeded setup: the toxic waste derives from this seed (anyone with it can forge proofs)")
	pkPath := fs.String("pk", "", "a ceremony's proving key (ceremony-extract -pk), with -plutus-key")
	keyPath := fs.String("plutus-key", "", "the ceremony's verifying key as the Plutus verifier reads it (ceremony-extract -plutus-key)")
	circuitPath := fs.String("circuit", "", "the compiled circuit kept in this file: with -pk read back (checked against this program and this build) when it is there; else (and always with -seed, whose setup is made from the compile) compiled and written there (kept_circuit.go)")
	keepPK := fs.String("keep-pk", "", "with -seed: also write the setup's proving key to this file (gnark's memory dump, read back unconverted), so that later runs prove with -pk FILE -plutus-key OUT/plutus-key.json and skip the setup (tests and measurements; the key stays INSECURE)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *keepPK != "" && *seed == "" {
		return errors.New("-keep-pk keeps a seeded setup's proving key: it needs -seed")
	}
	if *program == "" || *witnessPath == "" || *out == "" {
		return errors.New("-program, -witness and -out are required")
	}
	if (*seed == "") == (*pkPath == "") || (*pkPath == "") != (*keyPath == "") {
		return errors.New("either -seed S (an INSECURE test setup) or -pk PK -plutus-key K (a ceremony's keys)")
	}
	p, err := LoadProgram(*program)
	if err != nil {
		return err
	}
	w, err := LoadWitness(*witnessPath, p)
	if err != nil {
		return err
	}
	var report strings.Builder
	say := func(format string, a ...any) {
		s := fmt.Sprintf(format, a...)
		fmt.Println(s)
		report.WriteString(s + "\n")
	}
	say("program-prove-bls %s", programSummary(p))
	r, err := p.Replay(w)
	if err != nil {
		return err
	}
	if !r.Accepted() {
		return fmt.Errorf("program-prove-bls: the native replay refuses the witness: %s", r)
	}
	step := func(name string, fn func() error) error {
		t, c := time.Now(), cpuSeconds()
		if err := fn(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		say("program-prove-bls step=%s wall_s=%.1f cpu_s=%.1f peak_rss_mib=%.0f", name, time.Since(t).Seconds(), cpuSeconds()-c, peakRSSMiB())
		return nil
	}
	var ccs constraint.ConstraintSystem
	var how string
	if err := step("circuit", func() (err error) {
		ccs, how, err = compileOrReadKept(*circuitPath, *pkPath != "", "bls12-381", *program,
			func() constraint.ConstraintSystem { return groth16.NewCS(ecc.BLS12_381) },
			func() (constraint.ConstraintSystem, error) { ccs, _, err := compileBLSProgram(p); return ccs, err })
		return
	}); err != nil {
		return err
	}
	say("program-prove-bls circuit %s", how)
	say("program-prove-bls outer=bls12-381 constraints=%d commitments=%d public=%d", ccs.GetNbConstraints(),
		len(ccs.GetCommitments().CommitmentIndexes()), ccs.GetNbPublicVariables()-1)
	assignment, err := NewBLSVerifierAssignment(p, w)
	if err != nil {
		return err
	}
	wit, err := frontend.NewWitness(assignment, ecc.BLS12_381.ScalarField())
	if err != nil {
		return err
	}
	var pk groth16.ProvingKey
	var key *plutusKey
	if *pkPath != "" {
		data, err := os.ReadFile(*keyPath)
		if err != nil {
			return err
		}
		key = new(plutusKey)
		if err := json.Unmarshal(data, key); err != nil {
			return fmt.Errorf("%s: %w", *keyPath, err)
		}
		// A ceremony's key of a hashed program has one public input: say which words it
		// hashes, as the seeded path does.
		if p.StatementHash != "" && key.StatementHash == "" && len(key.K) == 3 {
			key.StatementHash, key.StatementWords = p.StatementHash, len(p.PublicInstances)
		}
		pk = groth16.NewProvingKey(ecc.BLS12_381)
		if err := step("read-pk", func() error { return readProvingKey(*pkPath, pk) }); err != nil {
			return err
		}
	} else if err := withSetupRandomness(*seed, func() error {
		return step("setup", func() error {
			var vk groth16.VerifyingKey
			var err error
			if pk, vk, err = groth16.Setup(ccs); err != nil {
				return err
			}
			if err := rekeyCommitmentGamma(pk, vk); err != nil {
				return err
			}
			key, err = newPlutusKey(vk, setupDescription(*seed))
			if err == nil && p.StatementHash != "" {
				key.StatementHash, key.StatementWords = p.StatementHash, len(p.PublicInstances)
			}
			return err
		})
	}); err != nil {
		return err
	}
	if *keepPK != "" {
		if err := step("keep-pk", func() error { return writeProvingKey(*keepPK, pk) }); err != nil {
			return err
		}
	}
	var proof groth16.Proof
	if err := step("prove", func() (err error) { proof, err = groth16.Prove(ccs, pk, wit, plutusProveOptions()...); return }); err != nil {
		return err
	}
	b, err := plutusProofBytes(proof)
	if err != nil {
		return err
	}
	// The statement's words (with a hashed statement, the Plutus verifier and
	// its twin hash them into the one public input themselves).
	public := blsStatementWords(p, w)
	if err := step("verify", func() error { return plutusVerify(key, b, public) }); err != nil {
		return fmt.Errorf("the Plutus verifier's twin refuses the proof: %w", err)
	}
	wp := wrappedProof{Note: "Groth16 (BLS12-381) wrapper of " + p.Description + "; key: " + key.Setup, Proof: hex.EncodeToString(b)}
	for _, x := range public {
		wp.Public = append(wp.Public, x.String())
	}
	files := map[string][]byte{}
	for name, v := range map[string]any{"plutus-key.json": key, "wrapped.json": wp} {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		files[name] = append(data, '\n')
	}
	say("program-prove-bls ok proof_bytes=%d peak_rss_mib=%.0f", len(b), peakRSSMiB())
	files["report.txt"] = []byte(report.String())
	return writeFiles(*out, files)
}
