// Command omnihsr super-resolves hyperspectral images from any sensor at any
// factor, converts between hyperspectral file formats, and evaluates,
// trains and benchmarks the OmniHSR model. Run `omnihsr help` for the list
// of commands and `omnihsr help CMD` for one command's flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/internal/capi"
	"github.com/omnihsr/omnihsr/internal/helptext"
	"github.com/omnihsr/omnihsr/internal/progress"
	"github.com/omnihsr/omnihsr/internal/sigctx"
)

// command is one subcommand, each in its own cmd_*.go file. Every command
// has the same shape: flags declares the command's flags on a fresh flag
// set and returns the options value they fill; after parsing, run executes
// it. Commands keep no state between runs.
type command struct {
	name    string
	summary string // one line for `omnihsr help`
	usage   string // usage line and description for `omnihsr help NAME`
	flags   func(fs *flag.FlagSet) runner
	// stops says that run returns soon after its context is cancelled,
	// its outputs' temporaries removed: a signal cancels the context
	// (runSignals). Other commands keep the signals' default action.
	stops bool
}

// runner is a command's options, filled by its flags and ready to run.
type runner interface {
	run(ctx context.Context, e env) error
}

// env is what a command receives besides its options: the parsed flag set
// (positional arguments, which flags were given) and the writers for its
// output. Commands write nowhere else.
type env struct {
	fs             *flag.FlagSet
	stdout, stderr io.Writer
}

// commands are the subcommands: the daily ones first, then the paper's
// reproduction commands (from evalCmd on), in the order `omnihsr help`
// lists them.
var commands = []*command{
	upscaleCmd, infoCmd, convertCmd, viewCmd, degradeCmd, versionCmd,
	evalCmd, trainCmd, ablationCmd, banddefCmd, priorCmd, benchCmd,
}

// firstReproduction is the name of the first of the paper's reproduction
// commands in commands: they read the development data of ../shared.
const firstReproduction = "eval"

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// errUsage marks an error caused by bad command-line arguments.
var errUsage = errors.New("usage")

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

func newFlagSet(c *command, out io.Writer) (*flag.FlagSet, runner) {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(out)
	r := c.flags(fs)
	fs.Usage = func() { printCommandHelp(out, c, fs) }
	return fs, r
}

// printCommandHelp prints a command's help, wrapped to 80 columns: a
// synopsis, the usage and description, the flags, and the examples last.
func printCommandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	var out strings.Builder
	fs.SetOutput(&out) // for PrintDefaults
	defer fs.SetOutput(w)
	fmt.Fprintf(&out, "omnihsr %s: %s\n\n", c.name, c.summary)
	fmt.Fprintf(&out, "%s\n\n", strings.TrimSpace(c.usage))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(&out, "Flags:")
		fs.PrintDefaults()
	}
	if ex := examples[c.name]; len(ex) > 0 {
		fmt.Fprintln(&out, "\nExamples:")
		for _, e := range ex {
			fmt.Fprintf(&out, "  %s\n", e)
		}
	}
	helptext.Fprint(w, out.String())
}

// printHelp prints the list of commands, wrapped to 80 columns.
func printHelp(w io.Writer) {
	out := new(strings.Builder)
	fmt.Fprintln(out, "omnihsr: hyperspectral super-resolution for any sensor at any scale.")
	fmt.Fprintln(out, "\nUsage: omnihsr COMMAND [flags]\n\nCommands:")
	for _, c := range commands {
		if c.name == firstReproduction {
			fmt.Fprintln(out, "\nReproducing the paper (these read the development data of ../shared, not shipped):")
		}
		fmt.Fprintf(out, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(out, "\nHelp:")
	fmt.Fprintln(out, "  help CMD      show a command's flags and examples: omnihsr help upscale")
	fmt.Fprintln(out, "  help formats  the file formats omnihsr reads and writes")
	fmt.Fprintln(out, "\nExample:\n  omnihsr upscale -in sample/L7_ETMs.tif -out out/sample_x4.tif -scale 4")
	helptext.Fprint(w, out.String())
}

// printFormats prints the formats table of `omnihsr help formats`, made
// from the registry of hsi/formats as the README's is (formatsMarkdown).
func printFormats(out io.Writer) {
	helptext.Fprint(out, "omnihsr formats: the files omnihsr reads and writes, chosen by signature, then by extension.\n\n"+formatsHelp())
}

// run executes the command line args (without the program name) and returns
// the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printHelp(stderr)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		if len(args) > 1 {
			if args[1] == "formats" {
				printFormats(stdout)
				return 0
			}
			c := lookup(args[1])
			if c == nil {
				fmt.Fprintf(stderr, "omnihsr: unknown command %q\n", args[1])
				return 2
			}
			fs, _ := newFlagSet(c, stdout)
			printCommandHelp(stdout, c, fs)
			return 0
		}
		printHelp(stdout)
		return 0
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "omnihsr: unknown command %q (see omnihsr help)\n", name)
		return 2
	}
	fs, r := newFlagSet(c, stderr)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if _, err := machineProgress(); err != nil && printsProgress[name] {
		fmt.Fprintf(stderr, "omnihsr: %v\n", err)
		return 2
	}
	if err := r.run(ctx, env{fs: fs, stdout: stdout, stderr: stderr}); err != nil {
		if sigctx.Received(ctx) != nil {
			return 1 // runSignals says what stopped it
		}
		fmt.Fprintf(stderr, "omnihsr %s: %v\n", name, err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func main() {
	// The GEMM kernel is the fastest this CPU runs unless OMNIHSR_GEMM
	// names another (go, avx, avx512); every kernel gives the same bits.
	if err := gemm.Use(os.Getenv("OMNIHSR_GEMM")); err != nil {
		fmt.Fprintf(os.Stderr, "omnihsr: OMNIHSR_GEMM: %v\n", err)
		os.Exit(2)
	}
	if len(os.Args) > 1 && os.Args[1] == capi.BackendCommand {
		os.Exit(serveBackend(os.Args[2:]))
	}
	os.Exit(runSignals(os.Args[1:], os.Stdout, os.Stderr))
}

// terminal returns w when it is a terminal, for progress lines with an ETA,
// and nil (no progress) when it is a file, a pipe or a buffer.
func terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && progress.IsTerminal(f) {
		return w
	}
	return nil
}
