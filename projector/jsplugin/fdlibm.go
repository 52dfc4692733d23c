package jsplugin

import "math"

// Ports of fdlibm's e_log.c and e_exp.c, which V8's Math.log and Math.exp
// are (src/base/ieee754.cc), so that a projector's logarithms come out to
// the last bit as in Node; goja calls Go's math, whose amd64 assembly
// differs. (Freely distributable fdlibm: Copyright (C) 1993 by Sun
// Microsystems, Inc. Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice is preserved.)

func highWord(x float64) int32 { return int32(math.Float64bits(x) >> 32) }
func lowWord(x float64) uint32 { return uint32(math.Float64bits(x)) }
func setHighWord(x float64, hi int32) float64 {
	return math.Float64frombits(uint64(uint32(hi))<<32 | uint64(lowWord(x)))
}

// fdlibmLog is __ieee754_log.
func fdlibmLog(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // 3fe62e42 fee00000
		ln2Lo = 1.90821492927058770002e-10 // 3dea39ef 35793c76
		two54 = 1.80143985094819840000e+16 // 43500000 00000000
	)
	hx, lx := highWord(x), lowWord(x)
	k := int32(0)
	if hx < 0x00100000 { // x < 2**-1022
		if hx&0x7fffffff|int32(lx) == 0 {
			return math.Inf(-1) // log(+-0)=-inf
		}
		if hx < 0 {
			return math.NaN() // log(-#) = NaN
		}
		k -= 54
		x *= two54 // subnormal number, scale up x
		hx = highWord(x)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += hx>>20 - 1023
	hx &= 0x000fffff
	i := (hx + 0x95f64) & 0x100000
	x = setHighWord(x, hx|(i^0x3ff00000)) // normalize x or x/2
	k += i >> 20
	f := x - 1.0
	if 0x000fffff&(2+hx) < 3 { // -2**-20 <= f < 2**-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			dk := float64(k)
			return dk*ln2Hi + dk*ln2Lo
		}
		R := f * f * (0.5 - 0.33333333333333333*f)
		if k == 0 {
			return f - R
		}
		dk := float64(k)
		return dk*ln2Hi - ((R - dk*ln2Lo) - f)
	}
	s := f / (2.0 + f)
	dk := float64(k)
	z := s * s
	i = hx - 0x6147a
	w := z * z
	j := 0x6b851 - hx
	t1 := w * (lg2 + w*(lg4+w*lg6))
	t2 := z * (lg1 + w*(lg3+w*(lg5+w*lg7)))
	i |= j
	R := t2 + t1
	if i > 0 {
		hfsq := 0.5 * f * f
		if k == 0 {
			return f - (hfsq - s*(hfsq+R))
		}
		return dk*ln2Hi - ((hfsq - (s*(hfsq+R) + dk*ln2Lo)) - f)
	}
	if k == 0 {
		return f - s*(f-R)
	}
	return dk*ln2Hi - ((s*(f-R) - dk*ln2Lo) - f)
}

// fdlibmExp is __ieee754_exp.
func fdlibmExp(x float64) float64 {
	const (
		oThreshold = 7.09782712893383973096e+02  // 0x40862E42 0xFEFA39EF
		uThreshold = -7.45133219101941108420e+02 // 0xc0874910 0xD52D3051
		invln2     = 1.44269504088896338700e+00  // 0x3ff71547 0x652b82fe
		p1         = 1.66666666666666019037e-01  // 0x3FC55555 0x5555553E
		p2         = -2.77777777770155933842e-03 // 0xBF66C16C 0x16BEBD93
		p3         = 6.61375632143793436117e-05  // 0x3F11566A 0xAF25DE2C
		p4         = -1.65339022054652515390e-06 // 0xBEBBBD41 0xC5D26BF1
		p5         = 4.13813679705723846039e-08  // 0x3E663769 0x72BEA4D0
		huge       = 1.0e+300
		twom1000   = 9.33263618503218878990e-302 // 2**-1000
	)
	halF := [2]float64{0.5, -0.5}
	ln2HI := [2]float64{6.93147180369123816490e-01, -6.93147180369123816490e-01} // 0x3fe62e42 0xfee00000
	ln2LO := [2]float64{1.90821492927058770002e-10, -1.90821492927058770002e-10} // 0x3dea39ef 0x35793c76
	hx := uint32(highWord(x))
	xsb := int(hx >> 31 & 1) // sign bit of x
	hx &= 0x7fffffff         // high word of |x|
	// filter out non-finite argument
	if hx >= 0x40862E42 { // if |x|>=709.78...
		if hx >= 0x7ff00000 {
			if (hx&0xfffff)|lowWord(x) != 0 {
				return x + x // NaN
			}
			if xsb == 0 {
				return x // exp(+-inf)={inf,0}
			}
			return 0
		}
		if x > oThreshold {
			return math.Inf(1) // overflow
		}
		if x < uThreshold {
			return 0 // underflow
		}
	}
	var hi, lo float64
	k := 0
	// argument reduction
	if hx > 0x3fd62e42 { // if |x| > 0.5 ln2
		if hx < 0x3FF0A2B2 { // and |x| < 1.5 ln2
			if x == 1 {
				return math.E // V8's special case: the reduction gets the last bit of e wrong
			}
			hi = x - ln2HI[xsb]
			lo = ln2LO[xsb]
			k = 1 - xsb - xsb
		} else {
			k = int(invln2*x + halF[xsb])
			t := float64(k)
			hi = x - t*ln2HI[0] // t*ln2HI is exact here
			lo = t * ln2LO[0]
		}
		x = hi - lo
	} else if hx < 0x3e300000 { // when |x|<2**-28
		if huge+x > 1 {
			return 1 + x // trigger inexact
		}
	} else {
		k = 0
	}
	// x is now in primary range
	t := x * x
	c := x - t*(p1+t*(p2+t*(p3+t*(p4+t*p5))))
	if k == 0 {
		return 1 - ((x*c)/(c-2.0) - x)
	}
	y := 1 - ((lo - (x*c)/(2.0-c)) - hi)
	if k >= -1021 {
		return setHighWord(y, highWord(y)+int32(k<<20)) // add k to y's exponent
	}
	y = setHighWord(y, highWord(y)+int32((k+1000)<<20))
	return y * twom1000
}

