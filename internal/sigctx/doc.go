// Package sigctx is how the commands stop at a signal: SIGINT, SIGTERM and
// SIGHUP cancel the command's context (signal.NotifyContext), the work
// returns an error matching context.Canceled after its deferred Aborts
// and cleanups have run, and main exits with 128 + the signal number
// (130, 143, 129). Once the first signal has cancelled the context the
// signals' default action is restored, so a second one ends the process
// at once. Nothing here calls os.Exit.
package sigctx
