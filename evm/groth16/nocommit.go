package main

// Running gnark's emulated gadgets without a BSB22 commitment (README.md,
// "Without the BSB22 commitment").
//
// In gnark v0.14 two things in std/ ask the builder for a commitment:
//
//   - std/rangecheck.New: uses the log-derivative argument (committed) when
//     the API it is given implements frontend.Committer, and falls back to
//     plain bit decomposition (rangecheck_plain.go) when it does not;
//   - std/math/emulated (field_mul.go, Field.performDeferredChecks): every
//     emulated multiplication is a hinted result whose check is deferred and
//     done at one random point; the point ALWAYS comes from
//     multicommit.WithCommitment, and std/multicommit (nativecommit.go,
//     multicommitter.commitAndCall) panics with "compiler doesn't implement
//     frontend.Committer" when api.Compiler() is not a Committer. There is no
//     non-commitment path for the multiplication checks.
//
// So hiding frontend.Committer is enough for the range checks, but the
// multiplication checks need SOME commitment. commitAPI wraps a frontend.API
// so that:
//
//   - CommitBSB22: nothing changes (the builder itself is used);
//   - CommitPlainRange: the API hides frontend.Committer (range checks by bit
//     decomposition), api.Compiler().Commit is still the builder's BSB22
//     commitment (one commitment, used only by the multiplication checks);
//   - CommitNone: the same, but api.Compiler().Commit is an in-circuit
//     Fiat-Shamir hash (Poseidon2, gnark's std/permutation/poseidon2, width 3,
//     8 full and 56 partial rounds, as a sponge of rate 2) of every distinct
//     wire that gnark would have committed to. The R1CS has no commitment;
//     the price is about 120 constraints per committed wire.
//
// Callbacks registered with api.Compiler().Defer are wrapped too: gnark calls
// deferred functions with the raw builder, and the emulated multiplication
// checks run in a deferred function.

import (
	"fmt"
	"math/big"
	"reflect"
	"sort"

	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/permutation/poseidon2"
)

type CommitMode int

const (
	CommitBSB22      CommitMode = iota // gnark's default: one BSB22 commitment
	CommitPlainRange                   // range checks by bits, multiplication checks committed (BSB22)
	CommitNone                         // no BSB22 commitment: the challenge is an in-circuit hash
)

func (m CommitMode) String() string {
	return [...]string{"bsb22", "plain-range", "none"}[m]
}

