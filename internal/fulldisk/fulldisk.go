// Package fulldisk makes a test's writes fail as on a full disk, for real: past a size, every
// write of the process to a file fails in the kernel (the file size limit, RLIMIT_FSIZE), so
// that the code under test meets the error where it would meet ENOSPC, with nothing replaced.
//
//	lift := fulldisk.After(t, 100) // writes past byte 100 of any file fail
//	err := save()
//	lift()
//
// The limit is the process's, and the child processes it starts meanwhile inherit it: a test
// that sets it must not be parallel (no parallel test runs while a sequential one does) and
// must lift it as soon as the write under test is done.
package fulldisk
