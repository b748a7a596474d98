// Package childtest is for tests only: it runs one test of the running
// test binary again as a child process, in a role the child reads from
// its environment, so that a test can try what would end its own process
// (an address-space limit, a fatal error) and judge the child's exit and
// output. Where the binary cannot be run as a child (ENOEXEC under
// user-mode emulation such as qemu-aarch64-static without binfmt_misc)
// the test is skipped, saying why.
package childtest
