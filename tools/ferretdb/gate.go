package main

// The gate: a MongoDB wire-protocol relay between clients and FerretDB that changes two things, both
// written down in docs/adr/0019-ferretdb-for-the-mongodb-suites.md.
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
//
// Nothing else is changed: every other difference between FerretDB and MongoDB stays visible to the
// store's contract suite, which names them (libs/store-mongodb/test/ferretdb.ts).

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"

	"go.mongodb.org/mongo-driver/bson"
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

// rewrite reads an OP_MSG's command and, for the two options the gate takes out, returns the message
// without them.
func rewrite(msg []byte) ([]byte, commandInfo, error) {
	var info commandInfo
	if len(msg) < 21 {
		return msg, info, errors.New("OP_MSG too short")
	}
	info.flags = binary.LittleEndian.Uint32(msg[16:20])
	end := len(msg)
	if info.flags&flagChecksum != 0 {
		end -= 4
	}
	// Section kind 0 (the command document) comes first in every message a driver sends.
	if msg[20] != 0 || end < 25 {
		return msg, info, errors.New("OP_MSG without a body section first")
	}
	docLen := int(int32(binary.LittleEndian.Uint32(msg[21:25])))
	if docLen < 5 || 21+docLen > end {
		return msg, info, errors.New("OP_MSG body out of bounds")
	}
	body := bson.Raw(msg[21 : 21+docLen])
	elems, err := body.Elements()
	if err != nil || len(elems) == 0 {
		return msg, info, fmt.Errorf("OP_MSG body: %v", err)
	}
	info.name = elems[0].Key()
	if db, ok := body.Lookup("$db").StringValueOK(); ok {
		info.db = db
	}
	var changed bson.Raw
	switch info.name {
	case "createIndexes":
		changed, err = withoutTTL(body)
	case "findAndModify":
		changed, err = withoutField(body, "fields")
	}
	if err != nil || changed == nil {
		return msg, info, err
	}
	out := make([]byte, 0, len(msg)-docLen+len(changed))
	out = append(out, msg[:21]...)
	out = append(out, changed...)
	out = append(out, msg[21+docLen:end]...)
	binary.LittleEndian.PutUint32(out[0:4], uint32(len(out)))
	// The checksum, if any, covered the old bytes: the message goes on without one.
	binary.LittleEndian.PutUint32(out[16:20], info.flags&^flagChecksum)
	return out, info, nil
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
