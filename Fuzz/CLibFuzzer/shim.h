// libFuzzer's driver, for a fuzz target that brings its own `main` (SwiftPM gives every
// executable one, so libFuzzer's cannot be used). Linked by `-sanitize=fuzzer`; only
// referenced when the FeedFuzzer target is built with `-D FUZZING` (`make fuzz`).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*UserCb)(const uint8_t *Data, size_t Size));
