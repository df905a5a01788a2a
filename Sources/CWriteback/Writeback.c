#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "Writeback.h"

int podcast_start_writeback(int descriptor, long long offset, long long count) {
#ifdef SYNC_FILE_RANGE_WRITE
  return sync_file_range(descriptor, offset, count, SYNC_FILE_RANGE_WRITE);
#else
  errno = ENOSYS;
  return -1;
#endif
}
