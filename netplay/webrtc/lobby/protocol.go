package lobby

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The protocol's sizes and counts.
const (
	// MaxData is the most bytes of data one signal carries: the
	// Signaler's limit.
	MaxData = 16 << 10
	// MaxMessage is the most bytes of one message a client sends: a
	// signal of MaxData bytes and its envelope.
	MaxMessage = MaxData + 512
	// MaxServerMessage is the most bytes of one message from the lobby:
	// a relayed signal, or a welcome with MaxICEServers servers.
	MaxServerMessage = MaxMessage + 1024 + MaxICEServers*(MaxICEURLs+2)*(MaxICEField*6+64)
	// MaxRoomName is the longest room name.
	MaxRoomName = 64
	// MaxID is the longest peer ID.
	MaxID = 32
	// MinPlayers and MaxPlayers bound a room's players (its host
	// included); DefaultPlayers is the count when the URL names none.
	MinPlayers, MaxPlayers, DefaultPlayers = 2, 8, 2
	// maxReason is the longest error reason a client keeps.
	maxReason = 300
)

// MsgType names a message's kind: its "type" field.
type MsgType string

// The message types. A client sends only TypeSignal.
const (
	TypeWelcome MsgType = "welcome" // the lobby's first message: the peer's ID, the host's, the room's players
	TypeJoined  MsgType = "joined"  // to the host: a peer arrived
	TypeLeft    MsgType = "left"    // to the host: a peer left; to every peer: the host left
	TypeSignal  MsgType = "signal"  // data from one peer of a room to another
	TypeError   MsgType = "error"   // the lobby's reason for closing the connection
)

// ClientMsg is the one message a client sends: data for the peer named
// To, in the sender's room. On the wire it is
// {"type":"signal","to":"<id>","data":<object>}.
type ClientMsg struct {
	To   string
	Data json.RawMessage
}

// ServerMsg is one message from the lobby. Type says which fields are
// set: welcome (ID, Host, Players, Spectator, and ICE where the lobby
// has servers to hand out), joined (ID, Spectator), left (ID), signal
// (From, Data), error (Reason).
type ServerMsg struct {
	Type      MsgType
	ID        string
	Host      string
	Players   int
	Spectator bool
	From      string
	Data      json.RawMessage
	Reason    string
	ICE       []ICEServer
}

// ValidRoom reports whether name is a room name: 1 to MaxRoomName
// characters of A-Z, a-z, 0-9, '_' and '-'.
func ValidRoom(name string) bool { return validName(name, MaxRoomName) }

// ValidID reports whether id can be a peer ID: 1 to MaxID characters of
// A-Z, a-z, 0-9, '_' and '-'.
func ValidID(id string) bool { return validName(id, MaxID) }

func validName(s string, max int) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// checkData returns why data cannot be a signal's data, or nil: it must
// be one JSON object of at most MaxData bytes, in UTF-8.
func checkData(data []byte) error {
	if len(data) > MaxData {
		return fmt.Errorf("lobby: signal data of %d bytes (at most %d)", len(data), MaxData)
	}
	if !utf8.Valid(data) || !json.Valid(data) {
		return errors.New("lobby: signal data is not JSON")
	}
	return checkValidData(data)
}

// checkValidData is checkData for data known to be valid JSON.
func checkValidData(data []byte) error {
	if len(data) > MaxData {
		return fmt.Errorf("lobby: signal data of %d bytes (at most %d)", len(data), MaxData)
	}
	if data[skipSpace(data, 0)] != '{' {
		return errors.New("lobby: signal data is not a JSON object")
	}
	return nil
}

