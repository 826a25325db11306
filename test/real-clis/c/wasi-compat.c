/*
 * POSIX/BSD functions that wasi-libc leaves out, linked beside the C tools that call them (their
 * own sources stay unmodified):
 * - the BSD <err.h> family (err, errx, warn, warnx and their v- forms);
 * - mkstemp (open O_CREAT|O_EXCL on a name with 6 X's replaced, retried on EEXIST);
 * - fchmod, chmod, chown, umask (WASI has no permission bits or owners: they succeed and do nothing);
 * - realpath without symlink resolution (the path as given, when it exists; WASI paths are preopen-relative).
 * The <err.h> functions Same output format as the BSD and glibc versions:
 * "<program>: <message>[: <strerror>]\n" on stderr; err/errx then exit with the given status.
 * The program name is the basename of argv[0] as wasi-libc passes it (__wasilibc_get_program_name
 * is not public), so it is taken from the REAL_CLI_NAME define set by the build.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#ifndef REAL_CLI_NAME
#define REAL_CLI_NAME "program"
#endif

static void vmessage(int with_errno, int code, const char *fmt, va_list ap) {
  fprintf(stderr, "%s: ", REAL_CLI_NAME);
  if (fmt != NULL) {
    vfprintf(stderr, fmt, ap);
    if (with_errno) fputs(": ", stderr);
  }
  if (with_errno) fputs(strerror(code), stderr);
  fputc('\n', stderr);
}

void vwarn(const char *fmt, va_list ap) { vmessage(1, errno, fmt, ap); }
void vwarnx(const char *fmt, va_list ap) { vmessage(0, 0, fmt, ap); }
void verr(int status, const char *fmt, va_list ap) { vmessage(1, errno, fmt, ap); exit(status); }
void verrx(int status, const char *fmt, va_list ap) { vmessage(0, 0, fmt, ap); exit(status); }
void warn(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vwarn(fmt, ap); va_end(ap); }
void warnx(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vwarnx(fmt, ap); va_end(ap); }
void err(int status, const char *fmt, ...) { va_list ap; va_start(ap, fmt); verr(status, fmt, ap); va_end(ap); }
void errx(int status, const char *fmt, ...) { va_list ap; va_start(ap, fmt); verrx(status, fmt, ap); va_end(ap); }

int fchmod(int fd, mode_t mode) { (void)fd; (void)mode; return 0; }
int chmod(const char *path, mode_t mode) { (void)path; (void)mode; return 0; }
int chown(const char *path, uid_t owner, gid_t group) { (void)path; (void)owner; (void)group; return 0; }

int mkstemp(char *template_name) {
  size_t length = strlen(template_name);
  if (length < 6 || strcmp(template_name + length - 6, "XXXXXX") != 0) { errno = EINVAL; return -1; }
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned long seed = (unsigned long)time(NULL) ^ (unsigned long)(size_t)template_name;
  for (int attempt = 0; attempt < 100; attempt++) {
    for (size_t i = length - 6; i < length; i++) {
      seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      template_name[i] = letters[(seed >> 33) % (sizeof letters - 1)];
    }
    int fd = open(template_name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

mode_t umask(mode_t mask) { (void)mask; return 022; }

char *realpath(const char *restrict path, char *restrict resolved) {
  struct stat info;
  if (path == NULL) { errno = EINVAL; return NULL; }
  if (stat(path, &info) != 0) return NULL;
  size_t length = strlen(path);
  if (length >= 4096) { errno = ENAMETOOLONG; return NULL; }
  char *out = resolved != NULL ? resolved : malloc(4096);
  if (out == NULL) { errno = ENOMEM; return NULL; }
  memcpy(out, path, length + 1);
  return out;
}
