package main

import (
	"bytes"
	"encoding/binary"
	"testing"

	"go.mongodb.org/mongo-driver/bson"
)

func opMsgOf(t *testing.T, body bson.D, seq ...bson.D) []byte {
	t.Helper()
	raw, err := bson.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	sections := []section{{kind: 0, docs: []bson.Raw{raw}}}
	if len(seq) > 0 {
		s := section{kind: 1, id: "documents"}
		for _, d := range seq {
			r, err := bson.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			s.docs = append(s.docs, r)
		}
		sections = append(sections, s)
	}
	header := make([]byte, 16)
	binary.LittleEndian.PutUint32(header[4:8], 7)
	binary.LittleEndian.PutUint32(header[12:16], opMsg)
	return buildMessage(header, 0, sections)
}

func docs(t *testing.T, msg []byte) []bson.D {
	t.Helper()
	_, sections, err := parseSections(msg)
	if err != nil {
		t.Fatal(err)
	}
	var out []bson.D
	for _, s := range sections {
		for _, r := range s.docs {
			var d bson.D
			if err := bson.Unmarshal(r, &d); err != nil {
				t.Fatal(err)
			}
			out = append(out, d)
		}
	}
	return out
}

func TestNulStringsAreEscapedOnTheWayInAndBackOnTheWayOut(t *testing.T) {
	in := opMsgOf(t,
		bson.D{{Key: "insert", Value: "c"}, {Key: "$db", Value: "d"}},
		bson.D{{Key: "_id", Value: "a\x00b"}, {Key: "n", Value: bson.D{{Key: "x", Value: bson.A{"\uE000", int32(1)}}}}},
	)
	out, info, err := rewrite(in)
	if err != nil {
		t.Fatal(err)
	}
	if info.name != "insert" || info.db != "d" {
		t.Fatalf("info %+v", info)
	}
	if bytes.Contains(out, []byte("a\x00b")) {
		t.Fatal("NUL still there")
	}
	got := docs(t, out)[1]
	if got[0].Value != "a\uE000Nb" {
		t.Fatalf("escaped to %q", got[0].Value)
	}
	back, err := transformMessage(out, unescapeDoc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back[16:], in[16:]) {
		t.Fatalf("round trip changed the message:\n%v\n%v", docs(t, back), docs(t, in))
	}
}

func TestRefusedOptionsAreTakenOut(t *testing.T) {
	in := opMsgOf(t, bson.D{
		{Key: "createIndexes", Value: "c"},
		{Key: "indexes", Value: bson.A{bson.D{
			{Key: "key", Value: bson.D{{Key: "at", Value: int32(1)}}},
			{Key: "name", Value: "at"},
			{Key: "expireAfterSeconds", Value: int32(0)},
		}}},
		{Key: "$db", Value: "d"},
	})
	out, info, err := rewrite(in)
	if err != nil || info.name != "createIndexes" {
		t.Fatal(err, info)
	}
	if bytes.Contains(out, []byte("expireAfterSeconds")) || !bytes.Contains(out, []byte("name")) {
		t.Fatal("expireAfterSeconds not taken out alone")
	}
	untouched := opMsgOf(t, bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: "d"}})
	if out, _, _ := rewrite(untouched); !bytes.Equal(out, untouched) {
		t.Fatal("a find was changed")
	}
}
