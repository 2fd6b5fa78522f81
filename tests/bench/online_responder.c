/* The ForceCommand of the online benchmark's emulated switches (tests/bench/online.py): answers a
 * read-only command from what the switch's NOS emulator answered to the same command before, so that a
 * run of thousands of switches measures fabricctl and sshd, not Python.
 *
 *   online-responder BASE CLIENT
 *
 * The switch is the address the SSH client connected to (SSH_CONNECTION's third word): its directory
 * BASE/<address>/ holds `answers/` (the kept answers), `state` (its emulator's state) and `socket` (its
 * platform's emulator server). One ForceCommand serves every switch, with no `Match` block per switch
 * for sshd to evaluate on each connection.
 *
 * SSH_ORIGINAL_COMMAND is run as the switch's login shell (bash) runs a list: parts separated by " ; "
 * (fabricctl's batched counter commands: `A ; echo MARK $? ; B`), `echo WORDS` with "$?" the last
 * part's status. A part seen before is answered from answers/<hash>.{cmd,out,err,rc}; any other part is
 * handed to the emulator (`CLIENT socket state`: emulators/emu_client.c and the platform's zygote.py,
 * which read SSH_ORIGINAL_COMMAND) with this process's descriptors, and its answer is kept when the
 * part only reads (`show`, `nv show`, `nv config show`, `portstat`): the state a read sees does not
 * change while the benchmark reads, so the kept answer is the emulator's own. A command that changes
 * the switch (a stage, a commit) always goes to the emulator, and so does every command of a switch
 * whose answers/ directory is not there (the benchmark's apply, whose reads must see its changes).
 *
 * Faults (the benchmark's apply under faults): BASE/<address>/fault holds "MODE PATTERN", PATTERN an
 * fnmatch(3) glob over one part of a command. The first part that matches it:
 *   hang   never reaches the emulator: the command hangs (until its connection ends; 600 s at most);
 *   drop   never reaches the emulator: the SSH connection drops (its sshd process is killed);
 *   die    runs, and then the switch is gone: the first read after it (fabricctl's verify, on this
 *          connection or another) drops its connection, and so does every connection after.
 * hang and drop fire once (BASE/<address>/spent), as a stall or a lost connection would; what runs after
 * them (fabricctl's rollback) reaches the switch. A refused command is no fault of the transport: the
 * emulators refuse it (their answers.json, or a state they refuse a change in). */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const kReadOnly[] = {"show ", "nv show ", "nv config show", "portstat "};

static int read_only(const char *part) {
  for (size_t i = 0; i < sizeof kReadOnly / sizeof kReadOnly[0]; ++i)
    if (strncmp(part, kReadOnly[i], strlen(kReadOnly[i])) == 0) return 1;
  return 0;
}

/* FNV-1a, 64 bits: the cache's file name; the .cmd file holds the text, compared on every hit. */
static uint64_t fnv1a(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static char *slurp(const char *path, size_t *size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  char *buf = NULL;
  if (fstat(fd, &st) == 0 && (buf = malloc((size_t)st.st_size + 1)) != NULL) {
    size_t got = 0;
    while (got < (size_t)st.st_size) {
      ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += (size_t)n;
    }
    buf[got] = '\0';
    *size = got;
  }
  close(fd);
  return buf;
}

static void put(int fd, const char *buf, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, buf, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    buf += n;
    size -= (size_t)n;
  }
}

static int spill(const char *path, const char *buf, size_t size) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  put(fd, buf, size);
  close(fd);
  return rename(tmp, path);
}

/* The kept answer of `part`, written out; -1 when there is none. */
static int answer(const char *stem, const char *part) {
  char path[4200];
  size_t size = 0;
  snprintf(path, sizeof path, "%s.cmd", stem);
  char *cmd = slurp(path, &size);
  if (cmd == NULL) return -1;
  int same = strcmp(cmd, part) == 0;
  free(cmd);
  if (!same) return -1;
  snprintf(path, sizeof path, "%s.rc", stem);
  char *rc = slurp(path, &size);
  if (rc == NULL) return -1;
  int status = atoi(rc);
  free(rc);
  const char *kinds[2] = {"out", "err"};
  for (int k = 0; k < 2; ++k) {
    snprintf(path, sizeof path, "%s.%s", stem, kinds[k]);
    char *text = slurp(path, &size);
    if (text != NULL) put(k == 0 ? 1 : 2, text, size);
    free(text);
  }
  return status;
}

