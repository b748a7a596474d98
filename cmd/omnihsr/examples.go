package main

// examples are the command lines that end `omnihsr help NAME`: run from
// the repository's root they work as printed, on the bundled sample (a
// test runs every one; train's ../shared is replaced there by a generated
// miniature). A line starting with "#" is a note, not run: the commands
// that need the full development data of ../shared or take long.
var examples = map[string][]string{
	"upscale": {
		"omnihsr upscale -in sample/L7_ETMs.tif -out out/sample_x4.tif -scale 4",
		"omnihsr upscale -in sample/L7_ETMs.tif -out out/sample_x2.tif -scale 2 -type same -of COG -co COMPRESS=ZSTD",
		"omnihsr upscale -in sample/L7_ETMs.tif -out out/ -scales 2,3.5",
		"omnihsr upscale -in sample/L7_ETMs.tif -out out/sample_700.hdr -size 700x700 -method bicubic",
		"omnihsr upscale -in sample/L7_ETMs.tif -out out/sample_x2.hdr -scale 2 -noise clean -v",
		"omnihsr upscale -in sample/L7_ETMs.tif -out out/sample_x4_in_range.tif -scale 4 -clamp input",
	},
	"info": {
		"omnihsr info sample/L7_ETMs.tif",
	},
	"convert": {
		"omnihsr convert -in sample/L7_ETMs.tif -out out/sample.hdr",
		"omnihsr convert -in sample/L7_ETMs.tif -out out/sample.png",
		"omnihsr convert -in sample/L7_ETMs.tif -out out/sample_cog.tif -of COG -co COMPRESS=ZSTD -stac",
	},
	"view": {
		"omnihsr view -addr 127.0.0.1:8080 sample/L7_ETMs.tif",
	},
	"degrade": {
		"omnihsr degrade -in sample/L7_ETMs.tif -out out/sample_lr.tif -scale 4",
		"omnihsr degrade -in sample/L7_ETMs.tif -out out/sample_lr_noisy.tif -scale 2 -blur 0.4 -noise 2 -seed 1",
	},
	"version": {
		"omnihsr version",
		"omnihsr version -short",
	},
	"eval": {
		"omnihsr eval -files sample/L7_ETMs.tif -methods bicubic,omnihsr -factors 2 -protocol seven -no-bench -out out/eval.json -md out/eval.md",
		"# the paper's tables and the report with figures, on the development data of ../shared (about a minute):",
		"#   omnihsr eval -report docs/",
	},
	"train": {
		"omnihsr train -shared ../shared -out out/try -steps 2 -patch 32 -natural-only",
		"# the shipped model's first stage (about an hour on 2 cores), then resumed after a stop:",
		"#   omnihsr train -out runs/main -steps 20000 -patch 128",
		"#   omnihsr train -out runs/main -steps 20000 -patch 128 -resume",
	},
	"ablation": {
		"omnihsr ablation -weights shipped=internal/model/weights/default.omw -files sample/L7_ETMs.tif -factors 2 -out out/ablation.json -md out/ablation.md",
	},
	"banddef": {
		"omnihsr banddef -files sample/L7_ETMs.tif -factor 2 -out out/banddef.json -md out/banddef.md",
	},
	"prior": {
		"omnihsr prior -files sample/L7_ETMs.tif -factors 2 -out out/prior.json -md out/prior.md",
	},
	"bench": {
		"omnihsr bench -size 16 -bands 6 -factors 2,4 -runs 3 -warmup 1",
		"# whole scenes beside gdal_translate -r cubic (gdal_translate on the PATH):",
		"#   omnihsr bench -scene 512x512x102 -scene-factors 2,4 -runs 3",
	},
}
