//go:build !unix

package regfile

// nonBlock is 0 where the system has no O_NONBLOCK: Check before the open
// refuses what is not a regular file.
const nonBlock = 0
