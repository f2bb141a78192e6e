package main

import (
	"io"
	"runtime"
	"runtime/pprof"

	"github.com/interpdemo/interpdemo/internal/atomicfile"
)

// startProfiles starts the profiles the flags ask for; the returned
// function stops them and writes the files.
func startProfiles(cfg config) (stop func() error, err error) {
	var cpu *atomicfile.File
	if cfg.cpuProfile != "" {
		if cpu, err = atomicfile.Create(cfg.cpuProfile); err != nil {
			return nil, err
		}
		if err = pprof.StartCPUProfile(cpu); err != nil {
			cpu.Abort()
			return nil, err
		}
	}
	if cfg.memProfile != "" {
		runtime.MemProfileRate = 1 // every allocation: the point is to find them all
	}
	return func() error {
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Commit(); err != nil {
				return err
			}
		}
		if cfg.memProfile != "" {
			return atomicfile.WriteFile(cfg.memProfile, func(w io.Writer) error {
				return pprof.Lookup("allocs").WriteTo(w, 0)
			})
		}
		return nil
	}, nil
}