/* `part` run by the emulator; its outputs go to `out`/`err` (descriptors). Returns its status. */
static int emulate(char *const argv[], const char *part, int out, int err) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return 255;
  if (pid == 0) {
    dup2(out, 1);
    dup2(err, 2);
    setenv("SSH_ORIGINAL_COMMAND", part, 1);
    execv(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The fault of the switch in `dir` (see the top), read once per command. */
struct fault {
  char mode[8];
  char pattern[512];
  char dir[1024];
};

static void drop_connection(void) {
  fflush(NULL);
  kill(getppid(), SIGKILL); /* the sshd process of this connection: the client sees it end */
  _exit(255);
}

/* Creates `dir`/`name` with `text`; 0 when it was already there. */
static int mark(const char *dir, const char *name, const char *text) {
  char path[1100];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return 0;
  put(fd, text, strlen(text));
  close(fd);
  return 1;
}

static int marked(const struct fault *f, const char *name) {
  char path[1100];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", f->dir, name);
  return stat(path, &st) == 0;
}

/* Before `part` runs: hang or drop the connection when the fault is due. */
static void before_part(const struct fault *f, const char *part) {
  if (strcmp(f->mode, "die") == 0 && read_only(part) && marked(f, "dies-after")) {
    mark(f->dir, "dead", "dead\n");
    drop_connection();
  }
  if (f->mode[0] == '\0' || fnmatch(f->pattern, part, 0) != 0) return;
  if (strcmp(f->mode, "drop") == 0 && mark(f->dir, "spent", "drop\n")) drop_connection();
  if (strcmp(f->mode, "hang") == 0 && mark(f->dir, "spent", "hang\n")) {
    fflush(NULL);
    const pid_t parent = getppid();
    for (int s = 0; s < 600 && getppid() == parent; ++s) sleep(1); /* bounded: ends with its connection */
    _exit(255);
  }
}

/* After `part` ran: a switch that dies after it is marked to. */
static void after_part(const struct fault *f, const char *part) {
  if (strcmp(f->mode, "die") == 0 && fnmatch(f->pattern, part, 0) == 0) mark(f->dir, "dies-after", "die\n");
}

/* A dead switch drops every connection. */
static void when_dead(const struct fault *f) {
  if (marked(f, "dead")) drop_connection();
}

static int run_part(const char *cache, char *const client[], const char *part) {
  char stem[4100];
  snprintf(stem, sizeof stem, "%s/%016llx", cache, (unsigned long long)fnv1a(part));
  int status = answer(stem, part);
  if (status >= 0) return status;
  struct stat st;
  if (!read_only(part) || stat(cache, &st) != 0) return emulate(client, part, 1, 2);  /* no answers kept: live */
  char out[] = "/tmp/online-responder-XXXXXX", err[] = "/tmp/online-responder-XXXXXX";
  int fo = mkstemp(out), fe = mkstemp(err);
  if (fo < 0 || fe < 0) return emulate(client, part, 1, 2);
  unlink(out);
  unlink(err);
  status = emulate(client, part, fo, fe);
  char path[4200], rc[16];
  const int fds[2] = {fo, fe};
  const char *kinds[2] = {"out", "err"};
  for (int k = 0; k < 2; ++k) {
    off_t size = lseek(fds[k], 0, SEEK_END);
    char *buf = malloc((size_t)size + 1);
    if (buf != NULL && pread(fds[k], buf, (size_t)size, 0) == size) {
      put(k == 0 ? 1 : 2, buf, (size_t)size);
      snprintf(path, sizeof path, "%s.%s", stem, kinds[k]);
      spill(path, buf, (size_t)size);
    }
    free(buf);
    close(fds[k]);
  }
  snprintf(path, sizeof path, "%s.rc", stem);
  spill(path, rc, (size_t)snprintf(rc, sizeof rc, "%d\n", status));
  snprintf(path, sizeof path, "%s.cmd", stem); /* last: a .cmd file means the answer is complete */
  spill(path, part, strlen(part));
  return status;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: online-responder BASE CLIENT\n");
    return 2;
  }
  /* SSH_CONNECTION: "client-address client-port server-address server-port" */
  char address[64] = "";
  struct fault f;
  memset(&f, 0, sizeof f);
  const char *connection = getenv("SSH_CONNECTION");
  if (connection == NULL || sscanf(connection, "%*s %*s %63s", address) != 1 ||
      strspn(address, "0123456789.") != strlen(address)) {
    fprintf(stderr, "online-responder: no switch for SSH_CONNECTION\n");
    return 255;
  }
  if (strlen(argv[1]) > 900) {
    fprintf(stderr, "online-responder: BASE is too long\n");
    return 2;
  }
  char cache[1024], sock[1024], state[1024];
  snprintf(cache, sizeof cache, "%s/%s/answers", argv[1], address);
  snprintf(sock, sizeof sock, "%s/%s/socket", argv[1], address);
  snprintf(state, sizeof state, "%s/%s/state", argv[1], address);
  char *client[] = {argv[2], sock, state, NULL};
  snprintf(f.dir, sizeof f.dir, "%s/%s", argv[1], address);
  char path[1100];
  size_t size = 0;
  snprintf(path, sizeof path, "%s/fault", f.dir);
  char *fault = slurp(path, &size);
  if (fault != NULL && sscanf(fault, "%7s %511[^\n]", f.mode, f.pattern) != 2) f.mode[0] = '\0';
  free(fault);
  if (f.mode[0] != '\0') when_dead(&f);
  const char *original = getenv("SSH_ORIGINAL_COMMAND");
  char *line = strdup(original ? original : "");
  if (line == NULL) return 255;
  int status = 0;
  for (char *part = line; part != NULL;) {
    char *next = strstr(part, " ; ");
    if (next != NULL) {
      *next = '\0';
      next += 3;
    }
    if (strncmp(part, "echo ", 5) == 0) {
      char words[4096];
      size_t n = 0;
      for (char *w = strtok(part + 5, " "); w != NULL && n + 32 < sizeof words; w = strtok(NULL, " "))
        n += (size_t)snprintf(words + n, sizeof words - n, "%s%s", n ? " " : "", w);
      /* "$?" is the status of the part before */
      char *q = strstr(words, "$?");
      if (q != NULL) {
        char rest[4096];
        snprintf(rest, sizeof rest, "%s", q + 2);
        snprintf(q, sizeof words - (size_t)(q - words), "%d%s", status, rest);
      }
      printf("%s\n", words);
      fflush(stdout);
      status = 0;
    } else {
      before_part(&f, part);
      status = run_part(cache, client, part);
      after_part(&f, part);
    }
    part = next;
  }
  free(line);
  return status;
}
