package jsplugin

import "math"

// Ports of fdlibm (e_log.c, e_exp.c, e_log10.c, e_log2.c, k_sin.c,
// k_cos.c, k_tan.c, the medium range of e_rem_pio2.c, s_atan.c, e_atan2.c,
// e_asin.c, e_acos.c, e_sinh.c, e_cosh.c, s_tanh.c, s_asinh.c, e_acosh.c,
// e_atanh.c, FreeBSD's s_cbrt.c), which V8's Math functions of the same
// names are (src/base/ieee754.cc), so that a projector's results come out
// to the last bit as in Node; goja calls Go's math, whose results differ.
// Go's Expm1 and Log1p are FreeBSD's s_expm1.c and s_log1p.c already.
// (Freely distributable fdlibm: Copyright (C) 1993 by Sun Microsystems,
// Inc. Permission to use, copy, modify, and distribute this software is
// freely granted, provided that this notice is preserved.)

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

// fdlibmCall answers node.js's Math functions (atan2 of x and y): NaN from
// sin, cos or tan of a finite x is past their reduction.
func fdlibmCall(name string, x, y float64) float64 {
	switch name {
	case "atan":
		return fdlibmAtan(x)
	case "cbrt":
		return fdlibmCbrt(x)
	case "asin":
		return fdlibmAsin(x)
	case "acos":
		return fdlibmAcos(x)
	case "sinh":
		return fdlibmSinh(x)
	case "cosh":
		return fdlibmCosh(x)
	case "tanh":
		return fdlibmTanh(x)
	case "asinh":
		return fdlibmAsinh(x)
	case "acosh":
		return fdlibmAcosh(x)
	case "atanh":
		return fdlibmAtanh(x)
	case "atan2":
		return fdlibmAtan2(x, y)
	case "log":
		return fdlibmLog(x)
	case "exp":
		return fdlibmExp(x)
	case "log10":
		return fdlibmLog10(x)
	case "sin", "cos", "tan":
		f := fdlibmSin
		switch name {
		case "cos":
			f = fdlibmCos
		case "tan":
			f = fdlibmTan
		}
		if v, ok := f(x); ok {
			return v
		}
		return math.NaN()
	}
	return fdlibmLog2(x)
}

// fdlibm's __kernel_sin, __kernel_cos and the medium-range
// __ieee754_rem_pio2, as V8's Math.sin and Math.cos use them.

func kernelSin(x, y float64, iy int) float64 {
	const (
		S1 = -1.66666666666666324348e-01 // 0xBFC55555 0x55555549
		S2 = 8.33333333332248946124e-03  // 0x3F811111 0x1110F8A6
		S3 = -1.98412698298579493134e-04 // 0xBF2A01A0 0x19C161D5
		S4 = 2.75573137070700676789e-06  // 0x3EC71DE3 0x57B1FE7D
		S5 = -2.50507602534068634195e-08 // 0xBE5AE5E6 0x8A2B9CEB
		S6 = 1.58969099521155010221e-10  // 0x3DE5D93A 0x5ACFD57C
	)
	ix := highWord(x) & 0x7fffffff
	if ix < 0x3e400000 { // |x| < 2**-27
		if int(x) == 0 {
			return x
		}
	}
	z := x * x
	v := z * x
	r := S2 + z*(S3+z*(S4+z*(S5+z*S6)))
	if iy == 0 {
		return x + v*(S1+z*r)
	}
	return x - ((z*(0.5*y-v*r) - y) - v*S1)
}

