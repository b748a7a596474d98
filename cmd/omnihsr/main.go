// Command omnihsr super-resolves hyperspectral images from any sensor at any
// factor, converts between hyperspectral file formats, and evaluates,
// trains and benchmarks the OmniHSR model. Run `omnihsr help` for the list
// of commands and `omnihsr help CMD` for one command's flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/omnihsr/omnihsr/internal/progress"
)

// command is one subcommand. Each lives in its own cmd_*.go file and
// registers itself from init.
type command struct {
	name    string
	summary string // one line for `omnihsr help`
	usage   string // synopsis and description for `omnihsr help NAME`
	// flags builds the command's flag set; run receives it parsed.
	flags func(fs *flag.FlagSet)
	run   func(fs *flag.FlagSet) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("omnihsr: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// errUsage marks an error caused by bad command-line arguments.
var errUsage = errors.New("usage")

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

func newFlagSet(c *command, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(out)
	if c.flags != nil {
		c.flags(fs)
	}
	fs.Usage = func() { printCommandHelp(out, c, fs) }
	return fs
}

func printCommandHelp(out io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(out, "%s\n\n", strings.TrimSpace(c.usage))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(out, "Flags:")
		fs.PrintDefaults()
	}
}

func printHelp(out io.Writer) {
	fmt.Fprintln(out, "omnihsr: hyperspectral super-resolution for any sensor at any scale.")
	fmt.Fprintln(out, "\nUsage: omnihsr COMMAND [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(out, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(out, "  help       show help for a command: omnihsr help COMMAND")
}

// run executes the command line args (without the program name) and returns
// the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printHelp(stderr)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		if len(args) > 1 {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "omnihsr: unknown command %q\n", args[1])
				return 2
			}
			printCommandHelp(stdout, c, newFlagSet(c, stdout))
			return 0
		}
		printHelp(stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "omnihsr: unknown command %q (see omnihsr help)\n", name)
		return 2
	}
	fs := newFlagSet(c, stderr)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := c.run(fs); err != nil {
		fmt.Fprintf(stderr, "omnihsr %s: %v\n", name, err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// terminal returns w when it is a terminal, for progress lines with an ETA,
// and nil (no progress) when it is a file, a pipe or a buffer.
func terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && progress.IsTerminal(f) {
		return w
	}
	return nil
}
