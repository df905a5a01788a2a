/* The file-system work a cold sync's promises ask of this machine, and nothing else: for each
 * of COUNT episodes of BYTES bytes, what podcast must do for "nothing appears before it is on
 * disk, and a playlist is always whole" (see Sources/Downloads/FinishBatch.swift):
 *
 *   the episode's bytes written to a partial file and fdatasync'd,
 *   its podcast folder made (a new podcast per episode, as in make bench's scale rows),
 *   the partial linked into the folder,
 *   the folder's playlist written to a temporary, fdatasync'd and renamed into the folder,
 *   the folder fsync'd (the new names), the Episodes folder every ROUND episodes (the new
 *   folders' names, once per finish round), the partial's name removed.
 *
 * No network, no parsing, no database: make bench runs it beside curl so that a sync's CPU
 * can be read against curl's plus this. Usage: fs-floor DIR COUNT BYTES ROUND
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void check(int ok, const char *what, const char *path) {
  if (!ok) {
    perror(path);
    fprintf(stderr, "fs-floor: %s failed\n", what);
    exit(1);
  }
}

static void write_synced(const char *path, const char *data, size_t size) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  check(fd >= 0, "open", path);
  check(write(fd, data, size) == (ssize_t)size, "write", path);
  check(fdatasync(fd) == 0, "fdatasync", path);
  close(fd);
}

static void sync_folder(const char *path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  check(fd >= 0, "open", path);
  check(fsync(fd) == 0, "fsync", path);
  close(fd);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: fs-floor DIR COUNT BYTES ROUND\n");
    return 2;
  }
  const char *root = argv[1];
  long count = atol(argv[2]), bytes = atol(argv[3]), round = atol(argv[4]);
  char episodes[4096], partials[4096], partial[4096], folder[4096], target[4096];
  char temporary[4096], playlist[4096];
  snprintf(episodes, sizeof episodes, "%s/Episodes", root);
  snprintf(partials, sizeof partials, "%s/partial", root);
  check(mkdir(root, 0755) == 0, "mkdir", root);
  check(mkdir(episodes, 0755) == 0, "mkdir", episodes);
  check(mkdir(partials, 0755) == 0, "mkdir", partials);
  char *data = malloc(bytes > 0 ? bytes : 1);
  for (long i = 0; i < bytes; i++) data[i] = (char)(i * 7919);
  for (long n = 1; n <= count; n++) {
    snprintf(partial, sizeof partial, "%s/%06ld.part", partials, n);
    write_synced(partial, data, bytes);
    snprintf(folder, sizeof folder, "%s/Feed %06ld", episodes, n);
    check(mkdir(folder, 0755) == 0, "mkdir", folder);
    snprintf(target, sizeof target, "%s/2024-01-03 Episode 3 of %06ld.mp3", folder, n);
    check(link(partial, target) == 0, "link", target);
    char list[512];
    int length = snprintf(list, sizeof list,
      "#EXTM3U\n#EXTINF:-1,Episode 3 of %06ld\n2024-01-03 Episode 3 of %06ld.mp3\n", n, n);
    snprintf(temporary, sizeof temporary, "%s/.playlist-%06ld.tmp", root, n);
    write_synced(temporary, list, (size_t)length);
    snprintf(playlist, sizeof playlist, "%s/Feed %06ld.m3u8", folder, n);
    check(rename(temporary, playlist) == 0, "rename", playlist);
    sync_folder(folder);
    if (n % round == 0 || n == count) sync_folder(episodes);
    check(unlink(partial) == 0, "unlink", partial);
  }
  free(data);
  return 0;
}