func ParseCommitMode(s string) (CommitMode, error) {
	for m := CommitBSB22; m <= CommitNone; m++ {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("commit mode %q: want bsb22, plain-range or none", s)
}

// The key-value store that gnark's builders implement (internal/kvstore.Store,
// not importable; the method set is what matters). std/multicommit and
// std/math/emulated need it on the API, std/rangecheck on the compiler.
type kvStore interface {
	SetKeyValue(key, value any)
	GetKeyValue(key any) any
}

// std/math/bits asks the compiler for this (unexported interface
// bitsComparatorConstant) when it decomposes a full-width value.
type constComparator interface {
	MustBeLessOrEqCst(aBits []frontend.Variable, bound *big.Int, aForDebug frontend.Variable)
}

// WrapAPI returns the API the gadgets are given under mode.
func WrapAPI(api frontend.API, mode CommitMode) frontend.API {
	if mode == CommitBSB22 {
		return api
	}
	if w, ok := api.(*commitAPI); ok {
		if w.mode == mode {
			return w
		}
		api = w.API
	}
	w := &commitAPI{API: api, mode: mode}
	w.comp = &commitCompiler{Compiler: api.Compiler(), w: w}
	return w
}

// commitAPI has frontend.API's methods only (so it is not a frontend.Committer)
// plus the key-value store.
type commitAPI struct {
	frontend.API
	mode CommitMode
	comp *commitCompiler
}

func (a *commitAPI) Compiler() frontend.Compiler { return a.comp }
func (a *commitAPI) SetKeyValue(key, value any)  { a.API.(kvStore).SetKeyValue(key, value) }
func (a *commitAPI) GetKeyValue(key any) any     { return a.API.(kvStore).GetKeyValue(key) }

type commitCompiler struct {
	frontend.Compiler
	w *commitAPI
}

func (c *commitCompiler) Defer(cb func(frontend.API) error) {
	mode := c.w.mode
	c.Compiler.Defer(func(api frontend.API) error {
		return cb(&committingAPI{WrapAPI(api, mode).(*commitAPI)})
	})
}

// committingAPI is what deferred callbacks get: gnark v0.16's
// std/multicommit asks the API (v0.14 asked its Compiler) for
// frontend.Committer, and rangecheck.New asks the same of the API it is
// given; the gadgets' range checkers are made before (at NewField, on
// commitAPI: plain), so only the multiplication checks' commitment sees this.
type committingAPI struct{ *commitAPI }

func (a *committingAPI) Commit(v ...frontend.Variable) (frontend.Variable, error) {
	return a.comp.Commit(v...)
}

func (c *commitCompiler) SetKeyValue(key, value any) { c.Compiler.(kvStore).SetKeyValue(key, value) }
func (c *commitCompiler) GetKeyValue(key any) any    { return c.Compiler.(kvStore).GetKeyValue(key) }

func (c *commitCompiler) MustBeLessOrEqCst(aBits []frontend.Variable, bound *big.Int, aForDebug frontend.Variable) {
	c.Compiler.(constComparator).MustBeLessOrEqCst(aBits, bound, aForDebug)
}

// Commit is what std/multicommit calls (once per circuit, with every
// variable of every deferred check).
func (c *commitCompiler) Commit(v ...frontend.Variable) (frontend.Variable, error) {
	if c.w.mode == CommitPlainRange {
		cm, ok := c.Compiler.(frontend.Committer)
		if !ok {
			return nil, fmt.Errorf("builder is not a frontend.Committer")
		}
		return cm.Commit(v...)
	}
	return hashCommit(c.w.API, v)
}

// Poseidon2 over BN254's Fr as gnark's std/permutation/poseidon2 provides it
// (width 2 or 3 only); width 3 with the round numbers of the Poseidon2 paper
// for a 254-bit field and x^5 (8 full, 56 partial rounds).
const (
	hashWidth       = 3
	hashFullRounds  = 8
	hashPartRounds  = 56
	hashRate        = hashWidth - 1
	hashDomainLabel = 0x746d73636d74 // "tmscmt": capacity element's initial value, with the input count
)

// hashCommit is an in-circuit Fiat-Shamir challenge: a sponge over the
// distinct wires of v (in R1CS a variable is a linear expression; hashing the
// expression's value would let a prover move two wires at once, so every wire
// it contains is absorbed). Under gnark's test engine variables are values:
// they are all absorbed.
func hashCommit(api frontend.API, v []frontend.Variable) (frontend.Variable, error) {
	in := distinctWires(api, v)
	perm, err := poseidon2.NewPoseidon2FromParameters(api, hashWidth, hashFullRounds, hashPartRounds)
	if err != nil {
		return nil, err
	}
	st := make([]frontend.Variable, hashWidth)
	st[0] = new(big.Int).Add(big.NewInt(hashDomainLabel), new(big.Int).Lsh(big.NewInt(int64(len(in))), 64))
	for i := 1; i < hashWidth; i++ {
		st[i] = 0
	}
	for k := 0; k < len(in); k += hashRate {
		for j := 0; j < hashRate && k+j < len(in); j++ {
			st[1+j] = api.Add(st[1+j], in[k+j])
		}
		if err := perm.Permutation(st); err != nil {
			return nil, err
		}
	}
	if len(in) == 0 {
		if err := perm.Permutation(st); err != nil {
			return nil, err
		}
	}
	return st[1], nil
}

type wireIDer interface{ WireID() int }

// distinctWires returns, for an R1CS builder's linear expressions, one
// variable per distinct wire (sorted by id, the constant wire 0 left out);
// compile-time constants are left out; anything else (the test engine's
// values, which it does not report as constants) is returned as is.
func distinctWires(api frontend.API, v []frontend.Variable) []frontend.Variable {
	seen := map[int]bool{}
	var ids []int
	var rest []frontend.Variable
	for _, x := range v {
		rv := reflect.ValueOf(x)
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Implements(reflect.TypeOf((*wireIDer)(nil)).Elem()) {
			for i := 0; i < rv.Len(); i++ {
				id := rv.Index(i).Interface().(wireIDer).WireID()
				if id != 0 && !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
			continue
		}
		if _, isConst := api.Compiler().ConstantValue(x); isConst {
			continue // a compile-time constant carries no prover choice
		}
		rest = append(rest, x)
	}
	sort.Ints(ids)
	out := make([]frontend.Variable, 0, len(ids)+len(rest))
	for _, id := range ids {
		out = append(out, api.Compiler().InternalVariable(uint32(id)))
	}
	return append(out, rest...)
}
