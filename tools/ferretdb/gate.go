package main

// The gate: a MongoDB wire-protocol relay between clients and FerretDB that changes three things, all
// written down in docs/adr/0021-ferretdb-for-the-mongodb-suites.md.
//
//  1. Writes run one at a time per database. FerretDB 1.24 applies an update by reading the document,
//     changing it in Go and writing it back, and findAndModify is a query followed by such an update:
//     two updates of one document at once can lose one of them, and two findAndModify claims can take the
//     same document. MongoDB makes every single-document write atomic, and Murmur relies on that (job
//     and outbox claims, counters). One write at a time per database gives that guarantee back; reads
//     still run side by side. It also keeps FerretDB's connection pool (50) from deadlocking: a
//     findAndModify holds one connection for its query while it waits for a second one for its update.
//  2. Options FerretDB 1.24 refuses outright but whose only effect is housekeeping or less data on the
//     wire are taken out, so that a service declaring them can start: `expireAfterSeconds` of
//     createIndexes (FerretDB has no TTL indexes: documents past their TTL stay) and `fields` (the
//     projection) of findAndModify (whole documents come back).
//  3. Strings holding NUL characters, which FerretDB cannot store (PostgreSQL's jsonb refuses \u0000) and
//     MongoDB can, are escaped on the way in and unescaped on the way out: NUL becomes U+E000 'N' and a
//     U+E000 of the data U+E000 'S'. The escape is one-to-one, so equality, $in and unique indexes mean
//     what they mean on MongoDB; only the order of such strings among others differs.
//
// Nothing else is changed: every other difference between FerretDB and MongoDB stays visible to the
// store's contract suite, which names them (libs/store-mongodb/test/ferretdb.ts).

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
)

const (
	opMsg          = 2013
	flagChecksum   = 1 << 0
	flagMoreToCome = 1 << 1
	maxMessage     = 48 * 1024 * 1024
)

// Commands that only read: they pass the gate without waiting.
var reads = map[string]bool{
	"find": true, "getMore": true, "count": true, "aggregate": true, "distinct": true,
	"listCollections": true, "listIndexes": true, "listDatabases": true, "killCursors": true,
	"hello": true, "isMaster": true, "ismaster": true, "ping": true, "buildInfo": true, "buildinfo": true,
	"endSessions": true, "dbStats": true, "collStats": true, "serverStatus": true, "getParameter": true,
	"saslStart": true, "saslContinue": true, "whatsmyuri": true, "connectionStatus": true,
	"explain": true, "getLog": true, "hostInfo": true, "getCmdLineOpts": true, "listCommands": true,
}

type gate struct {
	upstream string
	logger   *slog.Logger
	mu       sync.Mutex
	dbs      map[string]*sync.Mutex
}

func newGate(upstream string, logger *slog.Logger) *gate {
	return &gate{upstream: upstream, logger: logger, dbs: map[string]*sync.Mutex{}}
}

func (g *gate) lockOf(db string) *sync.Mutex {
	g.mu.Lock()
	defer g.mu.Unlock()
	m := g.dbs[db]
	if m == nil {
		m = &sync.Mutex{}
		g.dbs[db] = m
	}
	return m
}

func (g *gate) serve(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go g.relay(c)
	}
}

func (g *gate) relay(client net.Conn) {
	defer client.Close()
	server, err := net.Dial("tcp", g.upstream)
	if err != nil {
		g.logger.Error("gate: cannot reach FerretDB", "error", err)
		return
	}
	defer server.Close()
	for {
		msg, err := readMessage(client)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				g.logger.Debug("gate: client connection ended", "error", err)
			}
			return
		}
		var lock *sync.Mutex
		expectReply := true
		if opcode(msg) == opMsg {
			var info commandInfo
			msg, info, err = rewrite(msg)
			if err != nil {
				g.logger.Warn("gate: passing on a message it cannot read", "error", err)
			}
			if info.name != "" && !reads[info.name] {
				lock = g.lockOf(info.db)
			}
			expectReply = info.flags&flagMoreToCome == 0
		}
		if lock != nil {
			lock.Lock()
		}
		err = g.exchange(client, server, msg, expectReply)
		if lock != nil {
			lock.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// exchange sends one request and relays its reply (and any replies streamed after it).
func (g *gate) exchange(client, server net.Conn, msg []byte, expectReply bool) error {
	if _, err := server.Write(msg); err != nil {
		return err
	}
	for expectReply {
		reply, err := readMessage(server)
		if err != nil {
			return err
		}
		if opcode(reply) == opMsg && bytes.Contains(reply, escapeRune) {
			if out, err := transformMessage(reply, unescapeDoc); err == nil {
				reply = out
			} else {
				g.logger.Warn("gate: passing on a reply it cannot read", "error", err)
			}
		}
		if _, err := client.Write(reply); err != nil {
			return err
		}
		expectReply = opcode(reply) == opMsg && binary.LittleEndian.Uint32(reply[16:20])&flagMoreToCome != 0
	}
	return nil
}

func readMessage(r io.Reader) ([]byte, error) {
	var header [16]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}
	size := int(int32(binary.LittleEndian.Uint32(header[0:4])))
	if size < 16 || size > maxMessage {
		return nil, fmt.Errorf("message length %d out of bounds", size)
	}
	msg := make([]byte, size)
	copy(msg, header[:])
	if _, err := io.ReadFull(r, msg[16:]); err != nil {
		return nil, err
	}
	return msg, nil
}

