// Command omnihsr-batch super-resolves an archive of hyperspectral scenes
// with an Apache Beam pipeline: the same binary runs on Beam's Prism runner
// inside the process (the default, no Docker), on a Flink or Spark cluster
// through a portable job server, and on Google Cloud Dataflow.
//
// The elements of the pipeline are scene paths, one scene per element; each
// is read, super-resolved and written by the same library code as `omnihsr
// upscale` (formats.Read, method.Lookup(...).Prepare, method.RenderFile), so
// an output equals upscale's output for the same scene and flags. Scenes,
// manifests and the output directory may be local paths or URLs of Beam's
// file systems (gs://, s3://, memfs://): a remote scene is copied to a local
// scratch directory and its outputs are copied back, each appearing whole or
// not at all. See docs/BATCH.md.
//
// It lives in its own Go module so that Beam's large dependency tree never
// enters the main module's build.
package main