func kernelCos(x, y float64) float64 {
	const (
		C1 = 4.16666666666666019037e-02  // 0x3FA55555 0x5555554C
		C2 = -1.38888888888741095749e-03 // 0xBF56C16C 0x16C15177
		C3 = 2.48015872894767294178e-05  // 0x3EFA01A0 0x19CB1590
		C4 = -2.75573143513906633035e-07 // 0xBE927E4F 0x809C52AD
		C5 = 2.08757232129817482790e-09  // 0x3E21EE9E 0xBDB4B1C4
		C6 = -1.13596475577881948265e-11 // 0xBDA8FAE9 0xBE8838D4
	)
	ix := highWord(x) & 0x7fffffff
	if ix < 0x3e400000 { // |x| < 2**-27
		if int(x) == 0 {
			return 1
		}
	}
	z := x * x
	r := z * (C1 + z*(C2+z*(C3+z*(C4+z*(C5+z*C6)))))
	if ix < 0x3FD33333 { // |x| < 0.3
		return 1 - (0.5*z - (z*r - x*y))
	}
	var qx float64
	if ix > 0x3fe90000 { // x > 0.78125
		qx = 0.28125
	} else {
		qx = math.Float64frombits(uint64(uint32(ix-0x00200000)) << 32) // x/4
	}
	hz := 0.5*z - qx
	a := 1 - qx
	return a - (hz - (z*r - x*y))
}

// remPio2 reduces x by multiples of pi/2 for |x| <= 2^19*(pi/2); ok is
// false beyond, where fdlibm needs __kernel_rem_pio2.
func remPio2(x float64) (n int, y0, y1 float64, ok bool) {
	const (
		invpio2 = 6.36619772367581382433e-01 // 0x3FE45F30 0x6DC9C883
		pio2_1  = 1.57079632673412561417e+00 // 0x3FF921FB 0x54400000
		pio2_1t = 6.07710050650619224932e-11 // 0x3DD0B461 0x1A626331
		pio2_2  = 6.07710050630396597660e-11 // 0x3DD0B461 0x1A600000
		pio2_2t = 2.02226624879595063154e-21 // 0x3BA3198A 0x2E037073
		pio2_3  = 2.02226624871116645580e-21 // 0x3BA3198A 0x2E000000
		pio2_3t = 8.47842766036889956997e-32 // 0x397B839A 0x252049C1
	)
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix <= 0x3fe921fb { // |x| ~<= pi/4
		return 0, x, 0, true
	}
	if ix < 0x4002d97c { // |x| < 3pi/4, special case with n=+-1
		if hx > 0 {
			z := x - pio2_1
			if ix != 0x3ff921fb { // 33+53 bit pi is good enough
				y0 = z - pio2_1t
				y1 = (z - y0) - pio2_1t
			} else { // near pi/2, use 33+33+53 bit pi
				z -= pio2_2
				y0 = z - pio2_2t
				y1 = (z - y0) - pio2_2t
			}
			return 1, y0, y1, true
		}
		z := x + pio2_1
		if ix != 0x3ff921fb {
			y0 = z + pio2_1t
			y1 = (z - y0) + pio2_1t
		} else {
			z += pio2_2
			y0 = z + pio2_2t
			y1 = (z - y0) + pio2_2t
		}
		return -1, y0, y1, true
	}
	if ix > 0x413921fb {
		return 0, 0, 0, false
	}
	// medium size; the careful path throughout (fdlibm's quick check only
	// skips it where it changes nothing)
	t := math.Abs(x)
	n = int(t*invpio2 + 0.5)
	fn := float64(n)
	r := t - fn*pio2_1
	w := fn * pio2_1t // 1st round good to 85 bit
	j := ix >> 20
	y0 = r - w
	i := j - (highWord(y0)>>20)&0x7ff
	if i > 16 { // 2nd iteration needed, good to 118
		t = r
		w = fn * pio2_2
		r = t - w
		w = fn*pio2_2t - ((t - r) - w)
		y0 = r - w
		i = j - (highWord(y0)>>20)&0x7ff
		if i > 49 { // 3rd iteration need, 151 bits acc
			t = r
			w = fn * pio2_3
			r = t - w
			w = fn*pio2_3t - ((t - r) - w)
			y0 = r - w
		}
	}
	y1 = (r - y0) - w
	if hx < 0 {
		return -n, -y0, -y1, true
	}
	return n, y0, y1, true
}

