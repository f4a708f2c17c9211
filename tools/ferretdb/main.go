// Command murmur-ferretdb is FerretDB 1.24 (the MongoDB wire protocol over PostgreSQL) as Murmur's CI
// and developers run it: the upstream embeddable package (github.com/FerretDB/FerretDB/ferretdb) behind
// a small command line, in a database of its own that it creates at start and drops at exit.
// scripts/ferretdb.mjs builds and starts it; docs/adr/0021-ferretdb-for-the-mongodb-suites.md says why.
//
//	murmur-ferretdb --postgresql-url=postgres://postgres@127.0.0.1:5432/postgres \
//	  --database=murmur_ferretdb_1234 [--listen-addr=127.0.0.1:0] [--log-level=warn]
//
// Clients talk to it through the gate (gate.go: writes one at a time per database, two refused options
// taken out); --raw serves FerretDB as it is. Once it listens, it prints one line on stdout:
// `MONGO_URL=mongodb://127.0.0.1:<port>/`. SIGINT or SIGTERM stops it; it then drops the database
// (every collection it held) and exits 0.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/build/version"
	"github.com/FerretDB/FerretDB/ferretdb"
	"github.com/jackc/pgx/v5"
)

// Database names we create and drop: plain, so they need no quoting beyond the identifier quotes.
var databaseName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

func main() {
	listen := flag.String("listen-addr", "127.0.0.1:0", "TCP address to listen on (port 0: any free port)")
	pgURL := flag.String("postgresql-url", "postgres://postgres@127.0.0.1:5432/postgres",
		"PostgreSQL server to keep the data in (its path names the database to connect to for CREATE/DROP)")
	database := flag.String("database", "", "PostgreSQL database to create, use and drop at exit (required)")
	keep := flag.Bool("keep", false, "use the database if it exists and do not drop it at exit")
	level := flag.String("log-level", "warn", "log level: debug, info, warn, error")
	raw := flag.Bool("raw", false, "serve FerretDB without the gate (gate.go)")
	stale := flag.String("drop-stale", "", "first drop databases named <prefix><pid>_… whose process <pid> is gone")
	flag.Parse()
	if *stale != "" {
		if err := dropStale(*pgURL, *stale); err != nil {
			fmt.Fprintf(os.Stderr, "murmur-ferretdb: dropping stale databases: %s\n", err)
		}
	}
	if err := run(*listen, *pgURL, *database, *keep, *raw, *level); err != nil {
		fmt.Fprintf(os.Stderr, "murmur-ferretdb: %s\n", err)
		os.Exit(1)
	}
}

func run(listen, pgURL, database string, keep, raw bool, level string) error {
	if !databaseName.MatchString(database) {
		return fmt.Errorf("--database=%q: want lower-case letters, digits and _ (at most 63)", database)
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(level)); err != nil {
		return fmt.Errorf("--log-level=%q: %s", level, err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))

	admin, err := url.Parse(pgURL)
	if err != nil {
		return fmt.Errorf("--postgresql-url: %s", err)
	}
	target := *admin
	target.Path = "/" + database

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	if err := exec(ctx, admin.String(), fmt.Sprintf(`CREATE DATABASE "%s"`, database)); err != nil {
		if !keep {
			return fmt.Errorf("creating database %s: %s", database, err)
		}
	}
	dropped := false
	drop := func() {
		if keep || dropped {
			return
		}
		dropped = true
		dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// WITH (FORCE): connections FerretDB's pool still holds must not keep the database alive.
		if err := exec(dctx, admin.String(), fmt.Sprintf(`DROP DATABASE IF EXISTS "%s" WITH (FORCE)`, database)); err != nil {
			fmt.Fprintf(os.Stderr, "murmur-ferretdb: dropping database %s: %s\n", database, err)
		}
	}
	defer drop()

	// The embedded package reports version "unknown" (buildInfo's ferretdbVersion): say which it is.
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/FerretDB/FerretDB" {
				version.Get().Version = dep.Version
			}
		}
	}

	inner := listen
	if !raw {
		inner = "127.0.0.1:0"
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: inner},
		Logger:        logger,
		Handler:       "postgresql",
		PostgreSQLURL: target.String(),
	})
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	// MongoDBURI waits until the listener is bound, so the port printed is the one that answers.
	uri := f.MongoDBURI()
	if !raw {
		u, err := url.Parse(uri)
		if err != nil {
			return err
		}
		l, err := net.Listen("tcp", listen)
		if err != nil {
			return fmt.Errorf("--listen-addr: %s", err)
		}
		defer l.Close()
		go newGate(u.Host, logger).serve(l)
		uri = "mongodb://" + l.Addr().String() + "/"
	}
	fmt.Printf("MONGO_URL=%s\n", uri)
	return <-done
}

// dropStale drops the databases earlier runs left behind when they were killed before they could drop
// them: named <prefix><pid>_<anything>, with no process <pid> on this machine any more.
func dropStale(pgURL, prefix string) error {
	if !databaseName.MatchString(prefix) {
		return fmt.Errorf("--drop-stale=%q: want lower-case letters, digits and _", prefix)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, pgURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(ctx, `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, prefix)
	if err != nil {
		return err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	pidOf := regexp.MustCompile(`^` + regexp.QuoteMeta(prefix) + `([0-9]+)_`)
	for _, name := range names {
		m := pidOf.FindStringSubmatch(name)
		if m == nil || !databaseName.MatchString(name) {
			continue
		}
		var pid int
		fmt.Sscan(m[1], &pid)
		if pid <= 0 || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue
		}
		if _, err := conn.Exec(ctx, fmt.Sprintf(`DROP DATABASE IF EXISTS "%s" WITH (FORCE)`, name)); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "murmur-ferretdb: dropped %s, left by process %d\n", name, pid)
	}
	return nil
}

func exec(ctx context.Context, connString, sql string) error {
	conn, err := pgx.Connect(ctx, connString)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}
