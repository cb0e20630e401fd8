package main

// A minimal EVM interpreter for the tests: enough of the instruction set
// that solc 0.8.19 emits for the two verifiers (no storage, no logs, no
// calls but STATICCALL to the BN254 precompiles 0x06, 0x07, 0x08, which are
// gnark-crypto with EIP-196/197's input checks), with the Berlin/Istanbul
// gas schedule for what it runs. It checks that the generated Solidity
// accepts the proofs the Go twin accepts and refuses what it refuses. Its
// gas figures are an ESTIMATE by this interpreter (execution + the 21,000
// base + calldata), not a measurement: the Rust side measures the gas in
// revm.

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/consensys/gnark-crypto/ecc/bn254"
)

var (
	two256  = new(big.Int).Lsh(big.NewInt(1), 256)
	mask256 = new(big.Int).Sub(two256, big.NewInt(1))
	two255  = new(big.Int).Lsh(big.NewInt(1), 255)
)

func u256(x *big.Int) *big.Int { return x.And(x, mask256) }

func toSigned(x *big.Int) *big.Int {
	if x.Cmp(two255) >= 0 {
		return new(big.Int).Sub(x, two256)
	}
	return new(big.Int).Set(x)
}

func fromSigned(x *big.Int) *big.Int {
	if x.Sign() < 0 {
		return new(big.Int).Add(x, two256)
	}
	return x
}

type evmResult struct {
	Return   []byte
	Reverted bool
	GasUsed  uint64 // execution only
}

type outOfGas struct{}

