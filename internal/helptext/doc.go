// Package helptext wraps the commands' help to a terminal's width: every
// line longer than the width is broken at spaces, its continuation lines
// indented as the kind of line asks. A flag's description (indented with a
// tab by the flag package) continues under itself; a table row (a name,
// two spaces or more, a description) continues under its description; a
// "Usage:" line continues under its first argument and breaks only outside
// brackets; a command line (starting with omnihsr) ends its broken lines
// with " \" so that it still pastes into a POSIX shell; other lines
// continue under their own indentation. A word longer than the width is
// never broken.
package helptext
