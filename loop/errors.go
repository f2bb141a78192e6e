package loop

import "errors"

// ErrInvalid is wrapped by every error this package returns for a setting
// out of range: test for it with errors.Is.
var ErrInvalid = errors.New("loop: invalid setting")