// fdlibmSin and fdlibmCos: ok is false for |x| > 2^19*(pi/2).
func fdlibmSin(x float64) (float64, bool) {
	ix := highWord(x) & 0x7fffffff
	if ix <= 0x3fe921fb {
		return kernelSin(x, 0, 0), true
	}
	if ix >= 0x7ff00000 {
		return x - x, true
	}
	n, y0, y1, ok := remPio2(x)
	if !ok {
		return 0, false
	}
	switch n & 3 {
	case 0:
		return kernelSin(y0, y1, 1), true
	case 1:
		return kernelCos(y0, y1), true
	case 2:
		return -kernelSin(y0, y1, 1), true
	}
	return -kernelCos(y0, y1), true
}

func fdlibmCos(x float64) (float64, bool) {
	ix := highWord(x) & 0x7fffffff
	if ix <= 0x3fe921fb {
		return kernelCos(x, 0), true
	}
	if ix >= 0x7ff00000 {
		return x - x, true
	}
	n, y0, y1, ok := remPio2(x)
	if !ok {
		return 0, false
	}
	switch n & 3 {
	case 0:
		return kernelCos(y0, y1), true
	case 1:
		return -kernelSin(y0, y1, 1), true
	case 2:
		return -kernelCos(y0, y1), true
	}
	return kernelSin(y0, y1, 1), true
}

var (
	atanHi = [4]float64{
		4.63647609000806093515e-01, // atan(0.5)hi 0x3FDDAC67 0x0561BB4F
		7.85398163397448278999e-01, // atan(1.0)hi 0x3FE921FB 0x54442D18
		9.82793723247329054082e-01, // atan(1.5)hi 0x3FEF730B 0xD281F69B
		1.57079632679489655800e+00, // atan(inf)hi 0x3FF921FB 0x54442D18
	}
	atanLo = [4]float64{
		2.26987774529616870924e-17, // atan(0.5)lo 0x3C7A2B7F 0x222F65E2
		3.06161699786838301793e-17, // atan(1.0)lo 0x3C81A626 0x33145C07
		1.39033110312309984516e-17, // atan(1.5)lo 0x3C700788 0x7AF0CBBD
		6.12323399573676603587e-17, // atan(inf)lo 0x3C91A626 0x33145C07
	}
	aT = [11]float64{
		3.33333333333329318027e-01,  // 0x3FD55555 0x5555550D
		-1.99999999998764832476e-01, // 0xBFC99999 0x9998EBC4
		1.42857142725034663711e-01,  // 0x3FC24924 0x920083FF
		-1.11111104054623557880e-01, // 0xBFBC71C6 0xFE231671
		9.09088713343650656196e-02,  // 0x3FB745CD 0xC54C206E
		-7.69187620504482999495e-02, // 0xBFB3B0F2 0xAF749A6D
		6.66107313738753120669e-02,  // 0x3FB10D66 0xA0D03D51
		-5.83357013379057348645e-02, // 0xBFADDE2D 0x52DEFD9A
		4.97687799461593236017e-02,  // 0x3FA97B4B 0x24760DEB
		-3.65315727442169155270e-02, // 0xBFA2B444 0x2C6A6C2F
		1.62858201153657823623e-02,  // 0x3F90AD3A 0xE322DA11
	}
)

