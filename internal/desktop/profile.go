package desktop

import (
	"io"
	"runtime"
	"runtime/pprof"

	"github.com/interpdemo/interpdemo/atomicfile"
	"github.com/interpdemo/interpdemo/internal/demo"
)

// profiles are the pprof profiles the flags ask for.
type profiles struct {
	cpu     *atomicfile.File
	memPath string
}

// startProfiles starts the profiles the flags ask for, in files. Call
// stop at the end of a run to write them, or abort when the run failed to
// start.
func startProfiles(cfg *demo.Config, files diskFiles) (*profiles, error) {
	p := &profiles{memPath: cfg.MemProfile}
	if cfg.CPUProfile != "" {
		f, err := atomicfile.CreateContext(files.context(), cfg.CPUProfile)
		if err != nil {
			return nil, demo.FileErr("cpuprofile", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Abort()
			return nil, demo.FileErr("cpuprofile", err)
		}
		p.cpu = f
	}
	if p.memPath != "" {
		runtime.MemProfileRate = 1 // every allocation: the point is to find them all
	}
	return p, nil
}

// stop ends the CPU profile and writes the files, in files.
func (p *profiles) stop(files diskFiles) error {
	if p.cpu != nil {
		pprof.StopCPUProfile()
		err := p.cpu.Commit()
		p.cpu = nil
		if err != nil {
			return demo.FileErr("cpuprofile", err)
		}
	}
	if p.memPath != "" {
		// The profile is as of the last completed GC: without one here,
		// whatever was allocated since (a whole run with no GC) is missing.
		runtime.GC()
		err := files.WriteFile(p.memPath, func(w io.Writer) error {
			return pprof.Lookup("allocs").WriteTo(w, 0)
		})
		return demo.FileErr("memprofile", err)
	}
	return nil
}

// abort ends the CPU profile and leaves no file behind.
func (p *profiles) abort() {
	if p.cpu != nil {
		pprof.StopCPUProfile()
		p.cpu.Abort()
		p.cpu = nil
	}
}
