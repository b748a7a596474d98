package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	// The file systems a path may name: local paths, gs://, s3:// and
	// memfs:// (in-process memory, for tests).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// Paths with a scheme (gs://bucket/key, s3://bucket/key, memfs://key) are
// read and written through Beam's file system registry; paths without one
// are local files. A scene on a remote store is copied to a local scratch
// directory, processed by the same code as a local one, and its outputs are
// copied to the destination (publish).

// scheme returns the scheme of a path ("" for a local path), as Beam's
// file system registry tells it: the text before "://".
func scheme(p string) string {
	if i := strings.Index(p, "://"); i > 0 {
		return p[:i]
	}
	return ""
}

// isRemote reports whether p names a file on a remote store.
func isRemote(p string) bool { return scheme(p) != "" }

// joinPath returns dir/name: for a remote dir joined with "/" (the
// scheme's "//" kept), for a local one by filepath.Join.
func joinPath(dir, name string) string {
	if isRemote(dir) {
		return strings.TrimSuffix(dir, "/") + "/" + name
	}
	return filepath.Join(dir, name)
}

// dirOf returns the directory part of p (for a remote path, the text
// before its last "/").
func dirOf(p string) string {
	if isRemote(p) {
		i := strings.LastIndex(p, "/")
		if i < len(scheme(p))+3 {
			return p
		}
		return p[:i]
	}
	return filepath.Dir(p)
}

// openFS returns the file system that p names. Beam's registrations panic
// where they cannot build a client (s3: an unreadable AWS configuration);
// that becomes an error naming the path.
func openFS(ctx context.Context, p string) (fsys filesystem.Interface, err error) {
	defer func() {
		if r := recover(); r != nil {
			fsys, err = nil, fmt.Errorf("%s: opening the %s:// file system: %v", p, scheme(p), r)
		}
	}()
	fsys, err = filesystem.New(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return fsys, nil
}

// listGlob returns the files that a glob on any registered file system
// matches, sorted.
func listGlob(ctx context.Context, glob string) ([]string, error) {
	fsys, err := openFS(ctx, glob)
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	paths, err := fsys.List(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", glob, err)
	}
	slices.Sort(paths)
	return paths, nil
}

// readAll returns the bytes of a small file (a manifest, the dead-letter
// list) on any registered file system.
func readAll(ctx context.Context, p string) ([]byte, error) {
	if !isRemote(p) {
		return os.ReadFile(p)
	}
	fsys, err := openFS(ctx, p)
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	b, err := filesystem.Read(ctx, fsys, p)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	return b, nil
}

// exists reports whether the file p exists: its size can be read.
func exists(ctx context.Context, fsys filesystem.Interface, p string) bool {
	_, err := fsys.Size(ctx, p)
	return err == nil
}

// removeIfExists removes the file p where it exists.
func removeIfExists(ctx context.Context, p string) error {
	if !isRemote(p) {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	fsys, err := openFS(ctx, p)
	if err != nil {
		return err
	}
	defer fsys.Close()
	if !exists(ctx, fsys, p) {
		return nil
	}
	rm, ok := fsys.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("%s: the %s:// file system cannot remove files", p, scheme(p))
	}
	if err := rm.Remove(ctx, p); err != nil {
		return fmt.Errorf("removing %s: %w", p, err)
	}
	return nil
}

// remoteComplete reports whether every file of the remote output p exists.
// publish makes each file appear whole or not at all, an ENVI header after
// its data file, so a file that exists is complete.
func remoteComplete(ctx context.Context, fsys filesystem.Interface, p string) bool {
	for _, f := range formats.WriteFiles(p) {
		if !exists(ctx, fsys, f) {
			return false
		}
	}
	return true
}

// sceneFiles returns the files of the remote scene in: in itself and, for
// ENVI, its partner (the data file beside a header, or the header beside a
// data file), found by the names envi.Pair and envi.HeaderFor try.
func sceneFiles(ctx context.Context, fsys filesystem.Interface, in string) ([]string, error) {
	if !exists(ctx, fsys, in) {
		return nil, fmt.Errorf("%s: no such file", in)
	}
	ext := path.Ext(in)
	stem := strings.TrimSuffix(in, ext)
	var partners []string
	if envi.IsHeader(in) {
		partners = []string{stem}
		for _, e := range envi.DataExts() {
			partners = append(partners, stem+e)
		}
	} else {
		partners = []string{in + ".hdr", in + ".HDR", stem + ".hdr", stem + ".HDR"}
	}
	for _, p := range partners {
		if p != in && exists(ctx, fsys, p) {
			return []string{in, p}, nil
		}
	}
	return []string{in}, nil
}

// freeSpace returns the bytes free for an unprivileged user on the file
// system of dir (ok false where that cannot be told).
var freeSpace = atomicfile.DiskFree

// stage copies the remote scene in (with its ENVI partner) into the local
// directory dir under the same base names and returns the local path of
// in. It refuses, before copying, a scene larger than the free space of
// dir.
func stage(ctx context.Context, in, dir string) (string, error) {
	fsys, err := openFS(ctx, in)
	if err != nil {
		return "", err
	}
	defer fsys.Close()
	files, err := sceneFiles(ctx, fsys, in)
	if err != nil {
		return "", err
	}
	sizes := make([]int64, len(files))
	var need uint64
	for i, f := range files {
		if sizes[i], err = fsys.Size(ctx, f); err != nil {
			return "", fmt.Errorf("%s: size: %w", f, err)
		}
		need += uint64(sizes[i])
	}
	if free, ok := freeSpace(dir); ok && need > free {
		return "", fmt.Errorf("%s: copying it needs %d bytes, %d are free in the scratch directory %s: %w",
			in, need, free, dir, hsi.ErrNoSpace)
	}
	for i, f := range files {
		if err := download(ctx, fsys, f, filepath.Join(dir, path.Base(f)), sizes[i]); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, path.Base(in)), nil
}

// download copies the remote file src (of size bytes) to the local file dst.
func download(ctx context.Context, fsys filesystem.Interface, src, dst string, size int64) error {
	r, err := fsys.OpenRead(ctx, src)
	if err != nil {
		return fmt.Errorf("%s: open: %w", src, err)
	}
	defer r.Close()
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("%s: copying to the scratch directory: %w", src, err)
	}
	n, err := io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: copying to %s: %w", src, dst, err)
	}
	if n != size {
		return fmt.Errorf("%s: copied %d bytes, the store lists %d", src, n, size)
	}
	return nil
}