// fdlibmAtan is s_atan.c.
func fdlibmAtan(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	var id int
	if ix >= 0x44100000 { // |x| >= 2^66
		if ix > 0x7ff00000 || (ix == 0x7ff00000 && lowWord(x) != 0) {
			return x + x // NaN
		}
		if hx > 0 {
			return atanHi[3] + atanLo[3]
		}
		return -atanHi[3] - atanLo[3]
	}
	if ix < 0x3fdc0000 { // |x| < 0.4375
		if ix < 0x3e400000 { // |x| < 2^-27
			return x
		}
		id = -1
	} else {
		x = math.Abs(x)
		if ix < 0x3ff30000 { // |x| < 1.1875
			if ix < 0x3fe60000 { // 7/16 <= |x| < 11/16
				id = 0
				x = (2.0*x - 1.0) / (2.0 + x)
			} else { // 11/16 <= |x| < 19/16
				id = 1
				x = (x - 1.0) / (x + 1.0)
			}
		} else {
			if ix < 0x40038000 { // |x| < 2.4375
				id = 2
				x = (x - 1.5) / (1.0 + 1.5*x)
			} else { // 2.4375 <= |x| < 2^66
				id = 3
				x = -1.0 / x
			}
		}
	}
	z := x * x
	w := z * z
	s1 := z * (aT[0] + w*(aT[2]+w*(aT[4]+w*(aT[6]+w*(aT[8]+w*aT[10])))))
	s2 := w * (aT[1] + w*(aT[3]+w*(aT[5]+w*(aT[7]+w*aT[9]))))
	if id < 0 {
		return x - x*(s1+s2)
	}
	z = atanHi[id] - ((x*(s1+s2) - atanLo[id]) - x)
	if hx < 0 {
		return -z
	}
	return z
}

// fdlibmAtan2 is e_atan2.c (FreeBSD's, with m &= 1 for |y/x| > 2^60).
func fdlibmAtan2(y, x float64) float64 {
	const (
		tiny = 1.0e-300
		piO4 = 7.8539816339744827900e-01 // 0x3FE921FB 0x54442D18
		piO2 = 1.5707963267948965580e+00 // 0x3FF921FB 0x54442D18
		pi   = 3.1415926535897931160e+00 // 0x400921FB 0x54442D18
		piLo = 1.2246467991473531772e-16 // 0x3CA1A626 0x33145C07
	)
	if math.IsNaN(x) || math.IsNaN(y) {
		return x + y
	}
	hx, lx := highWord(x), lowWord(x)
	hy, ly := highWord(y), lowWord(y)
	ix, iy := hx&0x7fffffff, hy&0x7fffffff
	if (hx-0x3ff00000)|int32(lx) == 0 { // x = 1.0
		return fdlibmAtan(y)
	}
	m := (hy>>31)&1 | (hx>>30)&2 // 2*sign(x)+sign(y)
	// when y = 0
	if iy|int32(ly) == 0 {
		switch m {
		case 0, 1:
			return y // atan(+-0,+anything)=+-0
		case 2:
			return pi + tiny // atan(+0,-anything) = pi
		}
		return -pi - tiny // atan(-0,-anything) =-pi
	}
	// when x = 0
	if ix|int32(lx) == 0 {
		if hy < 0 {
			return -piO2 - tiny
		}
		return piO2 + tiny
	}
	// when x is INF
	if ix == 0x7ff00000 {
		if iy == 0x7ff00000 {
			switch m {
			case 0:
				return piO4 + tiny
			case 1:
				return -piO4 - tiny
			case 2:
				return 3.0*piO4 + tiny
			}
			return -3.0*piO4 - tiny
		}
		switch m {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return pi + tiny
		}
		return -pi - tiny
	}
	// when y is INF
	if iy == 0x7ff00000 {
		if hy < 0 {
			return -piO2 - tiny
		}
		return piO2 + tiny
	}
	// compute y/x
	k := (iy - ix) >> 20
	var z float64
	switch {
	case k > 60: // |y/x| > 2**60
		z = piO2 + 0.5*piLo
		m &= 1
	case hx < 0 && k < -60: // |y|/x < -2**60
		z = 0.0
	default:
		z = fdlibmAtan(math.Abs(y / x)) // safe to do y/x
	}
	switch m {
	case 0:
		return z // atan(+,+)
	case 1:
		return -z // atan(-,+)
	case 2:
		return pi - (z - piLo) // atan(+,-)
	}
	return (z - piLo) - pi // atan(-,-)
}

