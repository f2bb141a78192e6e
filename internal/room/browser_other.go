//go:build !js

package room

const inBrowser = false
