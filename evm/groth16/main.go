// Command groth16 measures the constraint count of the dominant parts of a
// gnark Groth16 circuit verifying our outer halo2 proof (issue 33). It is a
// measurement, not a verifier: see README.md.
//
//	go run . count [-parts name,name,...]   compile each part, print its R1CS constraint count
//	go run . prove [-shape all|full|small]       INSECURE setup + prove + verify of one shape, timed
//	go run . program-count|program-check|program-prove|program-bench|program-synth|program-export ...   the replay circuit (commands.go)
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/logger"
)

// The components, in the order they are printed. Tags: (a)-(f) as in README.md.
var components = []Shape{
	{Name: "a-pairing2-variable-g2", Pairing: PairingVariableG2},
	{Name: "a-pairing2-constant-g2", Pairing: PairingConstantG2},
	{Name: "a-pairing2-constant-g2-lines", Pairing: PairingFixedLines},
	{Name: "b-msm1", MSMTerms: 1},
	{Name: "b-msm8", MSMTerms: 8},
	{Name: "b-msm24", MSMTerms: 24},
	{Name: "b-msm24-12const", MSMTerms: 24, MSMConstPoints: 12},
	{Name: "b-msm2-complete", MSMTerms: 2, MSMComplete: true},
	{Name: "b-msm24-complete", MSMTerms: 24, MSMComplete: true},
	{Name: "c-oncurve2-limbs88", LimbPoints: 2},
	{Name: "c-oncurve12-limbs88", LimbPoints: 12},
	{Name: "d-transcript", Transcript: true},
	{Name: "e-identity400", IdentityMuls: 400},
	{Name: "f-scalarconv24", ScalarConversions: 24},
}

// The parts summed into the estimate, and the "all parts" circuit that
// contains exactly them: (a) with the key's G2 points as constants, (b) the
// 24-term MSM, (c) the two accumulator points, (d) the transcript.
var allParts = []string{"a-pairing2-constant-g2-lines", "b-msm24", "c-oncurve2-limbs88", "d-transcript"}

var shapeAll = Shape{Name: "all-a-to-d", Pairing: PairingFixedLines, MSMTerms: 24, LimbPoints: 2, Transcript: true}

// Every measured part together, extras included: (a) and (b) as above, (c)
// for all 12 points read from limbs (10 proof commitments and the 2
// accumulator points), (d), (e) 400 native multiplications, (f) 24 scalar
// conversions. Still not a verifier (see README.md).
var shapeFull = Shape{Name: "all-with-extras", Pairing: PairingFixedLines, MSMTerms: 24, LimbPoints: 12, Transcript: true, IdentityMuls: 400, ScalarConversions: 24}

// A small shape with the same kinds of parts, for checking the prove path
// without many GiB: no pairing, one MSM term.
var shapeSmall = Shape{Name: "small", MSMTerms: 1, LimbPoints: 2, Transcript: true, IdentityMuls: 10}