// DecodeClient decodes a message from a client, strictly: one JSON
// object of at most MaxMessage bytes in UTF-8, with exactly the fields
// type ("signal"), to (a valid ID) and data (an object of at most
// MaxData bytes), each once. Anything else is an error, one line
// starting with "lobby: ". The message's Data is a slice of b.
func DecodeClient(b []byte) (ClientMsg, error) {
	var m ClientMsg
	if len(b) > MaxMessage {
		return m, fmt.Errorf("lobby: message of %d bytes (at most %d)", len(b), MaxMessage)
	}
	var seen [3]bool
	err := decodeObject(b, func(key string, raw []byte) error {
		var i int
		switch key {
		case "type":
			i = 0
			if typ, ok := jsonString(raw); !ok || MsgType(typ) != TypeSignal {
				return fmt.Errorf("lobby: message type %s (want \"signal\")", clip(raw))
			}
		case "to":
			i = 1
			to, ok := jsonString(raw)
			if !ok || !ValidID(to) {
				return fmt.Errorf("lobby: bad recipient %s", clip(raw))
			}
			m.To = to
		case "data":
			i = 2
			if err := checkValidData(raw); err != nil {
				return err
			}
			m.Data = raw
		default:
			return fmt.Errorf("lobby: unknown field %.40q", key)
		}
		if seen[i] {
			return fmt.Errorf("lobby: field %q twice", key)
		}
		seen[i] = true
		return nil
	})
	if err != nil {
		return ClientMsg{}, err
	}
	for i, name := range [...]string{"type", "to", "data"} {
		if !seen[i] {
			return ClientMsg{}, fmt.Errorf("lobby: message without %q", name)
		}
	}
	return m, nil
}

// serverFields are the fields of the lobby's messages, in the order of
// ServerMsg: DecodeServer's indexes.
var serverFields = [...]string{"type", "id", "host", "players", "spectator", "from", "data", "reason", "ice"}

// serverMsgFields splits a message from the lobby into the fields a
// ServerMsg knows, raw JSON in serverFields' order (nil where absent);
// a field given twice is an error, any other field is passed over.
func serverMsgFields(b []byte) ([len(serverFields)][]byte, error) {
	var fields [len(serverFields)][]byte
	err := decodeObject(b, func(key string, raw []byte) error {
		for i, name := range serverFields {
			if key == name {
				if fields[i] != nil {
					return fmt.Errorf("lobby: field %q twice", key)
				}
				fields[i] = raw
			}
		}
		return nil
	})
	return fields, err
}

// DecodeServer decodes a message from the lobby: one JSON object with a
// known type and that type's fields, each once and well formed. It
// ignores fields it does not know, so that a newer lobby may add some.
// The message's Data is a slice of b.
func DecodeServer(b []byte) (ServerMsg, error) {
	var m ServerMsg
	if len(b) > MaxServerMessage {
		return m, fmt.Errorf("lobby: message of %d bytes from the lobby", len(b))
	}
	fields, err := serverMsgFields(b)
	if err != nil {
		return m, err
	}
	str := func(i int, dst *string, check func(string) bool) error {
		raw := fields[i]
		if raw == nil {
			return fmt.Errorf("lobby: %s message without %q", m.Type, serverFields[i])
		}
		v, ok := jsonString(raw)
		if !ok || !check(v) {
			return fmt.Errorf("lobby: %s message with bad %s %s", m.Type, serverFields[i], clip(raw))
		}
		*dst = v
		return nil
	}
	var typ string
	if err := str(0, &typ, func(string) bool { return true }); err != nil {
		return ServerMsg{}, err
	}
	m.Type = MsgType(typ)
	spectator := func() error {
		switch raw := string(fields[4]); raw {
		case "true", "false":
			m.Spectator = raw == "true"
			return nil
		case "":
			return fmt.Errorf("lobby: %s message without \"spectator\"", m.Type)
		default:
			return fmt.Errorf("lobby: %s message with bad spectator %s", m.Type, clip(fields[4]))
		}
	}
	switch m.Type {
	case TypeWelcome:
		err = firstErr(str(1, &m.ID, ValidID), str(2, &m.Host, ValidID), spectator())
		if err == nil {
			raw := fields[3]
			n, perr := strconv.Atoi(string(raw))
			if perr != nil || n < MinPlayers || n > MaxPlayers {
				err = fmt.Errorf("lobby: welcome message with bad players %s", clip(raw))
			}
			m.Players = n
		}
		if raw := fields[8]; err == nil && raw != nil {
			m.ICE, err = decodeICE(raw)
		}
	case TypeJoined:
		err = firstErr(str(1, &m.ID, ValidID), spectator())
	case TypeLeft:
		err = str(1, &m.ID, ValidID)
	case TypeSignal:
		err = str(5, &m.From, ValidID)
		if err == nil {
			m.Data = fields[6]
			if m.Data == nil {
				err = errors.New("lobby: signal message without \"data\"")
			} else {
				err = checkValidData(m.Data)
			}
		}
	case TypeError:
		err = str(7, &m.Reason, func(s string) bool { return s != "" })
		m.Reason = oneLine(m.Reason)
	default:
		err = fmt.Errorf("lobby: unknown message type %.40q", typ)
	}
	if err != nil {
		return ServerMsg{}, err
	}
	return m, nil
}

