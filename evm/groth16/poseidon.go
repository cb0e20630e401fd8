package main

// A Poseidon permutation and sponge with the round structure of snark-verifier's
// transcript hash over BN254's Fr: width 5 (capacity 1, rate 4), 8 full rounds
// (4 before and 4 after the partial ones), 60 partial rounds, S-box x^5.
//
// THE CONSTANTS ARE STAND-INS FOR COUNTING, NOT snark-verifier's CONSTANTS. They
// are derived deterministically from SHA-256 of a label (round constants) and a
// Cauchy matrix (MDS). A constraint count does not depend on the constant values:
// in R1CS an addition of a constant or a multiplication by a constant is free (it
// only changes a linear combination), and each S-box x^5 costs 3 constraints
// whatever the constants are. A real wrapper must use snark-verifier's constants
// (and its optimised partial-round form, which gives the same count in R1CS).
//
// The sponge follows the shape of snark-verifier's Poseidon transcript: absorbed
// elements are buffered; a squeeze processes the buffer in chunks of RATE
// (each chunk added into the rate part of the state, a chunk shorter than RATE
// padded with a 1, then one permutation), runs one more permutation (padding
// only) when the buffer length is a multiple of RATE (an empty buffer included),
// and returns state[1].

import (
	"crypto/sha256"
	"encoding/binary"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/frontend"
)

const (
	poseidonWidth         = 5
	poseidonRate          = 4
	poseidonFullRounds    = 8
	poseidonPartialRounds = 60
)

// derive returns a deterministic Fr element from a label and an index
// (SHA-256 of both, reduced modulo r). Used for every stand-in constant and
// every pseudo-random witness value, so that a circuit's constants and its
// witness agree without any stored data.
func derive(label string, i int) fr.Element {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(i))
	h := sha256.New()
	h.Write([]byte("tms groth16 count: " + label))
	h.Write(buf[:])
	var e fr.Element
	e.SetBytes(h.Sum(nil))
	return e
}

type poseidonConstants struct {
	rc  [poseidonFullRounds + poseidonPartialRounds][poseidonWidth]fr.Element
	mds [poseidonWidth][poseidonWidth]fr.Element
	// initial capacity element (halo2/snark-verifier put 2^64 there; a stand-in)
	cap0 fr.Element
}

var poseidonConsts = func() *poseidonConstants {
	c := new(poseidonConstants)
	for r := range c.rc {
		for i := range c.rc[r] {
			c.rc[r][i] = derive("poseidon round constant (stand-in)", r*poseidonWidth+i)
		}
	}
	// Cauchy matrix 1/(x_i + y_j) with x_i = i, y_j = width + j: every square
	// submatrix is invertible, so it is MDS.
	for i := 0; i < poseidonWidth; i++ {
		for j := 0; j < poseidonWidth; j++ {
			var d fr.Element
			d.SetUint64(uint64(i + poseidonWidth + j))
			c.mds[i][j].Inverse(&d)
		}
	}
	c.cap0.SetBigInt(new(big.Int).Lsh(big.NewInt(1), 64))
	return c
}()

// arith abstracts the field operations the permutation needs, so that one
// definition of the round structure serves both the circuit and the
// out-of-circuit reference used to build witnesses.
type arith[T any] interface {
	add(a, b T) T
	mul(a, b T) T
	mulConst(a T, c *fr.Element) T
	addConst(a T, c *fr.Element) T
	constant(c *fr.Element) T
}

func sbox[T any](ar arith[T], x T) T {
	x2 := ar.mul(x, x)
	x4 := ar.mul(x2, x2)
	return ar.mul(x4, x)
}

func permute[T any](ar arith[T], s []T) {
	pc := poseidonConsts
	half := poseidonFullRounds / 2
	for r := 0; r < poseidonFullRounds+poseidonPartialRounds; r++ {
		for i := range s {
			s[i] = ar.addConst(s[i], &pc.rc[r][i])
		}
		if r < half || r >= half+poseidonPartialRounds {
			for i := range s {
				s[i] = sbox(ar, s[i])
			}
		} else {
			s[0] = sbox(ar, s[0])
		}
		var next [poseidonWidth]T
		for i := 0; i < poseidonWidth; i++ {
			acc := ar.mulConst(s[0], &pc.mds[i][0])
			for j := 1; j < poseidonWidth; j++ {
				acc = ar.add(acc, ar.mulConst(s[j], &pc.mds[i][j]))
			}
			next[i] = acc
		}
		copy(s, next[:])
	}
}

type sponge[T any] struct {
	ar           arith[T]
	state        []T
	buf          []T
	permutations int
}

func newSponge[T any](ar arith[T]) *sponge[T] {
	var zero fr.Element
	s := &sponge[T]{ar: ar, state: make([]T, poseidonWidth)}
	s.state[0] = ar.constant(&poseidonConsts.cap0)
	for i := 1; i < poseidonWidth; i++ {
		s.state[i] = ar.constant(&zero)
	}
	return s
}

func (s *sponge[T]) absorb(xs ...T) { s.buf = append(s.buf, xs...) }

func (s *sponge[T]) absorbChunk(chunk []T) {
	var one fr.Element
	one.SetOne()
	for i, x := range chunk {
		s.state[1+i] = s.ar.add(s.state[1+i], x)
	}
	if len(chunk) < poseidonRate {
		s.state[1+len(chunk)] = s.ar.addConst(s.state[1+len(chunk)], &one)
	}
	permute(s.ar, s.state)
	s.permutations++
}

func (s *sponge[T]) squeeze() T {
	buf := s.buf
	s.buf = nil
	for i := 0; i < len(buf); i += poseidonRate {
		s.absorbChunk(buf[i:min(i+poseidonRate, len(buf))])
	}
	if len(buf)%poseidonRate == 0 {
		s.absorbChunk(nil)
	}
	return s.state[1]
}

// circuitArith: native Fr arithmetic in the circuit.
type circuitArith struct{ api frontend.API }

func (c circuitArith) add(a, b frontend.Variable) frontend.Variable { return c.api.Add(a, b) }
func (c circuitArith) mul(a, b frontend.Variable) frontend.Variable { return c.api.Mul(a, b) }
func (c circuitArith) mulConst(a frontend.Variable, k *fr.Element) frontend.Variable {
	return c.api.Mul(a, k.BigInt(new(big.Int)))
}
func (c circuitArith) addConst(a frontend.Variable, k *fr.Element) frontend.Variable {
	return c.api.Add(a, k.BigInt(new(big.Int)))
}
func (c circuitArith) constant(k *fr.Element) frontend.Variable { return k.BigInt(new(big.Int)) }

// frArith: the out-of-circuit reference.
type frArith struct{}

func (frArith) add(a, b fr.Element) (r fr.Element) { r.Add(&a, &b); return }
func (frArith) mul(a, b fr.Element) (r fr.Element) { r.Mul(&a, &b); return }
func (frArith) mulConst(a fr.Element, k *fr.Element) (r fr.Element) {
	r.Mul(&a, k)
	return
}
func (frArith) addConst(a fr.Element, k *fr.Element) (r fr.Element) {
	r.Add(&a, k)
	return
}
func (frArith) constant(k *fr.Element) fr.Element { return *k }
