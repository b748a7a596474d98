// Package method is the registry of the super-resolution methods that the
// command line offers by name: the OmniHSR model ("omnihsr"), the model with
// the self-ensemble over the 8 flips and rotations of the input
// ("omnihsr-se"), the model with one back-projection step ("omnihsr-bp") and
// bicubic interpolation ("bicubic"). The front door (omnihsr.UpscaleFile,
// which `omnihsr upscale` and `omnihsr-batch` call) renders a method into
// files of any size (PrepareContext, then a Renderer's RenderTo per output,
// written through formats.Create; bicubic from an input read a band of rows
// at a time with BicubicRows); `omnihsr eval`, `omnihsr banddef`, the
// evaluation report and the ablation score it through eval.Of. It is part
// of the engine: it imports no evaluation code.
package method
