//go:build !unix

package jsplugin

const oNonblock = 0
