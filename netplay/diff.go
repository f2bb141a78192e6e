package netplay

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// A Describer is a Snapshotter that gives its state bytes back as a Go
// value (a struct of the game's state, say): a desync report then names
// the fields that differ ("Players[1].X: 1033 vs 1034"), where it would
// otherwise give the byte offsets. Describe must not change the game; it
// is called only when a report is made (Config.Report).
type Describer interface {
	Describe(state []byte) (any, error)
}

// maxDiffs is the most differences a report lists; it counts the rest.
const maxDiffs = 20

// differ collects the differences between two states, at most maxDiffs
// lines, counting the rest.
type differ struct {
	lines []string
	more  int
}

func (d *differ) add(format string, args ...any) {
	if len(d.lines) == maxDiffs {
		d.more++
		return
	}
	d.lines = append(d.lines, fmt.Sprintf(format, args...))
}

// text is the differences, a line each, with the count of the rest.
func (d *differ) text() string {
	if len(d.lines) == 0 {
		return "  no difference found in the state\n"
	}
	var b strings.Builder
	for _, l := range d.lines {
		b.WriteString("  " + l + "\n")
	}
	if d.more > 0 {
		fmt.Fprintf(&b, "  ... and %d more\n", d.more)
	}
	return b.String()
}

// diffStates lists how this peer's state (local) differs from another
// peer's (remote): by field, through g's Describe if it is a Describer
// and both decode, else by byte range.
func diffStates(g any, local, remote []byte) *differ {
	d := &differ{}
	if desc, ok := g.(Describer); ok {
		a, errA := desc.Describe(local)
		b, errB := desc.Describe(remote)
		if errA == nil && errB == nil {
			d.value("", reflect.ValueOf(a), reflect.ValueOf(b))
			return d
		}
		err := errA
		if err == nil {
			err = errB
		}
		d.add("(Describe: %v; the bytes instead)", err)
	}
	d.bytes(local, remote)
	return d
}

// bytes lists the ranges of bytes that differ, eight at most shown each.
func (d *differ) bytes(a, b []byte) {
	if len(a) != len(b) {
		d.add("length: %d vs %d bytes", len(a), len(b))
	}
	n := min(len(a), len(b))
	for i := 0; i < n; {
		if a[i] == b[i] {
			i++
			continue
		}
		j := i
		for j < n && a[j] != b[j] {
			j++
		}
		show := min(j, i+8)
		more := ""
		if j > show {
			more = " ..."
		}
		d.add("bytes %d..%d: % x%s vs % x%s", i, j-1, a[i:show], more, b[i:show], more)
		i = j
	}
}

// value walks two values of the same type side by side, adding a line
// for each leaf that differs, named by its path.
func (d *differ) value(path string, a, b reflect.Value) {
	if !a.IsValid() || !b.IsValid() || a.Type() != b.Type() {
		if a.IsValid() != b.IsValid() || a.IsValid() && a.Type() != b.Type() {
			d.add("%s: %s vs %s", name(path), typeName(a), typeName(b))
		}
		return
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				d.add("%s: %s vs %s", name(path), leaf(a), leaf(b))
			}
			return
		}
		d.value(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			d.value(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i))
		}
	case reflect.Slice, reflect.Array:
		d.list(path, a, b)
	case reflect.Map:
		d.mapping(path, a, b)
	default:
		if !sameLeaf(a, b) {
			d.add("%s: %s vs %s", name(path), leaf(a), leaf(b))
		}
	}
}

func (d *differ) list(path string, a, b reflect.Value) {
	if a.Len() != b.Len() {
		d.add("len(%s): %d vs %d", name(path), a.Len(), b.Len())
	}
	if a.Type().Elem().Kind() == reflect.Uint8 && a.Kind() == reflect.Slice {
		if !sameBytes(a, b) {
			before := len(d.lines)
			d.bytes(a.Bytes(), b.Bytes())
			for i := before; i < len(d.lines); i++ {
				d.lines[i] = name(path) + " " + d.lines[i]
			}
		}
		return
	}
	for i := range min(a.Len(), b.Len()) {
		d.value(path+"["+strconv.Itoa(i)+"]", a.Index(i), b.Index(i))
	}
}

func (d *differ) mapping(path string, a, b reflect.Value) {
	keys := map[string]reflect.Value{}
	for _, m := range []reflect.Value{a, b} {
		for _, k := range m.MapKeys() {
			keys[leaf(k)] = k
		}
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p := path + "[" + k + "]"
		va, vb := a.MapIndex(keys[k]), b.MapIndex(keys[k])
		switch {
		case !va.IsValid():
			d.add("%s: missing vs %s", name(p), leaf(vb))
		case !vb.IsValid():
			d.add("%s: %s vs missing", name(p), leaf(va))
		default:
			d.value(p, va, vb)
		}
	}
}

func sameBytes(a, b reflect.Value) bool {
	return a.Len() == b.Len() && string(a.Bytes()) == string(b.Bytes())
}

// sameLeaf compares two values of a basic kind (floats by their bits:
// NaN is the same as itself, and -0 is not 0, as a hash sees them).
func sameLeaf(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	}
	return true // functions, channels: not state
}

// leaf formats a value, exported or not.
func leaf(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		if v.IsNil() {
			return "nil"
		}
	}
	return typeName(v)
}

func typeName(v reflect.Value) string {
	if !v.IsValid() {
		return "nothing"
	}
	return "a " + v.Type().String()
}

// name is a path for the report: the value itself when it is empty.
func name(path string) string {
	if path == "" {
		return "the state"
	}
	return strings.TrimPrefix(path, ".")
}
