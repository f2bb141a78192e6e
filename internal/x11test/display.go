package x11test

import (
	"os"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/xvfb"
)

// Display starts an Xvfb of the test's own and points the test's X
// clients at it: DISPLAY set, and SDL_VIDEODRIVER (set by a headless test
// before) unset until the test ends. Without Xvfb the test is skipped,
// and fails under INTERPDEMO_REQUIRE_GL=1. It returns the display's name.
func Display(t *testing.T) string {
	t.Helper()
	x, err := xvfb.Start(15 * time.Second)
	if err != nil {
		if os.Getenv("INTERPDEMO_REQUIRE_GL") == "1" {
			t.Fatalf("no Xvfb (INTERPDEMO_REQUIRE_GL=1): %v", err)
		}
		t.Skip(err)
	}
	t.Cleanup(x.Stop)
	if v, ok := os.LookupEnv("SDL_VIDEODRIVER"); ok {
		os.Unsetenv("SDL_VIDEODRIVER")
		t.Cleanup(func() { os.Setenv("SDL_VIDEODRIVER", v) })
	}
	t.Setenv("DISPLAY", x.Display)
	return x.Display
}