func opcode(msg []byte) int32 { return int32(binary.LittleEndian.Uint32(msg[12:16])) }

type commandInfo struct {
	name  string
	db    string
	flags uint32
}

// section is one section of an OP_MSG: kind 0 holds one document (the command), kind 1 a named sequence.
type section struct {
	kind byte
	id   string
	docs []bson.Raw
}

func parseSections(msg []byte) (flags uint32, sections []section, err error) {
	if len(msg) < 21 {
		return 0, nil, errors.New("OP_MSG too short")
	}
	flags = binary.LittleEndian.Uint32(msg[16:20])
	end := len(msg)
	if flags&flagChecksum != 0 {
		end -= 4
	}
	readDoc := func(at, limit int) (bson.Raw, error) {
		if at+4 > limit {
			return nil, errors.New("document out of bounds")
		}
		n := int(int32(binary.LittleEndian.Uint32(msg[at : at+4])))
		if n < 5 || at+n > limit {
			return nil, errors.New("document out of bounds")
		}
		return bson.Raw(msg[at : at+n]), nil
	}
	for at := 20; at < end; {
		kind := msg[at]
		at++
		switch kind {
		case 0:
			doc, err := readDoc(at, end)
			if err != nil {
				return 0, nil, err
			}
			sections = append(sections, section{kind: 0, docs: []bson.Raw{doc}})
			at += len(doc)
		case 1:
			if at+4 > end {
				return 0, nil, errors.New("sequence out of bounds")
			}
			size := int(int32(binary.LittleEndian.Uint32(msg[at : at+4])))
			limit := at + size
			if size < 5 || limit > end {
				return 0, nil, errors.New("sequence out of bounds")
			}
			nul := bytes.IndexByte(msg[at+4:limit], 0)
			if nul < 0 {
				return 0, nil, errors.New("sequence without a name")
			}
			sec := section{kind: 1, id: string(msg[at+4 : at+4+nul])}
			for p := at + 4 + nul + 1; p < limit; {
				doc, err := readDoc(p, limit)
				if err != nil {
					return 0, nil, err
				}
				sec.docs = append(sec.docs, doc)
				p += len(doc)
			}
			sections = append(sections, sec)
			at = limit
		default:
			return 0, nil, fmt.Errorf("section kind %d", kind)
		}
	}
	if len(sections) == 0 || sections[0].kind != 0 {
		return 0, nil, errors.New("OP_MSG without a body section first")
	}
	return flags, sections, nil
}

// buildMessage writes an OP_MSG with the header of `like` (request id, response to), without a checksum.
func buildMessage(like []byte, flags uint32, sections []section) []byte {
	out := make([]byte, 20, len(like)+64)
	copy(out, like[:16])
	binary.LittleEndian.PutUint32(out[16:20], flags&^flagChecksum)
	for _, sec := range sections {
		out = append(out, sec.kind)
		if sec.kind == 0 {
			out = append(out, sec.docs[0]...)
			continue
		}
		sizeAt := len(out)
		out = append(out, 0, 0, 0, 0)
		out = append(out, sec.id...)
		out = append(out, 0)
		for _, d := range sec.docs {
			out = append(out, d...)
		}
		binary.LittleEndian.PutUint32(out[sizeAt:], uint32(len(out)-sizeAt))
	}
	binary.LittleEndian.PutUint32(out[0:4], uint32(len(out)))
	return out
}

// transformMessage applies `change` to every document of an OP_MSG; nil from `change` keeps a document.
func transformMessage(msg []byte, change func(bson.Raw) (bson.Raw, error)) ([]byte, error) {
	flags, sections, err := parseSections(msg)
	if err != nil {
		return nil, err
	}
	changed := false
	for i := range sections {
		for j, d := range sections[i].docs {
			out, err := change(d)
			if err != nil {
				return nil, err
			}
			if out != nil {
				sections[i].docs[j] = out
				changed = true
			}
		}
	}
	if !changed {
		return msg, nil
	}
	return buildMessage(msg, flags, sections), nil
}

