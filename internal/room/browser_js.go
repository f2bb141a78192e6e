//go:build js

package room

// inBrowser: Close must not block a browser event's call.
const inBrowser = true
