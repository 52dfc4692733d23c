// Package sharedtest locates the reference data (spec, conformance vectors,
// real fixtures) that sits beside a checkout as ../shared, for tests that
// must skip cleanly when it is absent.
package sharedtest
