package jsplugin

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Number formatting goja gets wrong, done as ECMA-262 (and V8) specify.
// goja writes (-9.98).toPrecision(1) as ".0" and loses the sign and the
// last digit of fractions in toString(radix); node.js routes those
// methods here.

// numfmt answers node.js: kind is precision, exponential, string (radix
// 10) or radix.
func numfmt(kind string, x float64, n int) string {
	switch kind {
	case "precision":
		return toPrecision(x, n)
	case "exponential":
		return toExponential(x, n)
	case "string":
		return jsonv.FormatNumber(x)
	}
	return toRadix(x, n)
}

// exactDigits rounds the exact decimal value of x (> 0, finite) to sig
// significant digits, ties away from zero as ECMAScript's "pick the larger
// n" does: the digits and the decimal exponent of the first.
func exactDigits(x float64, sig int) (string, int) {
	// A double's exact expansion has at most 767 significant digits.
	s := new(big.Float).SetFloat64(x).Text('e', 800)
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	d := []byte(strings.Replace(mant, ".", "", 1))
	up := d[sig] >= '5'
	d = d[:sig]
	if up {
		i := sig - 1
		for ; i >= 0 && d[i] == '9'; i-- {
			d[i] = '0'
		}
		if i < 0 {
			d = append([]byte{'1'}, d[:sig-1]...)
			exp++
		} else {
			d[i]++
		}
	}
	return string(d), exp
}

func expNotation(digits string, exp int) string {
	s := digits[:1]
	if len(digits) > 1 {
		s += "." + digits[1:]
	}
	if exp >= 0 {
		return s + "e+" + strconv.Itoa(exp)
	}
	return s + "e-" + strconv.Itoa(-exp)
}

// toPrecision is Number.prototype.toPrecision(p) for a finite x and p in 1..100.
func toPrecision(x float64, p int) string {
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	var d string
	var e int
	if x == 0 {
		d, e = strings.Repeat("0", p), 0
	} else {
		d, e = exactDigits(x, p)
	}
	if e < -6 || e >= p {
		return sign + expNotation(d, e)
	}
	if e >= 0 {
		if p > e+1 {
			return sign + d[:e+1] + "." + d[e+1:]
		}
		return sign + d
	}
	return sign + "0." + strings.Repeat("0", -e-1) + d
}

// toExponential is Number.prototype.toExponential(f) for a finite x; f < 0
// means undefined (as many digits as x needs).
func toExponential(x float64, f int) string {
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	if x == 0 {
		if f < 0 {
			f = 0
		}
		return sign + expNotation(strings.Repeat("0", f+1), 0)
	}
	if f < 0 {
		s := strconv.FormatFloat(x, 'e', -1, 64) // the shortest digits, as ToString picks
		mant, expText, _ := strings.Cut(s, "e")
		exp, _ := strconv.Atoi(expText)
		return sign + expNotation(strings.Replace(mant, ".", "", 1), exp)
	}
	d, e := exactDigits(x, f+1)
	return sign + expNotation(d, e)
}

const radixDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

// toRadix is Number.prototype.toString(radix) for a finite x and radix in
// 2..36 other than 10, as V8's DoubleToRadixCString writes it: fraction
// digits until the value is pinned down to half an ulp, rounding the last
// one up when the rest is past a half.
func toRadix(x float64, radix int) string {
	negative := x < 0
	if negative {
		x = -x
	}
	integer := math.Floor(x)
	fraction := x - integer
	delta := 0.5 * (math.Nextafter(x, math.Inf(1)) - x)
	delta = math.Max(math.Nextafter(0, 1), delta)
	var frac []byte
	if fraction >= delta {
		for {
			fraction *= float64(radix)
			delta *= float64(radix)
			digit := int(fraction)
			frac = append(frac, radixDigits[digit])
			fraction -= float64(digit)
			if fraction > 0.5 || fraction == 0.5 && digit&1 == 1 {
				if fraction+delta > 1 {
					// Round up, carrying into the integer part.
					for {
						if len(frac) == 0 {
							integer++
							break
						}
						last := frac[len(frac)-1]
						frac = frac[:len(frac)-1]
						d := strings.IndexByte(radixDigits, last)
						if d+1 < radix {
							frac = append(frac, radixDigits[d+1])
							break
						}
					}
					break
				}
			}
			if fraction < delta {
				break
			}
		}
	}
	// The integer part: beyond 2^53 its low digits are zeros.
	var ip []byte
	for exponentOf(integer/float64(radix)) > 0 {
		integer /= float64(radix)
		ip = append(ip, '0')
	}
	for {
		rem := math.Mod(integer, float64(radix))
		ip = append(ip, radixDigits[int(rem)])
		integer = (integer - rem) / float64(radix)
		if integer <= 0 {
			break
		}
	}
	for i, j := 0, len(ip)-1; i < j; i, j = i+1, j-1 {
		ip[i], ip[j] = ip[j], ip[i]
	}
	s := string(ip)
	if len(frac) > 0 {
		s += "." + string(frac)
	}
	if negative {
		s = "-" + s
	}
	return s
}

// exponentOf is V8's Double::Exponent: the power of two of the double's
// last significand bit (biased exponent - 1075; denormals: -1074).
func exponentOf(d float64) int {
	bits := math.Float64bits(d)
	e := int(bits >> 52 & 0x7FF)
	if e == 0 {
		return -1074
	}
	return e - 1075
}