// rewrite reads an OP_MSG's command and returns the message FerretDB gets: NULs escaped, and the two
// refused options taken out.
func rewrite(msg []byte) ([]byte, commandInfo, error) {
	var info commandInfo
	flags, sections, err := parseSections(msg)
	if err != nil {
		return msg, info, err
	}
	info.flags = flags
	body := sections[0].docs[0]
	elems, err := body.Elements()
	if err != nil || len(elems) == 0 {
		return msg, info, fmt.Errorf("OP_MSG body: %v", err)
	}
	info.name = elems[0].Key()
	if db, ok := body.Lookup("$db").StringValueOK(); ok {
		info.db = db
	}
	out, err := transformMessage(msg, func(doc bson.Raw) (bson.Raw, error) {
		var changed bson.Raw
		var err error
		if bytes.Equal(doc, body) {
			switch info.name {
			case "createIndexes":
				changed, err = withoutTTL(doc)
			case "findAndModify":
				changed, err = withoutField(doc, "fields")
			}
			if err != nil {
				return nil, err
			}
			if changed != nil {
				doc = changed
			}
		}
		escaped, err := escapeDoc(doc)
		if err != nil || escaped != nil {
			return escaped, err
		}
		return changed, nil
	})
	if err != nil {
		return msg, info, err
	}
	return out, info, nil
}

// The escape of NUL for FerretDB: U+E000 (a private-use character) followed by 'N'; U+E000 itself
// becomes U+E000 'S'.
var escapeRune = []byte(string(rune(0xE000)))

func escapeString(s string) string {
	if !strings.ContainsRune(s, 0) && !strings.ContainsRune(s, 0xE000) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 0:
			b.WriteString("\uE000N")
		case 0xE000:
			b.WriteString("\uE000S")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unescapeString(s string) string {
	if !strings.ContainsRune(s, 0xE000) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == 0xE000 && i+n < len(s) && (s[i+n] == 'N' || s[i+n] == 'S') {
			if s[i+n] == 'N' {
				b.WriteByte(0)
			} else {
				b.WriteRune(0xE000)
			}
			i += n + 1
			continue
		}
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

// hasString tells whether any string value in doc (at any depth) satisfies `test`, without decoding it.
func hasString(doc bson.Raw, test func(string) bool) bool {
	elems, err := doc.Elements()
	if err != nil {
		return false
	}
	for _, e := range elems {
		v := e.Value()
		switch v.Type {
		case bson.TypeString:
			if test(v.StringValue()) {
				return true
			}
		case bson.TypeEmbeddedDocument:
			if hasString(v.Document(), test) {
				return true
			}
		case bson.TypeArray:
			if hasString(bson.Raw(v.Array()), test) {
				return true
			}
		}
	}
	return false
}

func mapStrings(v interface{}, f func(string) string) interface{} {
	switch x := v.(type) {
	case string:
		return f(x)
	case primitive.D:
		for i := range x {
			x[i].Value = mapStrings(x[i].Value, f)
		}
		return x
	case primitive.A:
		for i := range x {
			x[i] = mapStrings(x[i], f)
		}
		return x
	default:
		return v
	}
}

func mapDoc(doc bson.Raw, f func(string) string) (bson.Raw, error) {
	var d bson.D
	if err := bson.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	return bson.Marshal(mapStrings(d, f))
}

// escapeDoc escapes the strings of a document that hold NUL or U+E000 (nil: none do).
func escapeDoc(doc bson.Raw) (bson.Raw, error) {
	if !hasString(doc, func(s string) bool { return strings.ContainsRune(s, 0) || strings.ContainsRune(s, 0xE000) }) {
		return nil, nil
	}
	return mapDoc(doc, escapeString)
}

// unescapeDoc undoes escapeDoc (nil: nothing to undo).
func unescapeDoc(doc bson.Raw) (bson.Raw, error) {
	if !hasString(doc, func(s string) bool { return strings.ContainsRune(s, 0xE000) }) {
		return nil, nil
	}
	return mapDoc(doc, unescapeString)
}

// withoutTTL drops expireAfterSeconds from every index of a createIndexes command (nil: nothing to drop).
func withoutTTL(body bson.Raw) (bson.Raw, error) {
	var cmd bson.D
	if err := bson.Unmarshal(body, &cmd); err != nil {
		return nil, err
	}
	dropped := false
	for i, e := range cmd {
		if e.Key != "indexes" {
			continue
		}
		indexes, ok := e.Value.(bson.A)
		if !ok {
			return nil, nil
		}
		for j, ix := range indexes {
			spec, ok := ix.(bson.D)
			if !ok {
				continue
			}
			kept := spec[:0:0]
			for _, f := range spec {
				if f.Key == "expireAfterSeconds" {
					dropped = true
					continue
				}
				kept = append(kept, f)
			}
			indexes[j] = kept
		}
		cmd[i].Value = indexes
	}
	if !dropped {
		return nil, nil
	}
	return bson.Marshal(cmd)
}

// withoutField drops one top-level field of a command (nil: it was not there).
func withoutField(body bson.Raw, field string) (bson.Raw, error) {
	if _, err := body.LookupErr(field); err != nil {
		return nil, nil
	}
	var cmd bson.D
	if err := bson.Unmarshal(body, &cmd); err != nil {
		return nil, err
	}
	kept := cmd[:0:0]
	for _, e := range cmd {
		if e.Key != field {
			kept = append(kept, e)
		}
	}
	return bson.Marshal(kept)
}