// fdlibmCbrt is FreeBSD's s_cbrt.c, as V8 has it.
func fdlibmCbrt(x float64) float64 {
	const (
		B1 = 715094163                // (1023-1023/3-0.03306235651)*2**20
		B2 = 696219795                // (1023-1023/3-54/3-0.03306235651)*2**20
		P0 = 1.87595182427177009643   // 0x3ffe03e6 0x0f61e692
		P1 = -1.88497979543377169875  // 0xbffe28e0 0x92f02420
		P2 = 1.621429720105354466140  // 0x3ff9f160 0x4a49d6c2
		P3 = -0.758397934778766047437 // 0xbfe844cb 0xbee751d9
		P4 = 0.145996192886612446982  // 0x3fc2b000 0xd4e4edd7
	)
	bits := math.Float64bits(x)
	hx := uint32(bits >> 32)
	low := uint32(bits)
	sign := hx & 0x80000000
	hx ^= sign
	if hx >= 0x7ff00000 {
		return x + x // cbrt(NaN,INF) is itself
	}
	var t float64
	if hx < 0x00100000 { // zero or subnormal?
		if hx|low == 0 {
			return x // cbrt(0) is itself
		}
		t = math.Float64frombits(0x43500000 << 32) // 2**54
		t *= x
		high := uint32(math.Float64bits(t) >> 32)
		t = math.Float64frombits(uint64(sign|((high&0x7fffffff)/3+B2)) << 32)
	} else {
		t = math.Float64frombits(uint64(sign|(hx/3+B1)) << 32)
	}
	// New cbrt to 23 bits
	r := (t * t) * (t / x)
	t = t * ((P0 + r*(P1+r*P2)) + ((r*r)*r)*(P3+r*P4))
	// Round t away from zero to 23 bits
	t = math.Float64frombits((math.Float64bits(t) + 0x80000000) & 0xffffffffc0000000)
	// one step Newton iteration to 53 bits with error < 0.667 ulps
	s := t * t
	r = x / s
	w := t + t
	r = (r - t) / (w + r)
	return t + t*r
}

var tanT = [13]float64{
	3.33333333333334091986e-01,  // 3FD55555 55555563
	1.33333333333201242699e-01,  // 3FC11111 1110FE7A
	5.39682539762260521377e-02,  // 3FABA1BA 1BB341FE
	2.18694882948595424599e-02,  // 3F9664F4 8406D637
	8.86323982359930005737e-03,  // 3F8226E3 E96E8493
	3.59207910759131235356e-03,  // 3F6D6D22 C9560328
	1.45620945432529025516e-03,  // 3F57DBC8 FEE08315
	5.88041240820264096874e-04,  // 3F4344D8 F2F26501
	2.46463134818469906812e-04,  // 3F3026F7 1A8D1068
	7.81794442939557092300e-05,  // 3F147E88 A03792A6
	7.14072491382608190305e-05,  // 3F12B80F 32F0A7E9
	-1.85586374855275456654e-05, // BEF375CB DB605373
	2.59073051863633712884e-05,  // 3EFB2A70 74BF7AD4
}

// kernelTan is k_tan.c (the 2004 revision): tan(x+y) for iy = 1,
// -1/tan(x+y) for iy = -1.
func kernelTan(x, y float64, iy int) float64 {
	const (
		pio4   = 7.85398163397448278999e-01 // 3FE921FB 54442D18
		pio4lo = 3.06161699786838301793e-17 // 3C81A626 33145C07
	)
	T := &tanT
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix < 0x3e300000 { // x < 2**-28
		if int(x) == 0 {
			if (uint32(ix)|lowWord(x))|uint32(iy+1) == 0 {
				return 1 / math.Abs(x)
			}
			if iy == 1 {
				return x
			}
			// compute -1 / (x+y) carefully
			w := x + y
			z := setLowWord(w, 0)
			v := y - (z - x)
			a := -1 / w
			t := setLowWord(a, 0)
			s := 1 + t*z
			return t + a*(s+t*v)
		}
	}
	if ix >= 0x3FE59428 { // |x| >= 0.6744
		if hx < 0 {
			x = -x
			y = -y
		}
		z := pio4 - x
		w := pio4lo - y
		x = z + w
		y = 0.0
	}
	z := x * x
	w := z * z
	r := T[1] + w*(T[3]+w*(T[5]+w*(T[7]+w*(T[9]+w*T[11]))))
	v := z * (T[2] + w*(T[4]+w*(T[6]+w*(T[8]+w*(T[10]+w*T[12])))))
	s := z * x
	r = y + z*(s*(r+v)+y)
	r += T[0] * s
	w = x + r
	if ix >= 0x3FE59428 {
		v = float64(iy)
		return float64(1-((hx>>30)&2)) * (v - 2.0*(x-(w*w/(w+v)-r)))
	}
	if iy == 1 {
		return w
	}
	// compute -1.0 / (x+r) accurately
	z = setLowWord(w, 0)
	v = r - (z - x) // z+v = r+x
	a := -1.0 / w
	t := setLowWord(a, 0)
	s = 1.0 + t*z
	return t + a*(s+t*v)
}