// firstErr returns the first of errs that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// decodeObject calls field for each member of the JSON object b, in
// order, with the member's value as a slice of b, and checks that b
// holds that one object and nothing else, in UTF-8. It stops at field's
// first error. It checks b with json.Valid once and then only finds
// where each key and value ends.
func decodeObject(b []byte, field func(key string, raw []byte) error) error {
	if !utf8.Valid(b) {
		return errors.New("lobby: message is not UTF-8")
	}
	malformed := errors.New("lobby: message is not one JSON object")
	if !json.Valid(b) {
		return malformed
	}
	i := skipSpace(b, 0)
	if b[i] != '{' {
		return malformed
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] != '}' {
		if b[i] == ',' {
			i = skipSpace(b, i+1)
		}
		end := skipValue(b, i)
		key, ok := jsonString(b[i:end])
		if !ok {
			return malformed
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return malformed
		}
		i = skipSpace(b, i+1)
		end = skipValue(b, i)
		if err := field(key, b[i:end]); err != nil {
			return err
		}
		i = skipSpace(b, end)
	}
	return nil
}

// skipSpace returns the index of the first byte of b from i on that is
// not JSON white space, or len(b).
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value that starts at
// b[i], for b known to be valid JSON (or len(b), whatever b holds).
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		for i++; i < len(b); i++ {
			switch b[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return len(b)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipValue(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	default: // a number, true, false or null
		for i < len(b) && !strings.ContainsRune(",}] \t\r\n", rune(b[i])) {
			i++
		}
		return i
	}
}

// jsonString returns the string that raw, a valid JSON value, encodes,
// or false when raw is not a string.
func jsonString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// oneLine makes s one line of at most maxReason characters of valid
// UTF-8: what a reason from the network may be before it is shown.
func oneLine(s string) string { return clipTo(s, maxReason) }

// clip is the start of a JSON value from the network, on one line, for an
// error message.
func clip(raw []byte) string { return clipTo(string(raw), 40) }

func clipTo(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = append(r[:n], '…')
	}
	b := []byte(string(r))
	for i, c := range b {
		if c < ' ' || c == 0x7f {
			b[i] = ' '
		}
	}
	return string(b)
}

// AppendClient appends m's wire form to b. m.To must be a valid ID and
// m.Data a JSON object (DecodeClient's rules): Client.Send checks them.
func AppendClient(b []byte, m ClientMsg) []byte {
	b = append(b, `{"type":"signal","to":`...)
	b = strconv.AppendQuote(b, m.To)
	b = append(b, `,"data":`...)
	b = append(b, m.Data...)
	return append(b, '}')
}

// AppendServer appends m's wire form to b: the fields of its type only.
// IDs are valid IDs, m.Data a JSON object, and a Reason is encoded as a
// JSON string whatever it holds.
func AppendServer(b []byte, m ServerMsg) []byte {
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, string(m.Type))
	str := func(key, v string) {
		b = append(b, `,"`...)
		b = append(b, key...)
		b = append(b, `":`...)
		b = appendJSONString(b, v)
	}
	switch m.Type {
	case TypeWelcome:
		str("id", m.ID)
		str("host", m.Host)
		b = append(b, `,"players":`...)
		b = strconv.AppendInt(b, int64(m.Players), 10)
		b = append(b, `,"spectator":`...)
		b = strconv.AppendBool(b, m.Spectator)
		b = appendICE(b, m.ICE)
	case TypeJoined:
		str("id", m.ID)
		b = append(b, `,"spectator":`...)
		b = strconv.AppendBool(b, m.Spectator)
	case TypeLeft:
		str("id", m.ID)
	case TypeSignal:
		str("from", m.From)
		b = append(b, `,"data":`...)
		b = append(b, m.Data...)
	case TypeError:
		str("reason", m.Reason)
	}
	return append(b, '}')
}

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	if ValidID(s) { // the usual case: nothing to escape
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	q, err := json.Marshal(s)
	if err != nil { // cannot happen for a string
		return append(b, `""`...)
	}
	return append(b, q...)
}
