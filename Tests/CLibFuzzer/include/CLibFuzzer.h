#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt's FuzzerDriver.cpp), for a program whose own main runs
/// it: SwiftPM gives an executable's main to its Swift entry point. Linked by
/// -sanitize=fuzzer only; call it only from code built for fuzzing.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*testOneInput)(const uint8_t *data, size_t size));

#endif
