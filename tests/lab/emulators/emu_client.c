/* The ForceCommand of an emulated switch's sshd: hands this SSH command to the switch's emulator
 * server (zygote.py), which runs the emulator in a process forked from one that has already started
 * Python and imported the emulator. A command then costs a fork, not a Python start (about 45 ms of
 * CPU each, a thousand times per `make test`).
 *
 *   emu-client SOCKET ARGS...   runs `EMULATOR ARGS...` with this process's standard input, output and
 *                               error (passed to the server as descriptors: nothing is copied) and
 *                               environment (SSH_ORIGINAL_COMMAND above all), and exits with its status.
 *
 * What it sends: a 4-byte length (host order), then the argument count, the environment count (4 bytes
 * each) and every string NUL-terminated; descriptors 0, 1 and 2 go with the first byte (SCM_RIGHTS).
 * What it reads back: one byte, the emulator's exit status. Without it (the emulator's process died),
 * it exits 255 with a message, as a shell reports a command it lost. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

extern char **environ;

static int fail(const char *what) {
  fprintf(stderr, "emu-client: %s: %s\n", what, strerror(errno));
  return 255;
}

static void put32(char *p, uint32_t v) { memcpy(p, &v, sizeof v); }

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: emu-client SOCKET ARGS...\n");
    return 2;
  }
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(argv[1]) >= sizeof addr.sun_path) {
    fprintf(stderr, "emu-client: socket path too long: %s\n", argv[1]);
    return 2;
  }
  strcpy(addr.sun_path, argv[1]);

  uint32_t nenv = 0;
  size_t size = 12;
  for (int i = 2; i < argc; ++i) size += strlen(argv[i]) + 1;
  for (char **e = environ; *e != NULL; ++e, ++nenv) size += strlen(*e) + 1;
  char *buf = malloc(size);
  if (buf == NULL) return fail("out of memory");
  put32(buf, (uint32_t)(size - 4));
  put32(buf + 4, (uint32_t)(argc - 2));
  put32(buf + 8, nenv);
  char *p = buf + 12;
  for (int i = 2; i < argc; ++i) p = stpcpy(p, argv[i]) + 1;
  for (char **e = environ; *e != NULL; ++e) p = stpcpy(p, *e) + 1;

  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return fail("socket");
  if (connect(s, (struct sockaddr *)&addr, sizeof addr) != 0) return fail(argv[1]);

  int fds[3] = {0, 1, 2};
  union {
    struct cmsghdr align;
    char bytes[CMSG_SPACE(sizeof fds)];
  } control;
  memset(&control, 0, sizeof control);
  struct iovec iov = {.iov_base = buf, .iov_len = 1};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.bytes,
                       .msg_controllen = sizeof control.bytes};
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof fds);
  memcpy(CMSG_DATA(c), fds, sizeof fds);
  if (sendmsg(s, &msg, 0) != 1) return fail("sendmsg");
  for (size_t sent = 1; sent < size;) {
    ssize_t n = write(s, buf + sent, size - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail("write");
    sent += (size_t)n;
  }
  free(buf);

  unsigned char status;
  for (;;) {
    ssize_t n = read(s, &status, 1);
    if (n == 1) return status;
    if (n < 0 && errno == EINTR) continue;
    fprintf(stderr, "emu-client: the emulator ended without an exit status\n");
    return 255;
  }
}