// runEVM runs code with calldata, as the callee of a transaction (caller,
// value 0), with gasLimit for the execution.
func runEVM(code, calldata []byte, gasLimit uint64) (res evmResult, err error) {
	jumpdest := make([]bool, len(code))
	for pc := 0; pc < len(code); pc++ {
		op := code[pc]
		if op == 0x5b {
			jumpdest[pc] = true
		} else if op >= 0x60 && op <= 0x7f {
			pc += int(op - 0x5f)
		}
	}
	var (
		stack      []*big.Int
		mem        []byte
		returndata []byte
		gas        = gasLimit
	)
	use := func(g uint64) {
		if g > gas {
			panic(outOfGas{})
		}
		gas -= g
	}
	memWords := func(n int) uint64 { w := uint64((n + 31) / 32); return 3*w + w*w/512 }
	expand := func(off, size *big.Int) (int, int) {
		if size.Sign() == 0 {
			return 0, 0
		}
		if !off.IsUint64() || !size.IsUint64() || off.Uint64()+size.Uint64() > 1<<24 {
			panic(outOfGas{})
		}
		o, s := int(off.Uint64()), int(size.Uint64())
		if o+s > len(mem) {
			n := (o + s + 31) / 32 * 32
			use(memWords(n) - memWords(len(mem)))
			mem = append(mem, make([]byte, n-len(mem))...)
		}
		return o, s
	}
	pop := func() *big.Int {
		if len(stack) == 0 {
			panic(errors.New("stack underflow"))
		}
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return x
	}
	push := func(x *big.Int) {
		if len(stack) == 1024 {
			panic(errors.New("stack overflow"))
		}
		stack = append(stack, x)
	}
	word := func(b []byte) *big.Int { return new(big.Int).SetBytes(b) }
	put := func(dst []byte, x *big.Int) {
		var b [32]byte
		x.FillBytes(b[:])
		copy(dst, b[:])
	}
	// copyIn copies src[off:off+len(dst)] into dst, zero beyond src
	copyIn := func(dst, src []byte, off *big.Int) {
		for i := range dst {
			dst[i] = 0
		}
		if off.IsUint64() && off.Uint64() < uint64(len(src)) {
			copy(dst, src[off.Uint64():])
		}
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(outOfGas); ok {
				res = evmResult{Reverted: true, GasUsed: gasLimit}
				err = nil
				return
			}
			if e, ok := r.(error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	pc := 0
	for {
		if pc >= len(code) {
			return evmResult{GasUsed: gasLimit - gas}, nil
		}
		op := code[pc]
		switch {
		case op >= 0x60 && op <= 0x7f: // PUSHn
			n := int(op - 0x5f)
			use(3)
			b := make([]byte, n)
			copy(b, code[min(pc+1, len(code)):min(pc+1+n, len(code))])
			push(word(b))
			pc += 1 + n
			continue
		case op >= 0x80 && op <= 0x8f: // DUPn
			use(3)
			n := int(op-0x80) + 1
			if len(stack) < n {
				return res, errors.New("stack underflow")
			}
			push(new(big.Int).Set(stack[len(stack)-n]))
		case op >= 0x90 && op <= 0x9f: // SWAPn
			use(3)
			n := int(op-0x90) + 1
			if len(stack) < n+1 {
				return res, errors.New("stack underflow")
			}
			t := len(stack) - 1
			stack[t], stack[t-n] = stack[t-n], stack[t]
		default:
			switch op {
			case 0x00: // STOP
				return evmResult{GasUsed: gasLimit - gas}, nil
			case 0x01, 0x02, 0x03, 0x04, 0x06, 0x10, 0x11, 0x14, 0x16, 0x17, 0x18, 0x1b, 0x1c, 0x05, 0x07, 0x12, 0x13, 0x1a, 0x1d, 0x0b:
				a, b := pop(), pop()
				r := new(big.Int)
				switch op {
				case 0x01:
					use(3)
					u256(r.Add(a, b))
				case 0x02:
					use(5)
					u256(r.Mul(a, b))
				case 0x03:
					use(3)
					u256(r.Sub(a, b).Add(r, two256))
				case 0x04:
					use(5)
					if b.Sign() != 0 {
						r.Div(a, b)
					}
				case 0x05: // SDIV
					use(5)
					if b.Sign() != 0 {
						r = u256(fromSigned(new(big.Int).Quo(toSigned(a), toSigned(b))))
					}
				case 0x06:
					use(5)
					if b.Sign() != 0 {
						r.Mod(a, b)
					}
				case 0x07: // SMOD
					use(5)
					if b.Sign() != 0 {
						r = fromSigned(new(big.Int).Rem(toSigned(a), toSigned(b)))
					}
				case 0x10, 0x11, 0x12, 0x13, 0x14:
					use(3)
					var c int
					if op == 0x12 || op == 0x13 {
						c = toSigned(a).Cmp(toSigned(b))
					} else {
						c = a.Cmp(b)
					}
					if (op == 0x10 || op == 0x12) && c < 0 || (op == 0x11 || op == 0x13) && c > 0 || op == 0x14 && c == 0 {
						r.SetInt64(1)
					}
				case 0x16:
					use(3)
					r.And(a, b)
				case 0x17:
					use(3)
					r.Or(a, b)
				case 0x18:
					use(3)
					r.Xor(a, b)
				case 0x1a: // BYTE i x
					use(3)
					if a.IsUint64() && a.Uint64() < 32 {
						var w [32]byte
						b.FillBytes(w[:])
						r.SetInt64(int64(w[a.Uint64()]))
					}
				case 0x1b: // SHL shift value
					use(3)
					if a.IsUint64() && a.Uint64() < 256 {
						u256(r.Lsh(b, uint(a.Uint64())))
					}
				case 0x1c: // SHR
					use(3)
					if a.IsUint64() && a.Uint64() < 256 {
						r.Rsh(b, uint(a.Uint64()))
					}
				case 0x1d: // SAR
					use(3)
					s := toSigned(b)
					if a.IsUint64() && a.Uint64() < 256 {
						r = u256(fromSigned(s.Rsh(s, uint(a.Uint64()))))
					} else if s.Sign() < 0 {
						r.Set(mask256)
					}
				case 0x0b: // SIGNEXTEND b x
					use(5)
					r.Set(b)
					if a.IsUint64() && a.Uint64() < 31 {
						bit := uint(a.Uint64()*8 + 7)
						if b.Bit(int(bit)) == 1 {
							hi := new(big.Int).Lsh(mask256, bit+1)
							u256(r.Or(r, hi))
						} else {
							r.And(r, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bit+1), big.NewInt(1)))
						}
					}
				}
				push(r)
			case 0x08, 0x09: // ADDMOD, MULMOD
				use(8)
				a, b, n := pop(), pop(), pop()
				r := new(big.Int)
				if n.Sign() != 0 {
					if op == 0x08 {
						r.Add(a, b)
					} else {
						r.Mul(a, b)
					}
					r.Mod(r, n)
				}
				push(r)
			case 0x0a: // EXP
				a, e := pop(), pop()
				use(10 + 50*uint64((e.BitLen()+7)/8))
				push(new(big.Int).Exp(a, e, two256))
			case 0x15: // ISZERO
				use(3)
				r := new(big.Int)
				if pop().Sign() == 0 {
					r.SetInt64(1)
				}
				push(r)
			case 0x19: // NOT
				use(3)
				push(new(big.Int).Xor(pop(), mask256))
			case 0x20: // KECCAK256
				off, size := pop(), pop()
				use(30 + 6*uint64((size.Uint64()+31)/32))
				o, s := expand(off, size)
				push(word(keccak256(mem[o : o+s])))
			case 0x30, 0x32, 0x33: // ADDRESS, ORIGIN, CALLER
				use(2)
				push(big.NewInt(0x1000 + int64(op)))
			case 0x34: // CALLVALUE
				use(2)
				push(new(big.Int))
			case 0x35: // CALLDATALOAD
				use(3)
				b := make([]byte, 32)
				copyIn(b, calldata, pop())
				push(word(b))
			case 0x36: // CALLDATASIZE
				use(2)
				push(big.NewInt(int64(len(calldata))))
			case 0x37, 0x39, 0x3e: // CALLDATACOPY, CODECOPY, RETURNDATACOPY
				dst, off, size := pop(), pop(), pop()
				use(3 + 3*uint64((size.Uint64()+31)/32))
				o, s := expand(dst, size)
				switch op {
				case 0x37:
					copyIn(mem[o:o+s], calldata, off)
				case 0x39:
					copyIn(mem[o:o+s], code, off)
				case 0x3e:
					if !off.IsUint64() || off.Uint64()+uint64(s) > uint64(len(returndata)) {
						return res, errors.New("returndatacopy out of bounds")
					}
					copy(mem[o:o+s], returndata[off.Uint64():])
				}
			case 0x38: // CODESIZE
				use(2)
				push(big.NewInt(int64(len(code))))
			case 0x3d: // RETURNDATASIZE
				use(2)
				push(big.NewInt(int64(len(returndata))))
			case 0x50: // POP
				use(2)
				pop()
			case 0x51: // MLOAD
				use(3)
				o, _ := expand(pop(), big.NewInt(32))
				push(word(mem[o : o+32]))
			case 0x52: // MSTORE
				use(3)
				off, v := pop(), pop()
				o, _ := expand(off, big.NewInt(32))
				put(mem[o:o+32], v)
			case 0x53: // MSTORE8
				use(3)
				off, v := pop(), pop()
				o, _ := expand(off, big.NewInt(1))
				mem[o] = byte(v.Uint64())
			case 0x56, 0x57: // JUMP, JUMPI
				dst := pop()
				cond := big.NewInt(1)
				if op == 0x57 {
					use(10)
					cond = pop()
				} else {
					use(8)
				}
				if cond.Sign() != 0 {
					if !dst.IsUint64() || dst.Uint64() >= uint64(len(code)) || !jumpdest[dst.Uint64()] {
						return res, fmt.Errorf("bad jump to %s", dst)
					}
					pc = int(dst.Uint64())
					continue
				}
			case 0x58: // PC
				use(2)
				push(big.NewInt(int64(pc)))
			case 0x59: // MSIZE
				use(2)
				push(big.NewInt(int64(len(mem))))
			case 0x5a: // GAS
				use(2)
				push(new(big.Int).SetUint64(gas))
			case 0x5b: // JUMPDEST
				use(1)
			case 0xfa: // STATICCALL gas addr in insize out outsize
				g, addr, in, insize, out, outsize := pop(), pop(), pop(), pop(), pop(), pop()
				use(100) // a precompile is always warm (EIP-2929)
				io, is := expand(in, insize)
				oo, os := expand(out, outsize)
				avail := gas - gas/64
				callGas := avail
				if g.IsUint64() && g.Uint64() < avail {
					callGas = g.Uint64()
				}
				input := append([]byte(nil), mem[io:io+is]...)
				output, cost, ok := precompile(addr, input)
				if !ok || cost > callGas {
					use(callGas) // a failing precompile consumes the gas it was given
					returndata = nil
					push(new(big.Int))
					break
				}
				use(cost)
				returndata = output
				copy(mem[oo:oo+os], output)
				push(big.NewInt(1))
			case 0xf3, 0xfd: // RETURN, REVERT
				off, size := pop(), pop()
				o, s := expand(off, size)
				return evmResult{Return: append([]byte(nil), mem[o:o+s]...), Reverted: op == 0xfd, GasUsed: gasLimit - gas}, nil
			case 0xfe: // INVALID
				return evmResult{Reverted: true, GasUsed: gasLimit}, nil
			default:
				return res, fmt.Errorf("opcode 0x%02x at %d not implemented", op, pc)
			}
		}
		pc++
	}
}

