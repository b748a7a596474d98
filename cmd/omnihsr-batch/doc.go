// Command omnihsr-batch super-resolves an archive of hyperspectral scenes
// with an Apache Beam pipeline: the same binary runs on Beam's direct runner
// inside the process (the default: no Docker, no job server, no listening
// socket), on a Flink or Spark cluster through a portable job server, on a
// Prism job server, and on Google Cloud Dataflow. Each scene's step emits a
// status record that the command reads back for an exact summary and the
// dead-letter list.
//
// The elements of the pipeline are scene paths, one scene per element; each
// is read, super-resolved and written by the library's front door,
// omnihsr.UpscaleFile with Options.Scales, which `omnihsr upscale` calls
// too, so an output equals upscale's output for the same scene and flags. Scenes,
// manifests and the output directory may be local paths or URLs of Beam's
// file systems (gs://, s3://, memfs://): a remote scene is copied to a local
// scratch directory and its outputs are copied back, each appearing whole or
// not at all. See docs/BATCH.md.
//
// It lives in its own Go module so that Beam's large dependency tree never
// enters the main module's build.
package main
