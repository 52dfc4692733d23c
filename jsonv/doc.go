// Package jsonv is the project's lossless JSON model with JavaScript semantics.
//
// A session log is written by JavaScript, so a Value keeps what JSON.parse
// would see and what JSON.stringify would write: object keys in written order
// (duplicates resolved as JSON.parse does: last value, first position),
// number lexemes next to their IEEE double, and strings as WTF-8 so that lone
// UTF-16 surrogates survive a round trip. The zero Value is JavaScript's
// undefined: an absent key, an absent optional field, "no view".
package jsonv
