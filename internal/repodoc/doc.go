// Package repodoc holds no code, only tests that keep the repository's
// documents true to the code:
//
//   - the package table of docs/ARCHITECTURE.md lists every package of the
//     module exactly once, and its "depends on" column is what `go list`
//     says each package imports (run `go test ./internal/repodoc -update` to
//     rewrite the column and to append rows for new packages, then describe
//     and place those rows by hand), and the front door and the core
//     packages import nothing of the module but the core and the shared
//     internals (no evaluation, report, figure, training or viewer code);
//   - the public surface (every package outside internal/, cmd/ and
//     scripts/) has at most 400 exported identifiers, and no exported
//     declaration names a type of an internal package;
//   - every reference to a numbered section of docs/CONVENTIONS.md in the
//     code and the docs names a section that exists;
//   - LICENSE is the Apache License 2.0, unchanged, and the README, the
//     module's docs and the Python and QGIS metadata name it;
//   - no tracked file speaks of work periods or open issues, or points to
//     the development-only documents of ../shared (history belongs in git
//     log and CHANGELOG.md).
package repodoc