// abortsOnCancel lists the schemes whose writers discard an upload whose
// context is cancelled before Close: a GCS object is created only when its
// upload is finalised, an S3 object only when PutObject or
// CompleteMultipartUpload succeeds, so a file on them is never half
// written.
var abortsOnCancel = map[string]bool{"gs": true, "s3": true}

// publish copies the local file src to the remote file dst so that dst
// appears complete or not at all, as far as dst's file system allows:
//
//   - gs:// and s3:// (abortsOnCancel): an upload to dst itself, finished
//     by Close when every byte was sent; on any error its context is
//     cancelled first, so the store creates no object and an existing dst
//     is untouched.
//   - a file system that can rename (memfs://, and local paths, which
//     processScene writes in place instead): an upload to a temporary
//     .NAME.omnihsr-tmp-RANDOM beside dst, renamed to dst when complete,
//     removed on error.
//   - any other: an upload to dst, removed on error (readers may see a
//     partial dst while it is written).
func publish(ctx context.Context, src, dst string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	return publishFrom(ctx, f, dst)
}

// publishFrom is publish from a reader.
func publishFrom(ctx context.Context, r io.Reader, dst string) error {
	fsys, err := openFS(ctx, dst)
	if err != nil {
		return err
	}
	defer fsys.Close()
	rn, canRename := fsys.(filesystem.Renamer)
	if abortsOnCancel[scheme(dst)] || !canRename {
		if err := upload(ctx, fsys, r, dst); err != nil {
			if !abortsOnCancel[scheme(dst)] {
				if rm, ok := fsys.(filesystem.Remover); ok {
					rm.Remove(ctx, dst)
				}
			}
			return err
		}
		return nil
	}
	var nonce [6]byte
	rand.Read(nonce[:])
	tmp := joinPath(dirOf(dst), "."+path.Base(dst)+".omnihsr-tmp-"+hex.EncodeToString(nonce[:]))
	err = upload(ctx, fsys, r, tmp)
	if err != nil {
		err = fmt.Errorf("%s: %w", dst, err)
	} else {
		if err = rn.Rename(ctx, tmp, dst); err != nil {
			err = fmt.Errorf("renaming %s to %s: %w", tmp, dst, err)
		}
	}
	if err != nil {
		if rm, ok := fsys.(filesystem.Remover); ok && exists(ctx, fsys, tmp) {
			rm.Remove(ctx, tmp)
		}
		return err
	}
	return nil
}

// upload copies r to dst and commits it with Close. On an error it
// cancels the write's context before closing it, which the stores in
// abortsOnCancel take as an abort.
func upload(ctx context.Context, fsys filesystem.Interface, r io.Reader, dst string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := fsys.OpenWrite(ctx, dst)
	if err != nil {
		return fmt.Errorf("%s: open for writing: %w", dst, err)
	}
	if _, err := io.Copy(w, r); err != nil {
		cancel()
		w.Close()
		return fmt.Errorf("%s: upload: %w", dst, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%s: upload: %w", dst, err)
	}
	return nil
}
