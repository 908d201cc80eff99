// The declaration of libFuzzer's driver is all this target holds (include/CFuzzDriver.h).
#include "CFuzzDriver.h"