// fdlibmTan: ok is false for |x| > 2^19*(pi/2).
func fdlibmTan(x float64) (float64, bool) {
	ix := highWord(x) & 0x7fffffff
	if ix <= 0x3fe921fb {
		return kernelTan(x, 0, 1), true
	}
	if ix >= 0x7ff00000 {
		return x - x, true
	}
	n, y0, y1, ok := remPio2(x)
	if !ok {
		return 0, false
	}
	return kernelTan(y0, y1, 1-((n&1)<<1)), true
}

// asin and acos share fdlibm's rational approximation.
const (
	pio2Hi = 1.57079632679489655800e+00  // 0x3FF921FB 0x54442D18
	pio2Lo = 6.12323399573676603587e-17  // 0x3C91A626 0x33145C07
	pio4Hi = 7.85398163397448278999e-01  // 0x3FE921FB 0x54442D18
	pS0    = 1.66666666666666657415e-01  // 0x3FC55555 0x55555555
	pS1    = -3.25565818622400915405e-01 // 0xBFD4D612 0x03EB6F7D
	pS2    = 2.01212532134862925881e-01  // 0x3FC9C155 0x0E884455
	pS3    = -4.00555345006794114027e-02 // 0xBFA48228 0xB5688F3B
	pS4    = 7.91534994289814532176e-04  // 0x3F49EFE0 0x7501B288
	pS5    = 3.47933107596021167570e-05  // 0x3F023DE1 0x0DFDF709
	qS1    = -2.40339491173441421878e+00 // 0xC0033A27 0x1C8A2D4B
	qS2    = 2.02094576023350569471e+00  // 0x40002AE5 0x9C598AC8
	qS3    = -6.88283971605453293030e-01 // 0xBFE6066C 0x1B8D0159
	qS4    = 7.70381505559019352791e-02  // 0x3FB3B8C5 0xB12E9282
)

// fdlibmAsin is e_asin.c.
func fdlibmAsin(x float64) float64 {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x3ff00000 { // |x| >= 1
		if (ix-0x3ff00000)|int32(lowWord(x)) == 0 {
			return x*pio2Hi + x*pio2Lo // asin(1)=+-pi/2
		}
		return (x - x) / (x - x) // asin(|x|>1) is NaN
	}
	if ix < 0x3fe00000 { // |x| < 0.5
		if ix < 0x3e400000 { // |x| < 2**-27
			return x
		}
		t := x * x
		p := t * (pS0 + t*(pS1+t*(pS2+t*(pS3+t*(pS4+t*pS5)))))
		q := 1 + t*(qS1+t*(qS2+t*(qS3+t*qS4)))
		w := p / q
		return x + x*w
	}
	// 1 > |x| >= 0.5
	w := 1 - math.Abs(x)
	t := w * 0.5
	p := t * (pS0 + t*(pS1+t*(pS2+t*(pS3+t*(pS4+t*pS5)))))
	q := 1 + t*(qS1+t*(qS2+t*(qS3+t*qS4)))
	s := math.Sqrt(t)
	if ix >= 0x3FEF3333 { // |x| > 0.975
		w = p / q
		t = pio2Hi - (2.0*(s+s*w) - pio2Lo)
	} else {
		w = setLowWord(s, 0)
		c := (t - w*w) / (s + w)
		r := p / q
		p = 2.0*s*r - (pio2Lo - 2.0*c)
		q = pio4Hi - 2.0*w
		t = pio4Hi - (p - q)
	}
	if hx > 0 {
		return t
	}
	return -t
}

