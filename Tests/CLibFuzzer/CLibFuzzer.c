// A C target needs a source file; this one declares libFuzzer's driver (include/CLibFuzzer.h).
#include "CLibFuzzer.h"