// precompile runs 0x06 (ecAdd), 0x07 (ecMul) or 0x08 (pairing) with the
// EIP-196/197 checks and EIP-1108 prices; ok false is a failed call.
func precompile(addr *big.Int, in []byte) (out []byte, cost uint64, ok bool) {
	pad := func(n int) []byte {
		b := make([]byte, n)
		copy(b, in)
		return b
	}
	w := func(b []byte, i int) *big.Int { return new(big.Int).SetBytes(b[32*i : 32*i+32]) }
	enc := func(p *bn254.G1Affine) []byte {
		var b [64]byte
		p.X.BigInt(new(big.Int)).FillBytes(b[:32])
		p.Y.BigInt(new(big.Int)).FillBytes(b[32:])
		return b[:]
	}
	switch {
	case addr.Cmp(big.NewInt(6)) == 0:
		b := pad(128)
		p, ok1 := g1(w(b, 0), w(b, 1))
		q, ok2 := g1(w(b, 2), w(b, 3))
		if !ok1 || !ok2 {
			return nil, 150, false
		}
		var r bn254.G1Affine
		r.Add(&p, &q)
		return enc(&r), 150, true
	case addr.Cmp(big.NewInt(7)) == 0:
		b := pad(96)
		p, ok1 := g1(w(b, 0), w(b, 1))
		if !ok1 {
			return nil, 6000, false
		}
		var r bn254.G1Affine
		r.ScalarMultiplication(&p, w(b, 2))
		return enc(&r), 6000, true
	case addr.Cmp(big.NewInt(8)) == 0:
		if len(in)%192 != 0 {
			return nil, 45000, false
		}
		k := len(in) / 192
		cost = 45000 + 34000*uint64(k)
		var ps []bn254.G1Affine
		var qs []bn254.G2Affine
		for i := 0; i < k; i++ {
			b := in[192*i : 192*i+192]
			p, ok1 := g1(w(b, 0), w(b, 1))
			q, ok2 := g2(w(b, 2), w(b, 3), w(b, 4), w(b, 5))
			if !ok1 || !ok2 {
				return nil, cost, false
			}
			ps, qs = append(ps, p), append(qs, q)
		}
		res := make([]byte, 32)
		if k == 0 {
			res[31] = 1
			return res, cost, true
		}
		okp, err := bn254.PairingCheck(ps, qs)
		if err != nil {
			return nil, cost, false
		}
		if okp {
			res[31] = 1
		}
		return res, cost, true
	}
	return nil, 0, false
}