// fdlibmAcos is e_acos.c.
func fdlibmAcos(x float64) float64 {
	const pi = 3.14159265358979311600e+00 // 0x400921FB 0x54442D18
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix >= 0x3ff00000 { // |x| >= 1
		if (ix-0x3ff00000)|int32(lowWord(x)) == 0 { // |x|==1
			if hx > 0 {
				return 0.0 // acos(1) = 0
			}
			return pi + 2.0*pio2Lo // acos(-1)= pi
		}
		return (x - x) / (x - x) // acos(|x|>1) is NaN
	}
	if ix < 0x3fe00000 { // |x| < 0.5
		if ix <= 0x3c600000 { // |x| < 2**-57
			return pio2Hi + pio2Lo
		}
		z := x * x
		p := z * (pS0 + z*(pS1+z*(pS2+z*(pS3+z*(pS4+z*pS5)))))
		q := 1 + z*(qS1+z*(qS2+z*(qS3+z*qS4)))
		r := p / q
		return pio2Hi - (x - (pio2Lo - x*r))
	}
	if hx < 0 { // x < -0.5
		z := (1 + x) * 0.5
		p := z * (pS0 + z*(pS1+z*(pS2+z*(pS3+z*(pS4+z*pS5)))))
		q := 1 + z*(qS1+z*(qS2+z*(qS3+z*qS4)))
		s := math.Sqrt(z)
		r := p / q
		w := r*s - pio2Lo
		return pi - 2.0*(s+w)
	}
	// x > 0.5
	z := (1 - x) * 0.5
	s := math.Sqrt(z)
	df := setLowWord(s, 0)
	c := (z - df*df) / (s + df)
	p := z * (pS0 + z*(pS1+z*(pS2+z*(pS3+z*(pS4+z*pS5)))))
	q := 1 + z*(qS1+z*(qS2+z*(qS3+z*qS4)))
	r := p / q
	w := r*s + c
	return 2.0 * (df + w)
}

// fdlibmSinh, fdlibmCosh and fdlibmTanh are V8's ports of e_sinh.c,
// e_cosh.c and s_tanh.c; Go's Expm1 is FreeBSD's s_expm1.c, as V8's.
func fdlibmSinh(x float64) float64 {
	const (
		ksinhOverflow = 710.4758600739439
		twoM28        = 3.725290298461914e-9
		logMaxD       = 709.7822265625
	)
	shuge := 1.0e307
	h := 0.5
	if x < 0 {
		h = -0.5
	}
	ax := math.Abs(x)
	if ax < 22 {
		if ax < twoM28 {
			return x
		}
		t := math.Expm1(ax)
		if ax < 1 {
			return h * (2.0*t - t*t/(t+1.0))
		}
		return h * (t + t/(t+1.0))
	}
	if ax < logMaxD {
		return h * fdlibmExp(ax)
	}
	if ax <= ksinhOverflow {
		w := fdlibmExp(0.5 * ax)
		t := h * w
		return t * w
	}
	return x * shuge
}

func fdlibmCosh(x float64) float64 {
	const kcoshOverflow = 710.4758600739439
	huge := 1.0e300
	ix := highWord(x) & 0x7FFFFFFF
	if ix < 0x3FD62E43 { // |x| in [0,0.5*log2]
		t := math.Expm1(math.Abs(x))
		w := 1 + t
		if ix < 0x3C800000 { // |x| < 2^-55
			return w
		}
		return 1 + (t*t)/(w+w)
	}
	if ix < 0x40360000 { // |x| in [0.5*log2, 22]
		t := fdlibmExp(math.Abs(x))
		return 0.5*t + 0.5/t
	}
	if ix < 0x40862E42 { // |x| in [22, log(maxdouble)]
		return 0.5 * fdlibmExp(math.Abs(x))
	}
	if math.Abs(x) <= kcoshOverflow {
		w := fdlibmExp(0.5 * math.Abs(x))
		t := 0.5 * w
		return t * w
	}
	if ix >= 0x7FF00000 { // x is INF or NaN
		return x * x
	}
	return huge * huge
}