func main() {
	logger.Disable()
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "count":
		fs := flag.NewFlagSet("count", flag.ExitOnError)
		parts := fs.String("parts", "", "comma-separated part names (default: every component and the all-parts circuit)")
		commit := fs.String("commit", "bsb22", "bsb22 (gnark's default), plain-range (range checks by bits, multiplication checks still BSB22) or none (no BSB22: in-circuit hash, see nocommit.go)")
		noCommit := fs.Bool("no-commit", false, "the same as -commit none")
		fs.Parse(os.Args[2:])
		mode, err := ParseCommitMode(*commit)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if *noCommit {
			mode = CommitNone
		}
		if err := count(*parts, mode); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "prove":
		fs := flag.NewFlagSet("prove", flag.ExitOnError)
		shape := fs.String("shape", "all", "all (parts a-d together), full (all-with-extras) or small")
		fs.Parse(os.Args[2:])
		s := shapeAll
		switch *shape {
		case "all":
		case "full":
			s = shapeFull
		case "small":
			s = shapeSmall
		default:
			usage()
		}
		if err := prove(s); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "ceremony-init", "ceremony-contribute", "ceremony-verify", "ceremony-extract":
		if err := ceremonyCommand(os.Args[1], os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "program-count", "program-check", "program-prove", "program-bench", "program-synth", "program-export":
		run := map[string]func([]string) error{"program-count": programCount, "program-check": programCheck,
			"program-prove": programProve, "program-bench": programBench, "program-synth": programSynth, "program-export": programExport}[os.Args[1]]
		if err := run(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "program-count-bls", "program-prove-bls":
		run := map[string]func([]string) error{"program-count-bls": programCountBLS, "program-prove-bls": programProveBLS}[os.Args[1]]
		if err := run(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "plutus-fixture":
		if err := plutusFixtureCommand(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  groth16 count [-parts a,b,...] [-commit bsb22|plain-range|none]
  groth16 prove [-shape all|full|small]
  groth16 plutus-fixture -messages F -out FILE [-seed S] [-w W] [-threshold T]   (TEST: the BLS12-381 toy circuit's key and proofs for tms-cardano)
  groth16 program-count-bls -program F   (the replay circuit over BLS12-381: BN254's Fr and Fq emulated)
  groth16 program-prove-bls -program F -witness W -out DIR (-seed S | -pk PK -plutus-key K)   (the Groth16 wrapper over BLS12-381 for the Plutus verifier: plutus-key.json, wrapped.json)
  groth16 program-count -program F [options]
  groth16 program-check -program F -witness W [-engine test|r1cs] [options]
  groth16 program-prove -program F -witness W -out DIR [-seed S] [-shared-g2=true|false] [-keep-vk FILE] [-insecure-test-key] [options]
  groth16 program-prove -program F -witness W -out DIR -pk FILE -vk FILE   (keys from ceremony-extract)
  groth16 program-bench -program F -witness W   (the prove's cost on gnark's DummySetup key: no setup, no proof that verifies)
  groth16 program-export -vk FILE -out DIR [-setup S] [-insecure-test-key]   (Groth16Verifier.sol again from a kept key; checks DIR/proof.json)
  groth16 program-synth -out DIR    (the synthetic program of synthetic.go and its witness)
  groth16 ceremony-init -program F -dir D [-curve bn254|bls12-381]   (a multi-party setup: ceremony.go, README.md "The ceremony")
  groth16 ceremony-contribute -dir D               (one contribution to the current phase)
  groth16 ceremony-verify -program F -dir D -beacon1 B1   (verify; the first time after phase 1, start phase 2)
  groth16 ceremony-extract -program F -dir D -beacon1 B1 -beacon2 B2 -vk FILE [-pk FILE] [-phase1-sha256 H] [-plutus-key FILE]
options: -commit bsb22|plain-range|none (-no-commit), -incomplete, -scalar-bits (see README.md)`)
	os.Exit(2)
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// peakRSSMiB reads VmHWM (the process's resident high-water mark).
func peakRSSMiB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return -1
}

func compile(s Shape) (constraint.ConstraintSystem, float64, error) {
	t := time.Now()
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, s.Placeholder())
	return ccs, time.Since(t).Seconds(), err
}

// committedWires is the number of wires the circuit's BSB22 commitments
// commit to (what CommitNone has to hash instead).
func committedWires(ccs constraint.ConstraintSystem) int {
	n := 0
	if cm, ok := ccs.GetCommitments().(constraint.Groth16Commitments); ok {
		for _, c := range cm {
			n += len(c.PrivateCommitted) + len(c.PublicAndCommitmentCommitted)
		}
	}
	return n
}

func count(only string, mode CommitMode) error {
	want := map[string]bool{}
	for _, p := range strings.Split(only, ",") {
		if p != "" {
			want[p] = true
		}
	}
	shapes := append(append([]Shape{}, components...), shapeAll, shapeFull)
	got := map[string]int{}
	for _, s := range shapes {
		if len(want) > 0 && !want[s.Name] {
			continue
		}
		s.Commit = mode
		ccs, secs, err := compile(s)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		n := ccs.GetNbConstraints()
		got[s.Name] = n
		extra := ""
		if s.Transcript {
			extra = fmt.Sprintf(" poseidon_permutations=%d", transcriptPermutations())
		}
		fmt.Printf("groth16-count part=%s commit=%s constraints=%d compile_s=%.1f wires=%d public=%d commitments=%d committed_wires=%d peak_rss_mib=%.0f%s\n",
			s.Name, mode, n, secs, ccs.GetNbInternalVariables()+ccs.GetNbSecretVariables()+ccs.GetNbPublicVariables(),
			ccs.GetNbPublicVariables(), len(ccs.GetCommitments().CommitmentIndexes()), committedWires(ccs), peakRSSMiB(), extra)
		ccs = nil
		runtime.GC()
		debug.FreeOSMemory()
	}
	sum, complete := 0, true
	for _, p := range allParts {
		n, ok := got[p]
		complete = complete && ok
		sum += n
	}
	if complete {
		fmt.Printf("groth16-count part=sum-of-parts(%s) constraints=%d\n", strings.Join(allParts, "+"), sum)
		if n, ok := got[shapeAll.Name]; ok {
			fmt.Printf("groth16-count total: all-parts circuit %d constraints, sum of its parts %d, difference %d (a LOWER BOUND / ESTIMATE of the full verifier: see README.md)\n",
				n, sum, n-sum)
		}
		if n, ok := got[shapeFull.Name]; ok {
			fmt.Printf("groth16-count total: all-with-extras circuit %d constraints (still an ESTIMATE, not a verifier)\n", n)
		}
	}
	return nil
}

func prove(s Shape) error {
	fmt.Println("groth16-prove: INSECURE setup (random toxic waste, known to this process), for measurement only; keys are discarded")
	ccs, secs, err := compile(s)
	if err != nil {
		return err
	}
	fmt.Printf("groth16-prove shape=%s constraints=%d compile_s=%.1f\n", s.Name, ccs.GetNbConstraints(), secs)

	w, err := frontend.NewWitness(s.Assignment(Honest), ecc.BN254.ScalarField())
	if err != nil {
		return err
	}
	pub, err := w.Public()
	if err != nil {
		return err
	}

	step := func(name string, f func() error) error {
		t, c := time.Now(), cpuSeconds()
		if err := f(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Printf("groth16-prove step=%s wall_s=%.1f cpu_s=%.1f peak_rss_mib=%.0f\n",
			name, time.Since(t).Seconds(), cpuSeconds()-c, peakRSSMiB())
		return nil
	}
	var pk groth16.ProvingKey
	var vk groth16.VerifyingKey
	var proof groth16.Proof
	if err := step("setup", func() (err error) { pk, vk, err = groth16.Setup(ccs); return }); err != nil {
		return err
	}
	if err := step("prove", func() (err error) { proof, err = groth16.Prove(ccs, pk, w); return }); err != nil {
		return err
	}
	if err := step("verify", func() error { return groth16.Verify(proof, vk, pub) }); err != nil {
		return err
	}
	fmt.Printf("groth16-prove shape=%s ok peak_rss_mib=%.0f cpus=%d\n", s.Name, peakRSSMiB(), runtime.GOMAXPROCS(0))
	return nil
}