// intrinsicGas is a call transaction's 21,000 and its calldata's price
// (EIP-2028: 4 a zero byte, 16 another).
func intrinsicGas(calldata []byte) uint64 {
	g := uint64(21000)
	for _, b := range calldata {
		if b == 0 {
			g += 4
		} else {
			g += 16
		}
	}
	return g
}

// solcDir is a directory holding tms-evm's compile.js and its solc-js
// (node_modules/solc, `npm ci --prefix evm/solc`): $TMS_SOLC_DIR, else
// ../solc. Empty when there is none (or no node).
func solcDir() string {
	if _, err := exec.LookPath("node"); err != nil {
		return ""
	}
	for _, d := range []string{os.Getenv("TMS_SOLC_DIR"), filepath.Join("..", "solc")} {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "node_modules", "solc", "soljson.js")); err == nil {
			if _, err := os.Stat(filepath.Join(d, "compile.js")); err == nil {
				return d
			}
		}
	}
	return ""
}

// compileSolidity compiles one source with solc-js (optimizer on, as
// tms-evm does) and returns the contract's runtime bytecode and solc's
// version.
func compileSolidity(dir, file, source, contract string) ([]byte, string, error) {
	req, _ := json.Marshal(map[string]any{"sources": map[string]string{file: source}, "optimize": true})
	cmd := exec.Command("node", filepath.Join(dir, "compile.js"))
	cmd.Stdin = strings.NewReader(string(req))
	out, err := cmd.Output()
	if err != nil {
		return nil, "", fmt.Errorf("compile.js: %w", err)
	}
	var res struct {
		Version   string
		Errors    []struct{ Severity, Message string }
		Contracts map[string]map[string]struct {
			Bytecode, Deployed string
		}
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, "", err
	}
	for _, e := range res.Errors {
		if e.Severity == "error" {
			return nil, res.Version, fmt.Errorf("solc: %s", e.Message)
		}
	}
	c, ok := res.Contracts[file][contract]
	if !ok {
		return nil, res.Version, fmt.Errorf("solc: no contract %s in %s", contract, file)
	}
	code, err := hex.DecodeString(c.Deployed)
	return code, res.Version, err
}

// revertSelector is the 4-byte selector of a custom error.
func revertSelector(sig string) []byte { return keccak256([]byte(sig))[:4] }

// callData is the selector and the words (decimal) of a proofWords.
func callData(signature string, w *proofWords) []byte {
	return append(append([]byte(nil), keccak256([]byte(signature))[:4]...), w.packed()...)
}
