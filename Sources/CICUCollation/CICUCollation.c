// Declarations only (include/CICUCollation.h): the functions are Foundation's ICU's.
#include "CICUCollation.h"