func fdlibmTanh(x float64) float64 {
	tiny := 1.0e-300
	jx := highWord(x)
	ix := jx & 0x7FFFFFFF
	if ix >= 0x7FF00000 { // x is INF or NaN
		if jx >= 0 {
			return 1/x + 1
		}
		return 1/x - 1
	}
	var z float64
	if ix < 0x40360000 { // |x| < 22
		if ix < 0x3E300000 { // |x| < 2**-28
			return x
		}
		if ix >= 0x3FF00000 { // |x| >= 1
			t := math.Expm1(2 * math.Abs(x))
			z = 1 - 2/(t+2)
		} else {
			t := math.Expm1(-2 * math.Abs(x))
			z = -t / (t + 2)
		}
	} else { // |x| >= 22, return +-1
		z = 1 - tiny
	}
	if jx >= 0 {
		return z
	}
	return -z
}

// fdlibmAsinh, fdlibmAcosh and fdlibmAtanh are s_asinh.c, e_acosh.c and
// e_atanh.c; Go's Log1p is FreeBSD's s_log1p.c, as V8's.
func fdlibmAsinh(x float64) float64 {
	const ln2 = 6.93147180559945286227e-01
	hx := highWord(x)
	ix := hx & 0x7FFFFFFF
	if ix >= 0x7FF00000 {
		return x + x // x is inf or NaN
	}
	if ix < 0x3E300000 { // |x| < 2**-28
		return x
	}
	var w float64
	switch {
	case ix > 0x41B00000: // |x| > 2**28
		w = fdlibmLog(math.Abs(x)) + ln2
	case ix > 0x40000000: // 2**28 > |x| > 2.0
		t := math.Abs(x)
		w = fdlibmLog(2.0*t + 1/(math.Sqrt(x*x+1)+t))
	default: // 2.0 > |x| > 2**-28
		t := x * x
		w = math.Log1p(math.Abs(x) + t/(1+math.Sqrt(1+t)))
	}
	if hx > 0 {
		return w
	}
	return -w
}

func fdlibmAcosh(x float64) float64 {
	const ln2 = 6.93147180559945286227e-01
	hx, lx := highWord(x), lowWord(x)
	switch {
	case hx < 0x3FF00000: // x < 1
		return (x - x) / (x - x)
	case hx >= 0x41B00000: // x > 2**28
		if hx >= 0x7FF00000 {
			return x + x
		}
		return fdlibmLog(x) + ln2
	case (hx-0x3FF00000)|int32(lx) == 0:
		return 0.0 // acosh(1) = 0
	case hx > 0x40000000: // 2**28 > x > 2
		t := x * x
		return fdlibmLog(2.0*x - 1/(x+math.Sqrt(t-1)))
	}
	t := x - 1 // 1<x<2
	return math.Log1p(t + math.Sqrt(2.0*t+t*t))
}

func fdlibmAtanh(x float64) float64 {
	hx, lx := highWord(x), lowWord(x)
	ix := hx & 0x7FFFFFFF
	if ix|int32((lx|-lx)>>31) > 0x3FF00000 { // |x|>1
		return (x - x) / (x - x)
	}
	if ix == 0x3FF00000 {
		return x / 0
	}
	if ix < 0x3E300000 { // x<2**-28
		return x
	}
	x = setHighWord(x, ix)
	var t float64
	if ix < 0x3FE00000 { // x < 0.5
		t = x + x
		t = 0.5 * math.Log1p(t+t*x/(1-x))
	} else {
		t = 0.5 * math.Log1p((x+x)/(1-x))
	}
	if hx >= 0 {
		return t
	}
	return -t
}
