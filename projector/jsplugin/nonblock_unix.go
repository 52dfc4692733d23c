//go:build unix

package jsplugin

import "syscall"

const oNonblock = syscall.O_NONBLOCK
