#ifndef PODCAST_WRITEBACK_H
#define PODCAST_WRITEBACK_H

// Linux's sync_file_range(2) needs _GNU_SOURCE, which Swift's Glibc module does not define.
// Starts writing a file's dirty pages in [offset, offset + count) to disk without waiting;
// count 0 reaches to the end of the file. Returns 0, or -1 with errno set (ENOSYS where the
// call does not exist).
int podcast_start_writeback(int descriptor, long long offset, long long count);

#endif