const (
	lg1 = 6.666666666666735130e-01 // 3FE55555 55555593
	lg2 = 3.999999999940941908e-01 // 3FD99999 9997FA04
	lg3 = 2.857142874366239149e-01 // 3FD24924 94229359
	lg4 = 2.222219843214978396e-01 // 3FCC71C5 1D8E78AF
	lg5 = 1.818357216161805012e-01 // 3FC74664 96CB03DE
	lg6 = 1.531383769920937332e-01 // 3FC39A09 D078C69F
	lg7 = 1.479819860511658591e-01 // 3FC2F112 DF3E5244
)

func setLowWord(x float64, lo uint32) float64 {
	return math.Float64frombits(math.Float64bits(x)&^0xffffffff | uint64(lo))
}

// fdlibmLog10 is __ieee754_log10.
func fdlibmLog10(x float64) float64 {
	const (
		two54     = 1.80143985094819840000e+16 // 0x43500000 0x00000000
		ivln10    = 4.34294481903251816668e-01 // 0x3FDBCB7B 0x1526E50E
		log10_2hi = 3.01029995663611771306e-01 // 0x3FD34413 0x509F6000
		log10_2lo = 3.69423907715893078616e-13 // 0x3D59FEF3 0x11F12B36
	)
	hx, lx := highWord(x), lowWord(x)
	k := int32(0)
	if hx < 0x00100000 { // x < 2**-1022
		if hx&0x7fffffff|int32(lx) == 0 {
			return math.Inf(-1)
		}
		if hx < 0 {
			return math.NaN()
		}
		k -= 54
		x *= two54
		hx = highWord(x)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += hx>>20 - 1023
	i := int32(uint32(k) & 0x80000000 >> 31)
	hx = hx&0x000fffff | (0x3ff-i)<<20
	y := float64(k + i)
	x = setHighWord(x, hx)
	z := y*log10_2lo + ivln10*fdlibmLog(x)
	return z + y*log10_2hi
}

// fdlibmLog2 is FreeBSD's e_log2.c, as V8 has it.
func fdlibmLog2(x float64) float64 {
	const (
		two54   = 1.80143985094819840000e+16 // 0x43500000 0x00000000
		ivln2hi = 1.44269504072144627571e+00 // 0x3ff71547 0x65200000
		ivln2lo = 1.67517131648865118353e-10 // 0x3de705fc 0x2eefa200
	)
	hx, lx := highWord(x), lowWord(x)
	k := int32(0)
	if hx < 0x00100000 { // x < 2**-1022
		if hx&0x7fffffff|int32(lx) == 0 {
			return math.Inf(-1)
		}
		if hx < 0 {
			return math.NaN()
		}
		k -= 54
		x *= two54
		hx = highWord(x)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	if hx == 0x3ff00000 && lx == 0 {
		return 0 // log(1) = +0
	}
	k += hx>>20 - 1023
	hx &= 0x000fffff
	i := (hx + 0x95f64) & 0x100000
	x = setHighWord(x, hx|(i^0x3ff00000)) // normalize x or x/2
	k += i >> 20
	y := float64(k)
	f := x - 1.0
	hfsq := 0.5 * f * f
	r := kLog1p(f)
	hi := setLowWord(f-hfsq, 0)
	lo := (f - hi) - hfsq + r
	valHi := hi * ivln2hi
	valLo := (lo+hi)*ivln2lo + lo*ivln2hi
	w := y + valHi
	valLo += (y - w) + valHi
	valHi = w
	return valLo + valHi
}

// kLog1p is k_log.h's k_log1p: log(1+f) - f + f*f/2 for f in
// [sqrt(2)/2-1, sqrt(2)-1].
func kLog1p(f float64) float64 {
	s := f / (2.0 + f)
	z := s * s
	w := z * z
	t1 := w * (lg2 + w*(lg4+w*lg6))
	t2 := z * (lg1 + w*(lg3+w*(lg5+w*lg7)))
	R := t2 + t1
	hfsq := 0.5 * f * f
	return s * (hfsq + R)
}

// fdlibmCall answers node.js's Math.log, exp, log10 and log2.
func fdlibmCall(name string, x float64) float64 {
	switch name {
	case "log":
		return fdlibmLog(x)
	case "exp":
		return fdlibmExp(x)
	case "log10":
		return fdlibmLog10(x)
	}
	return fdlibmLog2(x)
}
