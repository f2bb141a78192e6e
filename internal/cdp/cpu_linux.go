//go:build linux

package cdp

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// clockTick is the unit of /proc's CPU times: USER_HZ, 100 on every
// Linux.
const clockTick = 10 * time.Millisecond

// CPUTime is the processor time the browser's processes (itself, its GPU
// process, renderers and utilities: its process group) have used so far,
// in user and system mode together, to 10 ms. Processes that have exited
// no longer count: compare two readings over a short span.
func (b *Browser) CPUTime() (time.Duration, error) {
	dir, err := os.Open("/proc")
	if err != nil {
		return 0, err
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return 0, err
	}
	group := b.cmd.Process.Pid
	var ticks int64
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		st, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue // exited since the listing
		}
		if pgrp, t, ok := parseStat(st); ok && pgrp == group {
			ticks += t
		}
	}
	return time.Duration(ticks) * clockTick, nil
}

// parseStat reads a /proc/<pid>/stat line's process group and user and
// system times (fields 5, 14 and 15, counted after the command's name,
// which may hold spaces and parentheses).
func parseStat(st []byte) (pgrp int, ticks int64, ok bool) {
	i := bytes.LastIndexByte(st, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(st[i+1:]) // f[0] is field 3, the state
	if len(f) < 13 {
		return 0, 0, false
	}
	pgrp, err1 := strconv.Atoi(string(f[2]))
	utime, err2 := strconv.ParseInt(string(f[11]), 10, 64)
	stime, err3 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, 0, false
	}
	return pgrp, utime + stime, true
}
